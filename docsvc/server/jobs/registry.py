"""Job handlers by kind. A module of ``server/tasks`` registers ``@handler("sync")``; a worker looks it up."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from sqlalchemy.orm import Session, sessionmaker

__all__ = ["JobContext", "JobFailure", "handler", "get_handler", "HANDLERS"]


class JobFailure(Exception):
    """An expected failure: the job ends ``failed`` with this title and detail (no traceback)."""

    def __init__(self, title: str, detail: str) -> None:
        super().__init__(detail)
        self.title = title
        self.detail = detail


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

    def progress(self, message: str, *, done: int | None = None, total: int | None = None) -> None:
        """Record progress; the worker writes it to the job row (throttled)."""
        self.report(message=message, done=done, total=total)


Handler = Callable[[JobContext], dict]
HANDLERS: dict[str, Handler] = {}


def handler(kind: str) -> Callable[[Handler], Handler]:
    def register(func: Handler) -> Handler:
        HANDLERS[kind] = func
        return func

    return register


def get_handler(kind: str) -> Handler | None:
    return HANDLERS.get(kind)
