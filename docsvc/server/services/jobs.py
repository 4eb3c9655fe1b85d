"""Jobs as the caller may see them: ``GET /jobs/<id>``.

A job is visible to whoever may see its item (``items.visible_items``): a chat's job, whose
params hold the question and whose result holds the answer, exists only for the chat's author,
before the chat is saved as well as after; for anyone else, as for another organisation's job,
it is 404 (never leak existence).
"""

from __future__ import annotations

from typing import Callable

from sqlalchemy import Row, bindparam, func, select
from sqlalchemy.orm import Session

from ..db.tables import Job
from ..problems import is_int, not_found
from .accounts import Caller, Read
from .chats import KIND as CHAT
from .items import ITEMS, ORG_ID, USER_ID, visible_to

# Job kinds that make an item private to its author (chats): the job is the author's alone.
PRIVATE_KINDS = frozenset({CHAT})

_JOBS = Job.__table__.c
# Built once, of table columns (the route is what every client polls): the job's columns that its
# view (``jobs.queue.job_view``) and its visibility need, and of an item it names, whether it is
# the caller's organisation's (1 or 0) and whether the caller may see it.
_JOB = select(_JOBS.id, _JOBS.org_id, _JOBS.user_id, _JOBS.kind, _JOBS.state, _JOBS.params, _JOBS.progress,
              _JOBS.result, _JOBS.error, _JOBS.attempts, _JOBS.created_at, _JOBS.updated_at
              ).where(_JOBS.id == bindparam("job_id"))
_ITEM_SEEN = select(func.count(), func.count().filter(*visible_to(ORG_ID, USER_ID, ITEMS))).where(
    ITEMS.id == bindparam("item_id"), ITEMS.org_id == ORG_ID)


def _item_ids(job: Job | Row) -> set[int]:
    """The items a job works on or made (``params.item_id``, ``result.item_id``)."""
    ids = set()
    for data in (job.params, job.result):
        value = data.get("item_id") if isinstance(data, dict) else None
        if is_int(value):
            ids.add(value)
    return ids


def may_see(session: Session, caller: Caller, job: Job | Row) -> bool:
    if job.org_id != caller.org_id:
        return False
    if job.kind in PRIVATE_KINDS and job.user_id != caller.user_id:
        return False
    for item_id in _item_ids(job):
        exists, visible = session.execute(_ITEM_SEEN, {"item_id": item_id, "org_id": caller.org_id,
                                                       "user_id": caller.user_id}).one()
        if exists and not visible:
            return False
    return True


def get_job(job_id: str) -> tuple[list[Read], Callable[..., Row]]:
    """The job's read as the caller (``deps.hot_read``), and its answer: the job's row (``_JOB``'s
    columns, by name: what ``job_view`` reads of a ``Job``), 404 for one the caller may not see."""

    def answer(connection, caller: Caller, found: list[list]) -> Row:
        job = found[0][0] if found[0] else None
        if job is None or not may_see(connection, caller, job):
            raise not_found("Job", job_id)
        return job

    return [(_JOB, {"job_id": job_id})], answer
