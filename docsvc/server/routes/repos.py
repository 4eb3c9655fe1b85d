from __future__ import annotations

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, ConfigDict, Field, StrictInt
from sqlalchemy.orm import Session

from ..services import repos as service
from ..services.accounts import Caller
from .deps import JSONBodyRoute, get_caller, get_session
from .jobs import accepted

router = APIRouter(tags=["repositories"], route_class=JSONBodyRoute)


class SyncBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    integration_id: StrictInt = Field(gt=0)


@router.post("/sync", status_code=202)
def sync(body: SyncBody, request: Request, caller: Caller = Depends(get_caller),
         session: Session = Depends(get_session)):
    service.org_integration(session, caller, body.integration_id)
    job = service.start_sync(session, org_id=caller.org_id, user_id=caller.user_id,
                             integration_id=body.integration_id,
                             max_attempts=request.app.state.settings.job_max_attempts)
    return accepted(request, job)


@router.get("/repos")
def repos(request: Request, caller: Caller = Depends(get_caller), session: Session = Depends(get_session)):
    return service.list_repos(session, caller, request.app.state.settings)


@router.post("/repos/{repo_id:id}/request-sync")
def request_sync(repo_id: int, request: Request, caller: Caller = Depends(get_caller),
                 session: Session = Depends(get_session)):
    return service.request_sync(session, caller, repo_id, request.app.state.settings.smtp_url)
