"""Webhook signatures and payloads (engines/webhooks): GitHub's real payloads from
@octokit/webhooks-examples, GitLab's from its documentation (tests/fixtures/gitlab-webhooks)."""

from __future__ import annotations

import json

import pytest

from docsvc.server.engines.webhooks import body_digest, delivery_id, event_name, parse, signed
from tests.support import github_example, github_signature, gitlab_example

SECRET = "s3cret-of-the-integration"
BODY = json.dumps({"zen": "Keep it logically awesome."}).encode()


def test_a_github_delivery_is_signed_by_the_hmac_of_its_raw_body():
    assert signed("github", SECRET, BODY, {"x-hub-signature-256": github_signature(SECRET, BODY)})
    # the hex digest may come in capitals: the same signature
    assert signed("github", SECRET, BODY, {"x-hub-signature-256": github_signature(SECRET, BODY).upper()
                                           .replace("SHA256=", "sha256=")})


@pytest.mark.parametrize("headers", [
    {},  # missing
    {"x-hub-signature-256": ""},
    {"x-hub-signature-256": github_signature("another secret", BODY)},
    {"x-hub-signature-256": github_signature(SECRET, BODY + b" ")},  # a body changed on the way
    {"x-hub-signature-256": github_signature(SECRET, BODY).replace("sha256=", "sha1=")},
    {"x-hub-signature": github_signature(SECRET, BODY)},  # the SHA-1 header is not taken
], ids=["missing", "empty", "other-secret", "changed-body", "other-prefix", "sha1-header"])
def test_a_github_delivery_without_the_right_signature_is_not_signed(headers):
    assert not signed("github", SECRET, BODY, headers)


def test_without_a_secret_nothing_is_signed_not_even_by_the_stand_in():
    from docsvc.server.engines import webhooks

    stand_in = webhooks._NO_SECRET
    assert not signed("github", None, BODY, {"x-hub-signature-256": github_signature(stand_in, BODY)})
    assert not signed("gitlab", None, BODY, {"x-gitlab-token": stand_in})


@pytest.mark.parametrize("token, ok", [(SECRET, True), (SECRET + "x", False), ("", False), (None, False),
                                       (SECRET.upper(), False), ("é" + SECRET, False)])
def test_a_gitlab_delivery_carries_the_secret_token(token, ok):
    headers = {} if token is None else {"x-gitlab-token": token}
    assert signed("gitlab", SECRET, BODY, headers) is ok


def test_a_replay_is_known_by_the_digest_of_the_raw_body_the_signature_covers():
    import hashlib

    assert body_digest(BODY) == hashlib.sha256(BODY).hexdigest()  # what 0009's body_sha256 column holds
    # The same event serialised otherwise is other bytes: another signature, never taken for the first.
    assert body_digest(json.dumps(json.loads(BODY), indent=1).encode()) != body_digest(BODY)


def test_the_delivery_id_and_event_as_each_host_names_them():
    assert delivery_id("github", {"x-github-delivery": "72d3162e-cc78-11e3-81ab-4c9367dc0958"}) == \
        "72d3162e-cc78-11e3-81ab-4c9367dc0958"
    # GitLab: Idempotency-Key stays the same across its retries; the event UUID is the fallback
    assert delivery_id("gitlab", {"idempotency-key": "k-1", "x-gitlab-event-uuid": "u-1"}) == "k-1"
    assert delivery_id("gitlab", {"x-gitlab-event-uuid": "u-1"}) == "u-1"
    assert delivery_id("github", {}) is None
    assert event_name("gitlab", {"x-gitlab-event": "Merge Request Hook"}) == "Merge Request Hook"


# --- GitHub payloads -----------------------------------------------------------------------------

def test_github_ping_push_and_a_tag():
    assert parse("github", "ping", github_example("ping")).kind == "ping"
    pushes = [github_example("push")]
    tag = parse("github", "push", pushes[0])
    assert (tag.kind, tag.reason) == ("ignored", "a push of a tag, not a branch")
    branch_push = next(e for e in _all("push") if e["ref"].startswith("refs/heads/"))
    event = parse("github", "push", branch_push)
    assert (event.kind, event.branch, event.sha, event.repo) == ("push", "master", branch_push["after"],
                                                                 "Codertocat/Hello-World")
    deleted = {**branch_push, "deleted": True}
    assert parse("github", "push", deleted).kind == "ignored"


def _all(event: str) -> list[dict]:
    from tests.support import _octokit_examples

    github_example(event)  # skips when the package is missing
    return _octokit_examples()[event]


@pytest.mark.parametrize("action, expected", [("opened", "opened"), ("synchronize", "pushed"),
                                              ("reopened", "reopened"), ("ready_for_review", "ready"),
                                              ("closed", "closed"), ("labeled", "other")])
def test_github_pull_request_actions(action, expected):
    payload = github_example("pull_request", action)
    event = parse("github", "pull_request", payload)
    assert (event.kind, event.action) == ("pull_request", expected)
    pull = payload["pull_request"]
    assert event.pr == {"number": 2, "title": pull["title"], "body": pull["body"] or "", "author": "Codertocat",
                        "head_sha": pull["head"]["sha"], "head_branch": "changes", "base_branch": "master",
                        "url": pull["html_url"], "fork": False, "draft": False}


def test_a_merged_github_pull_request_and_a_draft_and_a_fork():
    payload = github_example("pull_request", "closed")
    payload["pull_request"]["merged"] = True
    assert parse("github", "pull_request", payload).action == "merged"
    draft = github_example("pull_request", "converted_to_draft")
    assert parse("github", "pull_request", {**draft, "action": "opened"}).pr["draft"] is True
    fork = github_example("pull_request", "opened")
    fork["pull_request"]["head"]["repo"]["full_name"] = "someone/Hello-World"
    assert parse("github", "pull_request", fork).pr["fork"] is True


@pytest.mark.parametrize("action, state, review", [
    ("submitted", "approved", "approved"), ("submitted", "changes_requested", "changes requested"),
    ("dismissed", "dismissed", "review required"), ("submitted", "commented", None)])
def test_github_reviews(action, state, review):
    payload = github_example("pull_request_review", action)
    payload["review"]["state"] = state
    event = parse("github", "pull_request_review", payload)
    assert event.review == review
    assert event.kind == ("review" if review else "ignored")
    assert event.pr["number"] == 2


def test_a_pull_request_event_says_when_it_changed_as_its_newest_signed_time():
    import datetime as dt

    review = github_example("pull_request_review", "submitted")
    review["review"]["state"] = "approved"
    review["pull_request"]["updated_at"], review["review"]["submitted_at"] = "2026-01-02T03:04:05Z", "2026-01-02T03:05:00Z"
    assert parse("github", "pull_request_review", review).at == dt.datetime(2026, 1, 2, 3, 5, tzinfo=dt.timezone.utc)
    merge = gitlab_example("merge_request")
    merge["object_attributes"]["updated_at"] = "2026-01-02 03:04:05 UTC"  # GitLab's own form
    merge["changes"] = {"updated_at": {"previous": "2025-12-01 00:00:00 UTC", "current": "2026-01-02 03:04:05 UTC"}}
    assert parse("gitlab", "Merge Request Hook", merge).at == dt.datetime(2026, 1, 2, 3, 4, 5, tzinfo=dt.timezone.utc)
    merge["object_attributes"]["updated_at"] = "not a time"
    merge["changes"] = {}
    assert parse("gitlab", "Merge Request Hook", merge).at is None  # no time: never taken as old
    # A push's commits keep their authors' times, old or not: a push carries no event time.
    assert parse("github", "push", github_example("push")).at is None


def test_other_events_and_bodies_are_ignored():
    assert parse("github", "issues", {"action": "opened"}).kind == "ignored"
    assert parse("github", "push", ["not", "an", "object"]).kind == "ignored"
    assert parse("gitlab", "Pipeline Hook", {"object_kind": "pipeline"}).kind == "ignored"


# --- GitLab payloads (GitLab's documented examples) ----------------------------------------------

def test_gitlab_push_and_a_deleted_branch_and_a_tag():
    payload = gitlab_example("push")
    event = parse("gitlab", "Push Hook", payload)
    assert (event.kind, event.branch, event.sha, event.repo) == ("push", "master", payload["after"], "mike/diaspora")
    assert parse("gitlab", "Push Hook", {**payload, "after": "0" * 40}).kind == "ignored"
    assert parse("gitlab", "Tag Push Hook", {**payload, "object_kind": "tag_push",
                                             "ref": "refs/tags/v1.0.0"}).kind == "ignored"


def test_gitlab_merge_request_opened():
    payload = gitlab_example("merge_request")
    event = parse("gitlab", "Merge Request Hook", payload)
    assert (event.kind, event.action, event.repo) == ("pull_request", "opened", "gitlabhq/gitlab-test")
    assert event.pr == {"number": 1, "title": "MS-Viewport", "body": "", "author": "root",
                        "head_sha": "da1560886d4f094c3e6c9ef40349f7d38b5d27d7", "head_branch": "ms-viewport",
                        "base_branch": "master", "url": "http://example.com/diaspora/merge_requests/1",
                        "fork": False, "draft": False}


def _mr(action: str, *, oldrev: bool = False, changes: dict | None = None, **attrs) -> dict:
    payload = gitlab_example("merge_request")
    payload["object_attributes"].update(action=action, **attrs)
    if oldrev:
        payload["object_attributes"]["oldrev"] = "95790bf891e76fee5e1747ab589903a6a1f80f22"
    if changes is not None:
        payload["changes"] = changes
    return payload


@pytest.mark.parametrize("payload, kind, action", [
    (_mr("update", oldrev=True), "pull_request", "pushed"),
    (_mr("update", changes={"title": {"previous": "a", "current": "b"}}), "pull_request", "other"),
    (_mr("update", changes={"draft": {"previous": True, "current": False}}), "pull_request", "ready"),
    (_mr("reopen"), "pull_request", "reopened"),
    (_mr("close", state="closed"), "pull_request", "closed"),
    (_mr("merge", state="merged"), "pull_request", "merged"),
    (_mr("approved"), "review", "approved"),
    (_mr("unapproved"), "review", "unapproved"),
], ids=["new-commit", "edited", "ready", "reopen", "close", "merge", "approved", "unapproved"])
def test_gitlab_merge_request_actions(payload, kind, action):
    event = parse("gitlab", "Merge Request Hook", payload)
    assert (event.kind, event.action) == (kind, action)
    if kind == "review":
        assert event.review == {"approved": "approved", "unapproved": "review required"}[action]


def test_a_gitlab_draft_and_a_fork():
    assert parse("gitlab", "Merge Request Hook", _mr("open", draft=True)).pr["draft"] is True
    assert parse("gitlab", "Merge Request Hook", _mr("open", work_in_progress=True)).pr["draft"] is True
    assert parse("gitlab", "Merge Request Hook", _mr("open", source_project_id=99)).pr["fork"] is True


# --- the Webhook dialog's refusals (docsvc-server integrations webhook / deliveries) ---------------

def _server(tmp_path, *args: str, **env: str):
    from click.testing import CliRunner

    from docsvc.server.admin import main

    return CliRunner().invoke(main, ["--db", f"sqlite:///{tmp_path / 'db.sqlite'}", *args],
                              env={"DOCSVC_SERVER_PUBLIC_URL": "", **env}, catch_exceptions=False)


def test_the_webhook_dialog_refuses_one_line_each(tmp_path):
    assert _server(tmp_path, "init", "--org", "O", "--admin-email", "a@o.test").exit_code == 0
    plain = _server(tmp_path, "integrations", "add", "--org", "O", "--name", "local", "--code-repo", str(tmp_path),
                    "--docs-repo", str(tmp_path)).output.split()[-1]
    done = _server(tmp_path, "integrations", "webhook", "--integration", plain)
    assert (done.exit_code, done.output.splitlines()) == (1, [
        f"Error: integration {plain} has no code host that sends webhooks (its code repository is plain git): set "
        "--host github or gitlab with 'docsvc-server integrations update'"])
    for args in (["webhook", "--integration", "99"], ["deliveries", "--integration", "99"]):
        done = _server(tmp_path, "integrations", *args)
        assert (done.exit_code, done.output.strip()) == (1, "Error: integration 99 does not exist")
    assert _server(tmp_path, "integrations", "webhook", "--integration", "x").exit_code == 2
    hub = _server(tmp_path, "integrations", "add", "--org", "O", "--name", "hub", "--code-repo",
                  "https://github.com/acme/app", "--docs-repo", "https://github.com/acme/docs").output.split()[-1]
    bad = _server(tmp_path, "integrations", "webhook", "--integration", hub, DOCSVC_SERVER_PUBLIC_URL="docs.example")
    assert bad.exit_code == 1 and "DOCSVC_SERVER_PUBLIC_URL must be an http:// or https:// address" in bad.output
    good = _server(tmp_path, "integrations", "webhook", "--integration", hub,
                   DOCSVC_SERVER_PUBLIC_URL="https://docs.example.com/")
    assert good.output.splitlines()[0] == f"url: https://docs.example.com/api/v1/webhooks/github/{hub}"


@pytest.mark.parametrize("public, why", [
    ("https://ada:hunter2@docs.example.com", "must hold no user name or password"),
    ("https://docs.example.com/?via=proxy", "without ?query or #fragment"),
    ("https://docs.example.com#top", "without ?query or #fragment"),
    ("http://:8080", "must be an http:// or https:// address"),
    ("https://docs.example.com:99999", "must be an http:// or https:// address"),
    ("https://docs example.com", "must be an http:// or https:// address"),
])
def test_the_public_url_is_a_base_address_the_webhook_path_can_follow(tmp_path, public, why):
    assert _server(tmp_path, "init", "--org", "O", "--admin-email", "a@o.test").exit_code == 0
    hub = _server(tmp_path, "integrations", "add", "--org", "O", "--name", "hub", "--code-repo",
                  "https://github.com/acme/app", "--docs-repo", "https://github.com/acme/docs").output.split()[-1]
    done = _server(tmp_path, "integrations", "webhook", "--integration", hub, DOCSVC_SERVER_PUBLIC_URL=public)
    assert done.exit_code == 1 and why in done.output, done.output
    assert "secret:" not in done.output and "hunter2" not in done.output
    prefixed = _server(tmp_path, "integrations", "webhook", "--integration", hub,
                       DOCSVC_SERVER_PUBLIC_URL="https://docs.example.com:8443/docsvc/")
    assert prefixed.output.splitlines()[0] == f"url: https://docs.example.com:8443/docsvc/api/v1/webhooks/github/{hub}"
