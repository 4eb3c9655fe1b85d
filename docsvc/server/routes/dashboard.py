from __future__ import annotations

from fastapi import APIRouter, Depends, Request
from sqlalchemy.orm import Session

from ..services.accounts import Caller
from ..services.dashboard import dashboard as compute
from .deps import JSONBodyRoute, get_caller, get_session, reads_only

router = APIRouter(tags=["dashboard"], route_class=JSONBodyRoute)


@router.get("/dashboard")
@reads_only
def dashboard(request: Request, release_id: str | None = None, writer_id: str | None = None,
              tool: str | None = None, caller: Caller = Depends(get_caller), session: Session = Depends(get_session)):
    """The dashboard's numbers; ``release_id`` an id or ``none``, ``writer_id`` an id, ``none``,
    ``me`` or ``all`` (the default)."""
    return compute(session, caller, release_id=release_id, writer_id=writer_id, tool=tool,
                   egress=request.app.state.settings.egress)
