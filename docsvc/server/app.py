"""FastAPI app factory: /api/v1 routers, problem+json errors, idempotency, the job workers."""

from __future__ import annotations

import logging
import os
import re
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import StatementError
from starlette.exceptions import HTTPException as StarletteHTTPException

from .. import __version__
from ..endpoints import ENDPOINTS
from . import handoff, health, logredact, spec_check
from .contract import install as install_contract
from .db.reader import Reader
from .db.session import make_engine, make_sessionmaker
from .idempotency import IdempotencyMiddleware
from .limits import BodyLimitMiddleware
from .jobs import wake
from .jobs.watch import JobWatch
from .jobs.worker import WorkerPool
from .problems import PROBLEM_JSON, Problem, for_bad_input
from .routes.deps import JSONBody
from .routes import (admin, captures, chats, convert, dashboard, diagrams, docflows, feature_drafts, items, jobs, me, oas,
                     release_notes, releases, repos, search, webhooks)
from .settings import ServerSettings
from .storage import FileStore
from . import tasks as _tasks  # noqa: F401  (importing registers every job handler)
from .tasks.keep_in_sync import KeepInSync

API_PREFIX = "/api/v1"
log = logging.getLogger("docsvc.server")

# Threads for the requests' blocking work (sync routes, key lookups): anyio's default is 40. On a
# few cores, 40 threads of short database reads under 50 clients mostly queued for the GIL and for
# the 15 SQLite connections: 20-46 thread switches per request where 8 threads make 7-9, and
# /me/work's CPU time per request under uvicorn fell by 12-25% (benchmarks/api_load.py). Work
# that blocks for long (OCR) takes threads of its own (``slow_threads``), never these.
REQUEST_THREADS = min(40, max(8, 4 * (os.cpu_count() or 1)))
SLOW_THREADS = 4


def _problem_response(problem: Problem) -> JSONResponse:
    return JSONResponse(problem.body(), status_code=problem.status, media_type=PROBLEM_JSON,
                        headers=problem.headers)


def _validation_problem(exc: RequestValidationError) -> Problem:
    errors = [{"loc": list(e.get("loc", ())), "msg": e.get("msg", "")} for e in exc.errors()]
    if any(e.get("type") == "json_invalid" for e in exc.errors()):
        return Problem(400, "The request body is not valid JSON", errors=errors)
    first = errors[0] if errors else {"loc": [], "msg": "invalid request"}
    where = ".".join(str(part) for part in first["loc"][1:]) or "request"
    return Problem(422, f"{where}: {first['msg']}", errors=errors)


def _shape(path: str) -> str:
    return re.sub(r"\{[^}]*\}", "{}", path)


def _add_unserved_endpoints(app: FastAPI, routers) -> None:
    """Endpoints of the interface this service does not implement yet answer 501, saying so."""
    served = {(method, _shape(route.path)) for router in routers for route in router.routes
              for method in getattr(route, "methods", ()) or ()}
    for endpoint in ENDPOINTS:
        path = API_PREFIX + endpoint.path
        if (endpoint.method, _shape(endpoint.path)) in served:
            continue

        def unserved(_endpoint=endpoint):
            raise Problem(501, f"This local service does not implement {_endpoint.method} "
                               f"{API_PREFIX}{_endpoint.path} yet")

        app.add_api_route(path, unserved, methods=[endpoint.method], include_in_schema=False)


def create_app(settings: ServerSettings | None = None, *, start_workers: bool = True) -> FastAPI:
    settings = settings or ServerSettings.from_env()
    logredact.install()  # the access log shows no share key or token of a request's URL
    engine = make_engine(settings.database_url)
    sessions = make_sessionmaker(engine)
    reader = Reader(settings.database_url, engine, REQUEST_THREADS)  # the hot reads' (routes.deps.hot_read)
    handoff.jobs_run_here(settings.job_workers > 0)
    # ``run`` keeps its job workers in a process of their own: linked to them (jobs/wake.py).
    link = wake.ApiLink(settings.job_wake) if settings.job_wake else None
    pool = WorkerPool(sessions, settings, link=link)
    watch = JobWatch(sessions, pool)
    keep_in_sync = KeepInSync(sessions, settings, pool.notify)

    # With no job workers (``run --job-workers 0``) jobs are left to ``docsvc-server worker``
    # processes: the API only enqueues them and reads them back.
    start_workers = start_workers and settings.job_workers > 0

    @asynccontextmanager
    async def lifespan(_app: FastAPI):
        import anyio.to_thread

        # Per event loop: set once the app's loop runs.
        anyio.to_thread.current_default_thread_limiter().total_tokens = REQUEST_THREADS
        app.state.slow_threads = anyio.CapacityLimiter(SLOW_THREADS)
        if start_workers:
            pool.start()
            keep_in_sync.start()
        try:
            yield
        finally:
            await watch.close()
            if start_workers:
                keep_in_sync.stop()
                pool.stop()
            if link is not None:
                link.close()
            reader.close()
            spec_check.close()
            engine.dispose()

    app = FastAPI(title="docsvc local service", version=__version__, lifespan=lifespan, default_response_class=JSONBody,
                  openapi_url=f"{API_PREFIX}/openapi.json", docs_url=f"{API_PREFIX}/docs", redoc_url=None)
    app.state.settings = settings
    app.state.sessions = sessions
    app.state.reader = reader
    app.state.store = FileStore(settings.data_dir)
    app.state.pool = pool
    app.state.job_watch = watch

    routers = [module.router for module in (items, jobs, me, releases, admin, repos, search, docflows, convert, oas,
                                            dashboard, chats, captures, diagrams, feature_drafts, release_notes,
                                            webhooks)]
    for router in routers:
        app.include_router(router, prefix=API_PREFIX)

    app.include_router(health.router)  # /healthz, /readyz: outside /api/v1 and its contract (health.py says why)

    @app.exception_handler(Problem)
    async def _problem(_request: Request, exc: Problem):
        return _problem_response(exc)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, exc: RequestValidationError):
        return _problem_response(_validation_problem(exc))

    @app.exception_handler(StarletteHTTPException)
    async def _http(_request: Request, exc: StarletteHTTPException):
        detail = exc.detail if isinstance(exc.detail, str) else "request refused"
        return _problem_response(Problem(exc.status_code, detail, headers=dict(exc.headers or {})))

    async def _crash(request: Request, exc: Exception):
        problem = for_bad_input(exc, {"path": request.path_params, "query": dict(request.query_params)},
                                getattr(request.state, "json_body", None))
        if problem is not None:
            return _problem_response(problem)
        log.exception("unhandled error")
        return _problem_response(Problem(500, "The service hit an internal error; see its log"))

    # Input that breaks a parser or the database is the caller's: 4xx, handled inside the app (the
    # catch-all below is the outermost one, which also logs a traceback).
    for kind in (RecursionError, OverflowError, UnicodeEncodeError, StatementError):
        app.add_exception_handler(kind, _crash)
    app.add_exception_handler(Exception, _crash)

    _add_unserved_endpoints(app, routers)
    install_contract(app, API_PREFIX)
    app.add_middleware(IdempotencyMiddleware, get_sessions=lambda: app.state.sessions,
                       ttl_seconds=settings.idempotency_ttl_seconds, unkeyed=(f"{API_PREFIX}/webhooks/",))
    app.add_middleware(BodyLimitMiddleware, max_bytes=settings.max_body_bytes)  # outermost: before anything reads
    return app
