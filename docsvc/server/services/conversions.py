"""Universal Converter: ``POST /convert`` starts a job; the result is a ``conversions`` item.

The spec is parsed while the request is open, so a text that is not JSON/YAML, or not the kind
of spec it says it is, is refused at once (422 with the line) instead of as a failed job. Its
text waits for the job in the data directory, not in the job row. Each saved conversion has a
share link: ``/api/v1/conversions/<id>/document?key=<token>`` opens the document in a browser,
where no API key can be sent; the token is random per conversion and opens nothing else.

Additions for large specs (the interface's JSON form stays as it was): the spec may come as a
``file`` part of a multipart/form-data body, its bytes as they are, instead of a JSON-escaped string;
``inline_document: false`` leaves the document out of the job's result (fetch its raw text from
``/conversions/<item_id>/document``); and the data parsed to check the spec is handed to the job
(``handoff``), so a spec is parsed once.
"""

from __future__ import annotations

import hmac
import secrets
import uuid
from typing import Any

from sqlalchemy.orm import Session

from .. import handoff
from ..spec_check import parse_spec
from ..db.tables import Item
from ..engines.convert import SOURCE_TYPES, TARGETS, SpecError
from ..jobs import queue
from ..problems import Problem, invalid, not_found
from ..storage import FileStore
from .accounts import Caller
from .uploads import not_utf8, spec_refused, upload_name

KIND = "convert"
FILE = "the file"  # an uploaded spec's name in answers when its part has none
MEDIA_TYPES = {"docusaurus": "text/markdown", "md": "text/markdown", "rst": "text/x-rst", "sphinx": "text/x-rst",
               "adoc": "text/asciidoc"}


def check_request(body: Any, upload: tuple[str | None, bytes] | None = None) -> tuple[str, str | bytes, str, bool]:
    """(source type, spec, target format, inline document) of a JSON body, or of the fields of a
    multipart one with its ``upload`` (file name, bytes). An uploaded spec stays bytes: the parser
    reads UTF-8 JSON as it is, and says when it is not UTF-8 (``start``)."""
    if not isinstance(body, dict):
        raise Problem(400, "The request body must be a JSON object")
    source_type, target = body.get("source_type"), body.get("target_format")
    if source_type not in SOURCE_TYPES:
        raise invalid("source_type", f"must be one of {', '.join(SOURCE_TYPES)}")
    if target not in TARGETS:
        raise invalid("target_format", f"must be one of {', '.join(TARGETS)}")
    inline = body.get("inline_document", True)
    if not isinstance(inline, bool):
        raise invalid("inline_document", "must be true or false")
    if upload is None:
        content = body.get("content")
        if not isinstance(content, str) or not content or content.isspace():  # not strip(): no copy of 13 MB
            raise invalid("content", "must be the spec's text (a non-empty string)")
        return source_type, content, target, inline
    if "content" in body:
        raise invalid("content", "send the spec once: as the file part or as content, not both")
    filename, raw = upload
    if not raw or raw.isspace():
        raise invalid("file", f"{upload_name(filename, FILE)} is empty")
    return source_type, raw, target, inline


def start(session: Session, caller: Caller, body: Any, store: FileStore, base_url: str, max_attempts: int,
          upload: tuple[str | None, bytes] | None = None):
    source_type, content, target, inline = check_request(body, upload)
    field = "content" if upload is None else "file"
    try:
        data = parse_spec(source_type, content)  # None: checked in a process apart
    except SpecError as exc:
        raise spec_refused(field, exc) from None
    except UnicodeDecodeError as exc:
        raise not_utf8(upload_name(upload[0], FILE), exc) from None
    path = store.save_input(content) if upload is None else store.save_upload("inputs", uuid.uuid4().hex, upload[1])
    size = len(content)
    del content
    params = {"source_type": source_type, "target_format": target, "input": path, "base_url": base_url.rstrip("/")}
    if not inline:
        params["inline_document"] = False
    if data is not None:
        handoff.leave(path, data, size)  # before the job exists: a worker may claim it the moment it does
    del data
    try:
        return queue.enqueue(session, org_id=caller.org_id, user_id=caller.user_id, kind=KIND, params=params,
                             max_attempts=max_attempts)
    except BaseException:
        handoff.take(path)  # no job will read it
        store.discard(path)
        raise


def share_url(base_url: str, item: Item) -> str:
    return f"{base_url}/api/v1/conversions/{item.id}/document?key={item.data['share_key']}"


def new_share_key() -> str:
    return secrets.token_urlsafe(24)


def document(session: Session, store: FileStore, item_id: int, caller: Caller | None,
             key: str | None) -> tuple[bytes, str]:
    """(the saved UTF-8 bytes, media type) of a saved conversion, for its own organisation or its
    share key. Bytes as they are on disk: a 7 MB document is not decoded only to be encoded again."""
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
    return path.read_bytes(), MEDIA_TYPES.get(item.data.get("target_format"), "text/plain")
