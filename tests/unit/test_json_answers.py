"""Routes answer plain JSON themselves (routes/deps.py ``_answered_as_json``), without FastAPI's
``jsonable_encoder`` walk, which took a third of the CPU of a listing of 30 items; the status and
headers a route sets on its ``response`` are kept; anything not plain is encoded as FastAPI encodes it."""

from __future__ import annotations

import datetime as dt

import pytest
from fastapi import APIRouter, FastAPI, Response
from fastapi.testclient import TestClient

import fastapi.routing
from docsvc.server import jsoncodec
from docsvc.server.routes.deps import JSONBody, JSONBodyRoute


@pytest.mark.parametrize("value, plain", [
    ({"a": [1, 2.5, "x", None, True, {"b": []}]}, True),
    ([], True),
    ({"when": dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)}, False),
    ([{"n": (1, 2)}], False),  # a tuple: FastAPI makes it a list
    ({1: "one"}, False),  # a key that is not a string
    ({"deep": [[[[{"x": {1, 2}}]]]]}, False),
])
def test_plain_is_json_own_types_only(value, plain):
    assert jsoncodec.plain(value) is plain


@pytest.fixture()
def client():
    router = APIRouter(route_class=JSONBodyRoute)

    @router.get("/listing")
    def listing(response: Response):
        response.headers["Link"] = '</listing?offset=2>; rel="next"'
        response.status_code = 203
        return [{"id": 1, "title": "één"}, {"id": 2, "title": None}]

    @router.post("/made", status_code=201)
    async def made():
        return {"id": 7}

    @router.get("/stamped")
    def stamped():
        return {"at": dt.datetime(2026, 1, 2, 3, 4, 5, tzinfo=dt.timezone.utc), "pair": (1, 2)}

    app = FastAPI(default_response_class=JSONBody)
    app.include_router(router)
    return TestClient(app)


def test_plain_answers_skip_jsonable_encoder_and_keep_status_and_headers(client, monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("jsonable_encoder was called")

    monkeypatch.setattr(fastapi.routing, "jsonable_encoder", refuse)
    listing = client.get("/listing")
    assert listing.status_code == 203 and listing.headers["link"] == '</listing?offset=2>; rel="next"'
    assert listing.headers["content-type"] == "application/json"
    assert listing.json() == [{"id": 1, "title": "één"}, {"id": 2, "title": None}]
    made = client.post("/made")
    assert (made.status_code, made.json()) == (201, {"id": 7})


def test_other_answers_are_encoded_as_fastapi_encodes_them(client):
    """A value that is not plain goes through ``jsonable_encoder``, as FastAPI's own route would:
    the same bytes, status and type as a FastAPI route without ``JSONBodyRoute`` answers."""
    router = APIRouter()

    @router.get("/stamped")
    def stamped():
        return {"at": dt.datetime(2026, 1, 2, 3, 4, 5, tzinfo=dt.timezone.utc), "pair": (1, 2)}

    app = FastAPI(default_response_class=JSONBody)
    app.include_router(router)
    ours, fastapis = client.get("/stamped"), TestClient(app).get("/stamped")
    assert ours.json()["at"] == "2026-01-02T03:04:05+00:00"
    assert (ours.status_code, ours.headers["content-type"], ours.content) == (
        fastapis.status_code, fastapis.headers["content-type"], fastapis.content)
