from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Body, Depends, Request
from sqlalchemy.orm import Session

from ..services import captures as service
from ..services.accounts import Caller
from .deps import JSONBodyRoute, get_caller, get_session
from .jobs import accepted

router = APIRouter(tags=["captures"], route_class=JSONBodyRoute)


@router.post("/captures", status_code=202)
def create(request: Request, body: Any = Body(None), caller: Caller = Depends(get_caller),
           session: Session = Depends(get_session)):
    """``{title?, start_url, steps: [{action, selector?, text?, url?, description}]}``; checked now,
    walked in Chromium by the job."""
    settings = request.app.state.settings
    job = service.start(session, caller, body, settings.job_max_attempts, settings.egress)
    return accepted(request, job)


@router.get("/captures/{item_id:id}")
def get_capture(item_id: int, caller: Caller = Depends(get_caller), session: Session = Depends(get_session)):
    return service.capture_view(service.get_capture(session, caller, item_id))


@router.get("/captures/{item_id:id}/zoom")
def get_zoom(item_id: int, caller: Caller = Depends(get_caller), session: Session = Depends(get_session)):
    return service.get_zoom(session, caller, item_id)


@router.put("/captures/{item_id:id}/zoom")
def set_zoom(item_id: int, body: Any = Body(None), caller: Caller = Depends(get_caller),
             session: Session = Depends(get_session)):
    """``{mode?, steps?: {step_id: on|off|default}}``; all or nothing."""
    return service.set_zoom(session, caller, item_id, body)
