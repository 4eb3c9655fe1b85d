"""Repositories (integrations) as the Repositories tab shows them: sync state, sync, and the
once-a-day request-sync email to the organisation's System Administrators.

One entry per integration. Its state counts the commits the last sync is behind the remotes'
current heads, on the code branch and the docs branch together; the code host names it. When the
code and the docs live on the same branch of the same repository, its commits are counted once.
"""

from __future__ import annotations

import datetime as dt
import logging

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..db.session import as_utc, rfc3339
from ..db.tables import Integration, Job, Organization, OutboxMail, RepoState, SyncRequest, User, utcnow
from ...egress import Egress
from ..engines.git import GitError, Mirror, remote_url
from ..jobs import queue
from ...credentials import hidden
from ..problems import Problem, not_found
from .accounts import Caller
from .integrations import code_host
from .outbox import MailError, send

log = logging.getLogger("docsvc.server.repos")

SYNC = "sync"  # the job kind (``tasks/sync``)


def sync_key(integration_id: int) -> str:
    """One sync of an integration at a time."""
    return f"sync:{integration_id}"


def org_integration(session: Session, caller: Caller, integration_id: int) -> Integration:
    integration = session.get(Integration, integration_id)
    if integration is None or integration.org_id != caller.org_id:
        raise not_found("Integration", integration_id)
    return integration


def start_sync(session: Session, *, org_id: int, user_id: int | None, integration_id: int,
               max_attempts: int) -> Job:
    return queue.enqueue(session, org_id=org_id, user_id=user_id, kind=SYNC,
                         params={"integration_id": integration_id},
                         concurrency_key=sync_key(integration_id), max_attempts=max_attempts)


def one_history(integration: Integration) -> bool:
    """The code and the docs are one branch of one repository: one history, counted once."""
    return (integration.code_branch == integration.docs_branch
            and remote_url(integration.code_repo) == remote_url(integration.docs_repo))


def refresh_remote(session: Session, integration: Integration, state: RepoState, mirrors_dir,
                   egress: Egress | None = None) -> None:
    """Fetch both mirrors (one when code and docs share a repository) and count how far the last
    sync is behind the remotes' heads."""
    try:
        counts, fetched = {}, set()
        for what, location, branch, synced in (
                ("code", integration.code_repo, integration.code_branch, state.code_commit),
                ("docs", integration.docs_repo, integration.docs_branch, state.docs_commit)):
            mirror = Mirror.for_url(mirrors_dir, location, egress)
            if mirror.path not in fetched:
                mirror.fetch()
                fetched.add(mirror.path)
            head = mirror.head(branch)
            # A synced commit gone from the mirror (a rewritten history): every commit is new to the index.
            known = synced if synced and mirror.has_commit(synced) else None
            counts[what] = (head, mirror.count_between(known, head))
        state.remote_code_commit, state.behind_code = counts["code"]
        state.remote_docs_commit, state.behind_docs = counts["docs"]
        state.remote_error = None
    except GitError as exc:
        state.remote_error = str(exc)
    state.remote_checked_at = utcnow()
    session.commit()


def repo_view(integration: Integration, state: RepoState | None) -> dict:
    host = code_host(integration.code_repo)
    if state is None or state.synced_at is None:
        label, behind = "Not synced yet", None
    else:
        known = [n for n in (state.behind_code, state.behind_docs) if n is not None]
        if one_history(integration) and known:
            known = [max(known)]  # the same commits, seen from the code side and the docs side
        behind = sum(known) if known else None
        label = "Up to date" if behind == 0 else (
            f"Behind {host}: {behind} commits" if behind is not None else f"Behind {host}: unknown")
    return {
        "id": integration.id,
        "integration_id": integration.id,
        "name": integration.name,
        "code_host": host,
        "code_repo": hidden(integration.code_repo),
        "docs_repo": hidden(integration.docs_repo),
        "state": label,
        "behind": behind,
        "behind_code": state.behind_code if state else None,
        "behind_docs": state.behind_docs if state else None,
        "last_synced_at": rfc3339(state.synced_at) if state else None,
        "synced_commit": state.docs_commit if state else None,
        "files_indexed": state.files_indexed if state else 0,
        "keep_in_sync": integration.keep_in_sync,
        "remote_checked_at": rfc3339(state.remote_checked_at) if state else None,
        "remote_error": state.remote_error if state else None,
    }


def list_repos(session: Session, caller: Caller, settings) -> list[dict]:
    integrations = session.scalars(select(Integration).where(Integration.org_id == caller.org_id)
                                   .order_by(Integration.id.desc())).all()
    views = []
    for integration in integrations:
        state = session.get(RepoState, integration.id)
        if state is not None and state.synced_at is not None:
            checked = as_utc(state.remote_checked_at)
            if checked is None or (utcnow() - checked).total_seconds() >= settings.remote_check_seconds:
                refresh_remote(session, integration, state, settings.mirrors_dir, settings.egress)
        views.append(repo_view(integration, state))
    return views


def _next_day(now: dt.datetime) -> dt.datetime:
    return dt.datetime.combine(now.date() + dt.timedelta(days=1), dt.time(), tzinfo=dt.timezone.utc)


def request_sync(session: Session, caller: Caller, integration_id: int, smtp_url: str | None) -> dict:
    """Email the organisation's System Administrators that the repository needs a sync; at most
    once per repository per UTC day (429 with Retry-After after that)."""
    integration = org_integration(session, caller, integration_id)
    now = utcnow()
    next_at = _next_day(now)

    def too_soon() -> Problem:
        wait = max(1, int((next_at - now).total_seconds()))
        return Problem(429, f"A sync of {integration.name!r} was already requested today; one email per "
                            f"repository per day", headers={"Retry-After": str(wait)},
                       extra={"next_possible_at": rfc3339(next_at)})

    if session.scalar(select(SyncRequest.id).where(SyncRequest.integration_id == integration.id,
                                                   SyncRequest.day == now.date())) is not None:
        raise too_soon()
    admins = session.scalars(select(User).where(User.org_id == caller.org_id, User.role == "admin")
                             .order_by(User.id)).all()
    if not admins:
        raise Problem(409, "Your organisation has no System Administrator to email")
    requester = session.get(User, caller.user_id)
    org = session.get(Organization, caller.org_id)
    state = session.get(RepoState, integration.id)
    view = repo_view(integration, state)
    body = (f"{requester.name} <{requester.email}> asks for a sync of the repository {integration.name!r} "
            f"in {org.name}.\n\nState: {view['state']}\nLast sync: {view['last_synced_at'] or 'never'}\n"
            f"Code: {view['code_repo']} ({integration.code_branch})\n"
            f"Docs: {view['docs_repo']} ({integration.docs_branch}) /{integration.docs_path}\n\n"
            f"Start it with: docsvc sync --integration-id {integration.id}\n")
    session.add(SyncRequest(org_id=caller.org_id, integration_id=integration.id, user_id=caller.user_id,
                            day=now.date()))
    try:
        session.flush()  # the unique (repository, day) row guards two requests at the same moment
    except IntegrityError:
        session.rollback()
        raise too_soon() from None
    try:
        delivery = send(session, smtp_url, org_id=caller.org_id, recipients=[a.email for a in admins],
                        subject=f"[docsvc] Sync requested: {integration.name}", body=body)
    except MailError as exc:
        session.rollback()  # not sent: the day's request stays available
        # The outbox still records the attempt and why it failed.
        session.add(OutboxMail(org_id=caller.org_id, recipients=[a.email for a in admins],
                               subject=f"[docsvc] Sync requested: {integration.name}", body=body, error=str(exc)))
        session.commit()
        raise Problem(502, f"Could not send the email: {exc}") from None
    session.commit()
    detail = (f"Emailed {len(admins)} System Administrator(s)" if delivery.sent else
              "No SMTP server is configured: the email was kept in the service's outbox and log")
    return {"sent": delivery.sent, "recipients": delivery.recipients, "outbox_id": delivery.outbox_id,
            "detail": detail, "next_possible_at": rfc3339(next_at), "repository": integration.name}
