"""Start-up time of the CLI, as a ratio to the reference ``python -c pass`` on the same machine.

    .venv/bin/python benchmarks/startup.py [--runs 15]

Measures (median wall time of N runs, each a fresh process):
  - ``docsvc --help``: imports nothing heavy (no httpx, pydantic, yaml);
  - ``docsvc mywork`` against a local service started here: the client, one model, one request.
DESIGN.md's budget: both start fast because heavy imports are lazy.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _bytecode import compile_package  # noqa: E402
from tests.support import LocalService, clean_env, command  # noqa: E402


def median_seconds(argv: list[str], runs: int, env: dict[str, str]) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()

    compile_package()  # as an installed package is
    env = clean_env()
    reference = median_seconds([sys.executable, "-c", "pass"], args.runs, env)
    rows = [("python -c pass (reference)", reference)]
    rows.append(("docsvc --help", median_seconds([*command("docsvc"), "--help"], args.runs, env)))

    with tempfile.TemporaryDirectory() as tmp:
        svc = LocalService(db_url=f"sqlite:///{Path(tmp) / 'bench.db'}", workdir=Path(tmp) / "work").start()
        try:
            key = svc.admin("init", "--org", "Bench", "--admin-email", "bench@example.test")
            work_env = {**env, "DOCSVC_API_KEY": key, "DOCSVC_BASE_URL": svc.base_url}
            rows.append(("docsvc mywork (one request)", median_seconds([*command("docsvc"), "mywork"], args.runs,
                                                                      work_env)))
        finally:
            svc.stop()

    print(f"median of {args.runs} runs on {os.cpu_count()} cores")
    for name, seconds in rows:
        print(f"{name:32s} {seconds * 1000:7.1f} ms   {seconds / reference:5.2f}x reference")


if __name__ == "__main__":
    main()
