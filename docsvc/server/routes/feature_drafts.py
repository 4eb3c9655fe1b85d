from __future__ import annotations

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, ConfigDict
from sqlalchemy.orm import Session

from ..services import feature_drafts as service
from ..services.accounts import Caller
from .fields import Name, Note
from .deps import JSONBodyRoute, get_caller, get_session, json_body
from .jobs import accepted

router = APIRouter(tags=["feature-drafts"], route_class=JSONBodyRoute)


@router.post("/feature-drafts", status_code=202)
async def create(request: Request, caller: Caller = Depends(get_caller), session: Session = Depends(get_session)):
    """``{title, brief, release_id?}``: the Writer drafts the page, the Editor reviews it (a job)."""
    body = await json_body(request)
    job = service.start(session, caller, body, request.app.state.settings.job_max_attempts)
    return accepted(request, job)


@router.get("/feature-drafts/{item_id:id}")
def get_draft(item_id: int, caller: Caller = Depends(get_caller), session: Session = Depends(get_session)):
    return service.view(session, service.get_draft(session, caller, item_id))


class DecisionBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    release_notes: Name | None = None
    rn_section: Name | None = None
    rn_category: Name | None = None
    rn_note: Note | None = None
    release_id: int | None = None


@router.get("/feature-drafts/{item_id:id}/release-notes")
def get_release_notes(item_id: int, caller: Caller = Depends(get_caller), session: Session = Depends(get_session)):
    return service.current_release_notes(service.get_draft(session, caller, item_id))


@router.put("/feature-drafts/{item_id:id}/release-notes")
def set_release_notes(item_id: int, body: DecisionBody, caller: Caller = Depends(get_caller),
                      session: Session = Depends(get_session)):
    return service.set_release_notes(session, caller, item_id, body.model_dump())


@router.post("/feature-drafts/{item_id:id}/approve")
def approve(item_id: int, body: DecisionBody | None = None, caller: Caller = Depends(get_caller),
            session: Session = Depends(get_session)):
    return service.approve(session, caller, item_id, body.model_dump() if body else {})
