"""Dependencies shared by the routers: the database session, the caller, paging."""

from __future__ import annotations

import json
from typing import Any, Iterator

from fastapi import Depends, Query, Request, Response
from fastapi.responses import JSONResponse
from sqlalchemy.orm import Session

from .. import jsoncodec
from ..problems import Problem
from ..services.accounts import Caller, authenticate


class JSONBody(JSONResponse):
    """A JSON answer written by ``jsoncodec`` (msgspec): the service's default, since a job's result
    may hold thousands of findings."""

    def render(self, content: Any) -> bytes:
        return jsoncodec.dumps_bytes(content)


def get_session(request: Request) -> Iterator[Session]:
    session = request.app.state.sessions()
    try:
        yield session
    finally:
        session.close()


def get_caller(request: Request, session: Session = Depends(get_session)) -> Caller:
    return authenticate(session, request.headers.get("authorization"))


async def json_body(request: Request, *, optional: bool = False, max_bytes: int | None = None) -> Any:
    """The request's JSON body (None for an empty one when ``optional``); 400 when it is not JSON.
    With ``max_bytes``, a body longer is refused (413) as it arrives, never parsed: the service's
    body limit is sized for specs, and parsing megabytes of JSON costs many times their size.
    What the body must hold is the service's to say."""
    if max_bytes is None:
        raw = await request.body()
    else:
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > max_bytes:
            raise _too_large(max_bytes)
        chunks, seen = [], 0
        async for chunk in request.stream():
            seen += len(chunk)
            if seen > max_bytes:
                raise _too_large(max_bytes)
            chunks.append(chunk)
        raw = b"".join(chunks)
    if optional and not raw.strip():
        return None
    try:
        return json.loads(raw)
    except ValueError:
        raise Problem(400, "The request body is not valid JSON") from None


def _too_large(max_bytes: int) -> Problem:
    return Problem(413, f"The request body is larger than this request accepts ({max_bytes} bytes)")


class Page:
    """``limit``/``offset`` paging with an RFC 8288 ``Link: <...>; rel="next"`` header."""

    def __init__(
        self,
        request: Request,
        limit: int | None = Query(None, ge=1, description="page size"),
        offset: int = Query(0, ge=0),
    ) -> None:
        settings = request.app.state.settings
        self.request = request
        self.limit = min(limit or settings.page_size_default, settings.page_size_max)
        self.offset = offset

    def link(self, response: Response, total: int) -> None:
        if self.offset + self.limit < total:
            url = self.request.url.include_query_params(limit=self.limit, offset=self.offset + self.limit)
            response.headers["Link"] = f'<{url}>; rel="next"'
        response.headers["X-Total-Count"] = str(total)


_MAX_FORM_PARTS = 100
_MAX_TEXT_FIELD = 64 * 1024


async def small_form(request: Request) -> tuple[dict[str, str], list[tuple[str, str | None, bytes]]]:
    """A multipart/form-data body read into memory: (text fields, [(name, filename, bytes) of each
    file part]). For endpoints that need a file's whole content at once anyway (a spec to parse):
    Starlette's ``request.form()`` spools each file to disk a chunk at a time through a thread, which
    on a 13 MB spec takes longer than parsing it. The body's size is bounded by the service's
    request limit; 400 for a body that is not well-formed multipart."""
    from python_multipart.exceptions import FormParserError
    from python_multipart.multipart import MultipartParser, parse_options_header

    _, options = parse_options_header(request.headers.get("content-type", ""))
    boundary = options.get(b"boundary")
    if not boundary:
        raise Problem(400, "The multipart/form-data body has no boundary")
    fields: dict[str, str] = {}
    files: list[tuple[str, str | None, bytes]] = []
    part: dict = {}

    def begin() -> None:
        part.clear()
        part.update(headers={}, field=b"", value=b"", chunks=[], size=0)
        if len(fields) + len(files) >= _MAX_FORM_PARTS:
            raise FormParserError("too many parts")

    def header_field(data: bytes, start: int, end: int) -> None:
        part["field"] += data[start:end]

    def header_value(data: bytes, start: int, end: int) -> None:
        part["value"] += data[start:end]

    def header_end() -> None:
        part["headers"][part["field"].decode("latin-1").strip().lower()] = part["value"].strip()
        part["field"] = part["value"] = b""

    def data(chunk: bytes, start: int, end: int) -> None:
        part["chunks"].append(chunk[start:end])
        part["size"] += end - start

    def end() -> None:
        _, disposition = parse_options_header(part["headers"].get("content-disposition", b""))
        name = disposition.get(b"name", b"").decode("utf-8", "replace")
        content = b"".join(part.pop("chunks"))
        if b"filename" in disposition:
            files.append((name, disposition[b"filename"].decode("utf-8", "replace"), content))
        elif len(content) > _MAX_TEXT_FIELD:
            raise FormParserError(f"the field {name} is too long")
        else:
            fields[name] = content.decode("utf-8", "replace")

    parser = MultipartParser(boundary, {"on_part_begin": begin, "on_header_field": header_field,
                                        "on_header_value": header_value, "on_header_end": header_end,
                                        "on_part_data": data, "on_part_end": end})
    try:
        async for chunk in request.stream():
            parser.write(chunk)
        parser.finalize()
    except FormParserError as exc:
        raise Problem(400, f"The multipart/form-data body is not well-formed: {exc}") from None
    return fields, files
