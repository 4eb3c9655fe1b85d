"""The least any Python CLI over HTTP can take for one job's bytes: the floor under ``--e2e``.

``Floor()`` serves a bare ASGI app with the service's own server (uvicorn, loopback, one worker):
``POST /`` reads the whole body and answers its length, ``GET /N`` answers N bytes. ``floor.run(FILE,
N, OUT)`` times, in a fresh process, what a command that does no work of its own still pays:
Python's start, importing the CLI's two libraries (click and httpx, as ``docsvc`` imports them),
sending FILE's bytes up in one request, reading N bytes back and writing them to OUT, then exit.
The transfer uses the standard library's ``http.client``, the cheapest client there is, so the
figure is below what ``docsvc`` can reach, never above: no storage, no database, no job queue.

    (engine + floor) / engine

is then the best ratio a Python CLI and service can show against the engine's own time, whatever
else gets faster.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


async def app(scope, receive, send) -> None:
    """POST: read the body, answer its length. GET /N: N bytes of ``x``."""
    if scope["type"] != "http":
        return
    size = 0
    while True:
        message = await receive()
        size += len(message.get("body", b""))
        if not message.get("more_body"):
            break
    body = str(size).encode() if scope["method"] == "POST" else b"x" * int(scope["path"].strip("/") or 0)
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-length", str(len(body)).encode()), (b"content-type", b"text/plain")]})
    await send({"type": "http.response.body", "body": body})


def client(port: int, upload: str, size: int, out: str) -> None:
    """The timed process: the CLI's imports, the bytes up and down, the file written."""
    import importlib.util

    # As docsvc imports httpx (without httpx's own CLI), but not through docsvc.client, which loads more.
    spec = importlib.util.spec_from_file_location("_httpx_cli", ROOT / "docsvc" / "client" / "_httpx_cli.py")
    spec.loader.exec_module(importlib.util.module_from_spec(spec))
    import click  # noqa: F401
    import httpx  # noqa: F401
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", port)
    connection.request("POST", "/", body=Path(upload).read_bytes(),
                       headers={"Content-Type": "application/octet-stream"})
    connection.getresponse().read()
    connection.request("GET", f"/{size}")
    Path(out).write_bytes(connection.getresponse().read())


class Floor:
    def __init__(self) -> None:
        from tests.support import free_port

        self.port = free_port()
        self._server = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "_transport_floor:app", "--port", str(self.port),
             "--log-level", "warning"], cwd=HERE, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while not self._answers():
            if self._server.poll() is not None or time.monotonic() > deadline:
                self.close()
                raise RuntimeError("the bare server for the transport floor did not start")
            time.sleep(0.05)

    def _answers(self) -> bool:
        import http.client

        try:
            connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=1)
            connection.request("GET", "/0")
            return connection.getresponse().status == 200
        except OSError:
            return False

    def run(self, upload: Path, size: int, repeat: int = 1) -> float:
        """The fastest of ``repeat`` fresh-process runs, in seconds."""
        best = float("inf")
        with tempfile.TemporaryDirectory(prefix="docsvc-floor-") as tmp:
            for _ in range(max(1, repeat)):
                started = time.perf_counter()
                subprocess.run([sys.executable, str(Path(__file__).resolve()), str(self.port), str(upload), str(size),
                                os.path.join(tmp, "out")], check=True, stdin=subprocess.DEVNULL)
                best = min(best, time.perf_counter() - started)
        return best

    def close(self) -> None:
        self._server.terminate()
        self._server.wait(10)


if __name__ == "__main__":
    client(int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4])
