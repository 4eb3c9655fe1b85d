from __future__ import annotations

from fastapi import APIRouter, Depends, Request
from sqlalchemy.orm import Session

from ..services import chats as service
from ..services.accounts import Caller
from .deps import JSONBodyRoute, get_caller, get_session, json_body
from .jobs import accepted

router = APIRouter(tags=["chats"], route_class=JSONBodyRoute)


@router.post("/chats", status_code=202)
async def create_chat(request: Request, caller: Caller = Depends(get_caller), session: Session = Depends(get_session)):
    """``{question}``: a job answers it from the docs index and saves it as the caller's chat
    (an addition to the interface)."""
    body = await json_body(request)
    job = service.start(session, caller, body, request.app.state.settings.job_max_attempts)
    return accepted(request, job)


@router.get("/chats/{chat_id:id}")
def get_chat(chat_id: int, caller: Caller = Depends(get_caller), session: Session = Depends(get_session)):
    """One of the caller's own chats: question, answer and citations (an addition)."""
    return service.chat_view(service.get_chat(session, caller, chat_id))
