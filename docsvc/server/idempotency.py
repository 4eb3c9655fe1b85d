"""``Idempotency-Key`` on POST: the same key from the same API key within the TTL gets the same
answer and starts no second job.

An ASGI middleware, so every POST route gets it without knowing: it resolves the caller's API key,
fingerprints the request, reserves the key, lets the route answer, and stores answers below 500
for replay. A key reused with a different request is refused (422); a key whose first request is
still running answers 409 with ``Retry-After`` (the client waits and asks again).

Keys are scoped per API key (draft-ietf-httpapi-idempotency-key-header leaves a key's uniqueness
to the resource server): a key is one client's name for one of its own requests, so another
client, even of the same organisation, using the same key is a different request with its own
processing. It is neither replayed another client's answer (that would leak it) nor refused
(that would tell it someone else used the key).

The fingerprint is method, path, query and body. A multipart/form-data body is fingerprinted by
its parts (name, filename, content type, length and SHA-256 of the content, in order), not its
bytes, so a retry that the HTTP library encodes with a new boundary is the same request. The
body streams through: it is hashed as it arrives and spooled (in memory up to 1 MB, then on disk)
for the route; the body-size limit (``limits.py``) sits outside this middleware.

The answer is stored before its last byte is sent, so a client that has read a complete answer
and asks again is always replayed it; an answer whose client went away mid-way is stored too.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import tempfile
from typing import IO, Any

import anyio
from python_multipart.exceptions import FormParserError
from python_multipart.multipart import MultipartParser, parse_options_header
from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError

from .db.tables import ApiKey, IdempotencyRecord, User, utcnow
from .problems import PROBLEM_JSON, Problem
from .services.accounts import hash_key

_SPOOL_IN_MEMORY = 1 << 20  # larger bodies (screenshots) spill to disk instead of memory
# The body is replayed to the route in pieces this large: a 13 MB spec in 13 messages, not 200, each
# passing every middleware and the route's multipart parser (3x faster on 1 MiB pieces than 64 KiB).
_READ_CHUNK = 1 << 20
_MAX_PARTS = 1000  # past this a body is fingerprinted by its bytes
# A first request still "in progress" after this long was cut off (the service stopped mid-way):
# its key is taken over by the next request instead of answering 409 until the TTL ends.
_ABANDONED_AFTER = dt.timedelta(minutes=10)
IN_PROGRESS_TYPE = "urn:docsvc:problem:idempotency-key-in-use"


class _MultipartDigest:
    """The parts of a multipart/form-data body as they stream by: one line per part with its
    name, filename, content type, length and content digest. Memory stays flat: part headers
    are bounded by the parser, contents are only hashed."""

    def __init__(self, boundary: bytes) -> None:
        self.parts: list[list[Any]] = []
        self.done = False
        self.failed = False
        self._headers: dict[str, bytes] = {}
        self._field = b""
        self._value = b""
        self._hash = hashlib.sha256()
        self._size = 0
        self._parser = MultipartParser(boundary, {
            "on_part_begin": self._begin, "on_header_field": self._on_field, "on_header_value": self._on_value,
            "on_header_end": self._header_end, "on_part_data": self._data, "on_part_end": self._end,
            "on_end": self._finish})

    def _begin(self) -> None:
        self._headers, self._hash, self._size = {}, hashlib.sha256(), 0

    def _on_field(self, data: bytes, start: int, end: int) -> None:
        self._field += data[start:end]

    def _on_value(self, data: bytes, start: int, end: int) -> None:
        self._value += data[start:end]

    def _header_end(self) -> None:
        self._headers[self._field.decode("latin-1").strip().lower()] = self._value.strip()
        self._field = self._value = b""

    def _data(self, data: bytes, start: int, end: int) -> None:
        self._hash.update(data[start:end])
        self._size += end - start

    def _end(self) -> None:
        if len(self.parts) >= _MAX_PARTS:
            raise FormParserError("too many parts to fingerprint")
        _, disposition = parse_options_header(self._headers.get("content-disposition", b""))
        self.parts.append([disposition.get(b"name", b"").decode("latin-1"),
                           None if b"filename" not in disposition else disposition[b"filename"].decode("latin-1"),
                           self._headers.get("content-type", b"").decode("latin-1"),
                           self._size, self._hash.hexdigest()])

    def _finish(self) -> None:
        self.done = True

    def write(self, chunk: bytes) -> None:
        if self.failed or not chunk:
            return
        try:
            self._parser.write(chunk)
        except FormParserError:
            self.failed = True

    def hexdigest(self) -> str | None:
        if self.failed or not self.done:
            return None
        return hashlib.sha256(json.dumps(self.parts, separators=(",", ":")).encode()).hexdigest()


class RequestFingerprint:
    """What makes two requests "the same request" for an idempotency key."""

    def __init__(self, method: str, path: str, query: bytes, content_type: str | None) -> None:
        self._target = f"{method} {path}?".encode() + query
        self._raw = hashlib.sha256(b"raw\n" + self._target + b"\n")
        self._multipart: _MultipartDigest | None = None
        kind, params = parse_options_header(content_type or "")
        boundary = params.get(b"boundary")
        if kind == b"multipart/form-data" and boundary:
            try:
                self._multipart = _MultipartDigest(boundary)
            except (FormParserError, ValueError):
                self._multipart = None

    def update(self, chunk: bytes) -> None:
        # A multipart body's bytes are hashed only if it turns out not to be well-formed (hexdigest):
        # hashing every upload twice cost 7 ms on a 13 MB spec.
        if self._multipart is not None:
            self._multipart.write(chunk)
        else:
            self._raw.update(chunk)

    def hexdigest(self, body: IO[bytes] | None = None) -> str:
        """The fingerprint. ``body``: the whole body again, read from its start (and left there) if a
        multipart body was not well-formed, since then its bytes themselves are the fingerprint."""
        parts = self._multipart.hexdigest() if self._multipart is not None else None
        if parts is not None:
            return hashlib.sha256(b"multipart\n" + self._target + b"\n" + parts.encode()).hexdigest()
        if self._multipart is not None:  # not well-formed: the bytes themselves, read again
            if body is None:
                raise ValueError("a multipart body that is not well-formed is fingerprinted by its bytes: pass them")
            body.seek(0)
            for chunk in iter(lambda: body.read(_READ_CHUNK), b""):
                self._raw.update(chunk)
            body.seek(0)
            self._multipart = None
        return self._raw.hexdigest()


def scoped_key(api_key_id: int, key: str) -> str:
    """The stored form of a client's key: its API key's namespace and the key, hashed (fits the
    column whatever the key's length; the key itself is not kept)."""
    return hashlib.sha256(f"{api_key_id}\0{key}".encode()).hexdigest()


class IdempotencyMiddleware:
    """``unkeyed``: path prefixes the middleware leaves alone. The code hosts' webhooks are one:
    they prove themselves by a signature, not an API key, and keep their own record of delivery
    ids (GitLab's Idempotency-Key among them), so no key, API key or answer of this middleware
    may stand in for that check, nor its spooling come before it."""

    def __init__(self, app, *, get_sessions, ttl_seconds: float, unkeyed: tuple[str, ...] = ()) -> None:
        self.app = app
        self.get_sessions = get_sessions
        self.ttl = dt.timedelta(seconds=ttl_seconds)
        self.unkeyed = unkeyed

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST" or scope["path"].startswith(self.unkeyed):
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        key = headers.get("idempotency-key", "").strip()
        if not key or not headers.get("authorization"):
            # No key, or no API key to scope it to: nothing this middleware could replay, so the
            # body streams straight through, unspooled. Webhooks never get here (``unkeyed``).
            return await self.app(scope, receive, send)
        if len(key) > 200:
            return await _send_problem(send, Problem(400, "Idempotency-Key must be at most 200 characters"))

        with tempfile.SpooledTemporaryFile(max_size=_SPOOL_IN_MEMORY) as spool:
            fingerprint = RequestFingerprint(scope["method"], scope["path"], scope.get("query_string", b""),
                                             headers.get("content-type"))
            while True:
                message = await receive()
                if message["type"] == "http.disconnect":
                    return
                chunk = message.get("body", b"")
                fingerprint.update(chunk)
                spool.write(chunk)
                if not message.get("more_body"):
                    break
            spool.seek(0)
            replayed_all = False

            async def replay_body():
                nonlocal replayed_all
                if replayed_all:  # the body was all given: from now on, the client's own events
                    return await receive()
                chunk = spool.read(_READ_CHUNK)
                more = len(chunk) == _READ_CHUNK
                replayed_all = not more
                return {"type": "http.request", "body": chunk, "more_body": more}

            await self._handle(scope, replay_body, send, headers, key, fingerprint.hexdigest(spool))

    async def _handle(self, scope, receive, send, headers, key: str, request_hash: str) -> None:
        caller = await anyio.to_thread.run_sync(self._caller_of, headers.get("authorization"))
        if caller is None:  # not authenticated: the route answers 401 itself
            return await self.app(scope, receive, send)
        org_id, api_key_id = caller
        outcome, record = await anyio.to_thread.run_sync(
            self._reserve, org_id, scoped_key(api_key_id, key), request_hash)
        if outcome == "replay":
            return await _send_stored(send, record)
        if outcome == "busy":
            return await _send_problem(send, Problem(
                409, "A request with this Idempotency-Key is still being processed; retry later",
                type=IN_PROGRESS_TYPE, headers={"Retry-After": "1"}))
        if outcome == "mismatch":
            return await _send_problem(send, Problem(
                422, "This Idempotency-Key was already used for a different request"))

        captured: dict[str, Any] = {"status": 500, "headers": [], "body": bytearray(), "stored": False}

        async def forward(message) -> None:
            try:
                await send(message)
            except OSError:  # the client went away: the answer is stored all the same
                pass

        async def capture(message) -> None:
            if message["type"] == "http.response.start":
                captured["status"] = message["status"]
                captured["headers"] = message.get("headers", [])
            elif message["type"] == "http.response.body":
                captured["body"] += message.get("body", b"")
                if not message.get("more_body") and not captured["stored"]:
                    # Stored before the last byte goes out: whoever has the whole answer and asks
                    # again gets it replayed, never a 409.
                    await anyio.to_thread.run_sync(self._finish, record, captured)
                    captured["stored"] = True
            await forward(message)

        try:
            await self.app(scope, receive, capture)
        except BaseException:
            if not captured["stored"]:
                with anyio.CancelScope(shield=True):
                    await anyio.to_thread.run_sync(self._forget, record)
            raise
        if not captured["stored"]:  # an app that never finished its answer
            await anyio.to_thread.run_sync(self._forget, record)

    # --- database work, run in a thread ---

    def _caller_of(self, authorization: str | None) -> tuple[int, int] | None:
        """(organisation, API key) of a valid bearer key, else None."""
        if not authorization or not authorization.lower().startswith("bearer "):
            return None
        token = authorization[7:].strip()
        with self.get_sessions()() as session:
            row = session.execute(
                select(User.org_id, ApiKey.id).join(ApiKey, ApiKey.user_id == User.id)
                .where(ApiKey.key_hash == hash_key(token), ApiKey.revoked_at.is_(None))
            ).first()
            return (row[0], row[1]) if row is not None else None

    def _reserve(self, org_id: int, key: str, request_hash: str):
        with self.get_sessions()() as session:
            now = utcnow()
            session.execute(delete(IdempotencyRecord).where(IdempotencyRecord.created_at < now - self.ttl))
            session.execute(delete(IdempotencyRecord).where(
                IdempotencyRecord.org_id == org_id, IdempotencyRecord.key == key,
                IdempotencyRecord.status_code.is_(None), IdempotencyRecord.created_at < now - _ABANDONED_AFTER))
            session.commit()
            record = IdempotencyRecord(org_id=org_id, key=key, request_hash=request_hash)
            session.add(record)
            try:
                session.commit()
                return "new", record.id
            except IntegrityError:
                session.rollback()
            existing = session.scalar(select(IdempotencyRecord).where(
                IdempotencyRecord.org_id == org_id, IdempotencyRecord.key == key))
            if existing is None:  # expired and removed in between: treat as new next time
                return "busy", None
            if existing.request_hash != request_hash:
                return "mismatch", None
            if existing.status_code is None:
                return "busy", None
            return "replay", (existing.status_code, existing.headers or {}, existing.body or b"")

    def _finish(self, record_id: int, captured: dict) -> None:
        """Keep an answer below 500 for replay; forget the key after a 5xx, so a retry runs again."""
        if captured["status"] >= 500:
            return self._forget(record_id)
        keep = {"content-type", "location", "retry-after", "link"}
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in captured["headers"]
                   if k.decode("latin-1").lower() in keep}
        with self.get_sessions()() as session:
            record = session.get(IdempotencyRecord, record_id)
            if record is not None:
                record.status_code = captured["status"]
                record.headers = headers
                record.body = bytes(captured["body"])
                session.commit()

    def _forget(self, record_id: int) -> None:
        with self.get_sessions()() as session:
            session.execute(delete(IdempotencyRecord).where(IdempotencyRecord.id == record_id))
            session.commit()


async def _send_stored(send, stored) -> None:
    status, headers, body = stored
    raw = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in headers.items()]
    raw.append((b"idempotent-replayed", b"true"))
    raw.append((b"content-length", str(len(body)).encode()))
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": body})


async def _send_problem(send, problem: Problem) -> None:
    body = json.dumps(problem.body()).encode()
    raw = [(b"content-type", PROBLEM_JSON.encode()), (b"content-length", str(len(body)).encode())]
    raw += [(k.lower().encode(), v.encode()) for k, v in problem.headers.items()]
    await send({"type": "http.response.start", "status": problem.status, "headers": raw})
    await send({"type": "http.response.body", "body": body})
