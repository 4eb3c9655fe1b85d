"""Jobs as the caller may see them: ``GET /jobs/<id>``.

A job is visible to whoever may see its item (``items.visible_items``): a chat's job, whose
params hold the question and whose result holds the answer, exists only for the chat's author,
before the chat is saved as well as after; for anyone else, as for another organisation's job,
it is 404 (never leak existence).
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..db.tables import Item, Job
from ..problems import is_int, not_found
from .accounts import Caller
from .chats import KIND as CHAT
from .items import visible_items

# Job kinds that make an item private to its author (chats): the job is the author's alone.
PRIVATE_KINDS = frozenset({CHAT})


def _item_ids(job: Job) -> set[int]:
    """The items a job works on or made (``params.item_id``, ``result.item_id``)."""
    ids = set()
    for data in (job.params, job.result):
        value = data.get("item_id") if isinstance(data, dict) else None
        if is_int(value):
            ids.add(value)
    return ids


def may_see(session: Session, caller: Caller, job: Job) -> bool:
    if job.org_id != caller.org_id:
        return False
    if job.kind in PRIVATE_KINDS and job.user_id != caller.user_id:
        return False
    for item_id in _item_ids(job):
        exists = session.scalar(select(Item.id).where(Item.id == item_id, Item.org_id == caller.org_id))
        if exists is not None and session.scalar(
                select(Item.id).where(Item.id == item_id, *visible_items(caller))) is None:
            return False
    return True


def get_job(session: Session, caller: Caller, job_id: str) -> Job:
    job = session.get(Job, job_id)
    if job is None or not may_see(session, caller, job):
        raise not_found("Job", job_id)
    return job
