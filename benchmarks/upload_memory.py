"""Peak memory of `entrypoint.py docflow` uploading many large screenshots, against one screenshot.

    .venv/bin/python benchmarks/upload_memory.py [--images 40] [--mb 4]

A local sink answers the interface's 202 and a completed job, reading each upload in chunks and
discarding it. The reference is the same command with a single image: with streaming uploads
the ratio stays near 1 however many images are sent.
"""

from __future__ import annotations

import argparse
import http.server
import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support import JsonHandler  # noqa: E402


class Sink(JsonHandler):
    received = 0

    def do_POST(self) -> None:
        remaining = int(self.headers.get("content-length") or 0)
        chunked = self.headers.get("transfer-encoding", "").lower() == "chunked"
        if chunked:
            while True:
                size = int(self.rfile.readline().strip() or b"0", 16)
                if size == 0:
                    self.rfile.readline()
                    break
                Sink.received += len(self.rfile.read(size))
                self.rfile.readline()
        while remaining > 0:
            chunk = self.rfile.read(min(remaining, 1 << 16))
            Sink.received += len(chunk)
            remaining -= len(chunk)
        self.send_json(202, {"status": "queued", "job_id": "sink-job"})

    def do_GET(self) -> None:
        self.send_json(200, {"job_id": "sink-job", "status": "completed", "result": {"suggestion_id": 1}})


def peak_rss_mb(folder: Path, base_url: str) -> float:
    """Peak resident memory of one entrypoint run, in MB (its own process, measured by wait4)."""
    env = {**os.environ, "DOCSVC_API_KEY": "dsv_benchmark", "DOCSVC_BASE_URL": base_url}
    proc = subprocess.Popen([sys.executable, str(ROOT / "entrypoint.py"), "docflow", "--integration-id", "1",
                             "--pr-number", "1", "--pr-title", "t", "--pr-body", "b", "--pr-author", "a",
                             "--screenshots-dir", str(folder), "--max-screenshot-mb", "100",
                             "--ci-provider", "local"], env=env, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit("the upload failed")
    return usage.ru_maxrss / 1024


def make_images(folder: Path, count: int, mb: int) -> None:
    folder.mkdir()
    payload = b"\x89PNG\r\n\x1a\n" + os.urandom(mb * 1024 * 1024)
    for n in range(count):
        (folder / f"page{n}.png").write_bytes(payload)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--images", type=int, default=40)
    parser.add_argument("--mb", type=int, default=4)
    args = parser.parse_args()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Sink)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base_url = f"http://127.0.0.1:{server.server_address[1]}"
    with tempfile.TemporaryDirectory() as name:
        one, many = Path(name) / "one", Path(name) / "many"
        make_images(one, 1, args.mb)
        make_images(many, args.images, args.mb)
        single = peak_rss_mb(one, base_url)
        Sink.received = 0
        several = peak_rss_mb(many, base_url)
        sent = Sink.received
    server.shutdown()
    print(f"1 image of {args.mb} MB: peak RSS {single:6.1f} MB (reference)")
    print(f"{args.images} images of {args.mb} MB ({sent / 1048576:.0f} MB sent): peak RSS {several:6.1f} MB, "
          f"{several / single:.2f}x the reference")


if __name__ == "__main__":
    main()
