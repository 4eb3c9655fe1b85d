"""Plain calls (routes/plain_call.py): a route whose parameters are all plain is called without
FastAPI's dependency solving, and answers every request exactly as FastAPI's own handler does."""

from __future__ import annotations

import fastapi.routing
import pytest
from fastapi import APIRouter, Depends, FastAPI, HTTPException, Query, Request
from fastapi.testclient import TestClient

from docsvc.server.routes import deps
from docsvc.server.routes.deps import JSONBody, JSONBodyRoute

CALLS: list[str] = []


async def window(request: Request, limit: int | None = Query(None, ge=1, le=500), offset: int = Query(0, ge=0)):
    CALLS.append("window")
    return {"limit": limit, "offset": offset, "path": request.url.path}


async def gate(request: Request):
    if request.headers.get("x-pass") != "yes":
        raise HTTPException(403, "no pass")


def make_app(*, gated: bool = False) -> FastAPI:
    router = APIRouter(route_class=JSONBodyRoute)

    @router.get("/things/{kind}")
    async def things(kind: str, size: float = Query(1.5, gt=0), exact: bool = False, tag: str | None = None,
                     page: dict = Depends(window), again: dict = Depends(window)):
        return {"kind": kind, "size": size, "exact": exact, "tag": tag, "page": page, "same": page is again}

    @router.get("/things/{kind}/{number:int}")
    async def thing(kind: str, number: int):
        return {"kind": kind, "number": number}

    @router.get("/needs")
    async def needs(count: int):
        return {"count": count}

    app = FastAPI(default_response_class=JSONBody)
    app.include_router(router, prefix="/api", dependencies=[Depends(gate)] if gated else [])
    return app


QUERIES = [
    "/api/things/a", "/api/things/a?size=2&exact=true&tag=x&limit=5&offset=10", "/api/things/a?tag=",
    "/api/things/a?limit=0", "/api/things/a?limit=501", "/api/things/a?limit=abc", "/api/things/a?limit=+5",
    "/api/things/a?limit=%205", "/api/things/a?limit=5.0", "/api/things/a?limit=1_0", "/api/things/a?offset=-1",
    "/api/things/a?limit=99999999999999999999999", "/api/things/a?limit=2&limit=3", "/api/things/a?size=0",
    "/api/things/a?size=1e3", "/api/things/a?size=inf", "/api/things/a?size=.5", "/api/things/a?exact=1",
    "/api/things/a?exact=yes", "/api/things/a?exact=True", "/api/things/%C3%A9t%C3%A9?tag=%E2%9C%93",
    "/api/things/a/7", "/api/things/a/x", "/api/needs", "/api/needs?count=3", "/api/needs?count=-3",
]


def answers(app: FastAPI, headers=None) -> list[tuple[int, object]]:
    with TestClient(app) as client:
        return [(r.status_code, r.json()) for r in (client.get(q, headers=headers) for q in QUERIES)]


def test_plain_calls_answer_as_fastapi_does(monkeypatch):
    plain = answers(make_app())
    monkeypatch.setattr(deps, "plain_handler", lambda *args: None)
    assert plain == answers(make_app())
    assert {status for status, _ in plain} == {200, 404, 422}  # 404: /a/x matches no {number:int}


def test_plain_values_skip_dependency_solving(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("FastAPI solved the dependencies of a plain request")

    CALLS.clear()
    app = make_app()
    with TestClient(app) as client:
        client.get("/api/needs?count=1")  # the routes are made: FastAPI builds them on first use
        monkeypatch.setattr(fastapi.routing, "solve_dependencies", refuse)
        answer = client.get("/api/things/a?limit=5")
        assert answer.status_code == 200
        assert answer.json()["page"] == {"limit": 5, "offset": 0, "path": "/api/things/a"}
        assert answer.json()["same"] is True and CALLS == ["window"]  # one call, as FastAPI caches it
        with pytest.raises(AssertionError, match="solved the dependencies"):
            client.get("/api/things/a?limit=abc")  # not plain: FastAPI's to refuse


def test_dependencies_of_an_inclusion_are_kept():
    app = make_app(gated=True)
    with TestClient(app) as client:
        assert client.get("/api/things/a").status_code == 403
        assert client.get("/api/things/a", headers={"x-pass": "yes"}).status_code == 200


def test_overridden_dependencies_go_to_fastapi():
    app = make_app()

    async def fixed_window():
        return {"fixed": True}

    app.dependency_overrides[window] = fixed_window
    with TestClient(app) as client:
        assert client.get("/api/things/a").json()["page"] == {"fixed": True}


def test_the_hot_reads_are_plain():
    """The read paths benchmarks/api_load.py measures take the plain call."""
    from docsvc.server.routes import dashboard, items, jobs, me
    from docsvc.server.routes.plain_call import _plain

    hot = [(items.router, "/items/{tool}"), (jobs.router, "/jobs/{job_id}"), (me.router, "/me/work"),
           (dashboard.router, "/dashboard")]
    for router, path in hot:
        route = next(r for r in router.routes if r.path == path and "GET" in r.methods)
        assert _plain(route.dependant, endpoint=True) is not None, path


def test_a_dependency_not_cached_goes_to_fastapi():
    """``Depends(..., use_cache=False)`` is called each time it is named, as only FastAPI does."""
    router = APIRouter(route_class=JSONBodyRoute)

    @router.get("/twice")
    async def twice(a: dict = Depends(window, use_cache=False), b: dict = Depends(window, use_cache=False)):
        return {"same": a is b}

    app = FastAPI(default_response_class=JSONBody)
    app.include_router(router)
    CALLS.clear()
    with TestClient(app) as client:
        assert client.get("/twice").json() == {"same": False}
    assert CALLS == ["window", "window"]
