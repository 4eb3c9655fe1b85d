"""Dependencies shared by the routers: the database session, the caller, paging."""

from __future__ import annotations

import json
import functools
import inspect
from typing import Any, AsyncIterator, Callable, Sequence, TypeVar

import anyio
from fastapi import Depends, Query, Request, Response, params
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.datastructures import DefaultPlaceholder
from fastapi.encoders import jsonable_encoder
from fastapi.dependencies.utils import get_typed_return_annotation
from fastapi.routing import APIRoute
from fastapi.utils import is_body_allowed_for_status_code
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from .. import jsoncodec
from ..problems import MAX_ID, OUT_OF_RANGE, Problem, check_in_range, is_int, written_beyond_max
from ..services.accounts import Caller, Read, bearer_token, caller_of_key, look_up_key, stamp_last_use
from .plain_call import plain_handler

T = TypeVar("T")


class JSONBody(JSONResponse):
    """A JSON answer written by ``jsoncodec`` (msgspec): the service's default, since a job's result
    may hold thousands of findings."""

    def render(self, content: Any) -> bytes:
        return jsoncodec.dumps_bytes(content)


async def get_session(request: Request) -> AsyncIterator[Session]:
    """The request's session. Made and closed on the event loop: making one does no I/O, and a
    sync dependency would cost the request two more trips through the thread pool (to enter and
    to leave), as much CPU as the query it serves (the load profile in benchmarks/api_load.py).
    The hot reads take none (``get_key``, ``hot_read``)."""
    session = request.app.state.sessions()
    try:
        yield session
    finally:
        session.close()


class PendingCaller:
    """The request's API key, read from its header but not yet looked up: ``get_caller``'s answer
    to a ``JSONBodyRoute``, which looks it up (``resolve``) just before its endpoint runs.

    A sync endpoint's lookup runs in the endpoint's own thread, in the same transaction and on the
    same pooled connection as the endpoint's queries: a request makes one trip through the thread
    pool and one connection checkout, not two of each (on a read of a few rows, each trip cost
    about as much CPU as the query it served). An async endpoint gets it looked up in a thread
    before it runs, as before, unless it takes the ``PendingCaller`` itself (its parameter
    annotated so) to resolve it in a thread of its own."""

    __slots__ = ("session", "token", "caller", "sessions")

    def __init__(self, session: Session | None, token: str, sessions=None) -> None:
        self.session = session  # None (``get_key``): ``resolve_apart`` makes one of ``sessions``
        self.token = token
        self.caller: Caller | None = None
        self.sessions = sessions

    def resolve(self) -> Caller:
        """The caller (401 for an unknown or revoked key), looked up once; blocking: call it in a thread."""
        if self.caller is None:
            self.caller = caller_of_key(self.session, self.token)
        return self.caller

    def resolve_apart(self) -> Caller:
        """``resolve``, then the lookup's connection back to the pool: for a request that waits
        (for the event loop, a body, another thread) before its next query. A request must never
        hold a pooled connection while it waits for a thread: with more requests in flight than
        threads (40) and connections (15) together, every thread then waited for a connection and
        every connection for a thread, until the pool's timeout failed them
        (tests/integration/test_request_burst.py)."""
        if self.session is None:
            with self.sessions() as self.session:
                try:
                    return self.resolve()
                finally:
                    self.session = None
        try:
            return self.resolve()
        finally:
            self.session.rollback()  # ends the lookup's transaction (a stamp of last use is committed already)


_PENDING_CALLER = "docsvc.pending_caller"  # the request's PendingCaller, in its ASGI scope


async def get_caller(request: Request, session: Session = Depends(get_session)) -> Caller | PendingCaller:
    """The caller of the API key in ``Authorization`` (401 without a valid one). A missing or
    malformed header is refused here, on the event loop. For a ``JSONBodyRoute`` the key is looked
    up by the route (``PendingCaller``); any other route gets the ``Caller``, looked up here."""
    pending = PendingCaller(session, bearer_token(request.headers.get("authorization")))
    if getattr(request.scope.get("route"), "resolves_caller", False):
        request.scope[_PENDING_CALLER] = pending
        return pending
    return await anyio.to_thread.run_sync(pending.resolve_apart)


# A hot read: its reads as the caller (``accounts.Read``) and what makes the answer of their rows,
# ``answer(connection, caller, rows)``, which may read more on the connection.
HotRead = tuple[Sequence[Read], Callable[[Connection, Caller, list[list]], T]]


async def hot_read(request: Request, pending: PendingCaller, prepare: Callable[[], HotRead[T]]) -> T:
    """The answer of ``prepare()``'s hot read, its reads folded into the key's lookup (one statement:
    ``accounts.look_up_key``), run by the app's ``db.reader.Reader``: on SQLite on the event loop,
    no thread; on PostgreSQL one thread trip and one round trip. For an async route taking
    ``caller: PendingCaller = Depends(get_key)``. ``prepare`` checks the request's own values (a
    422 it raises comes after the key's 401, as when the key was looked up first); the reads and
    ``answer`` must only read: the key's stamp of last use, when due (once a minute), is written
    afterwards in a thread."""
    due: list[int] = []

    def look_then_read(connection: Connection) -> T:
        try:
            reads, answer = prepare()
        except Problem as refused:  # the key first: told after its lookup
            reads, answer = (), refused
        caller, stamp, rows = look_up_key(connection, pending.token, reads)
        pending.caller = caller
        if stamp is not None:
            due.append(stamp)
        if isinstance(answer, Problem):
            raise answer
        return answer(connection, caller, rows)

    try:
        return await request.app.state.reader.run(look_then_read)
    finally:
        if due:
            await anyio.to_thread.run_sync(in_session, request.app.state.sessions, stamp_last_use, due[0])


def slow_threads(request: Request) -> anyio.CapacityLimiter | None:
    """The threads for blocking work that may take long (OCR, a code host's pull request, an
    ls-remote): ``app.SLOW_THREADS`` of their own, so that such requests never hold every request's
    thread. Made by the app's lifespan; None (anyio's default threads) without it."""
    return getattr(request.app.state, "slow_threads", None)


def in_session(sessions, fn: Callable[..., T], *args: Any) -> T:
    """``fn(session, *args)`` in a session of its own (blocking: in a thread), for the work a hot
    read leaves for after it (a stamp, a slow look outside)."""
    with sessions() as session:
        return fn(session, *args)


async def get_key(request: Request) -> PendingCaller:
    """The request's API key, read from ``Authorization`` (401 without one) but not yet looked up,
    and no Session made: for an async route that reads with ``hot_read``, which looks the key up on
    the read's own connection. Its parameter is annotated ``PendingCaller``."""
    pending = PendingCaller(None, bearer_token(request.headers.get("authorization")), request.app.state.sessions)
    request.scope[_PENDING_CALLER] = pending
    return pending


JSON_TYPE = "application/json"


def _is_json(content_type: str) -> bool:
    media = content_type.split(";")[0].strip().lower()
    return media == JSON_TYPE or (media.startswith("application/") and media.endswith("+json"))


async def json_body(request: Request, *, optional: bool = False, or_else: str | None = None,
                    max_bytes: int | None = None) -> Any:
    """The request's JSON body (None for an empty one when ``optional``). The one reader of JSON
    bodies: of the routes that read their own, and (``JSONBodyRoute``) of those with a body model.
    415 when it is sent as another media type (``or_else``: the other one the route takes); no
    Content-Type at all is read as JSON. 400 when it is not JSON, or nests too deeply to read. With
    ``max_bytes``, a body longer is refused (413) as it arrives, never parsed: the service's body
    limit is sized for specs, and parsing megabytes of JSON costs many times their size. What it
    must hold is the service's to say."""
    raw = await request.body() if max_bytes is None else await bounded_body(request, max_bytes)
    if optional and not raw.strip():
        return None
    content_type = request.headers.get("content-type")
    if content_type is not None and not _is_json(content_type):
        expected = JSON_TYPE + (f" or {or_else}" if or_else else "")
        given = content_type.split(";")[0].strip() or "an empty type"
        raise Problem(415, f"The request body must be {expected}, not {given}")
    try:
        body = json.loads(raw)
    except RecursionError:
        raise Problem(400, "The request nests too deeply to be read") from None
    except ValueError:
        raise Problem(400, "The request body is not valid JSON") from None
    check_in_range(body)
    # Kept for the app's error handler: a value the database refuses later is named by its field.
    request.state.json_body = body
    return body


class JSONBodyRoute(APIRoute):
    """A route whose body is a model (``body: SomeModel``) reads it with ``json_body`` first, so every
    JSON endpoint has the same rules. FastAPI's own reading would validate a text/plain or form body
    as a string (422 'Input should be a valid dictionary') and call JSON nested too deep 'There was
    an error parsing the body'. The routers' route_class."""

    def __init__(self, path: str, endpoint, **kwargs) -> None:
        # json_body has decided the media type by the time FastAPI looks: it must use what was read
        # (its strict mode would refuse a body without a Content-Type, which json_body accepts).
        kwargs["strict_content_type"] = False
        endpoint, self.resolves_caller = _resolving_caller(endpoint)
        status = kwargs.get("status_code")
        # Answered as JSON by the endpoint itself: then always a Response, which a plain call needs.
        self.answers_json = (isinstance(kwargs.get("response_class", DefaultPlaceholder(None)), DefaultPlaceholder)
                             and _unmodelled(endpoint, kwargs.get("response_model", DefaultPlaceholder(None)))
                             and is_body_allowed_for_status_code(status or 200))
        if self.answers_json:
            endpoint = _answered_as_json(endpoint, status)
        super().__init__(path, endpoint, **kwargs)

    def get_route_handler(self):
        handle = _numbers_in_range(super().get_route_handler(), _effective(self).dependant)
        if self.resolves_caller:
            handle = _key_before_parameters(handle)
        if self.answers_json:
            effective = _effective(self)
            handle = plain_handler(effective.dependant, effective.dependency_overrides_provider, handle) or handle
        if self.body_field is None or isinstance(self.body_field.field_info, params.Form):
            return handle

        async def read_json_then_handle(request: Request) -> Response:
            if await request.body():
                # Starlette's cache of request.json(), which FastAPI calls next: the body is read once.
                request._json = await json_body(request)
            return await handle(request)

        return read_json_then_handle


def _effective(route: APIRoute):
    """The route as the app includes it (its prefix's dependencies added): what FastAPI's handler
    serves, read as FastAPI's own ``get_route_handler`` reads it."""
    import fastapi.routing

    context = getattr(fastapi.routing, "_effective_route_context_var", None)
    effective = context.get() if context is not None else None
    return effective if effective is not None and getattr(effective, "original_route", None) is route else route


def _numbers_in_range(handle, dependant):
    """``handle``, refusing a path id or an integer query value beyond MAX_ID before the route runs:
    a 422 naming it, as FastAPI words a refused parameter. Left to the database, SQLite would look it
    up (a 404) and PostgreSQL fail mid-query. Path ids come from the ``{name:id}`` convertor as ints."""
    int_queries = [field.alias for field in dependant.query_params if _reads_int(field)]

    async def handle_in_range(request: Request) -> Response:
        found = [("path", name) for name, value in request.path_params.items() if is_int(value) and value > MAX_ID]
        found += [("query", name) for name in int_queries if written_beyond_max(request.query_params.get(name, ""))]
        if found:
            raise RequestValidationError([{"type": "less_than_equal", "loc": found[0], "msg": OUT_OF_RANGE}])
        return await handle(request)

    return handle_in_range


def _reads_int(field) -> bool:
    annotation = field.field_info.annotation
    return annotation is int or int in getattr(annotation, "__args__", ())


def _key_before_parameters(handle):
    """``handle``, answering 401 rather than 422 to a request with both an unknown key and a bad
    parameter, as when the key was looked up before the parameters were checked: FastAPI does not
    call the endpoint (where the key is looked up) when a parameter is invalid."""

    async def handle_checking_key_first(request: Request) -> Response:
        try:
            return await handle(request)
        except RequestValidationError:
            pending = request.scope.get(_PENDING_CALLER)
            if pending is not None and pending.caller is None:
                await anyio.to_thread.run_sync(pending.resolve_apart)  # raises the 401
            raise

    return handle_checking_key_first


def _resolving_caller(endpoint):
    """``endpoint``, looking up the ``PendingCaller`` of each of its ``Depends(get_caller)``
    parameters before it runs, and whether it has any (or a ``Depends(get_key)``): a sync endpoint
    in its own thread, an async one in a thread first. A parameter annotated ``PendingCaller`` is
    left to the endpoint."""
    taking = {name: parameter.annotation for name, parameter in inspect.signature(endpoint).parameters.items()
              if isinstance(parameter.default, params.Depends)
              and parameter.default.dependency in (get_caller, get_key)}
    names = [name for name, annotation in taking.items() if annotation not in (PendingCaller, "PendingCaller")]
    if not names:
        return endpoint, bool(taking)
    if inspect.iscoroutinefunction(endpoint):
        @functools.wraps(endpoint)
        async def resolving(**arguments):
            for name in names:
                if isinstance(arguments[name], PendingCaller):
                    arguments[name] = await anyio.to_thread.run_sync(arguments[name].resolve_apart)
            return await endpoint(**arguments)
    else:
        @functools.wraps(endpoint)
        def resolving(**arguments):
            for name in names:
                if isinstance(arguments[name], PendingCaller):
                    arguments[name] = arguments[name].resolve()
            return endpoint(**arguments)
    return resolving, True


def _unmodelled(endpoint, response_model) -> bool:
    """Whether FastAPI gives the route no response model (none named, no return annotation that
    is one): what it answers is then only encoded, never validated."""
    if inspect.isgeneratorfunction(endpoint) or inspect.isasyncgenfunction(endpoint):
        return False
    if isinstance(response_model, DefaultPlaceholder):
        annotation = get_typed_return_annotation(endpoint)
        return annotation is None or (isinstance(annotation, type) and issubclass(annotation, Response))
    return response_model is None


def _answered_as_json(endpoint, status_code: int | None):
    """``endpoint``, answering what it returns as a ``JSONBody`` itself, as FastAPI would for a route
    without a response model (the app's default class), but with FastAPI's ``jsonable_encoder``
    only for values that need it: on plain JSON values (``jsoncodec.plain``) that walk took a third
    of the CPU of a listing of 30 items. The status and headers set on a ``response: Response``
    parameter are kept, as FastAPI keeps them; a Response, or a status without a body, is left as
    it is. Always a Response otherwise: what a plain call (``plain_call``) needs."""

    def answer(result: Any, arguments: dict) -> Any:
        if isinstance(result, Response):
            return result
        given = next((value for value in arguments.values() if isinstance(value, Response)), None)
        status = (given.status_code if given is not None and given.status_code else None) or status_code or 200
        if not is_body_allowed_for_status_code(status):
            return result
        # What FastAPI answers without a response model: jsonable_encoder's walk, only when needed.
        plain = type(result) in (dict, list) and jsoncodec.plain(result)
        response = JSONBody(result if plain else jsonable_encoder(result), status_code=status)
        if given is not None:
            response.headers.raw.extend(given.headers.raw)
        return response

    if inspect.iscoroutinefunction(endpoint):
        @functools.wraps(endpoint)
        async def answered(**arguments):
            return answer(await endpoint(**arguments), arguments)
    else:
        @functools.wraps(endpoint)
        def answered(**arguments):
            return answer(endpoint(**arguments), arguments)
    return answered


async def bounded_body(request: Request, max_bytes: int) -> bytes:
    """The request's raw body, refused (413) as soon as it is declared or arrives longer than
    ``max_bytes``: never held beyond that."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > max_bytes:
        raise _too_large(max_bytes)
    chunks, seen = [], 0
    async for chunk in request.stream():
        seen += len(chunk)
        if seen > max_bytes:
            raise _too_large(max_bytes)
        chunks.append(chunk)
    return b"".join(chunks)


def _too_large(max_bytes: int) -> Problem:
    return Problem(413, f"The request body is larger than this request accepts ({max_bytes} bytes)")


class Page:
    """``limit``/``offset`` paging with an RFC 8288 ``Link: <...>; rel="next"`` header: a route
    takes it as ``page: Page = Depends(paging)``."""

    def __init__(self, request: Request, limit: int | None, offset: int) -> None:
        settings = request.app.state.settings
        self.request = request
        self.limit = min(limit or settings.page_size_default, settings.page_size_max)
        self.offset = offset

    def link(self, response: Response, total: int) -> None:
        if self.offset + self.limit < total:
            url = self.request.url.include_query_params(limit=self.limit, offset=self.offset + self.limit)
            response.headers["Link"] = f'<{url}>; rel="next"'
        response.headers["X-Total-Count"] = str(total)


async def paging(request: Request, limit: int | None = Query(None, ge=1, description="page size"),
                 offset: int = Query(0, ge=0)) -> Page:
    """The request's ``Page``. Async: FastAPI would run a class (or a sync function) as a
    dependency in a thread, a trip costing more than what it computes."""
    return Page(request, limit, offset)


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
