"""Universal Converter: ``POST /convert`` starts a job; the result is a ``conversions`` item.

The spec is parsed while the request is open, so a text that is not JSON/YAML, or not the kind
of spec it says it is, is refused at once (422 with the line) instead of as a failed job. Its
text waits for the job in the data directory, not in the job row. Each saved conversion has a
share link: ``/api/v1/conversions/<id>/document?key=<token>`` opens the document in a browser,
where no API key can be sent; the token is random per conversion and opens nothing else.
"""

from __future__ import annotations

import hmac
import secrets
from typing import Any

from sqlalchemy.orm import Session

from ..db.tables import Item
from ..engines.convert import SOURCE_TYPES, TARGETS, SpecError, parse
from ..jobs import queue
from ..problems import Problem, invalid, not_found
from ..storage import FileStore
from .accounts import Caller

KIND = "convert"
MEDIA_TYPES = {"docusaurus": "text/markdown", "md": "text/markdown", "rst": "text/x-rst", "sphinx": "text/x-rst",
               "adoc": "text/asciidoc"}


def check_request(body: Any) -> tuple[str, str, str]:
    if not isinstance(body, dict):
        raise Problem(400, "The request body must be a JSON object")
    source_type, content, target = body.get("source_type"), body.get("content"), body.get("target_format")
    if source_type not in SOURCE_TYPES:
        raise invalid("source_type", f"must be one of {', '.join(SOURCE_TYPES)}")
    if target not in TARGETS:
        raise invalid("target_format", f"must be one of {', '.join(TARGETS)}")
    if not isinstance(content, str) or not content.strip():
        raise invalid("content", "must be the spec's text (a non-empty string)")
    return source_type, content, target


def start(session: Session, caller: Caller, body: Any, store: FileStore, base_url: str, max_attempts: int):
    source_type, content, target = check_request(body)
    try:
        parse(source_type, content)
    except SpecError as exc:
        raise Problem(422, f"content: {exc}", errors=[{"loc": ["body", "content"], "msg": str(exc)}],
                      extra={"line": exc.line} if exc.line else None) from None
    path = store.save_input(content)
    return queue.enqueue(session, org_id=caller.org_id, user_id=caller.user_id, kind=KIND,
                         params={"source_type": source_type, "target_format": target, "input": path,
                                 "base_url": base_url.rstrip("/")}, max_attempts=max_attempts)


def share_url(base_url: str, item: Item) -> str:
    return f"{base_url}/api/v1/conversions/{item.id}/document?key={item.data['share_key']}"


def new_share_key() -> str:
    return secrets.token_urlsafe(24)


def document(session: Session, store: FileStore, item_id: int, caller: Caller | None, key: str | None) -> tuple[str, str]:
    """(text, media type) of a saved conversion, for its own organisation or its share key."""
    item = session.get(Item, item_id)
    if item is None or item.tool != "conversions" or "document" not in (item.data or {}):
        raise not_found("Conversion", item_id)
    allowed = (caller is not None and caller.org_id == item.org_id) or (
        key is not None and hmac.compare_digest(key, str(item.data.get("share_key", ""))))
    if not allowed:
        raise not_found("Conversion", item_id)
    path = store.absolute(item.data["document"])
    if not path.is_file():
        raise Problem(410, f"The document of conversion {item_id} is gone from the data directory")
    return path.read_text(encoding="utf-8"), MEDIA_TYPES.get(item.data.get("target_format"), "text/plain")
