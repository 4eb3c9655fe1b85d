"""Running a workflow with act in host mode, offline: remote actions are replaced by local
stand-ins (act clones every remote action at job start, before any `if:`), the version check and
the cache server are off. Shared by tests/ci/test_runners.py and benchmarks/action_overhead.py."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from tests.support import clean_env

NOOP = """name: no-op stand-in for act
inputs: {path: {default: ""}, key: {default: ""}, restore-keys: {default: ""}}
runs: {using: composite, steps: [{shell: bash, run: "echo skipped under act"}]}
"""

SETUP_PYTHON = """name: setup-python stand-in for act
inputs: {python-version: {default: ""}}
outputs:
  python-version: {value: "${{ steps.v.outputs.python-version }}"}
runs:
  using: composite
  steps:
    - id: v
      shell: bash
      run: |
%s
        echo "python-version=$(python -c 'import platform; print(platform.python_version())')" >> "$GITHUB_OUTPUT"
"""


def act_argv(act: str, workflow: Path, work: Path, setup_python: str, *, secrets: dict[str, str],
             variables: dict[str, str], env: dict[str, str]) -> list[str]:
    """The act command line; ``setup_python`` is the shell of the setup-python stand-in, which
    must put a Python with pip on PATH (through $GITHUB_PATH)."""
    for name, text in (("setup-python", SETUP_PYTHON % _indent(setup_python)), ("noop", NOOP)):
        (work / name).mkdir(exist_ok=True)
        (work / name / "action.yml").write_text(text)
    argv = [act, "push", "-W", str(workflow), "-P", "ubuntu-latest=-self-hosted", "--no-cache-server", "--json",
            "--action-cache-path", str(work / "act-cache"),
            "--local-repository", f"actions/setup-python@v5={work / 'setup-python'}",
            "--local-repository", f"actions/cache@v4={work / 'noop'}"]
    for flag, values in (("-s", secrets), ("--var", variables), ("--env", env)):
        for name, value in values.items():
            argv += [flag, f"{name}={value}"]
    return argv


def act_env(work: Path) -> dict[str, str]:
    home = work / "home"
    home.mkdir(exist_ok=True)
    return clean_env(ACT_DISABLE_VERSION_CHECK="1", HOME=str(home), PATH=os.environ["PATH"])


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
    """Run one workflow with the action of this checkout, the job's Python from ``job_python``,
    the key as a secret and the service's URL as a variable."""
    import json
    import subprocess

    from docsvc.ci.templates import ROOT

    workflow = work / "workflow.yml"
    workflow.write_text(workflow_text)
    argv = act_argv(act, workflow, work, 'echo "$JOB_PYTHON_BIN" >> "$GITHUB_PATH"; export PATH="$JOB_PYTHON_BIN:$PATH"',
                    secrets={"DOCSVC_API_KEY": key}, variables={"DOCSVC_BASE_URL": base_url},
                    env={"JOB_PYTHON_BIN": str(job_python), **(env or {})})
    argv[1] = event
    if event_file is not None:
        argv += ["-e", str(event_file)]
    done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=900,
                          env=act_env(work))
    records = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    log = "".join(r.get("msg", "") for r in records if r.get("raw_output"))
    return ActRun(done.returncode, records, log, done.stderr)
