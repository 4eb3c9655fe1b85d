from __future__ import annotations

from fastapi import APIRouter, Depends, Request
from sqlalchemy.orm import Session

from ..db.tables import User
from ..services.accounts import Caller
from ..services.work import work_summary
from ..services.views import user_view
from .deps import JSONBodyRoute, PendingCaller, get_caller, get_key, get_session, hot_read

router = APIRouter(tags=["me"], route_class=JSONBodyRoute)


@router.get("/me")
def me(caller: Caller = Depends(get_caller), session: Session = Depends(get_session)):
    return user_view(session.get(User, caller.user_id))


@router.get("/me/work")
async def my_work(request: Request, caller: PendingCaller = Depends(get_key)):
    return await hot_read(request, caller, work_summary)
