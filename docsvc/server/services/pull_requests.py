"""Pull requests on an integration's code host: opened through GitHub's or GitLab's API after a
branch is pushed (``items approve``, ``api-scan open-pr``), and followed there (state and review).

The token is read from the service's environment variable the integration names, when it is
used, and never kept: not in the database, not in a message (the engine hides it from every
error it makes). A plain-git integration has no API: its pull request stays a pushed branch with
the host's compare link.
"""

from __future__ import annotations

import os
import time
from contextlib import closing
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ...egress import Egress
from ..db.tables import Integration, Item
from ..engines.hosts import Connection, HostError, connect
from .integrations import PUBLIC_API

__all__ = ["HOST_WAIT", "HostError", "apply_state", "integration_label", "open_pull_request", "problem_status",
           "pull_request_body", "refresh", "refresh_open", "items_with_pull_request", "uses_host_api"]

# How long one request of the service may spend with the host, rate limits waited out included:
# below the client's 60-second read timeout, so the caller hears the host's error, not a timeout.
HOST_WAIT = 40.0
# GitHub takes at most 65,536 characters of body; GitLab more. The rest is named, not sent.
BODY_LIMIT = 60_000
TITLE_LIMIT = 250


def problem_status(error: HostError) -> int:
    """The service's answer to a host error: 502 when trying again may work (the host failed, was
    out of reach or rate limited; clients retry it), 409 when a person must fix the integration
    first (its token, a permission, the repository), which no retry mends."""
    return 502 if error.transient else 409


def uses_host_api(integration: Integration) -> bool:
    """Whether pull requests of this integration are opened through its host's API."""
    return integration.host in ("github", "gitlab")


def integration_label(integration: Integration) -> str:
    return f"integration {integration.id} ({integration.name!r})"


def _connection(integration: Integration, egress: Egress | None, wait: float) -> Connection:
    """How to reach the integration's host: the token from its environment variable, or (GitHub)
    the App's id and private key. HostError naming what is missing."""
    label = integration_label(integration)
    common = {"integration": label, "api_url": integration.host_api_url or PUBLIC_API[integration.host],
              "egress": egress, "deadline": time.monotonic() + wait}
    if integration.host == "github" and integration.github_app_id:
        path = Path(integration.github_app_key_file or "")
        try:
            key = path.read_bytes()
        except OSError as exc:
            raise HostError(f"{label}: cannot read the GitHub App's private-key file {path}: "
                            f"{exc.strerror or type(exc).__name__}") from None
        return Connection(app_id=integration.github_app_id, app_key=key, **common)
    if not integration.host_token_env:
        raise HostError(f"{label}: no {integration.host} token: give the name of the service's environment "
                        f"variable that holds it (docsvc-server integrations update --integration "
                        f"{integration.id} --host-token-env VAR)")
    token = os.environ.get(integration.host_token_env, "").strip()
    if not token:
        raise HostError(f"{label}: the service's environment has no {integration.host_token_env} (the variable "
                        f"--host-token-env names, which holds the {integration.host} token)")
    return Connection(token=token, token_source=f"${integration.host_token_env}", **common)


def _host_repo(integration: Integration, side: str) -> str:
    repo = integration.docs_host_repo if side == "docs" else integration.code_host_repo
    if not repo:
        raise HostError(f"{integration_label(integration)}: the {side} repository's project on {integration.host} "
                        f"is not known: docsvc-server integrations update --integration {integration.id} "
                        f"--{side}-host-repo OWNER/NAME")
    return repo


def clipped(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters at a line's end, saying how much was left out."""
    if len(text) <= limit:
        return text
    cut = text.rfind("\n", 0, limit - 80)
    cut = cut if cut > 0 else limit - 80
    return f"{text[:cut]}\n\n… ({len(text) - cut} more characters not shown)"


def _markdown_text(text: Any) -> str:
    """Plain text for a line of a Markdown body: one line, no HTML the host would render, no
    mention that pings someone (``@name``), no image or link syntax taken literally."""
    flat = " ".join(str(text).split())
    for char, escaped in (("\\", "\\\\"), ("<", "&lt;"), (">", "&gt;"), ("[", "\\["), ("]", "\\]"), ("`", "\\`"),
                          ("*", "\\*"), ("_", "\\_"), ("@", "@\u200b"), ("#", "\\#"), ("|", "\\|")):
        flat = flat.replace(char, escaped)
    return flat


def pull_request_body(summary: str, pages: list[dict[str, Any]], footer: str) -> str:
    """A pull request's description: what changes and why, page by page (``pages``: path, what is
    done to it, the reasons), clipped to what the hosts take."""
    lines = [_markdown_text(summary), ""]
    for page in pages:
        lines.append(f"### `{str(page.get('path', '')).replace('`', '')}`" +
                     (f" ({_markdown_text(page['mode'])})" if page.get("mode") else ""))
        reasons = page.get("reasons") or []
        lines.extend(f"- {_markdown_text(reason)}" for reason in reasons)
        if not reasons:
            lines.append("- (no reason recorded)")
        lines.append("")
    lines.append(_markdown_text(footer))
    return clipped("\n".join(lines), BODY_LIMIT)


def open_pull_request(integration: Integration, side: str, branch: str, base: str, title: str, body: str,
                      egress: Egress | None = None, wait: float = HOST_WAIT) -> dict[str, Any]:
    """Open the pull request of the pushed ``branch`` into ``base`` on the integration's ``side``
    (docs or code) repository, or take the open one of that branch; its record for an item's
    ``pull_request``. HostError (one sentence naming the integration) when the host refuses."""
    repo = _host_repo(integration, side)
    with closing(connect(integration.host, _connection(integration, egress, wait))) as host:
        found = host.open_pull_request(repo, branch, base, clipped(" ".join(title.split()), TITLE_LIMIT), body)
    return {**found.record(), "integration_id": integration.id}


def apply_state(item: Item, state: str, review: str | None = None) -> bool:
    """Set the live state (open, closed, merged) and review of an item's pull request, as the host
    says (a refresh here, or a webhook's event); a merged pull request moves the item to done.
    Returns whether anything changed; the caller commits."""
    record = dict(item.pull_request or {})
    before = (record.get("state"), record.get("review"), item.work_status)
    record["state"] = state
    if review is not None:
        record["review"] = review
    item.pull_request = record
    if state == "merged" and item.work_status not in ("done", "rejected"):
        item.work_status = "done"
    return before != (record.get("state"), record.get("review"), item.work_status)


def refresh(session: Session, item: Item, egress: Egress | None = None, wait: float = HOST_WAIT) -> bool:
    """Read an item's pull request from its host and keep its state and review (``apply_state``).
    False, with nothing asked, for a pull request that is a plain-git branch. HostError when the host
    refuses. The caller commits."""
    record = item.pull_request or {}
    integration = session.get(Integration, record.get("integration_id") or 0) if record.get("number") else None
    if integration is None or integration.org_id != item.org_id or record.get("host") != integration.host:
        return False
    with closing(connect(integration.host, _connection(integration, egress, wait))) as host:
        found = host.pull_request(record["repo"], int(record["number"]))
    return apply_state(item, found.state, found.review)


def items_with_pull_request(session: Session, integration_ids: set[int]) -> list[Item]:
    """The items, not done or rejected, whose pull request was opened through the host of one of
    these integrations: whom a refresh concerns. Chosen by the database, as the webhooks'
    ``_docs_pull_request`` chooses its items, not by reading every item that has a pull request."""
    if not integration_ids:
        return []
    return list(session.scalars(select(Item).where(
        Item.pull_request.is_not(None), Item.work_status.not_in(("done", "rejected")),
        Item.pull_request["integration_id"].as_integer().in_(sorted(integration_ids)),
        Item.pull_request["number"].as_integer().is_not(None))).unique())


def refresh_open(session: Session, integration_ids: list[int], egress: Egress | None = None,
                 most: int = 100) -> tuple[int, list[str]]:
    """Refresh the open host pull requests of the items of these integrations (the poll, for hosts
    that send no webhooks): (how many changed, the errors, one line each). Commits each change."""
    changed, errors = 0, []
    items = [i for i in items_with_pull_request(session, set(integration_ids)) if i.pull_request.get("state") == "open"]
    for item in items[:most]:
        try:
            if refresh(session, item, egress):
                session.commit()
                changed += 1
        except HostError as exc:
            errors.append(f"item {item.id}: {exc}")
    return changed, errors
