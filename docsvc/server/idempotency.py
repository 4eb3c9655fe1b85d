"""``Idempotency-Key`` on POST: the same key from the same organisation within the TTL gets the
same answer and starts no second job.

An ASGI middleware, so every POST route gets it without knowing: it resolves the caller's
organisation from the key, hashes the request (method, path, query, body), reserves the key,
lets the route answer, and stores answers below 500 for replay. A key reused with a different
request is refused (422); a key whose first request is still running answers 409.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import tempfile
from typing import Any

import anyio
from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError

from .db.tables import ApiKey, IdempotencyRecord, User, utcnow
from .problems import PROBLEM_JSON, Problem
from .services.accounts import hash_key

_SPOOL_IN_MEMORY = 1 << 20  # larger bodies (screenshots) spill to disk instead of memory


class IdempotencyMiddleware:
    def __init__(self, app, *, get_sessions, ttl_seconds: float) -> None:
        self.app = app
        self.get_sessions = get_sessions
        self.ttl = dt.timedelta(seconds=ttl_seconds)

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        key = headers.get("idempotency-key", "").strip()
        if not key:
            return await self.app(scope, receive, send)
        if len(key) > 200:
            return await _send_problem(send, Problem(400, "Idempotency-Key must be at most 200 characters"))

        spool = tempfile.SpooledTemporaryFile(max_size=_SPOOL_IN_MEMORY)
        digest = hashlib.sha256(f"{scope['method']} {scope['path']}?".encode() + scope.get("query_string", b""))
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                spool.close()
                return
            chunk = message.get("body", b"")
            digest.update(chunk)
            spool.write(chunk)
            if not message.get("more_body"):
                break
        spool.seek(0)

        async def replay_body():
            chunk = spool.read(64 * 1024)
            return {"type": "http.request", "body": chunk, "more_body": bool(chunk)}

        try:
            org_id = await anyio.to_thread.run_sync(self._org_of, headers.get("authorization"))
            if org_id is None:  # not authenticated: the route answers 401 itself
                return await self.app(scope, replay_body, send)
            outcome, record = await anyio.to_thread.run_sync(self._reserve, org_id, key, digest.hexdigest())
            if outcome == "replay":
                return await _send_stored(send, record)
            if outcome == "busy":
                return await _send_problem(send, Problem(
                    409, "A request with this Idempotency-Key is still being processed; retry later",
                    headers={"Retry-After": "1"}))
            if outcome == "mismatch":
                return await _send_problem(send, Problem(
                    422, "This Idempotency-Key was already used for a different request"))

            captured: dict[str, Any] = {"status": 500, "headers": [], "body": bytearray()}

            async def capture(message) -> None:
                if message["type"] == "http.response.start":
                    captured["status"] = message["status"]
                    captured["headers"] = message.get("headers", [])
                elif message["type"] == "http.response.body":
                    captured["body"] += message.get("body", b"")
                await send(message)

            try:
                await self.app(scope, replay_body, capture)
            except BaseException:
                await anyio.to_thread.run_sync(self._forget, record)
                raise
            if captured["status"] >= 500:
                await anyio.to_thread.run_sync(self._forget, record)
            else:
                await anyio.to_thread.run_sync(self._store, record, captured)
        finally:
            spool.close()

    # --- database work, run in a thread ---

    def _org_of(self, authorization: str | None) -> int | None:
        if not authorization or not authorization.lower().startswith("bearer "):
            return None
        token = authorization[7:].strip()
        with self.get_sessions()() as session:
            return session.scalar(
                select(User.org_id).join(ApiKey, ApiKey.user_id == User.id)
                .where(ApiKey.key_hash == hash_key(token), ApiKey.revoked_at.is_(None))
            )

    def _reserve(self, org_id: int, key: str, request_hash: str):
        with self.get_sessions()() as session:
            session.execute(delete(IdempotencyRecord).where(IdempotencyRecord.created_at < utcnow() - self.ttl))
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

    def _store(self, record_id: int, captured: dict) -> None:
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
