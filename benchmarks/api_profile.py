"""CPU time per request of the read paths, in process: the app driven through ASGI on the event
loop the service serves on (asyncio's: ``listen.LOOP``), no HTTP server, no load tool. Repeatable
where ``api_load.py``'s wall-clock figures are not (a shared machine), and it can profile one path.

    nice -n 10 .venv/bin/python benchmarks/api_profile.py [--db sqlite|postgresql] [--requests 500]
        [--concurrency 50] [--paths floor,work,items,job,dashboard] [--profile work [--inline]]

The same data as api_load.py (one organisation, 30 capture items, one finished job). Printed per
path: the process's CPU time (user and system, every thread) per request, wall time per request,
and how many database connections were opened so far. ``--profile PATH`` then runs cProfile over
that path's requests; ``--inline`` runs the thread pool's work on the event loop's thread, so the
profile sees it (cProfile sees one thread) and the figures leave out the thread trips' own cost.
PostgreSQL: a fresh database on DOCSVC_TEST_DATABASE_URL's server (default
postgresql://postgres@127.0.0.1:5432/postgres), dropped afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import os
import pstats
import sys
import tempfile
import time
import uuid
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

PATHS = ("floor", "work", "items", "job", "dashboard")


def _world(backend: str, tmp: Path):
    from docsvc.server.db.migrate import upgrade
    from docsvc.server.db.session import make_engine, make_sessionmaker
    from docsvc.server.db.tables import Job
    from docsvc.server.services.accounts import add_user, create_key, create_org
    from docsvc.server.services.items import add_item
    from tests.support import TestDatabase

    os.environ.setdefault("DOCSVC_TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
    database = TestDatabase(backend, tmp)
    upgrade(database.url)
    engine = make_engine(database.url)
    try:
        with make_sessionmaker(engine)() as session:
            org = create_org(session, "Bench")
            user = add_user(session, org, "bench@example.test", "admin", "Bench")
            _, key = create_key(session, user)
            for n in range(30):
                add_item(session, org, "captures", f"Capture {n + 1}: the settings page")
            job = Job(id=str(uuid.uuid4()), org_id=org.id, user_id=user.id, kind="conversion", state="completed",
                      params={}, progress={"message": "done", "percent": 100}, attempts=1,
                      result={"item_id": 1, "document": "# Title\n" * 200, "warnings": []})
            session.add(job)
            session.commit()
            job_id = job.id
    finally:
        engine.dispose()
    return database, key, job_id


def _inline_thread_pool() -> None:
    import anyio.to_thread

    async def inline(func, *args, **_kwargs):
        return func(*args)

    anyio.to_thread.run_sync = inline  # starlette's run_in_threadpool calls it too


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--requests", type=int, default=500)
    parser.add_argument("--concurrency", type=int, default=1, help="requests in flight at once")
    parser.add_argument("--paths", default=",".join(PATHS))
    parser.add_argument("--profile", choices=PATHS, help="cProfile this path's requests after the figures")
    parser.add_argument("--inline", action="store_true", help="run the thread pool's work on the loop's thread")
    parser.add_argument("--top", type=int, default=40, help="lines of the profile (by own time)")
    args = parser.parse_args()
    paths = [p for p in args.paths.split(",") if p]
    if any(p not in PATHS for p in paths) or args.requests < 1 or not 1 <= args.concurrency <= args.requests:
        parser.error(f"paths are {', '.join(PATHS)}; 1 <= --concurrency <= --requests")

    from sqlalchemy import event

    from docsvc.server.app import create_app
    from docsvc.server.settings import ServerSettings

    tmp = Path(tempfile.mkdtemp(prefix="docsvc-apiprofile-"))
    database, key, job_id = _world(args.db, tmp)
    app = create_app(ServerSettings(database_url=database.url, data_dir=tmp / "data"), start_workers=False)
    connects = [0]
    event.listen(app.state.sessions.kw["bind"], "connect", lambda *_: connects.__setitem__(0, connects[0] + 1))
    urls = {"floor": "/healthz", "work": "/api/v1/me/work", "items": "/api/v1/items/captures",
            "job": f"/api/v1/jobs/{job_id}", "dashboard": "/api/v1/dashboard"}
    if args.inline:
        _inline_thread_pool()

    async def call(name: str) -> None:
        headers = [(b"host", b"127.0.0.1"), (b"user-agent", b"api_profile")]
        if name != "floor":
            headers.append((b"authorization", f"Bearer {key}".encode()))
        path = urls[name]
        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
                 "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
                 "headers": headers, "client": ("127.0.0.1", 5555), "server": ("127.0.0.1", 80), "state": {}}
        status = []

        async def receive():
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message):
            if message["type"] == "http.response.start":
                status.append(message["status"])

        await app(scope, receive, send)
        if status != [200]:
            raise SystemExit(f"GET {path} answered {status}")

    async def run(name: str, count: int) -> None:
        async def client(n: int) -> None:
            for _ in range(n):
                await call(name)

        share, extra = divmod(count, args.concurrency)
        await asyncio.gather(*(client(share + (i < extra)) for i in range(args.concurrency)))

    async def measure() -> None:
        async with app.router.lifespan_context(app):
            for name in paths:
                await run(name, 50)  # warm: statements compiled, connections open
            print(f"{args.db}, {args.requests} requests per path, {args.concurrency} at once"
                  + (", thread pool inline" if args.inline else ""))
            for name in paths:
                cpu, wall = time.process_time(), time.perf_counter()
                await run(name, args.requests)
                cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
                print(f"{urls[name] if name != 'job' else '/api/v1/jobs/{id}':<26} cpu {1000 * cpu / args.requests:6.3f} ms"
                      f"  wall {1000 * wall / args.requests:7.3f} ms  connections opened {connects[0]}")
            if args.profile:
                profile = cProfile.Profile()
                profile.enable()
                await run(args.profile, args.requests)
                profile.disable()
                pstats.Stats(profile).sort_stats("tottime").print_stats(args.top)

    try:
        asyncio.run(measure())
    finally:
        database.drop()


if __name__ == "__main__":
    main()
