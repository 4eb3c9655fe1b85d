from __future__ import annotations

from fastapi import APIRouter, Depends
from sqlalchemy.orm import Session

from ..services.accounts import Caller
from ..services.releases import list_releases
from ..services.views import release_view
from .deps import JSONBodyRoute, get_caller, get_session

router = APIRouter(tags=["releases"], route_class=JSONBodyRoute)


@router.get("/releases")
def releases(caller: Caller = Depends(get_caller), session: Session = Depends(get_session)):
    return [release_view(r) for r in list_releases(session, caller.org_id)]
