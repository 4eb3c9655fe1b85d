"""DocOps Assistant chats (an addition to the interface): ``POST /chats`` starts a job that
answers a question from the docs index (``engines/chat.py``); ``GET /chats/<id>`` reads one.

A chat is private to its creator: for anyone else, the same organisation's admins included, it
does not exist (404), as in ``GET /items/chats``.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..db.tables import Item
from ..engines.chat import KIND, METHOD
from ..jobs import queue
from ..problems import Problem, invalid, not_found
from ..views import item_view
from .accounts import Caller

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
    item = session.scalar(select(Item).where(Item.id == chat_id, Item.tool == "chats",
                                             Item.org_id == caller.org_id, Item.created_by_id == caller.user_id))
    if item is None:
        raise not_found("Chat", chat_id)  # someone else's chat does not exist for the caller
    return item


def chat_view(item: Item) -> dict[str, Any]:
    data = item.data or {}
    return {**item_view(item), "question": data.get("question", item.title), "answer": data.get("answer"),
            "citations": data.get("citations") or [], "method": data.get("method", METHOD)}
