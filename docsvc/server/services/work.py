"""The caller's own work summary (``GET /me/work``).

- ``open``: items of any tool whose writer is the caller and whose status is not done or rejected
  (blocked ones included);
- ``blocked``: those of them that are blocked;
- ``docflows``: open Docflows suggestions waiting for review by the caller: theirs, or no one's yet;
- ``changes_requested``: the caller's open suggestions on which changes were requested and not
  yet answered by a new draft.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import and_, func, or_, select

from .accounts import Caller, Read
from .items import ITEMS, ORG_ID, USER_ID, is_open, visible_to

_MINE_OPEN = and_(*visible_to(ORG_ID, USER_ID, ITEMS), ITEMS.writer_user_id == USER_ID, is_open(ITEMS.work_status))
_DOCFLOWS_OPEN = and_(ITEMS.org_id == ORG_ID, ITEMS.tool == "docflows", is_open(ITEMS.work_status))
# Built once (the route is polled by every writer's dashboard, and building a statement cost
# more than running it). The three counts in one query: a FILTER per count, PostgreSQL and
# SQLite alike.
_COUNTS = select(
    func.count().filter(_MINE_OPEN),
    func.count().filter(_MINE_OPEN, ITEMS.work_status == "blocked"),
    func.count().filter(_DOCFLOWS_OPEN, or_(ITEMS.writer_user_id == USER_ID, ITEMS.writer_user_id.is_(None))),
).where(ITEMS.org_id == ORG_ID)
_MY_SUGGESTIONS = select(ITEMS.data).where(_DOCFLOWS_OPEN, ITEMS.writer_user_id == USER_ID)


def _answer(_connection, _caller: Caller, rows: list[list]) -> dict[str, int]:
    counts, my_suggestions = rows
    open_, blocked, docflows = counts[0]
    return {
        "open": open_ or 0,
        "blocked": blocked or 0,
        "docflows": docflows or 0,
        "changes_requested": sum(1 for (data,) in my_suggestions if (data or {}).get("changes_requested")),
    }


def work_summary() -> tuple[list[Read], Any]:
    """The summary's reads as the caller, and its answer of their rows (``deps.hot_read``)."""
    return [(_COUNTS, {}), (_MY_SUGGESTIONS, {})], _answer
