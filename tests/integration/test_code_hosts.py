"""Pull requests through the code hosts' APIs, with the real CLI, the real local service and real
git repositories, against the fake GitHub and GitLab of tests/fake_host.py (every request and answer
checked against GitHub's OpenAPI description and GitLab's documented fields): ``items approve``
and ``api-scan open-pr`` open a pull request after the branch is pushed, a retry takes the one a
failed try opened, the keep-in-sync poll follows its state and review, the host's errors are one
clear error, and the token is nowhere: not in any output, problem detail, log or database row."""

from __future__ import annotations

import json
import subprocess
import time

import httpx
import pytest

from tests.fake_host import FakeHost
from tests.integration.test_api_readiness_cli import SPEC
from tests.support import GitRemote, LocalService, command, free_port, git, run_cli
from tests.unit.test_facts import PY_NEW, PY_OLD
from tests.unit.test_planner_writer import DOCS

TOKEN = "ghp_IntegrationT0kenThatMustNeverShow000000"
GL_TOKEN = "glpat-IntegrationT0kenNeverShown"
FAKE_PORT = free_port()
# The service may reach the fake host's port on loopback and nothing else internal; the tokens are
# in its environment, named by the integrations; the poll follows pull requests every second.
SERVICE_ENV = {"DOCSVC_SERVER_EGRESS_ALLOW": f"127.0.0.1:{FAKE_PORT}", "GH_TOKEN": TOKEN, "GITLAB_TOKEN": GL_TOKEN,
               "DOCSVC_SERVER_KEEP_IN_SYNC_SECONDS": "1"}
OUTPUTS: list[str] = []  # every output of the CLI and the service, grepped for the tokens at the end


@pytest.fixture(scope="module")
def fake(service):
    """A new fake host for each service (SQLite, PostgreSQL), on the port SERVICE_ENV lets through."""
    host = FakeHost(port=FAKE_PORT)
    host.tokens |= {TOKEN, GL_TOKEN}
    host.repos |= {"acme/docs", "acme/app", "grp/docs"}
    yield host
    host.close()
    assert host.violations == []


class Project:
    def __init__(self, svc: LocalService, root, org: str, host_args: list[str]) -> None:
        self.svc, self.root = svc, root
        self.key = svc.admin("init", "--org", org, "--admin-email", f"ada@{org.lower()}.test")
        self.code = GitRemote(root, "code", {"app/cli.py": PY_OLD, "api/openapi.yaml": SPEC})
        for number in range(1, 6):
            self.code.branch(f"change-{number}", {"app/cli.py": PY_NEW}, f"Rename --docs-root ({number})")
        self.docs = GitRemote(root, "docs", DOCS)
        added = subprocess.run(
            [*command("docsvc-server"), "integrations", "add", "--org", org, "--name", "app",
             "--code-repo", str(self.code.bare), "--docs-repo", str(self.docs.bare), "--keep-in-sync", *host_args],
            cwd=svc.workdir, env=svc.env(), capture_output=True, text=True, timeout=120)
        OUTPUTS.extend([added.stdout, added.stderr])
        assert added.returncode == 0, added.stderr
        self.integration = added.stdout.split()[-1]
        (root / "docsvc.yaml").write_text(f"integration_id: {self.integration}\n")
        assert self.cli("sync", "--integration-id", self.integration).returncode == 0

    def cli(self, *args: str) -> subprocess.CompletedProcess:
        done = run_cli(*args, key=self.key, base_url=self.svc.base_url, cwd=self.root)
        OUTPUTS.extend([done.stdout, done.stderr])
        return done

    def suggestion(self, number: int) -> str:
        made = self.cli("docflow", "--pr-number", str(number), "--pr-title", f"Rename --docs-root ({number})",
                        "--pr-body", "", "--pr-author", "ana", "--pr-branch", f"change-{number}", "--json")
        assert made.returncode == 0, made.stderr
        return str(json.loads(made.stdout)["suggestion_id"])

    def approve(self, suggestion: str) -> subprocess.CompletedProcess:
        return self.cli("items", "approve", "docflows", suggestion, "--new-release", "3.1", "--json")

    def pull_request(self, suggestion: str) -> dict:
        listed = json.loads(self.cli("items", "list", "docflows", "--json").stdout)
        return next(i for i in listed if i["id"] == int(suggestion))["pull_request"]

    def item(self, suggestion: str) -> dict:
        return next(i for i in json.loads(self.cli("items", "list", "docflows", "--json").stdout)
                    if i["id"] == int(suggestion))


@pytest.fixture(scope="module")
def on_github(service, fake, tmp_path_factory) -> Project:
    return Project(service, tmp_path_factory.mktemp("on-github"), "Hub", [
        "--host", "github", "--host-api-url", fake.github_api, "--host-token-env", "GH_TOKEN",
        "--docs-host-repo", "acme/docs", "--code-host-repo", "acme/app"])


@pytest.fixture(scope="module")
def on_gitlab(service, fake, tmp_path_factory) -> Project:
    return Project(service, tmp_path_factory.mktemp("on-gitlab"), "Lab", [
        "--host", "gitlab", "--host-api-url", fake.gitlab_api, "--host-token-env", "GITLAB_TOKEN",
        "--docs-host-repo", "grp/docs"])


def eventually(read, expected, seconds: float = 20):
    deadline = time.monotonic() + seconds
    while (value := read()) != expected and time.monotonic() < deadline:
        time.sleep(0.3)
    return value


def test_approve_opens_a_github_pull_request_that_a_retry_reuses(on_github, fake):
    suggestion = on_github.suggestion(1)
    # Opened, but the answer is lost, twice: the service answers 502, the client tries again with the
    # same idempotency key, and the third try takes the pull request the first one opened.
    fake.fail("POST", r"/repos/acme/docs/pulls$", 502, after=True)
    fake.fail("GET", r"/repos/acme/docs/pulls$", 503, times=1)
    done = on_github.approve(suggestion)
    assert done.returncode == 0, done.stderr
    assert [m for m, path, _ in fake.log if path.startswith("/github/repos/acme/docs/pulls")].count("POST") == 1
    pr = json.loads(done.stdout)["pull_request"]
    assert {k: pr[k] for k in ("url", "state", "review", "number", "host", "repo", "branch")} == {
        "url": "https://github.com/acme/docs/pull/1", "state": "open", "review": "review required", "number": 1,
        "host": "github", "repo": "acme/docs", "branch": f"docsvc/suggestion-{suggestion}"}
    assert len(fake.pulls["acme/docs"]) == 1  # the retry took the pull request the first try opened
    opened = fake.pull("acme/docs", 1)
    assert opened["title"] == "Docs for PR #1: Rename --docs-root (1)"
    assert opened["head"]["ref"] == f"docsvc/suggestion-{suggestion}" and opened["base"]["ref"] == "main"
    # The body says what changes and why, page by page, from the plan.
    assert "### `docs/cli.md`" in opened["body"] and "- " in opened["body"].split("### `docs/cli.md`")[1]
    assert f"Docflows suggestion {suggestion}, approved by" in opened["body"]
    shown = git("show", f"docsvc/suggestion-{suggestion}:docs/cli.md", cwd=on_github.docs.bare)
    assert "--docs-dir" in shown
    assert on_github.pull_request(suggestion)["url"] == "https://github.com/acme/docs/pull/1"


def test_the_poll_follows_reviews_and_a_merge_moves_the_item_to_done(on_github, fake):
    suggestion = on_github.suggestion(2)
    assert on_github.approve(suggestion).returncode == 0
    number = on_github.pull_request(suggestion)["number"]
    fake.review("acme/docs", number, "rita", "CHANGES_REQUESTED")
    assert eventually(lambda: on_github.pull_request(suggestion)["review"], "changes requested") == \
        "changes requested"
    fake.review("acme/docs", number, "rita", "APPROVED")
    assert eventually(lambda: on_github.pull_request(suggestion)["review"], "approved") == "approved"
    fake.set_pull("acme/docs", number, merged=True)
    assert eventually(lambda: on_github.pull_request(suggestion)["state"], "merged") == "merged"
    assert on_github.item(suggestion)["work_status"] == "done"


def test_a_rate_limit_is_waited_out_and_a_bad_token_is_one_clear_error(on_github, fake):
    suggestion = on_github.suggestion(3)
    fake.fail("POST", r"/repos/acme/docs/pulls$", 429, headers={"Retry-After": "1"},
              body={"message": "API rate limit exceeded", "documentation_url": "https://docs.github.com/rest"})
    began = time.monotonic()
    done = on_github.approve(suggestion)
    assert done.returncode == 0, done.stderr
    assert time.monotonic() - began >= 1
    fake.tokens.discard(TOKEN)
    try:
        other = on_github.suggestion(4)
        refused = on_github.approve(other)
        problem = httpx.post(f"{on_github.svc.base_url}/api/v1/docflows/{other}/approve",
                             json={"new_release_name": "3.1"}, headers={"Authorization": f"Bearer {on_github.key}"})
    finally:
        fake.tokens.add(TOKEN)
    OUTPUTS.append(problem.text)
    assert refused.returncode == 1 and "Traceback" not in refused.stderr
    assert (f"integration {on_github.integration} ('app'): GitHub refused the token from $GH_TOKEN (401 Bad "
            f"credentials): it is wrong, expired or revoked") in refused.stderr
    assert problem.status_code == 409 and problem.headers["content-type"] == "application/problem+json"
    assert "GitHub refused the token from $GH_TOKEN" in problem.json()["detail"]


def test_api_scan_open_pr_opens_pull_requests_on_both_repositories(on_github, fake):
    saved = on_github.svc.admin("api-specs", "set", "--org", "Hub", "--integration", on_github.integration,
                                "--path", "api/openapi.yaml", "--ai-fix")
    OUTPUTS.append(saved)
    scan = on_github.cli("validate", "--json", "--fail-on", "never")
    assert scan.returncode == 0, scan.stderr
    scan_id = str(json.loads(scan.stdout)["scan_id"])
    done = on_github.cli("api-scan", "open-pr", scan_id, "--to", "source", "--to", "docs", "--repo",
                         on_github.integration, "--path", "reference/openapi.yaml", "--json")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert not answer["errors"]
    source = next(p for p in fake.pulls["acme/app"])
    assert answer["pull_requests"]["source"] == source["html_url"]
    assert source["head"]["ref"] == f"docsvc/api-scan-{scan_id}-source-1" and source["base"]["ref"] == "main"
    assert "API spec from API-readiness scan" in source["title"] and "### `api/openapi.yaml`" in source["body"]
    docs = next(p for p in fake.pulls["acme/docs"] if p["head"]["ref"].startswith(f"docsvc/api-scan-{scan_id}"))
    assert answer["pull_requests"]["docs"] == docs["html_url"]
    fake.fail("POST", r"/repos/acme/docs/pulls$", 403, headers={"X-Accepted-GitHub-Permissions": "pull_requests=write"})
    half = on_github.cli("api-scan", "open-pr", scan_id, "--to", "source", "--to", "docs", "--repo",
                         on_github.integration, "--path", "reference/openapi.yaml")
    assert half.returncode == 1 and half.stdout.startswith("source: https://github.com/acme/app/pull/")
    assert "it needs the permission Pull requests: write on acme/docs" in half.stderr


def test_gitlab_merge_requests_and_their_approvals(on_gitlab, fake):
    suggestion = on_gitlab.suggestion(1)
    fake.fail("POST", r"/merge_requests$", 403, body={"message": "403 Forbidden"})
    refused = on_gitlab.approve(suggestion)
    assert refused.returncode == 1
    assert "it needs the api scope and at least the Developer role on grp/docs" in refused.stderr
    done = on_gitlab.approve(suggestion)
    assert done.returncode == 0, done.stderr
    pr = json.loads(done.stdout)["pull_request"]
    assert (pr["url"], pr["host"], pr["repo"], pr["number"], pr["state"]) == (
        "https://gitlab.com/grp/docs/-/merge_requests/1", "gitlab", "grp/docs", 1, "open")
    assert fake.merge_request("grp/docs", 1)["target_branch"] == "main"
    fake.approve_mr("grp/docs", 1, "rita")
    assert eventually(lambda: on_gitlab.pull_request(suggestion)["review"], "approved") == "approved"
    fake.merge_request("grp/docs", 1)["state"] = "merged"
    assert eventually(lambda: on_gitlab.pull_request(suggestion)["state"], "merged") == "merged"


def test_a_missing_token_variable_is_named(service, on_github, fake, tmp_path):
    changed = service.admin("integrations", "update", "--integration", on_github.integration,
                            "--host-token-env", "NO_SUCH_TOKEN_VAR")
    try:
        # A pull request of its own: PR 1 at its commit already has its (approved) suggestion.
        refused = on_github.approve(on_github.suggestion(5))
    finally:
        service.admin("integrations", "update", "--integration", changed, "--host-token-env", "GH_TOKEN")
    assert refused.returncode == 1
    assert "the service's environment has no NO_SUCH_TOKEN_VAR (the variable --host-token-env names" in refused.stderr


def test_the_tokens_are_nowhere(service, on_github, on_gitlab):
    """Last: every output of this module, the service's log and its database hold neither token."""
    texts = [*OUTPUTS, (service.workdir / "server.log").read_text(errors="replace")]
    if service.db_url.startswith("sqlite"):
        texts.append(open(service.db_url.removeprefix("sqlite:///"), "rb").read().decode("latin-1"))
    else:
        dumped = subprocess.run(["pg_dump", service.db_url], capture_output=True, text=True, timeout=120)
        assert dumped.returncode == 0, dumped.stderr
        texts.append(dumped.stdout)
    assert any("acme/docs" in text for text in texts)  # what was looked at holds the pull requests
    for text in texts:
        assert TOKEN not in text and GL_TOKEN not in text
