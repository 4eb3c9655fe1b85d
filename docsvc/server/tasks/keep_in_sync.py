"""Keep in sync: check the remotes of integrations that ask for it, and enqueue a sync when a
branch moved; and read the state and review of their open pull requests on GitHub or GitLab (the
fallback for hosts that send no webhooks). Runs as one thread of the service; ``ls-remote`` only,
no fetch."""

from __future__ import annotations

import logging
import threading

from sqlalchemy import select

from ..db.tables import Integration, Job, RepoState
from ...egress import Egress
from ..engines.git import GitError, ls_remote_head
from ..services.pull_requests import refresh_open
from ..services.repos import start_sync, sync_key

log = logging.getLogger("docsvc.server.keep_in_sync")


def moved(integration: Integration, state: RepoState | None, egress: Egress | None = None) -> bool:
    if state is None or state.docs_commit is None:
        return True
    heads = (ls_remote_head(integration.code_repo, integration.code_branch, egress=egress),
             ls_remote_head(integration.docs_repo, integration.docs_branch, egress=egress))
    return heads != (state.code_commit, state.docs_commit)


def check_once(sessions, settings, notify) -> list[int]:
    """Enqueue a sync for each Keep-in-sync integration whose remote moved; returns their ids."""
    started = []
    with sessions() as session:
        for integration in session.scalars(select(Integration).where(Integration.keep_in_sync.is_(True))).all():
            pending = session.scalar(select(Job.id).where(
                Job.concurrency_key == sync_key(integration.id), Job.state.in_(("queued", "running"))))
            if pending is not None:
                continue
            try:
                if not moved(integration, session.get(RepoState, integration.id), settings.egress):
                    continue
            except GitError as exc:
                log.warning("keep in sync: cannot check %s: %s", integration.name, exc)
                continue
            start_sync(session, org_id=integration.org_id, user_id=None, integration_id=integration.id,
                       max_attempts=settings.job_max_attempts)
            started.append(integration.id)
    if started:
        notify()
    return started


def refresh_pull_requests(sessions, settings) -> int:
    """Follow the open host pull requests of Keep-in-sync integrations; how many changed."""
    with sessions() as session:
        ids = list(session.scalars(select(Integration.id).where(
            Integration.keep_in_sync.is_(True), Integration.host.in_(("github", "gitlab")))))
        if not ids:
            return 0
        changed, errors = refresh_open(session, ids, settings.egress)
    for error in errors:
        log.warning("keep in sync: cannot read a pull request: %s", error)
    return changed


class KeepInSync:
    def __init__(self, sessions, settings, notify) -> None:
        self.sessions, self.settings, self.notify = sessions, settings, notify
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self.settings.keep_in_sync_seconds <= 0:
            return
        self._thread = threading.Thread(target=self._loop, name="docsvc-keep-in-sync", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)

    def _loop(self) -> None:
        while not self._stop.wait(self.settings.keep_in_sync_seconds):
            try:
                check_once(self.sessions, self.settings, self.notify)
            except Exception:
                log.exception("keep in sync check failed")
            try:
                refresh_pull_requests(self.sessions, self.settings)
            except Exception:
                log.exception("keep in sync: following pull requests failed")
