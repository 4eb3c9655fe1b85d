"""Signed webhooks drive the real service: real payloads (@octokit/webhooks-examples for GitHub,
GitLab's documented examples), signed in the test, sent to the running service, with real git
repositories behind the integration."""

from __future__ import annotations

import json
import re
import time
import uuid

import httpx
import pytest
from sqlalchemy import create_engine, text, update

from docsvc.server.db.tables import Item

from tests.fake_host import FakeHost
from tests.support import (PNG, GitRemote, git, github_example, github_headers, github_signature, gitlab_example,
                           gitlab_headers, run_cli)
from tests.unit.test_facts import PY_NEW, PY_OLD
from tests.unit.test_planner_writer import DOCS

BRANCH = "rename-docs-root"
TOKEN = "ghp_WebhookTestT0kenThatMustNeverShow0000000"
# The service reaches the fake GitHub on loopback with this token (tests/fake_host.py).
SERVICE_ENV = {"GH_TOKEN": TOKEN}


class Project:
    """An organisation whose integration (GitHub or GitLab, repositories on local git remotes)
    takes webhooks; ``deliver`` signs and sends one."""

    def __init__(self, service, root, host: str, org: str, host_args: tuple[str, ...] = ()) -> None:
        self.service, self.host, self.org = service, host, org
        self.key = service.admin("init", "--org", org, "--admin-email", f"ada@{org.lower()}.test")
        self.code = GitRemote(root, f"{host}-code", {"app/cli.py": PY_OLD, "README.md": "# app\n"})
        self.pr_head = self.code.branch(BRANCH, {"app/cli.py": PY_NEW}, "Rename --docs-root, add --dry-run")
        self.docs = GitRemote(root, f"{host}-docs", DOCS)
        self.owner = "acme" if host == "github" else "acme/tools"
        self.integration = service.admin(
            "integrations", "add", "--org", org, "--name", "app", "--code-repo", str(self.code.bare),
            "--docs-repo", str(self.docs.bare), "--keep-in-sync", "--host", host,
            "--code-host-repo", f"{self.owner}/app", "--docs-host-repo", f"{self.owner}/docs", *host_args)
        lines = service.admin_lines("integrations", "webhook", "--integration", self.integration)
        self.dialog = lines
        self.path = re.sub(r"^https?://[^/]+", "", lines[0].removeprefix("url: "))
        self.secret = lines[1].removeprefix("secret: ")
        work = root / f"{host}-cwd"
        work.mkdir()
        (work / "docsvc.yaml").write_text(f"integration_id: {self.integration}\n")
        self.cli = lambda *a: run_cli(*a, key=self.key, base_url=service.base_url, cwd=work)  # noqa: E731
        synced = self.cli("sync", "--integration-id", self.integration)
        assert synced.returncode == 0, synced.stderr

    def deliver(self, event: str, payload: dict | bytes, *, secret: str | None = "", delivery: str | None = None,
                path: str | None = None) -> httpx.Response:
        body = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        secret = self.secret if secret == "" else secret
        headers = (github_headers(secret, event, body, delivery) if self.host == "github"
                   else gitlab_headers(secret, event, delivery))
        return httpx.post(self.service.base_url + (path or self.path), content=body, headers=headers, timeout=60)

    def job(self, job_id: str) -> dict:
        """The job once it ended."""
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            answer = httpx.get(f"{self.service.base_url}/api/v1/jobs/{job_id}",
                               headers={"Authorization": f"Bearer {self.key}"}, timeout=30).json()
            if answer["status"] != "queued":
                return answer
            time.sleep(0.2)
        raise AssertionError(f"job {job_id} did not end")

    def deliveries(self) -> list[dict]:
        return json.loads(self.service.admin_lines("integrations", "deliveries", "--integration", self.integration,
                                                   "--json")[-1])

    def suggestions(self, number: int) -> list[dict]:
        listed = self.cli("items", "list", "docflows", "--json")
        assert listed.returncode == 0, listed.stderr
        return [i for i in json.loads(listed.stdout) if i["title"].startswith(f"PR #{number}:")]

    def sql(self, statement: str, **params):
        engine = create_engine(self.service.db_url)
        try:
            with engine.begin() as conn:
                result = conn.execute(text(statement), params)
                return result.all() if result.returns_rows else None
        finally:
            engine.dispose()

    def jobs(self, kind: str) -> int:
        return self.sql("SELECT count(*) FROM jobs WHERE kind = :kind", kind=kind)[0][0]


@pytest.fixture(scope="module")
def github(service, tmp_path_factory):
    github_example("ping")  # skips the module's GitHub tests without the payloads package
    return Project(service, tmp_path_factory.mktemp("gh"), "github", "HooksGitHub")


@pytest.fixture(scope="module")
def gitlab(service, tmp_path_factory):
    return Project(service, tmp_path_factory.mktemp("gl"), "gitlab", "HooksGitLab")


def pull_request(project: Project, action: str, number: int, *, head: str | None = None, branch: str = BRANCH,
                 base: str = "main", repo: str | None = None) -> dict:
    """A real pull_request payload of ``action``, pointed at the project's repository."""
    payload = github_example("pull_request", action)
    pull = payload["pull_request"]
    repo = repo or f"{project.owner}/app"
    payload["number"] = pull["number"] = number
    pull["title"], pull["body"] = "Rename --docs-root", "Also --dry-run"
    pull["head"].update(sha=head or project.pr_head, ref=branch)
    pull["base"]["ref"] = base
    pull["head"]["repo"]["full_name"] = pull["base"]["repo"]["full_name"] = payload["repository"]["full_name"] = repo
    return payload


# --- the Webhook dialog ---------------------------------------------------------------------------

def test_the_webhook_dialog_prints_the_url_and_the_secret(github, service):
    assert len(github.dialog) == 2
    assert github.dialog[0] == f"url: http://127.0.0.1:8080/api/v1/webhooks/github/{github.integration}"
    assert re.fullmatch(r"secret: [0-9a-f]{64}", github.dialog[1])
    # asked again: the same secret; the secret shows nowhere else
    assert service.admin_lines("integrations", "webhook", "--integration", github.integration) == github.dialog
    listed = github.cli("admin", "integrations", "list", "--json")
    assert listed.returncode == 0 and github.secret not in listed.stdout


def test_a_rotated_secret_refuses_the_old_one(service, tmp_path_factory):
    project = Project(service, tmp_path_factory.mktemp("rot"), "gitlab", "HooksRotated")
    old = project.secret
    rotated = service.admin_lines("integrations", "webhook", "--integration", project.integration, "--rotate")
    project.secret = rotated[1].removeprefix("secret: ")
    assert project.secret != old and rotated[0] == project.dialog[0]
    assert project.deliver("Push Hook", gitlab_example("push"), secret=old).status_code == 401
    assert project.deliver("Push Hook", gitlab_example("push")).status_code == 200


# --- refused deliveries ---------------------------------------------------------------------------

def _push(project: Project, sha: str, branch: str = "main") -> dict:
    if project.host == "gitlab":
        payload = gitlab_example("push")
        payload["project"]["path_with_namespace"] = f"{project.owner}/app"
    else:
        payload = next(e for e in _octokit("push") if e["ref"].startswith("refs/heads/"))
        payload["repository"]["full_name"] = f"{project.owner}/app"
    payload.update(ref=f"refs/heads/{branch}", after=sha)
    return payload


def _octokit(event: str) -> list[dict]:
    from tests.support import _octokit_examples

    github_example(event)
    return json.loads(json.dumps(_octokit_examples()[event]))


@pytest.mark.parametrize("secret", [None, "a forged secret"], ids=["missing", "forged"])
def test_a_missing_or_forged_signature_is_401_and_changes_nothing(github, secret):
    syncs, recorded = github.jobs("sync"), github.deliveries()
    delivery = str(uuid.uuid4())
    answer = github.deliver("push", _push(github, github.code.commit({"a.txt": delivery}, "a change")),
                            secret=secret, delivery=delivery)
    assert answer.status_code == 401
    assert answer.headers["content-type"] == "application/problem+json"
    assert answer.json()["detail"] == ("The webhook delivery is not signed with this integration's secret "
                                       "(X-Hub-Signature-256 missing or wrong)")
    assert github.jobs("sync") == syncs and github.deliveries() == recorded  # nothing queued, nothing recorded
    # The same delivery, signed, is taken: the refusal left no trace that would block it.
    assert github.deliver("push", _push(github, github.code.commit({"b.txt": delivery}, "b")),
                          delivery=delivery).status_code == 202


def test_an_unknown_integration_reads_like_a_wrong_signature(github):
    payload = github_example("ping")
    forged = github.deliver("ping", payload, secret="wrong")
    for path in ("/api/v1/webhooks/github/999999", "/api/v1/webhooks/github/not-an-id",
                 "/api/v1/webhooks/github/99999999999999999999999"):
        answer = github.deliver("ping", payload, path=path)
        assert (answer.status_code, answer.json()) == (401, forged.json()), path
    # A GitHub signature on the GitLab path proves nothing either.
    answer = github.deliver("ping", payload, path=github.path.replace("/github/", "/gitlab/"))
    assert answer.status_code == 401 and "X-Gitlab-Token" in answer.json()["detail"]


def test_a_body_over_25_mb_is_413(github):
    body = b'{"zen": "' + b"x" * (25 * 1024 * 1024) + b'"}'
    answer = github.deliver("ping", body)
    assert answer.status_code == 413
    assert answer.headers["content-type"] == "application/problem+json"
    assert github.deliver("ping", b'{"zen": "' + b"x" * (24 * 1024 * 1024) + b'"}').status_code == 200


def test_a_body_that_is_not_json_is_400_and_its_redelivery_as_json_is_taken(github):
    delivery = str(uuid.uuid4())
    form = b"payload=%7B%22zen%22%3A%22x%22%7D"  # the hook's other content type
    answer = github.deliver("ping", form, delivery=delivery)
    assert answer.status_code == 400 and "application/json" in answer.json()["detail"]
    assert github.deliver("ping", github_example("ping"), delivery=delivery).status_code == 200
    assert [d["outcome"] for d in github.deliveries() if d["delivery"] == delivery] == ["done"]


# --- events ---------------------------------------------------------------------------------------

def test_ping_is_200_and_recorded(github):
    delivery = str(uuid.uuid4())
    # A ping of its own (GitHub's "zen" line varies): the module's other pings sent the example's body
    # already, and a body taken before is a replay.
    answer = github.deliver("ping", {**github_example("ping"), "zen": f"Ping {delivery}"}, delivery=delivery)
    assert answer.status_code == 200 and answer.json()["outcome"] == "done"
    recorded = next(d for d in github.deliveries() if d["delivery"] == delivery)
    assert (recorded["event"], recorded["host"], recorded["job_id"]) == ("ping", "github", None)
    listing = github.service.admin_lines("integrations", "deliveries", "--integration", github.integration)
    assert any(delivery in line and "\tping\t" in line for line in listing)
    # An administrator of the organisation lists them over HTTP too; a writer may not, another
    # organisation's administrator sees no such integration.
    over_http = github.cli("admin", "integrations", "deliveries", github.integration, "--json")
    assert over_http.returncode == 0, over_http.stderr
    assert json.loads(over_http.stdout)[0] == {**recorded, "delivery": delivery}
    shown = github.cli("admin", "integrations", "deliveries", github.integration)
    assert delivery in shown.stdout and "ping" in shown.stdout
    github.service.admin("users", "add", "--org", github.org, "--email", "wendy@hooksgithub.test", "--role", "writer")
    writer = github.service.admin("keys", "create", "--email", "wendy@hooksgithub.test")
    refused = run_cli("admin", "integrations", "deliveries", github.integration, key=writer,
                      base_url=github.service.base_url)
    assert refused.returncode == 4 and "System Administrators" in refused.stderr
    stranger = github.service.admin("init", "--org", "Strangers", "--admin-email", "eve@strangers.test")
    hidden = run_cli("admin", "integrations", "deliveries", github.integration, key=stranger,
                     base_url=github.service.base_url)
    assert hidden.returncode == 1 and "not found" in hidden.stderr.lower(), hidden.stderr


def test_a_signed_push_to_the_code_branch_syncs_once(github):
    head = github.code.commit({"app/extra.py": "y = 2\n"}, "more code")
    delivery = str(uuid.uuid4())
    answer = github.deliver("push", _push(github, head), delivery=delivery)
    assert answer.status_code == 202, answer.text
    job = github.job(answer.json()["job_id"])
    assert job["status"] == "completed" and job["kind"] == "sync"
    assert job["result"]["code_commit"] == head
    syncs = github.jobs("sync")
    again = github.deliver("push", _push(github, head), delivery=delivery)  # GitHub's "Redeliver"
    assert again.status_code == 200 and again.json()["outcome"] == "redelivery"
    assert again.json()["job_id"] == answer.json()["job_id"] and github.jobs("sync") == syncs
    other = github.deliver("push", _push(github, head, branch="feature"))
    assert other.status_code == 200 and other.json()["outcome"] == "ignored" and github.jobs("sync") == syncs


def test_a_pull_request_gets_one_suggestion_and_new_commits_mark_it(github):
    delivery = str(uuid.uuid4())
    opened = github.deliver("pull_request", pull_request(github, "opened", 7), delivery=delivery)
    assert opened.status_code == 202, opened.text
    job = github.job(opened.json()["job_id"])
    assert job["status"] == "completed", job
    suggestion = job["result"]["suggestion_id"]
    assert job["result"]["files"] == ["docs/cli.md", "docs/env.md"] and not job["result"].get("existing")
    jobs = github.jobs("docflow.generate")

    again = github.deliver("pull_request", pull_request(github, "opened", 7), delivery=delivery)
    assert again.json()["outcome"] == "redelivery" and github.jobs("docflow.generate") == jobs
    # Another delivery at the same head (a reopen): the same suggestion, no second one.
    reopened = github.job(github.deliver("pull_request", pull_request(github, "reopened", 7)).json()["job_id"])
    assert (reopened["result"]["suggestion_id"], reopened["result"]["existing"]) == (suggestion, True)
    assert reopened["result"]["new_commits"] is False
    assert len(github.suggestions(7)) == 1

    git("checkout", "-q", BRANCH, cwd=github.code.work)
    try:
        newer = github.code.commit({"app/more.py": "z = 3\n"}, "more", branch=BRANCH)
    finally:
        git("checkout", "-q", "main", cwd=github.code.work)
    pushed = github.job(github.deliver("pull_request", pull_request(github, "synchronize", 7, head=newer))
                        .json()["job_id"])
    assert (pushed["result"]["suggestion_id"], pushed["result"]["new_commits"]) == (suggestion, True)
    assert len(github.suggestions(7)) == 1
    shown = github.cli("items", "diff", "docflows", str(suggestion), "--json")
    assert json.loads(shown.stdout)["new_commits"] is True


def test_a_draft_is_skipped_and_other_branches_and_repositories_are_ignored(github):
    draft = pull_request(github, "opened", 9)
    draft["pull_request"]["draft"] = True
    jobs = github.jobs("docflow.generate")
    for payload in (draft, pull_request(github, "opened", 10, base="release"),
                    pull_request(github, "opened", 11, repo="someone/else"),
                    pull_request(github, "opened", 13, branch="docsvc/suggestion-99")):
        answer = github.deliver("pull_request", payload)
        assert answer.status_code == 200 and answer.json()["outcome"] == "ignored", answer.text
    assert "draft" in github.deliveries()[3]["result"]
    assert github.jobs("docflow.generate") == jobs


def test_a_fork_pull_request_is_analysed_from_its_fetched_commit(github):
    fork = pull_request(github, "opened", 12, branch="main")  # the fork's own main: not the code repository's
    fork["pull_request"]["head"]["repo"]["full_name"] = "someone/app"
    job = github.job(github.deliver("pull_request", fork).json()["job_id"])
    assert job["status"] == "completed", job
    assert job["result"]["head_sha"] == github.pr_head  # its commit, not the code repository's main


def _docs_item(project: Project, number: int) -> int:
    """An approved item whose docs pull request docsvc opened (as the code-host step records it)."""
    item = int(project.service.admin("items", "add", "docflows", "--org", project.org, "--title", f"Docs #{number}"))
    pull = {"url": f"https://example.test/{project.owner}/docs/pull/{number}", "state": "open",
            "review": "review required", "number": number, "host": project.host, "repo": f"{project.owner}/docs",
            "branch": f"docsvc/suggestion-{item}", "integration_id": int(project.integration)}
    engine = create_engine(project.service.db_url)
    try:
        with engine.begin() as conn:
            conn.execute(update(Item).where(Item.id == item).values(pull_request=pull, work_status="in_review"))
    finally:
        engine.dispose()
    return item


def test_the_docs_pull_request_docsvc_opened_through_github_is_followed_to_done(service, tmp_path_factory):
    """The whole loop: a pull request's webhook makes the suggestion, its approval opens the docs
    pull request through (the fake) GitHub, and that pull request's review and merge come back as
    webhooks: the item follows, and is done."""
    fake = FakeHost()
    fake.tokens.add(TOKEN)
    fake.repos |= {"acme/docs", "acme/app"}
    try:
        project = Project(service, tmp_path_factory.mktemp("loop"), "github", "HooksLoop", (
            "--host-api-url", fake.github_api, "--host-token-env", "GH_TOKEN"))
        made = project.job(project.deliver("pull_request", pull_request(project, "opened", 3)).json()["job_id"])
        suggestion = made["result"]["suggestion_id"]
        approved = project.cli("items", "approve", "docflows", str(suggestion), "--new-release", "3.1", "--json")
        assert approved.returncode == 0, approved.stderr
        opened = _item(project, suggestion)["pull_request"]
        assert (opened["repo"], opened["state"], opened["review"]) == ("acme/docs", "open", "review required")

        review = github_example("pull_request_review", "submitted")
        review["review"]["state"] = "approved"
        review["pull_request"]["number"] = opened["number"]
        review["repository"]["full_name"] = "acme/docs"
        assert project.deliver("pull_request_review", review).json()["outcome"] == "done"
        assert _item(project, suggestion)["pull_request"]["review"] == "approved"
        merged = pull_request(project, "closed", opened["number"], branch=opened["branch"], repo="acme/docs")
        merged["pull_request"]["merged"] = True
        assert project.deliver("pull_request", merged).json()["outcome"] == "done"
        shown = _item(project, suggestion)
        assert (shown["pull_request"]["state"], shown["work_status"]) == ("merged", "done")
        assert TOKEN not in json.dumps(project.deliveries())
    finally:
        fake.close()
    assert fake.violations == []


def _item(project: Project, item: int) -> dict:
    listed = project.cli("items", "list", "docflows", "--json")
    return next(i for i in json.loads(listed.stdout) if i["id"] == item)


def test_reviews_and_a_merge_of_the_docs_pull_request_follow_on_the_item(github):
    item = _docs_item(github, 31)
    review = github_example("pull_request_review", "submitted")
    review["review"]["state"] = "changes_requested"
    review["pull_request"]["number"] = 31
    review["repository"]["full_name"] = "acme/docs"
    assert github.deliver("pull_request_review", review).status_code == 200
    assert _item(github, item)["pull_request"]["review"] == "changes requested"
    review["review"]["state"] = "approved"
    assert github.deliver("pull_request_review", review).status_code == 200
    assert _item(github, item)["pull_request"]["review"] == "approved"

    merged = pull_request(github, "closed", 31, branch=f"docsvc/suggestion-{item}", repo="acme/docs")
    merged["pull_request"]["merged"] = True
    answer = github.deliver("pull_request", merged)
    assert answer.status_code == 200 and answer.json()["outcome"] == "done", answer.text
    shown = _item(github, item)
    assert (shown["pull_request"]["state"], shown["work_status"]) == ("merged", "done")


def test_a_signed_body_replayed_with_a_new_delivery_id_changes_nothing(github):
    """GitHub's signature covers the body, not X-GitHub-Delivery: a captured review sent again
    under a fresh id is still signed, yet must not set the review back."""
    item = _docs_item(github, 33)

    def review(state: str, review_id: int) -> bytes:
        payload = github_example("pull_request_review", "submitted")
        payload["review"].update(state=state, id=review_id)
        payload["pull_request"]["number"] = 33
        payload["repository"]["full_name"] = "acme/docs"
        return json.dumps(payload).encode()

    captured = review("changes_requested", 3301)
    first = github.deliver("pull_request_review", captured)
    assert first.json()["outcome"] == "done", first.text
    assert github.deliver("pull_request_review", review("approved", 3302)).json()["outcome"] == "done"
    fresh = str(uuid.uuid4())
    replay = github.deliver("pull_request_review", captured, delivery=fresh)
    assert replay.status_code == 200 and replay.json()["outcome"] == "replay", replay.text
    assert _item(github, item)["pull_request"]["review"] == "approved"  # as the later review set it
    shown = next(d for d in github.deliveries() if d["delivery"] == fresh)
    assert shown["outcome"] == "replay" and first.json()["delivery"] in shown["result"]


# --- GitLab ---------------------------------------------------------------------------------------

def test_gitlab_push_syncs_and_a_wrong_token_is_401(gitlab):
    head = gitlab.code.commit({"app/extra.py": "y = 2\n"}, "more code")
    syncs = gitlab.jobs("sync")
    refused = gitlab.deliver("Push Hook", _push(gitlab, head), secret="not the token")
    assert refused.status_code == 401 and "X-Gitlab-Token" in refused.json()["detail"]
    assert gitlab.jobs("sync") == syncs
    delivery = str(uuid.uuid4())
    answer = gitlab.deliver("Push Hook", _push(gitlab, head), delivery=delivery)
    assert answer.status_code == 202, answer.text
    assert gitlab.job(answer.json()["job_id"])["result"]["code_commit"] == head
    assert gitlab.deliver("Push Hook", _push(gitlab, head), delivery=delivery).json()["outcome"] == "redelivery"


def test_a_gitlab_body_over_25_mb_is_413_though_it_carries_an_idempotency_key(gitlab):
    body = b'{"object_kind": "push", "x": "' + b"x" * (25 * 1024 * 1024) + b'"}'
    answer = gitlab.deliver("Push Hook", body)
    assert answer.status_code == 413 and answer.headers["content-type"] == "application/problem+json"


def test_gitlab_merge_request_gets_its_suggestion_and_a_merged_docs_mr_is_done(gitlab):
    payload = gitlab_example("merge_request")
    attrs = payload["object_attributes"]
    attrs.update(iid=5, target_branch="main", source_branch=BRANCH, title="Rename --docs-root")
    attrs["last_commit"]["id"] = gitlab.pr_head
    payload["project"]["path_with_namespace"] = "acme/tools/app"
    answer = gitlab.deliver("Merge Request Hook", payload)
    assert answer.status_code == 202, answer.text
    assert gitlab.job(answer.json()["job_id"])["result"]["files"] == ["docs/cli.md", "docs/env.md"]

    item = _docs_item(gitlab, 8)
    merged = gitlab_example("merge_request")
    merged["object_attributes"].update(iid=8, action="merge", state="merged", source_branch=f"docsvc/suggestion-{item}")
    merged["project"]["path_with_namespace"] = "acme/tools/docs"
    assert gitlab.deliver("Merge Request Hook", merged).status_code == 200
    shown = _item(gitlab, item)
    assert (shown["pull_request"]["state"], shown["work_status"]) == ("merged", "done")


# --- one suggestion per pull request and commit (docsvc docflow, the CI step) ---------------------

def test_docflow_again_at_the_same_commit_returns_the_suggestion_made_before(github):
    def docflow(*extra: str) -> dict:
        made = github.cli("docflow", "--pr-number", "40", "--pr-title", "Rename --docs-root", "--pr-body", "",
                          "--pr-author", "ana", *extra, "--json")
        assert made.returncode == 0, made.stderr
        return json.loads(made.stdout)

    head = github.code.branch("docflow-again", {"app/cli.py": PY_NEW}, "Rename --docs-root, add --dry-run")
    first = docflow("--pr-sha", head)
    assert first["suggestion_id"] and not first.get("existing")
    generated = github.jobs("docflow.generate")
    again = docflow("--pr-sha", head[:10])  # an abbreviation names the same commit
    assert (again["suggestion_id"], again["existing"]) == (first["suggestion_id"], True)
    assert again["files"] == first["files"] and github.jobs("docflow.generate") == generated + 1
    by_branch = docflow("--pr-branch", "docflow-again")  # the branch's head is that commit too
    assert (by_branch["suggestion_id"], by_branch["existing"]) == (first["suggestion_id"], True)
    assert len(github.suggestions(40)) == 1
    # a CI re-run uploads its screenshots again: the suggestion made before takes them, each in
    # its route's place, and an upload it replaces is deleted
    shot = github.service.workdir / "home.png"
    shot.write_bytes(PNG)
    uploads = github.service.data_dir / "uploads"
    images = lambda: set(uploads.rglob("*.png")) if uploads.exists() else set()  # noqa: E731
    before = images()
    rerun = docflow("--pr-sha", head, "--screenshot", f"/={shot}")
    assert (rerun["suggestion_id"], rerun["existing"]) == (first["suggestion_id"], True)
    assert rerun["screenshots_attached"] == ["/"] and not rerun.get("warnings")
    kept = images() - before
    assert [p.name for p in kept] == ["home.png"]
    shown = github.cli("items", "screenshots", "docflows", str(first["suggestion_id"]), "--json")
    assert [(s["route"], s["name"], s["taken"]) for s in json.loads(shown.stdout) if s["route"] == "/"] == \
        [("/", "home.png", True)]
    assert docflow("--pr-sha", head, "--screenshot", f"/={shot}")["screenshots_attached"] == ["/"]
    newer = images() - before
    assert len(newer) == 1 and newer != kept  # the re-run's copy replaced the one before, which is deleted
    told = github.cli("docflow", "--pr-number", "40", "--pr-title", "Rename --docs-root", "--pr-body", "",
                      "--pr-author", "ana", "--pr-sha", head)
    assert told.stdout.startswith(f"Suggestion {first['suggestion_id']} for PR #40, made before for commit "
                                  f"{head[:12]}:")
    # A new commit on the branch is a new head: its own suggestion.
    git("checkout", "-q", "docflow-again", cwd=github.code.work)
    try:
        github.code.commit({"app/more.py": "z = 3\n"}, "more", branch="docflow-again")
    finally:
        git("checkout", "-q", "main", cwd=github.code.work)
    newer = docflow("--pr-branch", "docflow-again")
    assert newer["suggestion_id"] != first["suggestion_id"] and not newer.get("existing")
