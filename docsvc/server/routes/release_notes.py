from __future__ import annotations

from fastapi import APIRouter, Depends
from pydantic import BaseModel, ConfigDict
from sqlalchemy.orm import Session

from ..services import release_notes as service
from ..services.accounts import Caller
from ..services.views import item_view
from .fields import Name
from .deps import JSONBodyRoute, get_caller, get_session

router = APIRouter(tags=["release-notes"], route_class=JSONBodyRoute)


class ComposerBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    release_id: int
    title: Name | None = None


@router.post("/release-notes", status_code=201)
def create(body: ComposerBody, caller: Caller = Depends(get_caller), session: Session = Depends(get_session)):
    """A Release Composer item for a release; its notes are assembled from the release's queue."""
    return item_view(service.create_composer(session, caller, body.release_id, body.title))


@router.get("/release-notes/{item_id:id}")
def get_notes(item_id: int, caller: Caller = Depends(get_caller), session: Session = Depends(get_session)):
    return service.composer_view(session, service.get_composer(session, caller, item_id))


@router.get("/releases/{release_id:id}/release-notes")
def release_queue(release_id: int, caller: Caller = Depends(get_caller), session: Session = Depends(get_session)):
    return service.queue(session, caller, release_id)
