from __future__ import annotations

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response
from sqlalchemy.orm import Session

from ..services import conversions as service
from ..services.accounts import Caller, authenticate
from .deps import get_caller, get_session, json_body
from .jobs import accepted

router = APIRouter(tags=["convert"])


@router.post("/convert", status_code=202)
async def convert(request: Request, caller: Caller = Depends(get_caller), session: Session = Depends(get_session)):
    """``{source_type, content, target_format}``; the spec is checked now, converted by the job."""
    import anyio

    body = await json_body(request)
    settings = request.app.state.settings
    # Parsing a large spec takes a moment: off the event loop.
    job = await anyio.to_thread.run_sync(lambda: service.start(
        session, caller, body, request.app.state.store, str(request.base_url), settings.job_max_attempts))
    return accepted(request, job)


@router.get("/conversions/{item_id:int}/document")
def document(item_id: int, request: Request, key: str | None = None, session: Session = Depends(get_session)):
    """The saved document: with the caller's API key, or with the conversion's share key (the link)."""
    header = request.headers.get("authorization")
    caller = authenticate(session, header) if header or key is None else None  # neither: 401
    text, media_type = service.document(session, request.app.state.store, item_id, caller, key)
    return Response(text, media_type=f"{media_type}; charset=utf-8")
