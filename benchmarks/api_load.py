"""The local service under load: the framework's floor and the main read paths, 50 clients each.

    nice -n 10 .venv/bin/python benchmarks/api_load.py [--db sqlite,postgresql] [--duration 5] [--rounds 3]
        [--connections 50] [--paths floor,work,items,job,dashboard] [--conversions 4 | --no-conversions]
        [--run-args="--workers 2"] [--worker-process] [--pg-url postgresql://postgres@127.0.0.1:5432/postgres]

For each database a fresh service (``docsvc-server run`` on a free loopback port, a fresh SQLite
file, or a fresh PostgreSQL database made on ``--pg-url``'s server and dropped afterwards) with one
organisation, 30 capture items and one finished conversion job. Then, in ``--rounds`` rounds,
each path in turn gets ``--connections`` concurrent keep-alive clients for ``--duration``
seconds from wrk (Debian's ``wrk``; a Lua script adds the ``Authorization`` header from the
environment, counts every answer that is not 2xx, and prints the figures as JSON, with the
latency at a grid of percentiles so that the rounds' requests merge into one distribution):

    floor      GET /healthz (no key, no database: what the framework alone costs)
    work       GET /api/v1/me/work
    items      GET /api/v1/items/captures (30 items)
    job        GET /api/v1/jobs/{id} (a finished conversion)
    dashboard  GET /api/v1/dashboard

Printed per path, over all its rounds (with conversions running, the CPU time includes theirs):
requests/s, p50 and p99 of all its requests, its requests/s as a ratio of the floor's (the median
of the rounds' ratios, each to the floor of its own round: a shared machine's speed drifts over
minutes, and a path measured long after the floor would be judged by that drift), the service's
CPU time per request (its processes' user and system time over the run, from /proc: the figure
that other work on a shared machine changes least) and the floor's CPU time per request over it
("cpu x": the share of the floor's requests/s the path reaches when CPU is what limits both),
and errors (connect, read, write, timeout) and non-2xx answers. Then the same paths again while
``--conversions`` conversions of GitHub's REST description (13 MB, ``@octokit/openapi`` from
benchmarks/node_modules, installed by ``npm ci`` as benchmarks/convert.py does) are running in
the same service (by default in its job workers' child process; ``--run-args=--jobs-in-process``
in the API's own): a feeder keeps that many queued or running for the whole measurement.
``--worker-process`` runs the service as ``run --job-workers 0`` beside a ``docsvc-server worker``
process (the deployment that keeps jobs off the API); ``--run-args`` passes more options to
``run`` (``--workers 2``).

Goals, printed beside the figures: every read path's p99 at most 250 ms and at least 0.5x the
floor's requests/s; with conversions running, each p99 at most twice its idle figure; no error
and no non-2xx answer. The machine this runs on may be shared: figures are noisy, run it with
``nice`` and compare runs made under the same conditions. Requests go to 127.0.0.1 only; each
wrk run is bounded by ``--duration`` (and its per-request timeout).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from tests.support import LocalService, TestDatabase, command  # noqa: E402

GITHUB_SPEC = HERE / "node_modules" / "@octokit" / "openapi" / "generated" / "api.github.com.json"
PATHS = {
    "floor": "/healthz",
    "work": "/api/v1/me/work",
    "items": "/api/v1/items/captures",
    "job": "/api/v1/jobs/{job}",
    "dashboard": "/api/v1/dashboard",
}
ITEMS = 30
P99_GOAL_MS = 250.0
RATIO_GOAL = 0.5
BUSY_P99_FACTOR = 2.0
DEFAULT_PG = "postgresql://postgres@127.0.0.1:5432/postgres"

# wrk: the key comes from the environment (never on a command line); every thread counts its
# non-2xx answers, and done() adds them up and prints one JSON line the benchmark reads.
LUA = r"""
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args)
  bad = 0
  local key = os.getenv("APILOAD_KEY")
  if key and key ~= "" then wrk.headers["Authorization"] = "Bearer " .. key end
end
function response(status, headers, body)
  if status < 200 or status > 299 then bad = bad + 1 end
end
function done(summary, latency, requests)
  local non2xx = 0
  for _, t in ipairs(threads) do non2xx = non2xx + t:get("bad") end
  local e = summary.errors
  local grid = {}
  for _, p in ipairs(PERCENTILES) do
    table.insert(grid, string.format("[%g, %d]", p, latency:percentile(p)))
  end
  io.write(string.format(
    '\nAPILOAD {"requests": %d, "duration_us": %d, "max_us": %d, "grid": [%s], ' ..
    '"connect": %d, "read": %d, "write": %d, "timeout": %d, "non2xx": %d}\n',
    summary.requests, summary.duration, latency.max, table.concat(grid, ", "),
    e.connect, e.read, e.write, e.timeout, non2xx))
end
"""
# The latencies wrk reports of each run, by percentile: enough to merge several runs' requests
# into one distribution (``merged_percentile``) around the median and in the tail. Not 100: wrk
# answers 0 for it (its maximum is ``latency.max``).
PERCENTILES = [*range(1, 100), *(99 + n / 10 for n in range(1, 10)), *(99.9 + n / 100 for n in range(1, 10))]
LUA = LUA.replace("PERCENTILES", "{" + ", ".join(f"{p:g}" for p in PERCENTILES) + "}")


def need_wrk() -> str:
    wrk = shutil.which("wrk")
    if not wrk:
        sys.exit("wrk is not on PATH: install it with `apt-get install -y wrk` (Debian's package)")
    return wrk


def wrk_run(wrk: str, script: Path, url: str, key: str | None, connections: int, duration: float) -> dict:
    """One wrk run against ``url``; its figures (requests/s, p50/p99 in ms, errors)."""
    env = {**os.environ, "APILOAD_KEY": key or ""}
    args = [wrk, "-t", "2", "-c", str(connections), "-d", f"{duration:g}s", "--timeout", "10s", "-s", str(script), url]
    done = subprocess.run(args, env=env, capture_output=True, text=True, timeout=duration + 60,
                          stdin=subprocess.DEVNULL)
    line = next((line for line in done.stdout.splitlines() if line.startswith("APILOAD ")), None)
    if done.returncode != 0 or line is None:
        raise SystemExit(f"wrk failed on {url} (exit {done.returncode}): {(done.stderr or done.stdout).strip()[-500:]}")
    raw = json.loads(line.removeprefix("APILOAD "))
    seconds = raw["duration_us"] / 1e6
    errors = raw["connect"] + raw["read"] + raw["write"] + raw["timeout"]
    return {"rps": raw["requests"] / seconds if seconds else 0.0, "seconds": seconds,
            "grid": [(p, us / 1000) for p, us in raw["grid"]], "max": raw["max_us"] / 1000,
            "requests": raw["requests"], "errors": errors, "non2xx": raw["non2xx"],
            "error_kinds": {k: raw[k] for k in ("connect", "read", "write", "timeout") if raw[k]}}


def merged_percentile(runs: list[dict], q: float) -> float:
    """The ``q``-th percentile latency (ms) of all ``runs``' requests together, from each run's
    percentile grid: the least latency at or below which ``q`` % of them all answered."""
    total = sum(run["requests"] for run in runs)

    def share_within(grid: list[tuple[float, float]], ms: float) -> float:
        return max((p / 100 for p, latency in grid if latency <= ms), default=0.0)

    for ms in sorted({latency for run in runs for _, latency in run["grid"]}):
        if sum(run["requests"] * share_within(run["grid"], ms) for run in runs) >= q / 100 * total:
            return ms
    return max(run["max"] for run in runs)


def seed(svc: LocalService, db_url: str) -> tuple[str, str]:
    """An organisation with its admin's key, ITEMS capture items and one finished conversion job."""
    from docsvc.client import Client
    from docsvc.server.db.session import make_engine, make_sessionmaker, session_scope
    from docsvc.server.services.accounts import get_org
    from docsvc.server.services.items import add_item

    key = svc.admin("init", "--org", "Bench", "--admin-email", "bench@example.test")
    engine = make_engine(db_url)
    try:
        with session_scope(make_sessionmaker(engine)) as session:
            org = get_org(session, "Bench")
            for n in range(ITEMS):
                add_item(session, org, "captures", f"Capture {n + 1}: the settings page")
    finally:
        engine.dispose()
    spec = (ROOT / "tests" / "fixtures" / "openapi" / "openapi-3.0.yaml").read_text()
    with Client(key, svc.base_url) as client:
        job = client.convert.create(source_type="openapi", content=spec, target_format="md")
        finished = client.jobs.wait(job.job_id, timeout=120)
        if finished.status != "completed":
            raise SystemExit(f"the seed conversion did not complete: {finished.status}")
    return key, job.job_id


class Conversions:
    """Keeps ``count`` conversions of GitHub's REST description queued or running in the service
    until stopped (a new one is posted as one ends), so the API is measured while they run."""

    def __init__(self, svc: LocalService, key: str, count: int) -> None:
        from docsvc.client import Client

        self.count = count
        self.client = Client(key, svc.base_url, timeout=300)
        self.spec = GITHUB_SPEC.read_bytes()
        self.pending: list[str] = []
        self.started = self.finished = self.failed = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._feed, daemon=True)

    def _post(self) -> None:
        job = self.client.convert.create(source_type="openapi", file=("api.github.com.json", self.spec),
                                         target_format="md", inline_document=False)
        self.pending.append(job.job_id)
        self.started += 1

    def _feed(self) -> None:
        while not self._stop.is_set():
            for job_id in list(self.pending):
                status = self.client.jobs.get(job_id).status
                if status != "queued":  # completed or failed
                    self.pending.remove(job_id)
                    self.finished += 1
                    self.failed += status == "failed"
            while len(self.pending) < self.count and not self._stop.is_set():
                self._post()
            self._stop.wait(0.5)

    def start(self) -> None:
        """Post the first ``count`` and wait until one is running."""
        for _ in range(self.count):
            self._post()
        self._thread.start()
        time.sleep(1.0)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(30)
        self.client.close()


def cpu_seconds(pid: int) -> float:
    """CPU time (user and system) used so far by ``pid`` and the processes under it (``--workers``):
    the service's own cost of a request, which other work on a shared machine does not change
    as it changes requests/s and latency."""
    ticks = os.sysconf("SC_CLK_TCK")
    parents: dict[int, int] = {}
    used: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        parents[int(entry.name)] = int(fields[1])
        used[int(entry.name)] = (int(fields[11]) + int(fields[12])) / ticks
    family = {pid}
    for _ in range(3):  # children, grandchildren
        family |= {child for child, parent in parents.items() if parent in family}
    return sum(used.get(member, 0.0) for member in family)


def measure(wrk: str, script: Path, svc: LocalService, key: str, job_id: str, paths: list[str],
            connections: int, duration: float, pause: float, rounds: int) -> dict[str, dict]:
    """Each path's figures over ``rounds`` rounds, each running every path in turn for ``duration``
    seconds: a path and the floor are measured minutes apart at most, and a ratio is the median of
    the rounds' own, so a shared machine's speed drifting over the run moves both alike."""
    runs: dict[str, list[dict]] = {name: [] for name in paths}
    for _ in range(rounds):
        for name in paths:
            url = svc.base_url + PATHS[name].format(job=job_id)
            before = cpu_seconds(svc.process.pid)
            run = wrk_run(wrk, script, url, None if name == "floor" else key, connections, duration)
            run["cpu_s"] = cpu_seconds(svc.process.pid) - before
            runs[name].append(run)
            time.sleep(pause)  # the previous run's connections are closed before the next starts
    return {name: combined(taken, runs["floor"]) for name, taken in runs.items()}


def combined(runs: list[dict], floors: list[dict]) -> dict:
    """One path's rounds as one figure: totals, merged percentiles, and the median of the rounds'
    ratios to the floor's requests/s and CPU per request of the same round."""
    requests = sum(run["requests"] for run in runs)
    error_kinds: dict[str, int] = {}
    for run in runs:
        for kind, n in run["error_kinds"].items():
            error_kinds[kind] = error_kinds.get(kind, 0) + n
    cpu_ms = [1000 * run["cpu_s"] / max(1, run["requests"]) for run in runs]
    floor_cpu_ms = [1000 * run["cpu_s"] / max(1, run["requests"]) for run in floors]
    return {"rps": requests / sum(run["seconds"] for run in runs), "requests": requests,
            "p50": merged_percentile(runs, 50), "p99": merged_percentile(runs, 99), "max": max(r["max"] for r in runs),
            "ratio": statistics.median(r["rps"] / f["rps"] if f["rps"] else 0.0 for r, f in zip(runs, floors)),
            "cpu_ms": 1000 * sum(run["cpu_s"] for run in runs) / max(1, requests),
            "cpu_ratio": statistics.median(f / c if c else float("nan") for c, f in zip(cpu_ms, floor_cpu_ms)),
            "errors": sum(run["errors"] for run in runs), "non2xx": sum(run["non2xx"] for run in runs),
            "error_kinds": error_kinds}


def show(title: str, figures: dict[str, dict], idle: dict[str, dict] | None = None) -> list[str]:
    """Print the table; returns the goals it missed."""
    missed = []
    print(f"\n{title}")
    print(f"{'path':<34} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'x floor':>8} {'cpu ms':>7} {'cpu x':>6} "
          f"{'errors':>7} {'non-2xx':>8}  goals")
    for name, f in figures.items():
        ratio = f["ratio"]
        notes = []
        if name != "floor":
            notes.append(("ok" if f["p99"] <= P99_GOAL_MS else "MISSED") + f" p99<={P99_GOAL_MS:g}ms")
            if idle is None:
                notes.append(("ok" if ratio >= RATIO_GOAL else "MISSED") + f" >={RATIO_GOAL:g}x floor")
        if idle is not None and name in idle and name != "floor":  # the goal is for the read paths
            most = BUSY_P99_FACTOR * idle[name]["p99"]
            notes.append(("ok" if f["p99"] <= most else "MISSED") + f" p99<={BUSY_P99_FACTOR:g}x idle ({most:.0f}ms)")
        clean = f["errors"] == 0 and f["non2xx"] == 0
        notes.append(("ok" if clean else "MISSED") + " no error/non-2xx")
        missed += [f"{title.split(':')[0]}{' (busy)' if idle else ''}: {name}: {n.removeprefix('MISSED ')}"
                   for n in notes if n.startswith("MISSED")]
        kinds = f" {f['error_kinds']}" if f["error_kinds"] else ""
        cpu_ratio = f["cpu_ratio"]
        print(f"{PATHS[name]:<34} {f['rps']:>8.0f} {f['p50']:>8.1f} {f['p99']:>8.1f} {ratio:>8.2f} {f['cpu_ms']:>7.2f} "
              f"{cpu_ratio:>6.2f} {f['errors']:>7}{kinds} {f['non2xx']:>8}  {', '.join(notes)}")
    return missed


def bench_one(backend: str, args, wrk: str, script: Path, root: Path) -> list[str]:
    os.environ.setdefault("DOCSVC_TEST_DATABASE_URL", args.pg_url)
    database = TestDatabase(backend, root)
    extra_run = shlex.split(args.run_args)
    worker = None
    svc = LocalService(db_url=database.url, workdir=root / "service",
                       run_args=("--job-workers", "0", *extra_run) if args.worker_process else tuple(extra_run))
    missed: list[str] = []
    try:
        svc.start()
        if args.worker_process:
            log = open(root / "worker.log", "ab")
            worker = subprocess.Popen([*command("docsvc-server"), "worker", "--log-level", "warning"],
                                      cwd=svc.workdir, env=svc.env(), stdout=log, stderr=subprocess.STDOUT,
                                      stdin=subprocess.DEVNULL)
        key, job_id = seed(svc, database.url)
        setup = f"{backend}, docsvc-server run {' '.join(svc.run_args)}".rstrip() + \
                (" + docsvc-server worker" if worker else "")
        idle = measure(wrk, script, svc, key, job_id, args.paths, args.connections, args.duration, args.pause,
                    args.rounds)
        missed += show(f"{setup}: {args.connections} clients, {args.rounds} x {args.duration:g} s per path, idle", idle)
        if args.conversions:
            conversions = Conversions(svc, key, args.conversions)
            conversions.start()
            try:
                busy = measure(wrk, script, svc, key, job_id, args.paths, args.connections, args.duration, args.pause,
                    args.rounds)
            finally:
                conversions.stop()
            print(f"\n{conversions.finished} conversions finished during the measurement, {conversions.failed} of them failed")
            missed += show(f"{setup}: the same with {args.conversions} conversions of GitHub's REST description "
                           "running", busy, idle)
            if conversions.failed:
                missed.append(f"{setup}: {conversions.failed} conversion(s) failed")
    finally:
        if worker is not None:
            worker.terminate()
            worker.wait(30)
        svc.stop()
        database.drop()
    return missed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", default="sqlite,postgresql", help="sqlite, postgresql or both, comma-separated")
    parser.add_argument("--duration", type=float, default=5.0, help="seconds per path in each round (default 5)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of every path in turn (default 3)")
    parser.add_argument("--connections", type=int, default=50)
    parser.add_argument("--paths", default=",".join(PATHS), help="of: " + ", ".join(PATHS))
    parser.add_argument("--conversions", type=int, default=4, help="conversions running for the second figure")
    parser.add_argument("--no-conversions", dest="conversions", action="store_const", const=0)
    parser.add_argument("--run-args", default="", help='more options for `docsvc-server run`, e.g. --run-args=--jobs-in-process')
    parser.add_argument("--worker-process", action="store_true",
                        help="run --job-workers 0, the jobs in a `docsvc-server worker` process beside it")
    parser.add_argument("--pause", type=float, default=1.0, help="seconds between two wrk runs")
    parser.add_argument("--pg-url", default=os.environ.get("DOCSVC_TEST_DATABASE_URL") or DEFAULT_PG,
                        help="a PostgreSQL server to make a fresh database on (127.0.0.1 only)")
    args = parser.parse_args()
    args.paths = [p.strip() for p in args.paths.split(",") if p.strip()]
    unknown = [p for p in args.paths if p not in PATHS]
    backends = [b.strip() for b in args.db.split(",") if b.strip()]
    if unknown or not args.paths:
        parser.error(f"unknown path(s) {', '.join(unknown) or '(none)'}; paths are: {', '.join(PATHS)}")
    if any(b not in ("sqlite", "postgresql") for b in backends) or not backends:
        parser.error("--db takes sqlite, postgresql or both")
    if args.duration <= 0 or args.duration > 120 or args.connections < 1 or args.connections > 1000:
        parser.error("--duration must be in (0, 120] s and --connections in [1, 1000]")
    if not 1 <= args.rounds <= 20:
        parser.error("--rounds must be in [1, 20]")
    if "floor" not in args.paths:
        args.paths.insert(0, "floor")  # every ratio is to the floor
    if args.conversions and not GITHUB_SPEC.is_file():
        sys.exit(f"{GITHUB_SPEC.relative_to(ROOT)} is missing: run `npm ci` in benchmarks/ "
                 "(or pass --no-conversions)")
    wrk = need_wrk()
    missed: list[str] = []
    with tempfile.TemporaryDirectory(prefix="docsvc-apiload-") as tmp:
        script = Path(tmp) / "auth.lua"
        script.write_text(LUA)
        for backend in backends:
            missed += bench_one(backend, args, wrk, script, Path(tmp) / backend)
    print("\ngoals: " + ("all met" if not missed else f"{len(missed)} missed"))
    for line in missed:
        print("  missed:", line)


if __name__ == "__main__":
    main()
