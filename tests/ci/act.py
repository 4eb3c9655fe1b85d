"""Running a workflow with act in host mode, offline: remote actions are replaced by local
stand-ins (act clones every remote action at job start, before any `if:`), the version check and
the cache server are off. Shared by tests/ci/test_runners.py and benchmarks/action_overhead.py."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from tests.support import clean_env

SETUP_PYTHON = """name: setup-python stand-in for act
inputs: {python-version: {default: ""}, update-environment: {default: "true"}}
outputs:
  python-version: {value: "${{ steps.v.outputs.python-version }}"}
  python-path: {value: "${{ steps.v.outputs.python-path }}"}
runs:
  using: composite
  steps:
    - id: v
      shell: bash
      env: {UPDATE: "${{ inputs.update-environment }}"}
      run: |
%s
        [ "$UPDATE" = true ] && echo "$SETUP_PYTHON_BIN" >> "$GITHUB_PATH"
        echo "python-path=$SETUP_PYTHON_BIN/python" >> "$GITHUB_OUTPUT"
        echo "python-version=$("$SETUP_PYTHON_BIN/python" -c 'import platform; print(platform.python_version())')" >> "$GITHUB_OUTPUT"
"""

# actions/cache's contract on a local folder: restore on an exact key (output cache-hit), save in
# the post step when the key missed; STORE is the stand-in's "server".
CACHE = """name: actions/cache stand-in for act
inputs: {path: {required: true}, key: {required: true}, restore-keys: {default: ""}}
outputs: {cache-hit: {description: exact key restored}}
runs: {using: node20, main: main.js, post: post.js}
"""
CACHE_MAIN = """const fs = require("fs"), path = require("path");
const store = path.join(%s, encodeURIComponent(process.env.INPUT_KEY));
const target = process.env.INPUT_PATH;
const hit = fs.existsSync(store);
if (hit) fs.cpSync(store, target, {recursive: true, verbatimSymlinks: true});
fs.appendFileSync(process.env.GITHUB_OUTPUT, `cache-hit=${hit}\\n`);
fs.appendFileSync(process.env.GITHUB_STATE, `hit=${hit}\\n`);
"""
CACHE_POST = """const fs = require("fs"), path = require("path");
const store = path.join(%s, encodeURIComponent(process.env.INPUT_KEY));
const target = process.env.INPUT_PATH;
if (process.env.STATE_hit !== "true" && fs.existsSync(target) && !fs.existsSync(store))
  fs.cpSync(target, store, {recursive: true, verbatimSymlinks: true});
"""


def pinned_actions() -> dict[str, str]:
    """name -> name@sha of the third-party actions action.yml uses (the stand-ins replace those)."""
    import re

    from docsvc.ci.templates import ROOT

    refs = re.findall(r"uses: ((actions/[\w-]+)@[0-9a-f]{40})", (ROOT / "action.yml").read_text())
    return {name: ref for ref, name in refs}


def act_argv(act: str, workflow: Path, work: Path, setup_python: str, *, secrets: dict[str, str],
             variables: dict[str, str], env: dict[str, str], cache_store: Path | None = None) -> list[str]:
    """The act command line; ``setup_python`` is the shell of the setup-python stand-in, which
    must set SETUP_PYTHON_BIN to a folder holding a ``python`` with pip and venv. The cache
    stand-in keeps its entries in ``cache_store`` (default: a folder of ``work``)."""
    import json

    store = json.dumps(str(cache_store or work / "cache-store"))
    files = {"setup-python": {"action.yml": SETUP_PYTHON % _indent(setup_python)},
             "cache": {"action.yml": CACHE, "main.js": CACHE_MAIN % store, "post.js": CACHE_POST % store}}
    for name, texts in files.items():
        (work / name).mkdir(exist_ok=True)
        for file, text in texts.items():
            (work / name / file).write_text(text)
    pins = pinned_actions()
    argv = [act, "push", "-W", str(workflow), "-P", "ubuntu-latest=-self-hosted", "--no-cache-server", "--json",
            "--action-cache-path", str(work / "act-cache"),
            "--local-repository", f"{pins['actions/setup-python']}={work / 'setup-python'}",
            "--local-repository", f"{pins['actions/cache']}={work / 'cache'}"]
    for flag, values in (("-s", secrets), ("--var", variables), ("--env", env)):
        for name, value in values.items():
            argv += [flag, f"{name}={value}"]
    return argv


def act_env(work: Path, path_first: Path | None = None) -> dict[str, str]:
    """act's own environment; in host mode the job's PATH starts from it (``path_first`` is the
    caller's Python, as a runner image would have on PATH)."""
    home = work / "home"
    home.mkdir(exist_ok=True)
    path = os.environ["PATH"] if path_first is None else f"{path_first}{os.pathsep}{os.environ['PATH']}"
    return clean_env(ACT_DISABLE_VERSION_CHECK="1", HOME=str(home), PATH=path)


_SHARED: dict[str, Path] = {}


def shared_folder(name: str) -> Path:
    """A folder kept for this test process: the stand-in tool cache's Python (a bare venv, as
    setup-python would give) and pip's download cache, so only the first action install is cold."""
    import subprocess
    import sys
    import tempfile

    if "root" not in _SHARED:
        _SHARED["root"] = Path(tempfile.mkdtemp(prefix="docsvc-act-"))
    folder = _SHARED["root"] / name
    if name == "toolcache-python" and not folder.exists():
        subprocess.run([sys.executable, "-m", "venv", str(folder)], check=True)
    folder.mkdir(exist_ok=True)
    return folder


def _indent(script: str) -> str:
    return "\n".join("        " + line for line in script.strip().splitlines())


@dataclass
class ActRun:
    returncode: int
    records: list[dict]  # act's --json log lines
    log: str  # what the steps printed
    stderr: str

    @property
    def summaries(self) -> list[str]:
        return [r["content"] for r in self.records if r.get("command") == "summary"]


def run_workflow(act: str, workflow_text: str, work: Path, job_python: Path, *, key: str, base_url: str,
                 event: str = "push", event_file: Path | None = None, env: dict[str, str] | None = None) -> ActRun:
    """Run one workflow with the action of this checkout, the caller's Python from ``job_python``
    on PATH, the key as a secret and the service's URL as a variable."""
    import json
    import subprocess

    from docsvc.ci.templates import ROOT

    workflow = work / "workflow.yml"
    workflow.write_text(workflow_text)
    # The action's Python is the stand-in tool cache's; the caller's (job_python) is on PATH.
    argv = act_argv(act, workflow, work, 'SETUP_PYTHON_BIN="$TOOLCACHE_PYTHON_BIN"',
                    secrets={"DOCSVC_API_KEY": key}, variables={"DOCSVC_BASE_URL": base_url},
                    env={"TOOLCACHE_PYTHON_BIN": str(shared_folder("toolcache-python") / "bin"),
                         "PIP_CACHE_DIR": str(shared_folder("pip-cache")), **(env or {})})
    argv[1] = event
    if event_file is not None:
        argv += ["-e", str(event_file)]
    done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=900,
                          env=act_env(work, job_python))
    records = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    log = "".join(r.get("msg", "") for r in records if r.get("raw_output"))
    return ActRun(done.returncode, records, log, done.stderr)
