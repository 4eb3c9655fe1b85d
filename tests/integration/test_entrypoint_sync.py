"""``python entrypoint.py sync`` against the real local service, reported the way each CI system
shows results (the real runners are in tests/ci/test_runners.py)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from docsvc.ci.templates import ROOT
from tests.ci.helpers import parse_github_outputs
from tests.support import clean_env, connected_org


@pytest.fixture(scope="module")
def target(service, tmp_path_factory):
    return (service, *connected_org(service, tmp_path_factory.mktemp("entry"), "Pipelines"))


def entrypoint(target, *args, cwd, **env):
    service, key, _ = target
    return subprocess.run([sys.executable, str(ROOT / "entrypoint.py"), *args], cwd=cwd, capture_output=True,
                          text=True, env=clean_env(DOCSVC_API_KEY=key, DOCSVC_BASE_URL=service.base_url, **env),
                          stdin=subprocess.DEVNULL, timeout=120)


def test_local_run(target, tmp_path):
    done = entrypoint(target, "sync", "--integration-id", target[2], cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"Sync of integration {target[2]}: completed" in done.stdout
    assert target[1] not in done.stdout + done.stderr


def test_github_outputs_and_job_summary(target, tmp_path):
    outputs, summary = tmp_path / "output", tmp_path / "summary.md"
    done = entrypoint(target, "sync", cwd=tmp_path, GITHUB_ACTIONS="true", GITHUB_OUTPUT=str(outputs),
                      GITHUB_STEP_SUMMARY=str(summary), DOCSVC_INTEGRATION_ID=target[2])
    assert done.returncode == 0, done.stdout
    assert done.stdout.startswith("::add-mask::")
    values = parse_github_outputs(outputs.read_text())
    assert values["status"] == "completed" and len(values["job-id"]) == 36
    assert json.loads(values["result"])["files_total"] == 2
    assert "| Files in the index | 2 |" in summary.read_text()


def test_gitlab_dotenv_and_sections(target, tmp_path):
    done = entrypoint(target, "sync", "--integration-id", target[2], cwd=tmp_path, GITLAB_CI="true")
    assert done.returncode == 0 and "section_start:" in done.stdout
    env = dict(line.split("=", 1) for line in (tmp_path / "docsvc.env").read_text().splitlines())
    assert env["DOCSVC_STATUS"] == "completed" and json.loads(env["DOCSVC_RESULT"])["files_total"] == 2


def test_jenkins_summary_file(target, tmp_path):
    done = entrypoint(target, "sync", "--integration-id", target[2], cwd=tmp_path, JENKINS_URL="https://ci/")
    assert done.returncode == 0 and "::" not in done.stdout
    assert "| Files in the index | 2 |" in (tmp_path / "docsvc-summary.md").read_text()


def test_an_unknown_integration_fails_with_exit_1(target, tmp_path):
    done = entrypoint(target, "sync", "--integration-id", "999", cwd=tmp_path, GITHUB_ACTIONS="true")
    assert done.returncode == 1 and "::error::Sync of integration 999: Integration 999 not found" in done.stdout
