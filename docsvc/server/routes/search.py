from __future__ import annotations

from fastapi import APIRouter, Depends, Query
from sqlalchemy.orm import Session

from ..services import search as service
from ..services.accounts import Caller
from ..services.repos import org_integration
from .deps import JSONBodyRoute, get_caller, get_session

router = APIRouter(tags=["search"], route_class=JSONBodyRoute)


@router.get("/search")
def search(q: str = Query(..., description="words to look for"), integration_id: int | None = None,
           limit: int = Query(20, ge=1, le=200), caller: Caller = Depends(get_caller),
           session: Session = Depends(get_session)):
    """Search the synced docs (an addition to the interface)."""
    if integration_id is not None:
        org_integration(session, caller, integration_id)
    return [hit.view() for hit in service.search(session, caller.org_id, q, integration_id=integration_id,
                                                 limit=limit)]
