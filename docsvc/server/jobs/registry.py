"""Job handlers by kind. A module of ``server/tasks`` registers ``@handler("sync")``; a worker looks it up."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from sqlalchemy.orm import Session, sessionmaker

from ...credentials import hidden

__all__ = ["JobContext", "JobFailure", "LeaseLost", "handler", "get_handler", "HANDLERS"]

# Where ``JobContext.complete`` leaves the result for the worker's commit fence (``worker.py``).
RESULT_KEY = "docsvc.job_result"


class JobFailure(Exception):
    """An expected failure: the job ends ``failed`` with this title and detail (no traceback)."""

    def __init__(self, title: str, detail: str) -> None:
        super().__init__(detail)
        self.title = title
        self.detail = detail


class LeaseLost(Exception):
    """This attempt no longer holds its job (its lease ran out and another worker took the job
    over): the attempt's changes are rolled back and its work is dropped."""


@dataclass
class JobContext:
    job_id: str
    kind: str
    org_id: int
    user_id: int | None
    params: dict[str, Any]
    attempt: int
    sessions: sessionmaker[Session]
    settings: Any
    report: Callable[..., None] = field(repr=False, default=lambda **_: None)
    completed: bool = False  # set by ``complete``: the job's row already holds the result

    @property
    def scratch_dir(self) -> Path:
        """A folder of this attempt's own for files on their way into the store: an attempt
        re-run by another process after a lost lease never shares (or deletes) its files."""
        return Path(self.settings.data_dir) / "tmp" / f"{self.job_id}.{self.attempt}"

    def complete(self, session: Session, result: dict) -> dict:
        """Commit the session's changes (the job's effects) and the job's completion with
        ``result`` in one transaction; returns ``result``. A crash before the commit leaves
        neither (the job runs again), a crash after leaves both (it does not): effects happen
        once. Raises LeaseLost, committing nothing, when the attempt was taken over."""
        session.info[RESULT_KEY] = result
        session.commit()
        self.completed = True
        return result

    def progress(self, message: str, *, done: int | None = None, total: int | None = None) -> None:
        """Record progress; the worker writes it to the job row (throttled)."""
        self.report(message=hidden(message), done=done, total=total)  # messages name repositories


Handler = Callable[[JobContext], dict]
HANDLERS: dict[str, Handler] = {}


def handler(kind: str) -> Callable[[Handler], Handler]:
    def register(func: Handler) -> Handler:
        HANDLERS[kind] = func
        return func

    return register


def get_handler(kind: str) -> Handler | None:
    return HANDLERS.get(kind)
