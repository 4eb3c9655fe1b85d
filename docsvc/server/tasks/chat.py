"""The ``chat.answer`` job: answer a question from the indexed docs (``engines/chat``) and save the
chat with its citations."""

from __future__ import annotations

from sqlalchemy import func, select

from ..db.tables import Item, SearchDoc
from ..engines.chat import METHOD, compose, question_terms
from ..engines.chat import PASSAGES_READ
from ..jobs.registry import JobContext, handler
from ..services.chats import KIND
from ..services.search import passages_with_any


@handler(KIND)
def run(ctx: JobContext) -> dict:
    question = ctx.params["question"]
    terms = question_terms(question)
    ctx.progress("Reading the docs index")
    with ctx.sessions() as session:
        indexed = (session.scalar(select(func.count()).select_from(SearchDoc)
                                  .where(SearchDoc.org_id == ctx.org_id)) or 0) > 0
        found = passages_with_any(session, ctx.org_id, terms, limit=PASSAGES_READ) if indexed else []
    answer = compose(question, found, indexed=indexed)
    ctx.progress("Saving the chat")
    title = " ".join(question.split())
    with ctx.sessions() as session:
        item = Item(org_id=ctx.org_id, tool="chats", created_by_id=ctx.user_id,
                    title=title if len(title) <= 120 else title[:119] + "…",
                    data={"question": question, "answer": answer.answer, "citations": answer.citations,
                          "terms": answer.terms, "method": METHOD, "job_id": ctx.job_id})
        session.add(item)
        session.flush()
        return ctx.complete(session, {
            "chat_id": item.id, "item_id": item.id, "question": question, "answer": answer.answer,
            "citations": answer.citations, "answered": bool(answer.citations), "method": METHOD})
