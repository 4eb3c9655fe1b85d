"""DocOps Assistant chats (an addition to the interface): ``POST /chats`` starts a job that
answers a question from the docs index (``engines/chat.py``); ``GET /chats/<id>`` reads one.

A chat is private to its creator: for anyone else, the same organisation's admins included, it
does not exist (404), as in ``GET /items/chats``.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from ..db.tables import Item
from ..engines.chat import METHOD
from ..jobs import queue
from ..problems import Problem, invalid
from .views import item_view
from .accounts import Caller
from .items import get_item

KIND = "chat.answer"  # the job kind (``tasks/chat``)

MAX_QUESTION = 2000


def start(session: Session, caller: Caller, body: Any, max_attempts: int):
    if not isinstance(body, dict):
        raise Problem(400, "The request body must be a JSON object")
    question = body.get("question")
    if not isinstance(question, str) or not question.strip():
        raise invalid("question", "must be a non-empty string")
    if len(question) > MAX_QUESTION:
        raise invalid("question", f"must be at most {MAX_QUESTION} characters")
    return queue.enqueue(session, org_id=caller.org_id, user_id=caller.user_id, kind=KIND,
                         params={"question": question.strip()}, max_attempts=max_attempts)


def get_chat(session: Session, caller: Caller, chat_id: int) -> Item:
    return get_item(session, caller, "chats", chat_id)  # someone else's chat does not exist for them


def chat_view(item: Item) -> dict[str, Any]:
    data = item.data or {}
    return {**item_view(item), "question": data.get("question", item.title), "answer": data.get("answer"),
            "citations": data.get("citations") or [], "method": data.get("method", METHOD)}
