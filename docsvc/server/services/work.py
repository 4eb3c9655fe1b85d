"""The caller's own work summary (``GET /me/work``).

- ``open``: items of any tool whose writer is the caller and whose status is not done or rejected
  (blocked ones included);
- ``blocked``: those of them that are blocked;
- ``docflows``: open Docflows suggestions waiting for review by the caller: theirs, or no one's yet;
- ``changes_requested``: the caller's open suggestions on which changes were requested and not
  yet answered by a new draft.
"""

from __future__ import annotations

from sqlalchemy import and_, func, or_, select
from sqlalchemy.orm import Session

from ..db.tables import Item
from .accounts import Caller
from .items import OPEN_STATUSES, visible_items


def work_summary(session: Session, caller: Caller) -> dict[str, int]:
    mine_open = and_(*visible_items(caller), Item.writer_user_id == caller.user_id, Item.work_status.in_(OPEN_STATUSES))
    docflows_open = and_(Item.org_id == caller.org_id, Item.tool == "docflows", Item.work_status.in_(OPEN_STATUSES))
    # The three counts in one query (a FILTER per count, PostgreSQL and SQLite alike): the route
    # is polled by every writer's dashboard, and each query costs more than its rows here.
    open_, blocked, docflows = session.execute(
        select(func.count().filter(mine_open),
               func.count().filter(mine_open, Item.work_status == "blocked"),
               func.count().filter(docflows_open, or_(Item.writer_user_id == caller.user_id,
                                                      Item.writer_user_id.is_(None))))
        .where(Item.org_id == caller.org_id)
    ).one()
    my_suggestions = session.scalars(select(Item.data).where(docflows_open, Item.writer_user_id == caller.user_id))
    return {
        "open": open_ or 0,
        "blocked": blocked or 0,
        "docflows": docflows or 0,
        "changes_requested": sum(1 for data in my_suggestions if (data or {}).get("changes_requested")),
    }
