"""``Idempotency-Key`` on POST, through the real app and middleware on a real database."""

import pytest
from fastapi import Depends, Request
from fastapi.testclient import TestClient

from docsvc.server.app import create_app
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
        if payload.get("crash"):
            raise RuntimeError("boom")
        return {"call": len(calls), "payload": payload}

    application.add_api_route("/api/v1/test/echo", echo, methods=["POST"], status_code=202)
    application.calls = calls
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
