"""``Idempotency-Key`` on POST, through the real app and middleware on a real database."""

import hashlib
import io
import json
import tracemalloc

import anyio
import pytest
from fastapi import Depends, Request
from fastapi.testclient import TestClient
from sqlalchemy import select

from docsvc.server.app import create_app
from docsvc.server.db.tables import IdempotencyRecord
from docsvc.server.idempotency import RequestFingerprint
from docsvc.server.routes.deps import get_caller
from docsvc.server.services.accounts import add_user, create_key, create_org
from docsvc.server.settings import ServerSettings
from tests.unit.dbfixtures import db  # noqa: F401  (fixture)


@pytest.fixture()
def app(db, tmp_path):
    application = create_app(ServerSettings(database_url=db.url, data_dir=tmp_path), start_workers=False)
    calls = []

    def echo(request: Request, payload: dict, caller=Depends(get_caller)):  # like every real route
        calls.append(payload)
        if application.meanwhile is not None:
            application.meanwhile()
        if payload.get("crash"):
            raise RuntimeError("boom")
        return {"call": len(calls), "payload": payload}

    async def upload(request: Request, caller=Depends(get_caller)):  # a multipart route, like docflow's
        form = await request.form()
        parts = [(name, getattr(value, "filename", None),
                  hashlib.sha256(await value.read() if hasattr(value, "read") else value.encode()).hexdigest()[:8])
                 for name, value in form.multi_items()]
        calls.append({"user": caller.email, "parts": parts})
        return {"call": len(calls), "user": caller.email, "parts": parts}

    application.add_api_route("/api/v1/test/echo", echo, methods=["POST"], status_code=202)
    application.add_api_route("/api/v1/test/upload", upload, methods=["POST"], status_code=202)
    application.calls = calls
    application.meanwhile = None  # run while the route handles a request
    return application


def post(client, key, body, token):
    headers = {"Authorization": f"Bearer {token}"}
    if key:
        headers["Idempotency-Key"] = key
    return client.post("/api/v1/test/echo", json=body, headers=headers)


def test_same_key_same_request_is_answered_once(app, db):
    client = TestClient(app)
    first = post(client, "k1", {"a": 1}, db.key)
    again = post(client, "k1", {"a": 1}, db.key)
    assert first.status_code == again.status_code == 202
    assert first.json() == again.json() == {"call": 1, "payload": {"a": 1}}
    assert again.headers["idempotent-replayed"] == "true"
    assert len(app.calls) == 1


def test_same_key_different_request_is_refused(app, db):
    client = TestClient(app)
    post(client, "k2", {"a": 1}, db.key)
    clash = post(client, "k2", {"a": 2}, db.key)
    assert clash.status_code == 422
    assert clash.headers["content-type"] == "application/problem+json"
    assert "already used for a different request" in clash.json()["detail"]
    assert len(app.calls) == 1


def test_without_a_key_every_request_runs(app, db):
    client = TestClient(app)
    post(client, None, {"a": 1}, db.key)
    post(client, None, {"a": 1}, db.key)
    assert len(app.calls) == 2


def test_keys_are_per_organisation(app, db):
    with db.sessions() as session:
        other = add_user(session, create_org(session, "Beta"), "bob@beta.test", "admin")
        _, other_key = create_key(session, other)
        session.commit()
    client = TestClient(app)
    assert post(client, "shared", {"a": 1}, db.key).json()["call"] == 1
    assert post(client, "shared", {"a": 1}, other_key).json()["call"] == 2


def test_server_errors_are_not_stored_so_a_retry_runs_again(app, db):
    client = TestClient(app, raise_server_exceptions=False)
    assert post(client, "k3", {"crash": True}, db.key).status_code == 500
    assert post(client, "k3", {"crash": True}, db.key).status_code == 500
    assert len(app.calls) == 2


def test_unauthenticated_posts_get_401_not_a_replay(app, db):
    client = TestClient(app)
    answer = post(client, "k4", {"a": 1}, "dsv_unknown")
    assert answer.status_code == 401 and app.calls == []


# -- multipart bodies: the same parts are the same request, whatever the boundary -------------


def multipart(boundary: str, parts: list[tuple[str, str | None, bytes]]) -> bytes:
    out = b""
    for name, filename, content in parts:
        disposition = f'form-data; name="{name}"' + (f'; filename="{filename}"' if filename else "")
        out += f"--{boundary}\r\nContent-Disposition: {disposition}\r\n".encode()
        if filename:
            out += b"Content-Type: image/png\r\n"
        out += b"\r\n" + content + b"\r\n"
    return out + f"--{boundary}--\r\n".encode()


def upload(client, key, token, boundary, parts):
    return client.post("/api/v1/test/upload", content=multipart(boundary, parts),
                       headers={"Authorization": f"Bearer {token}", "Idempotency-Key": key,
                                "Content-Type": f"multipart/form-data; boundary={boundary}"})


SHOTS = [("integration_id", None, b"3"), ("pr_data", None, b'{"number": 12}'),
         ("screenshots", "home.png", b"\x89PNG" + bytes(range(256)) * 400)]


def test_a_multipart_retry_with_a_new_boundary_is_the_same_request(app, db):
    client = TestClient(app)
    first = upload(client, "up1", db.key, "aaaa1111", SHOTS)
    again = upload(client, "up1", db.key, "bbbb2222", SHOTS)
    assert first.status_code == again.status_code == 202
    assert again.headers["idempotent-replayed"] == "true"
    assert again.json() == first.json()
    assert len(app.calls) == 1


@pytest.mark.parametrize("changed", [
    [("integration_id", None, b"4"), *SHOTS[1:]],                       # a field's value
    [*SHOTS[:2], ("screenshots", "home.png", b"\x89PNG other image")],    # a file's content
    [*SHOTS[:2], ("screenshots", "settings.png", SHOTS[2][2])],         # a file's name
    [*SHOTS[:2], ("shots", "home.png", SHOTS[2][2])],                   # a part's name
    SHOTS[:2],                                                          # a part less
])
def test_a_multipart_body_with_other_parts_is_a_different_request(app, db, changed):
    client = TestClient(app)
    upload(client, "up2", db.key, "aaaa1111", SHOTS)
    clash = upload(client, "up2", db.key, "bbbb2222", changed)
    assert clash.status_code == 422
    assert len(app.calls) == 1


def test_a_malformed_multipart_body_is_fingerprinted_by_its_bytes():
    def digest(body: bytes, boundary: str = "zz", content_type: str | None = "multipart/form-data") -> str:
        fingerprint = RequestFingerprint("POST", "/x", b"", content_type and f"{content_type}; boundary={boundary}")
        fingerprint.update(body)
        spooled = io.BytesIO(body)  # the middleware's spool, at its start as the route will read it
        digest = fingerprint.hexdigest(spooled)
        assert spooled.tell() == 0
        return digest

    assert digest(b"not multipart at all") == digest(b"not multipart at all")
    assert digest(b"not multipart at all") == digest(b"not multipart at all", content_type=None)
    assert digest(b"not multipart at all") != digest(b"not multipart at al1")
    assert digest(multipart("zz", SHOTS)) == digest(multipart("yy", SHOTS), "yy")


def test_fingerprinting_a_large_upload_keeps_memory_flat():
    boundary, chunk = "b0undary", bytes(range(256)) * 256  # 64 KiB
    fingerprint = RequestFingerprint("POST", "/x", b"", f"multipart/form-data; boundary={boundary}")
    tracemalloc.start()
    try:
        fingerprint.update(f'--{boundary}\r\nContent-Disposition: form-data; name="f"; filename="a.png"'
                           f"\r\n\r\n".encode())
        for _ in range(800):  # 50 MiB
            fingerprint.update(chunk)
        fingerprint.update(f"\r\n--{boundary}--\r\n".encode())
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2 * 1024 * 1024
    assert fingerprint.hexdigest() != RequestFingerprint("POST", "/x", b"", None).hexdigest()


# -- keys are scoped per API key ---------------------------------------------------------------


def colleague_key(db, email="cy@acme.test"):
    with db.sessions() as session:
        from docsvc.server.db.tables import Organization

        user = add_user(session, session.get(Organization, db.org_id), email, "writer")
        _, key = create_key(session, user)
        session.commit()
    return key


def test_two_users_of_one_organisation_with_one_key_each_get_their_own_answer(app, db):
    client = TestClient(app)
    other = colleague_key(db)
    mine = upload(client, "shared-key", db.key, "aaaa1111", SHOTS)
    theirs = upload(client, "shared-key", other, "aaaa1111", SHOTS)
    assert mine.status_code == theirs.status_code == 202
    assert "idempotent-replayed" not in theirs.headers
    assert (mine.json()["user"], theirs.json()["user"]) == ("ada@acme.test", "cy@acme.test")
    assert len(app.calls) == 2
    # ... and each one's retries are still replayed their own answer
    assert upload(client, "shared-key", other, "cccc3333", SHOTS).json() == theirs.json()
    assert upload(client, "shared-key", db.key, "dddd4444", SHOTS).json() == mine.json()
    assert len(app.calls) == 2


def test_another_user_with_the_same_key_and_another_body_is_not_refused(app, db):
    client = TestClient(app)
    post(client, "k5", {"a": 1}, db.key)
    answer = post(client, "k5", {"a": 2}, colleague_key(db))
    assert answer.status_code == 202 and answer.json()["payload"] == {"a": 2}


def test_the_same_key_of_the_same_user_through_two_api_keys_is_two_requests(app, db):
    with db.sessions() as session:
        from docsvc.server.db.tables import User

        _, second = create_key(session, session.get(User, db.user_id), "laptop")
        session.commit()
    client = TestClient(app)
    assert post(client, "k6", {"a": 1}, db.key).json()["call"] == 1
    assert post(client, "k6", {"a": 1}, second).json()["call"] == 2


def test_keys_are_not_stored_as_sent(app, db):
    TestClient(app).post("/api/v1/test/echo", json={"a": 1},
                         headers={"Authorization": f"Bearer {db.key}", "Idempotency-Key": "visible-key"})
    with db.sessions() as session:
        assert session.scalars(select(IdempotencyRecord.key)).all() != ["visible-key"]


# -- the answer is kept before the client has it all -------------------------------------------


def asgi_post(app, key: str, token: str, body: dict, on_send):
    """One POST through the whole ASGI app, with ``on_send(message)`` as the server's send."""
    raw = json.dumps(body, separators=(",", ":")).encode()  # as httpx encodes it
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
             "scheme": "http", "path": "/api/v1/test/echo", "raw_path": b"/api/v1/test/echo",
             "query_string": b"", "root_path": "", "server": ("test", 80), "client": ("127.0.0.1", 1),
             "headers": [(b"authorization", f"Bearer {token}".encode()), (b"idempotency-key", key.encode()),
                         (b"content-type", b"application/json"), (b"content-length", str(len(raw)).encode())]}
    sent = {"body": False}

    async def receive():
        if not sent["body"]:
            sent["body"] = True
            return {"type": "http.request", "body": raw, "more_body": False}
        await anyio.sleep_forever()

    async def main():
        await app(scope, receive, on_send)

    anyio.run(main)


def stored_status(db):
    with db.sessions() as session:
        return session.scalars(select(IdempotencyRecord.status_code)).all()


def test_the_answer_is_stored_before_its_last_byte_is_sent(app, db):
    seen = []

    async def send(message):
        if message["type"] == "http.response.body" and not message.get("more_body"):
            seen.append(await anyio.to_thread.run_sync(stored_status, db))

    with TestClient(app):  # the app's lifespan
        asgi_post(app, "k7", db.key, {"a": 1}, send)
    assert seen == [[202]]  # a client holding the whole answer that asks again is replayed it


def test_an_answer_whose_client_went_away_is_stored_and_replayed(app, db):
    async def gone(message):
        raise OSError("connection reset by peer")

    with TestClient(app) as client:
        asgi_post(app, "k8", db.key, {"a": 1}, gone)
        assert stored_status(db) == [202]
        again = post(client, "k8", {"a": 1}, db.key)
    assert again.headers["idempotent-replayed"] == "true" and again.json()["call"] == 1
    assert len(app.calls) == 1


def test_a_request_in_progress_answers_409_with_retry_after(app, db):
    client = TestClient(app)
    answers = []
    app.meanwhile = lambda: answers.append(post(client, "k9", {"a": 1}, db.key))
    first = post(client, "k9", {"a": 1}, db.key)
    app.meanwhile = None
    busy, = answers
    assert busy.status_code == 409 and busy.headers["retry-after"] == "1"
    assert busy.json()["type"] == "urn:docsvc:problem:idempotency-key-in-use"
    assert first.status_code == 202
    assert post(client, "k9", {"a": 1}, db.key).headers["idempotent-replayed"] == "true"
    assert len(app.calls) == 1


def test_a_first_request_cut_off_long_ago_does_not_hold_its_key(app, db):
    import datetime as dt

    from docsvc.server.db.tables import ApiKey, utcnow
    from docsvc.server.idempotency import scoped_key

    with db.sessions() as session:
        key_id = session.scalar(select(ApiKey.id))
        for key, age in (("k10", 11), ("k11", 2)):  # minutes since the service stopped mid-request
            session.add(IdempotencyRecord(org_id=db.org_id, key=scoped_key(key_id, key), request_hash="x" * 64,
                                          created_at=utcnow() - dt.timedelta(minutes=age)))
        session.commit()
    client = TestClient(app)
    assert post(client, "k10", {"a": 1}, db.key).status_code == 202
    assert post(client, "k10", {"a": 1}, db.key).headers["idempotent-replayed"] == "true"
    assert post(client, "k11", {"a": 1}, db.key).status_code == 422  # recent: still that request's key


def test_a_body_over_the_limit_is_refused_while_it_streams_and_leaves_no_key(db, tmp_path):
    application = create_app(ServerSettings(database_url=db.url, data_dir=tmp_path, max_body_bytes=256 * 1024),
                             start_workers=False)

    def chunks():  # no Content-Length: counted as it streams
        for _ in range(64):
            yield b"x" * 65536

    answer = TestClient(application).post(
        "/api/v1/diagram/generate", content=chunks(),
        headers={"Authorization": f"Bearer {db.key}", "Idempotency-Key": "big",
                 "Content-Type": "multipart/form-data; boundary=zz"})
    assert answer.status_code == 413
    with db.sessions() as session:
        assert session.scalars(select(IdempotencyRecord)).all() == []


def test_a_key_without_an_api_key_streams_the_body_straight_through(db, tmp_path):
    """A code host's webhook carries an Idempotency-Key of its own and no API key: there is nothing
    to scope the key to, so the body reaches the route as it arrives, never spooled first."""
    from docsvc.server.idempotency import IdempotencyMiddleware

    seen = []

    async def route(scope, receive, send):
        while True:
            message = await receive()
            seen.append(len(message.get("body", b"")))
            if not message.get("more_body"):
                break
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    chunks = [b"a" * 10, b"b" * 20, b"c" * 30]

    async def receive():
        chunk = chunks.pop(0)
        return {"type": "http.request", "body": chunk, "more_body": bool(chunks)}

    async def send(message):
        pass

    middleware = IdempotencyMiddleware(route, get_sessions=lambda: db.sessions, ttl_seconds=60)
    scope = {"type": "http", "method": "POST", "path": "/api/v1/webhooks/gitlab/1", "query_string": b"",
             "headers": [(b"idempotency-key", b"delivery-1"), (b"content-type", b"application/json")]}
    anyio.run(middleware, scope, receive, send)
    assert seen == [10, 20, 30]  # the sender's own pieces: nothing was read ahead and replayed
    with db.sessions() as session:
        assert session.scalars(select(IdempotencyRecord)).all() == []
