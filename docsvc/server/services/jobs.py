"""Jobs as the caller may see them: ``GET /jobs/<id>``.

A job is visible to whoever may see its item (``items.visible_items``): a chat's job, whose
params hold the question and whose result holds the answer, exists only for the chat's author,
before the chat is saved as well as after; for anyone else, as for another organisation's job,
it is 404 (never leak existence).
"""

from __future__ import annotations

from typing import Callable

from sqlalchemy import Row, and_, bindparam, exists, false, func, select

from ..db.jsonint import json_int
from ..db.tables import Job
from ..problems import not_found
from .accounts import Caller, Read
from .chats import KIND as CHAT
from .items import ITEMS, ORG_ID, USER_ID, visible_to

# Job kinds that make an item private to its author (chats): the job is the author's alone.
PRIVATE_KINDS = frozenset({CHAT})

_JOBS = Job.__table__.c
# Built once, of table columns (the route is what every client polls): the job's columns that its
# view (``jobs.queue.job_view``) and its visibility need, and whether an item it names (its params'
# or its result's ``item_id``) is one of the caller's organisation that the caller may not see.
_HIDDEN_ITEM = exists().where(
    ITEMS.id.in_([json_int(_JOBS.params, "item_id"), json_int(_JOBS.result, "item_id")]), ITEMS.org_id == ORG_ID,
    ~func.coalesce(and_(*visible_to(ORG_ID, USER_ID, ITEMS)), false()))
_JOB = select(_JOBS.id, _JOBS.org_id, _JOBS.user_id, _JOBS.kind, _JOBS.state, _JOBS.params, _JOBS.progress,
              _JOBS.result, _JOBS.error, _JOBS.attempts, _JOBS.created_at, _JOBS.updated_at,
              _HIDDEN_ITEM.label("hides_item")).where(_JOBS.id == bindparam("job_id"))


def may_see(caller: Caller, job: Row) -> bool:
    """Whether the caller may see ``job``, a row of ``_JOB`` read as the caller."""
    if job.org_id != caller.org_id:
        return False
    if job.kind in PRIVATE_KINDS and job.user_id != caller.user_id:
        return False
    return not job.hides_item


def get_job(job_id: str) -> tuple[list[Read], Callable[..., Row]]:
    """The job's read as the caller (``deps.hot_read``), and its answer: the job's row (``_JOB``'s
    columns, by name: what ``job_view`` reads of a ``Job``), 404 for one the caller may not see."""

    def answer(connection, caller: Caller, found: list[list]) -> Row:
        job = found[0][0] if found[0] else None
        if job is None or not may_see(caller, job):
            raise not_found("Job", job_id)
        return job

    return [(_JOB, {"job_id": job_id})], answer
