"""Code hosts' webhooks, as pure work: is a delivery signed with the integration's secret, and
what does its payload say (a push, a pull request, a review, a ping), in a few fields.

GitHub signs the raw body: ``X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the body>``; GitLab
sends the secret itself in ``X-Gitlab-Token``. Both are compared in constant time. What a
delivery means for the service (a sync, a suggestion, an item's state) is the service's to say
(``services/webhooks``); this module reads payloads only.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
from dataclasses import dataclass, field
from typing import Any

__all__ = ["HOSTS", "Event", "signed", "body_digest", "delivery_id", "event_name", "parse"]

HOSTS = ("github", "gitlab")
# Checked against when there is no secret to check with (an unknown integration, or none made
# yet), so such a delivery costs the same compare as a wrong signature and reads alike.
_NO_SECRET = "no secret: nothing matches this"


def signed(host: str, secret: str | None, body: bytes, headers: dict[str, str]) -> bool:
    """Whether the delivery carries the right signature (GitHub) or token (GitLab) for ``secret``;
    ``headers`` with lower-case names. Without a secret, nothing is signed."""
    key = (secret or _NO_SECRET).encode()
    if host == "github":
        given = headers.get("x-hub-signature-256", "")
        expected = "sha256=" + hmac.new(key, body, hashlib.sha256).hexdigest()
        ok = hmac.compare_digest(given.strip().lower().encode(), expected.encode())
    else:
        ok = hmac.compare_digest(headers.get("x-gitlab-token", "").encode("utf-8", "replace"), key)
    return ok and secret is not None


def body_digest(body: bytes) -> str:
    """The SHA-256 (hex) of a delivery's raw body: what a replay is known by. GitHub's signature
    covers the body only and GitLab's token covers nothing, so a captured delivery sent again
    under a fresh delivery id still passes ``signed``; its body, though, is the one seen before.
    Two real events differ in their bodies (commits, review ids, times), so they never share it."""
    return hashlib.sha256(body).hexdigest()


def delivery_id(host: str, headers: dict[str, str]) -> str | None:
    """The delivery's id as its host names it: GitHub's ``X-GitHub-Delivery``; GitLab's
    ``Idempotency-Key`` (the same across retries of one delivery), else ``X-Gitlab-Event-UUID``."""
    names = ("x-github-delivery",) if host == "github" else ("idempotency-key", "x-gitlab-event-uuid")
    for name in names:
        value = headers.get(name, "").strip()
        if value:
            return value[:200]
    return None


def event_name(host: str, headers: dict[str, str]) -> str:
    return headers.get("x-github-event" if host == "github" else "x-gitlab-event", "").strip()[:100]


@dataclass(frozen=True)
class Event:
    """What a delivery says, for the service to act on.

    ``kind``: ``push`` (``branch``, ``sha``), ``pull_request`` (``action`` one of opened, pushed,
    reopened, ready, closed, merged, other; ``pr`` the pull request's fields), ``review``
    (``review`` approved, changes requested or review required; ``pr``), ``ping``, or ``ignored``
    (``reason``). ``repo``: the repository as its host names it (``owner/name``). ``at``: when the
    pull request or review last changed, as the signed payload says (None for other events): a
    body is only known as a replay while its delivery is kept, so an old one is known by its age."""

    kind: str
    action: str = ""
    repo: str | None = None
    branch: str | None = None
    sha: str | None = None
    pr: dict[str, Any] = field(default_factory=dict)
    review: str | None = None
    reason: str = ""
    at: dt.datetime | None = None


def _dict(value: Any) -> dict:
    return value if isinstance(value, dict) else {}


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _time(value: Any) -> dt.datetime | None:
    """A payload's time: GitHub's ``2019-05-15T15:20:33Z``, GitLab's ``2013-12-03 17:23:34 UTC``."""
    if not isinstance(value, str):
        return None
    text = value.strip().replace(" UTC", "+00:00").replace("Z", "+00:00")
    try:
        at = dt.datetime.fromisoformat(text)
    except ValueError:
        return None
    return at if at.tzinfo is not None else at.replace(tzinfo=dt.timezone.utc)


def _newest(*values: Any) -> dt.datetime | None:
    times = [at for at in map(_time, values) if at is not None]
    return max(times) if times else None


def _branch_of(ref: Any) -> str | None:
    return ref[len("refs/heads/"):] if isinstance(ref, str) and ref.startswith("refs/heads/") else None


def parse(host: str, event: str, payload: Any) -> Event:
    """The event a delivery's payload describes; ``ignored`` (with the reason) for the rest."""
    if not isinstance(payload, dict):
        return Event("ignored", reason="the payload is not a JSON object")
    return (_github if host == "github" else _gitlab)(event, payload)


_GITHUB_PR_ACTIONS = {"opened": "opened", "synchronize": "pushed", "reopened": "reopened",
                      "ready_for_review": "ready"}
_GITHUB_REVIEWS = {"approved": "approved", "changes_requested": "changes requested"}


def _github(event: str, payload: dict) -> Event:
    repo = _text(_dict(payload.get("repository")).get("full_name"))
    if event == "ping":
        return Event("ping", repo=repo)
    if event == "push":
        branch = _branch_of(payload.get("ref"))
        if branch is None:
            return Event("ignored", repo=repo, reason="a push of a tag, not a branch")
        if payload.get("deleted") is True:
            return Event("ignored", repo=repo, reason=f"branch {branch} was deleted")
        return Event("push", repo=repo, branch=branch, sha=_text(payload.get("after")))
    if event in ("pull_request", "pull_request_review"):
        pull = _dict(payload.get("pull_request"))
        head, base = _dict(pull.get("head")), _dict(pull.get("base"))
        head_repo = _text(_dict(head.get("repo")).get("full_name"))
        base_repo = _text(_dict(base.get("repo")).get("full_name")) or repo
        pr = {"number": pull.get("number") or payload.get("number"), "title": _text(pull.get("title")),
              "body": _text(pull.get("body")) or "", "author": _text(_dict(pull.get("user")).get("login")),
              "head_sha": _text(head.get("sha")), "head_branch": _text(head.get("ref")),
              "base_branch": _text(base.get("ref")), "url": _text(pull.get("html_url")),
              "fork": head_repo is not None and head_repo != base_repo, "draft": pull.get("draft") is True}
        action = str(payload.get("action") or "")
        at = _newest(pull.get("updated_at"), _dict(payload.get("review")).get("submitted_at"))
        if event == "pull_request_review":
            state = str(_dict(payload.get("review")).get("state") or "").lower()
            if action == "dismissed":
                return Event("review", action, repo, pr=pr, review="review required", at=at)
            if action == "submitted" and state in _GITHUB_REVIEWS:
                return Event("review", action, repo, pr=pr, review=_GITHUB_REVIEWS[state], at=at)
            return Event("ignored", action, repo, pr=pr, reason=f"a review {action or 'event'} ({state or 'no state'})"
                                                               " that changes no review state")
        if action == "closed":
            action = "merged" if pull.get("merged") is True else "closed"
        else:
            action = _GITHUB_PR_ACTIONS.get(action, "other")
        return Event("pull_request", action, repo, pr=pr, at=at)
    return Event("ignored", repo=repo, reason=f"the event {event or '(none named)'} is not one docsvc acts on")


_GITLAB_MR_ACTIONS = {"open": "opened", "update": "pushed", "reopen": "reopened", "close": "closed",
                      "merge": "merged"}
_GITLAB_REVIEWS = {"approved": "approved", "unapproved": "review required"}


def _gitlab(event: str, payload: dict) -> Event:
    project = _dict(payload.get("project"))
    repo = _text(project.get("path_with_namespace"))
    kind = payload.get("object_kind")
    if event == "Push Hook" or kind == "push":
        branch = _branch_of(payload.get("ref"))
        after = _text(payload.get("after"))
        if branch is None:
            return Event("ignored", repo=repo, reason="a push of a tag, not a branch")
        if after is not None and set(after) == {"0"}:
            return Event("ignored", repo=repo, reason=f"branch {branch} was deleted")
        return Event("push", repo=repo, branch=branch, sha=after)
    if event == "Merge Request Hook" or kind == "merge_request":
        attrs = _dict(payload.get("object_attributes"))
        action = str(attrs.get("action") or "")
        source, target = attrs.get("source_project_id"), attrs.get("target_project_id")
        pr = {"number": attrs.get("iid"), "title": _text(attrs.get("title")),
              "body": _text(attrs.get("description")) or "", "author": _text(_dict(payload.get("user")).get("username")),
              "head_sha": _text(_dict(attrs.get("last_commit")).get("id")), "head_branch": _text(attrs.get("source_branch")),
              "base_branch": _text(attrs.get("target_branch")), "url": _text(attrs.get("url")),
              "fork": source is not None and target is not None and source != target,
              "draft": attrs.get("draft") is True or attrs.get("work_in_progress") is True}
        changes = _dict(payload.get("changes"))
        at = _newest(attrs.get("updated_at"), _dict(changes.get("updated_at")).get("current"))
        if action in _GITLAB_REVIEWS:
            return Event("review", action, repo, pr=pr, review=_GITLAB_REVIEWS[action], at=at)
        if action == "update" and "oldrev" not in attrs:
            # No new commit (``oldrev`` comes with one): marked ready, or an edit of the title,
            # labels or reviewers.
            ready = "draft" in changes and not pr["draft"]
            return Event("pull_request", "ready" if ready else "other", repo, pr=pr, at=at)
        return Event("pull_request", _GITLAB_MR_ACTIONS.get(action, "other"), repo, pr=pr, at=at)
    return Event("ignored", repo=repo, reason=f"the event {event or '(none named)'} is not one docsvc acts on")
