"""The pull-request comment that updates in place, against a local fake of GitHub's and GitLab's
comment endpoints (the few calls the CI layer makes, answered as their REST APIs document), and
replayed from a recorded cassette.

The fake keeps comments per pull request, says who the token belongs to, and refuses a request
without the right token, so the tests see exactly what the step sent.
"""

from __future__ import annotations

import json
import os
import re
import threading
from http.server import ThreadingHTTPServer
from pathlib import Path

import pytest
import vcr

from tests.ci.helpers import JOB, job_done, routes, run
from tests.support import JsonHandler

TOKEN = "ghs_fake_token_0123456789"
CASSETTES = Path(__file__).resolve().parents[1] / "cassettes"
RECORD = os.environ.get("DOCSVC_RECORD_CASSETTES") == "1"


class FakeForge(ThreadingHTTPServer):
    """GitHub (``/repos/O/R/issues/N/comments``, ``/repos/O/R/issues/comments/ID``, ``/user``) and
    GitLab (``/projects/P/merge_requests/N/notes[/ID]``, ``/user``) comment endpoints."""

    def __init__(self, me: str | None) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.me = me  # None: GET /user is refused, as for GitHub's GITHUB_TOKEN
        self.comments: list[dict] = []
        self.requests: list[tuple[str, str]] = []

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


class _Handler(JsonHandler):
    server: FakeForge

    def _handle(self) -> None:
        forge = self.server
        forge.requests.append((self.command, self.path))
        token = self.headers.get("PRIVATE-TOKEN") or (self.headers.get("Authorization") or "").removeprefix("Bearer ")
        if token != TOKEN:
            return self.send_json(401, {"message": "Bad credentials"})
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
        path = self.path.split("?")[0]
        gitlab = path.startswith("/api/v4")
        if path.endswith("/user"):
            if forge.me is None:
                return self.send_json(403, {"message": "Resource not accessible by integration"})
            return self.send_json(200, {"login": forge.me, "username": forge.me})
        who = {"username": forge.me} if gitlab else {"login": forge.me or "github-actions[bot]"}
        if self.command == "GET":
            return self.send_json(200, forge.comments)
        if self.command == "POST":
            comment = {"id": 100 + len(forge.comments), "body": body["body"], "author" if gitlab else "user": who,
                       "html_url": f"https://forge.test/comment/{100 + len(forge.comments)}"}
            forge.comments.append(comment)
            return self.send_json(201, comment)
        number = int(re.search(r"/(\d+)$", path).group(1))
        for comment in forge.comments:
            if comment["id"] == number:
                comment["body"] = body["body"]
                return self.send_json(200, comment)
        return self.send_json(404, {"message": "Not Found"})

    do_GET = do_POST = do_PATCH = do_PUT = _handle


@pytest.fixture()
def forge(request):
    server = FakeForge(getattr(request, "param", None))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def sync_api():
    return routes({("POST", "/api/v1/sync"): (202, {"status": "queued", "job_id": JOB}),
                   ("GET", f"/api/v1/jobs/{JOB}"): (200, job_done({"files_indexed": 3}))})


def github_env(tmp_path, api_url: str, token: str | None = TOKEN) -> dict:
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"pull_request": {
        "number": 7, "title": "t", "body": "", "user": {"login": "ana"},
        "head": {"ref": "f", "sha": "abc", "repo": {"full_name": "acme/app"}},
        "base": {"ref": "main", "repo": {"full_name": "acme/app"}}}}))
    env = {"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": str(event),
           "GITHUB_REPOSITORY": "acme/app", "GITHUB_API_URL": api_url, "GITHUB_SERVER_URL": "https://forge.test"}
    if token:
        env["DOCSVC_COMMENT_TOKEN"] = token
    return env


def test_github_comment_is_created_once_then_edited_in_place(tmp_path, forge):
    forge.comments.append({"id": 1, "body": "<!-- docsvc:sync -->\nplanted by someone else",
                           "user": {"login": "mallory"}})
    for files in (3, 4):
        api = routes({("POST", "/api/v1/sync"): (202, {"status": "queued", "job_id": JOB}),
                      ("GET", f"/api/v1/jobs/{JOB}"): (200, job_done({"files_indexed": files}))})
        code, log, _ = run(["sync", "--integration-id", "1"], api=api, env=github_env(tmp_path, forge.url))
        assert code == 0, log
        assert TOKEN not in log.replace(f"::add-mask::{TOKEN}", "")
    ours = [c for c in forge.comments if c["user"]["login"] == "github-actions[bot]"]
    assert len(ours) == 1 and ours[0]["body"].startswith("<!-- docsvc:sync -->\n### ✅ docsvc: Sync of integration 1")
    assert "| Files indexed | 4 |" in ours[0]["body"]  # the second run's summary, in the same comment
    assert forge.comments[0]["body"].endswith("planted by someone else")  # never edited
    assert [m for m, _ in forge.requests].count("POST") == 1 and [m for m, _ in forge.requests].count("PATCH") == 1


def test_no_token_no_comment(tmp_path, forge):
    code, _, _ = run(["sync", "--integration-id", "1"], api=sync_api(), env=github_env(tmp_path, forge.url, token=None))
    assert code == 0 and forge.requests == []


def test_a_refused_comment_is_a_warning_not_a_failure(tmp_path, forge):
    env = github_env(tmp_path, forge.url, token="ghs_wrong_token_000")
    code, log, _ = run(["sync", "--integration-id", "1"], api=sync_api(), env=env)
    assert code == 0
    assert "::warning::pull request comment not written: GET " in log and "HTTP 401" in log
    assert "ghs_wrong_token_000" not in log.replace("::add-mask::ghs_wrong_token_000", "")


def test_a_refused_comment_keeps_its_warning_place_past_a_full_set_of_warnings(tmp_path, forge):
    """The comment comes after the findings: its warning has a place kept, or it would be GitHub's
    11th warning of the step, which GitHub drops."""
    findings = [{"severity": "warn", "file": "openapi.yaml", "line": i + 1, "message": f"w{i}"} for i in range(30)]
    api = routes({("POST", "/api/v1/oas/validate"): (202, {"status": "queued", "job_id": JOB}),
                  ("GET", f"/api/v1/jobs/{JOB}"): (200, job_done({"findings": findings}))})
    env = github_env(tmp_path, forge.url, token="ghs_wrong_token_000")
    _, log, _ = run(["validate", "--result-file", str(tmp_path / "r.json"),
                     "--junit-file", "", "--sarif-file", "", "--codequality-file", ""], api=api, env=env, cwd=tmp_path)
    warnings = [line for line in log.splitlines() if line.startswith("::warning")]
    assert len(warnings) == 10 and "comment not written" in warnings[-1], log


@pytest.mark.parametrize("forge", ["project_bot_1"], indirect=True)
def test_gitlab_note_is_created_once_then_edited_in_place(tmp_path, forge):
    env = {"GITLAB_CI": "true", "CI_MERGE_REQUEST_IID": "12", "CI_MERGE_REQUEST_TITLE": "t",
           "GITLAB_USER_LOGIN": "ana", "CI_PROJECT_PATH": "acme/app", "CI_API_V4_URL": f"{forge.url}/api/v4",
           "CI_MERGE_REQUEST_PROJECT_URL": "https://forge.test/acme/app", "DOCSVC_COMMENT_TOKEN": TOKEN,
           "DOCSVC_DOTENV_FILE": str(tmp_path / "e.env")}
    for _ in range(2):
        code, log, _ = run(["sync", "--integration-id", "1"], api=sync_api(), env=env)
        assert code == 0, log
    assert len(forge.comments) == 1 and forge.comments[0]["author"]["username"] == "project_bot_1"
    assert ("PUT", "/api/v4/projects/acme%2Fapp/merge_requests/12/notes/100") in forge.requests
    assert "Pull request comment: https://forge.test/acme/app/-/merge_requests/12#note_100" in log


recorder = vcr.VCR(cassette_library_dir=str(CASSETTES), record_mode="all" if RECORD else "none",
                   match_on=["method", "path", "query", "body"], filter_headers=["authorization", "private-token"])


def test_github_comment_replayed_from_a_recorded_cassette(tmp_path):
    """The same exchange, recorded once from the fake (DOCSVC_RECORD_CASSETTES=1) and replayed
    offline: any change in what the step sends fails here."""
    from docsvc.ci.comments import upsert_comment
    from docsvc.ci.context import detect

    forge = FakeForge(None) if RECORD else None
    if forge:
        threading.Thread(target=forge.serve_forever, daemon=True).start()
    api_url = forge.url if forge else "http://forge.cassette"
    try:
        ctx = detect("github", github_env(tmp_path, api_url), tmp_path)
        with recorder.use_cassette("pr_comment_github.yaml"):
            first = upsert_comment(ctx, TOKEN, "validate", "### docsvc: 1 finding\n")
            second = upsert_comment(ctx, TOKEN, "validate", "### docsvc: 0 findings\n")
        assert first == second == "https://forge.test/comment/100"
    finally:
        if forge:
            forge.shutdown()
            forge.server_close()
    assert TOKEN not in (CASSETTES / "pr_comment_github.yaml").read_text()


def workflow_run_env(tmp_path, api_url: str, **inputs) -> dict:
    """The fork-safe pattern of docs/ci/github.md: a workflow_run workflow in the base repository (GITHUB_REF_NAME
    is its default branch) acting for a fork's pull request, with the inputs that page passes."""
    event = tmp_path / "workflow_run.json"
    event.write_text(json.dumps({"action": "completed", "workflow_run": {
        "id": 30433642, "name": "ui-tests", "event": "pull_request", "status": "completed", "conclusion": "success",
        "head_branch": "pr-482", "head_sha": "f00d" * 10, "display_title": "Add --retries",
        "actor": {"login": "outsider"}, "pull_requests": [],  # GitHub lists none for a fork
        "head_repository": {"full_name": "outsider/app", "fork": True},
        "repository": {"full_name": "acme/app", "fork": False}},
        "repository": {"full_name": "acme/app"}}))
    return {"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "workflow_run", "GITHUB_EVENT_PATH": str(event),
            "GITHUB_REF_NAME": "main", "GITHUB_SHA": "0" * 40, "GITHUB_REPOSITORY": "acme/app",
            "GITHUB_API_URL": api_url, "GITHUB_SERVER_URL": "https://forge.test", "DOCSVC_COMMENT_TOKEN": TOKEN,
            "DOCSVC_PR_TITLE": "Add --retries", "DOCSVC_PR_AUTHOR": "outsider", **inputs}


def docflow_api():
    return routes({("POST", "/api/v1/docflows/generate"): (202, {"status": "queued", "job_id": JOB}),
                   ("GET", f"/api/v1/jobs/{JOB}"): (200, job_done({"suggestion_id": 42}))})


def test_workflow_run_comments_on_the_forks_pull_request_named_by_the_inputs(tmp_path, forge):
    api = docflow_api()
    env = workflow_run_env(tmp_path, forge.url, DOCSVC_PR_NUMBER="482", DOCSVC_PR_SHA="f00d" * 10)
    code, log, _ = run(["docflow", "--integration-id", "12"], api=api, env=env)
    assert code == 0, log
    assert ("POST", "/repos/acme/app/issues/482/comments") in forge.requests
    assert [c["body"].split("\n", 1)[0] for c in forge.comments] == ["<!-- docsvc:docflow -->"]
    assert "Pull request comment: https://forge.test/comment/100" in log
    data = json.loads(api.requests[0].content)["pr_data"]  # no screenshots: a JSON body
    assert (data["number"], data["head_branch"], data["head_sha"], data["fork"]) == (482, "pr-482", "f00d" * 10, True)
    assert data["url"] == "https://forge.test/acme/app/pull/482"
    # the key is there, in a run for a fork: the notice says so, not "secrets are not available"
    notices = [line for line in log.splitlines() if line.startswith("::notice") and "fork" in line]
    assert notices and all("not available" not in line and "holds the API key" in line for line in notices)


def test_workflow_run_without_the_pr_number_warns_instead_of_staying_silent(tmp_path, forge):
    api = routes({("POST", "/api/v1/sync"): (202, {"status": "queued", "job_id": JOB}),
                  ("GET", f"/api/v1/jobs/{JOB}"): (200, job_done({"files_indexed": 3}))})
    code, log, _ = run(["sync", "--integration-id", "12"], api=api, env=workflow_run_env(tmp_path, forge.url))
    assert code == 0, log
    warnings = [line for line in log.splitlines() if line.startswith("::warning")]
    assert any("pull request number is unknown" in line and "pr-number" in line for line in warnings), log
    assert any("comment not written" in line and "pass pr-number" in line for line in warnings), log
    assert not forge.comments and not [r for r in forge.requests if r[0] == "POST"]


def test_workflow_run_of_a_push_is_no_pull_request(tmp_path, forge):
    env = workflow_run_env(tmp_path, forge.url)
    event = json.loads(Path(env["GITHUB_EVENT_PATH"]).read_text())
    event["workflow_run"].update(event="push", head_branch="main", head_repository={"full_name": "acme/app"})
    Path(env["GITHUB_EVENT_PATH"]).write_text(json.dumps(event))
    code, log, _ = run(["sync", "--integration-id", "12"], api=sync_api(), env=env)
    assert code == 0, log
    assert "::warning" not in log and not forge.requests
