"""Job throughput of one service process against two on one PostgreSQL database and one data
directory (the scale-out of README "Scaling out"), for the same load.

    .venv/bin/python benchmarks/scale_out.py [--jobs 40] [--copies 100] [--rounds 3] [--db postgresql://...]

The load: ``--jobs`` conversions of one generated OpenAPI description (the test fixture's
operations repeated ``--copies`` times under new paths, so each job is real CPU work), posted to
the processes' APIs in turn with the real client, by SUBMITTERS threads at once. Each run gets a
fresh database (made on the server ``--db`` names, default $DOCSVC_TEST_DATABASE_URL, then
dropped) and fresh processes with the default settings (two worker threads each). The time is
the database's own: from the first job's ``created_at`` to the last one's ``finished_at``. Each
setup runs ``--rounds`` times, alternating, and its fastest run counts (the machine may be busy
with other work). The reference is one process; the ratio is two processes' jobs/s over it (on
2 cores it stays below 2: one process runs its Python work on about one core, and the database,
the clients and the machine's other work share the rest).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import func, select  # noqa: E402

from docsvc.client import Client  # noqa: E402
from docsvc.server.db.session import as_utc, make_engine, make_sessionmaker  # noqa: E402
from docsvc.server.db.tables import Job  # noqa: E402
from tests.support import TestDatabase, scaled_out  # noqa: E402

FIXTURE = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "openapi" / "openapi-3.0.yaml"
SUBMITTERS = 4  # clients posting at once, as several CI pipelines do
WAIT_LIMIT = 600  # seconds for one run's jobs: a stuck run ends the benchmark instead of hanging it


def generated_spec(copies: int) -> str:
    """The fixture's paths ``copies`` times over (``/v<n>/...``, operation ids made unique)."""
    spec = yaml.safe_load(FIXTURE.read_text())
    paths = {}
    for n in range(copies):
        for path, item in spec["paths"].items():
            copy = json.loads(json.dumps(item))
            for operation in copy.values():
                if isinstance(operation, dict) and "operationId" in operation:
                    operation["operationId"] = f"{operation['operationId']}V{n}"
            paths[f"/v{n}{path}"] = copy
    return json.dumps({**spec, "paths": paths})


def run(processes: int, jobs: int, spec: str, root: Path) -> float:
    """Seconds from the first enqueue to the last completion of ``jobs`` conversions."""
    database = TestDatabase("postgresql", root)
    engine = make_engine(database.url)
    services = []
    try:
        services = scaled_out(database.url, root, processes)
        key = services[0].admin("init", "--org", "Bench", "--admin-email", "bench@example.test")
        clients = [Client(key, svc.base_url) for svc in services]

        def submit(n: int) -> None:
            clients[n % processes].convert.create(source_type="openapi", content=spec, target_format="md")

        with ThreadPoolExecutor(SUBMITTERS) as pool:
            list(pool.map(submit, range(jobs)))
        sessions = make_sessionmaker(engine)
        deadline = time.monotonic() + WAIT_LIMIT
        with sessions() as session:
            while session.scalar(select(func.count()).where(Job.state.in_(("queued", "running")))):
                if time.monotonic() > deadline:
                    raise SystemExit(f"{processes} process(es): jobs still unfinished after {WAIT_LIMIT} s")
                session.rollback()
                time.sleep(0.05)
            failed = session.scalar(select(func.count()).where(Job.state != "completed"))
            if failed:
                raise SystemExit(f"{processes} process(es): {failed} job(s) did not complete")
            first, last = session.execute(select(func.min(Job.created_at), func.max(Job.finished_at))).one()
        for client in clients:
            client.close()
        return (as_utc(last) - as_utc(first)).total_seconds()
    finally:
        for svc in services:
            svc.stop()
        engine.dispose()
        database.drop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=40)
    parser.add_argument("--copies", type=int, default=100, help="how many times the fixture's paths are repeated")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each; the fastest counts")
    parser.add_argument("--db", default=os.environ.get("DOCSVC_TEST_DATABASE_URL")
                        or "postgresql://postgres@127.0.0.1:5432/postgres",
                        help="a PostgreSQL server URL; each run makes and drops a database there")
    args = parser.parse_args()
    os.environ["DOCSVC_TEST_DATABASE_URL"] = args.db  # where TestDatabase makes its databases
    spec = generated_spec(args.copies)

    load_before = os.getloadavg()[0]
    runs: dict[int, list[float]] = {1: [], 2: []}
    for _ in range(args.rounds):  # alternating, so a busy spell of the machine hits both alike
        for processes in runs:
            with tempfile.TemporaryDirectory() as tmp:
                runs[processes].append(run(processes, args.jobs, spec, Path(tmp)))
    seconds = {n: min(times) for n, times in runs.items()}
    rate = {n: args.jobs / s for n, s in seconds.items()}
    print(f"{args.jobs} conversions of a {len(spec) // 1024} KB OpenAPI description, PostgreSQL, "
          f"{os.cpu_count()} cores, 2 worker threads per process; fastest of {args.rounds} round(s)")
    print(f"1 process (reference) {seconds[1]:7.2f} s  {rate[1]:6.2f} jobs/s")
    print(f"2 processes           {seconds[2]:7.2f} s  {rate[2]:6.2f} jobs/s")
    print(f"ratio 2/1             {rate[2] / rate[1]:7.2f}x")
    # Two processes can only gain cores that are free: a busy machine shows in the ratio.
    print(f"load average (1 min) before {load_before:.2f}, after {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
