"""End to end: the real ``docsvc`` CLI against the real local service, from command start to exit.

Used by convert.py and validate.py (``--e2e``). ``Service()`` starts ``docsvc-server run`` on a
free port with a fresh SQLite database and data directory and makes an organisation with
``docsvc-server init`` (tests/support.py's LocalService); ``service.run(args)`` times one
``docsvc ARGS...`` in a fresh process: wall seconds from its start to its exit (the output file is
written before it exits) and its peak RSS; ``service.floor(FILE, N)`` the least that path can take. The service's own time is in the wall time; its memory
is not in the RSS (another process).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _bytecode import compile_package  # noqa: E402
from tests.support import LocalService, clean_env, command  # noqa: E402


class Service:
    def __init__(self) -> None:
        compile_package()  # the CLI starts as an installed package does
        self._tmp = tempfile.TemporaryDirectory(prefix="docsvc-e2e-")
        self.dir = Path(self._tmp.name)
        self._svc = LocalService(db_url=f"sqlite:///{self.dir / 'bench.db'}", workdir=self.dir / "work").start()
        self.key = self._svc.admin("init", "--org", "Bench", "--admin-email", "bench@example.test")
        self.env = clean_env(DOCSVC_API_KEY=self.key, DOCSVC_BASE_URL=self._svc.base_url)
        self._floor = None

    def floor(self, upload: Path, size: int, repeat: int = 1) -> float:
        """The transport floor for a job that sends ``upload`` and gets ``size`` bytes back
        (benchmarks/_transport_floor.py): the least any Python CLI over HTTP adds to the engine."""
        if self._floor is None:
            from _transport_floor import Floor

            self._floor = Floor()
        return self._floor.run(upload, size, repeat)

    def run(self, args: list[str], timeout: float = 600) -> dict:
        """``docsvc ARGS``: {"wall", "rss_mb", "code", "stderr"}."""
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            started = time.perf_counter()
            process = subprocess.Popen([*command("docsvc"), *args], stdout=out, stderr=err, env=self.env,
                                       cwd=self.dir, stdin=subprocess.DEVNULL)
            killer = threading.Timer(timeout, process.kill)
            killer.start()
            try:
                _, status, usage = os.wait4(process.pid, 0)  # blocks: the exit is seen at once
            finally:
                killer.cancel()
            wall = time.perf_counter() - started
            process.returncode = os.waitstatus_to_exitcode(status)
            err.seek(0)
            return {"wall": wall, "rss_mb": usage.ru_maxrss / 1024, "code": process.returncode,
                    "stderr": err.read().decode("utf-8", "replace")}

    def best(self, args: list[str], repeat: int, timeout: float = 600) -> dict:
        """The fastest of ``repeat`` runs (or the first that failed)."""
        best = None
        for _ in range(max(1, repeat)):
            run = self.run(args, timeout)
            if run["code"] != 0:
                return run
            if best is None or run["wall"] < best["wall"]:
                best = run
        return best

    def close(self) -> None:
        try:
            if self._floor is not None:
                self._floor.close()
            self._svc.stop()
        finally:
            self._tmp.cleanup()

    def __enter__(self) -> Service:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
