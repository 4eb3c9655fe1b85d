"""The authenticated read path through the real app on a real database: what a request costs
(thread trips, connection checkouts, statements) and the rules that must hold while it is lean
(a revoked or deleted key stops at once, 401 comes before 422, the same answers)."""

from __future__ import annotations

import datetime as dt
import re
import uuid

import anyio.to_thread
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import delete, event

from docsvc.server.app import create_app
from docsvc.server.db.session import rfc3339
from docsvc.server.db.tables import ApiKey, Item, Job, User
from docsvc.server.services.accounts import (add_user, create_key, create_org, get_org, get_user_by_email,
                                            revoke_key)
from docsvc.server.services.items import add_item
from docsvc.server.settings import ServerSettings
from tests.unit.dbfixtures import db  # noqa: F401  (fixture)


@pytest.fixture()
def world(db, tmp_path):
    """The app; three captures of Ada's organisation, a chat each of Ada and of Wes, and a
    finished job on each chat."""
    with db.sessions() as session:
        add_user(session, create_org(session, "Other"), "olga@other.test", "admin", "Olga")
        acme = get_org(session, "Acme")
        wes = add_user(session, acme, "wes@acme.test", "writer", "Wes")
        _, wes_key = create_key(session, wes)
        for n in range(3):
            add_item(session, acme, "captures", f"Capture {n + 1}")
        chats = {}
        for who, user_id in (("ada", db.user_id), ("wes", wes.id)):
            chat = Item(org_id=acme.id, tool="chats", title=f"{who}'s chat", created_by_id=user_id, data={})
            session.add(chat)
            session.flush()
            job = Job(id=str(uuid.uuid4()), org_id=acme.id, user_id=user_id, kind="conversion", state="completed",
                      params={}, result={"item_id": chat.id}, progress={"message": "done", "percent": 100})
            session.add(job)
            chats[who] = job.id
        session.commit()
        wes_id = wes.id
    app = create_app(ServerSettings(database_url=db.url, data_dir=tmp_path / "data"), start_workers=False)
    with TestClient(app) as client:
        yield {"db": db, "app": app, "client": client, "wes_key": wes_key, "wes_id": wes_id, "jobs": chats}


def get(world, path, key=None):
    return world["client"].get(path, headers={"Authorization": f"Bearer {key or world['db'].key}"})


READS = ["/api/v1/me/work", "/api/v1/items/captures", "/api/v1/dashboard", "job"]


def _path(world, read):
    return f"/api/v1/jobs/{world['jobs']['ada']}" if read == "job" else read


@pytest.mark.parametrize("read", READS)
def test_an_authenticated_read_takes_one_connection_and_on_sqlite_no_thread(world, read, monkeypatch):
    """The key's lookup and the read run on one connection of the reads' own engine, never the
    app's (the request threads'). On SQLite on the event loop, no thread trip; on PostgreSQL one,
    to a thread of the reads' own (``Reader``), not through AnyIO's pool."""
    import threading

    trips, checkouts, threads = [], {"reads": 0, "app": 0}, []
    real = anyio.to_thread.run_sync

    async def counted(func, *args, **kwargs):
        trips.append(func)
        return await real(func, *args, **kwargs)

    monkeypatch.setattr(anyio.to_thread, "run_sync", counted)
    reader = world["app"].state.reader
    reading = reader.read
    monkeypatch.setattr(reader, "read", lambda *args: threads.append(threading.current_thread().name) or reading(*args))
    engines = {"reads": reader.engine, "app": world["app"].state.sessions.kw["bind"]}
    listeners = {name: lambda *args, name=name: checkouts.__setitem__(name, checkouts[name] + 1) for name in engines}
    get(world, _path(world, read))  # warm: the last use stamped, caches filled
    trips.clear()
    threads.clear()
    for name, engine in engines.items():
        event.listen(engine, "checkout", listeners[name])
    try:
        answer = get(world, _path(world, read))
    finally:
        for name, engine in engines.items():
            event.remove(engine, "checkout", listeners[name])
    assert answer.status_code == 200, answer.text
    on_postgresql = world["db"].url.startswith("postgresql")
    assert (len(trips), checkouts) == (0, {"reads": 1, "app": 0})
    assert len(threads) == 1 and threads[0].startswith("docsvc-read") == on_postgresql


@pytest.mark.parametrize("read", READS)
def test_a_read_runs_on_the_drivers_cursor_and_answers_as_through_sqlalchemy(world, read, monkeypatch):
    """The hot reads' statements go to the driver's cursor (``db.reader.Direct``), not through
    SQLAlchemy's execution; with an event listener on the engine (tracing) they go through it, and
    the answer is the same either way."""
    from sqlalchemy.engine import Connection

    get(world, _path(world, read))  # warm: the last use stamped
    real, through = Connection.execute, []

    def counted(self, *args, **kwargs):
        through.append(args[0])
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Connection, "execute", counted)
    direct = get(world, _path(world, read))
    assert direct.status_code == 200, direct.text
    assert through == []
    engine = world["app"].state.reader.engine
    listener = lambda *args: None  # noqa: E731
    event.listen(engine, "before_cursor_execute", listener)
    try:
        traced = get(world, _path(world, read))
    finally:
        event.remove(engine, "before_cursor_execute", listener)
    assert through and traced.json() == direct.json()
    assert traced.headers.get("X-Total-Count") == direct.headers.get("X-Total-Count")


def _isolation_of_statements(world, call) -> set:
    """Whether the connections the statements of ``call()`` ran on (of the app's engine and the
    reads' own) were in autocommit ("AUTOCOMMIT") or not (None): as the driver's connection says."""
    seen = set()
    engines = {world["app"].state.sessions.kw["bind"], world["app"].state.reader.engine}
    listener = lambda conn, *rest: seen.add(  # noqa: E731
        "AUTOCOMMIT" if getattr(conn.connection.dbapi_connection, "autocommit", None) is True else None)
    for engine in engines:
        event.listen(engine, "before_cursor_execute", listener)
    try:
        call()
    finally:
        for engine in engines:
            event.remove(engine, "before_cursor_execute", listener)
    return seen


@pytest.mark.parametrize("read", READS)
def test_a_read_takes_no_transaction_and_a_write_does(world, read):
    """On PostgreSQL the hot reads run each statement on its own (no BEGIN and ROLLBACK, two of a
    read's five or six round trips); a route that writes keeps its transaction. SQLite's driver
    runs a SELECT outside a transaction anyway: its connections are left as they are."""
    get(world, _path(world, read))  # the key's last use stamped (a write, of its own)
    seen = _isolation_of_statements(world, lambda: get(world, _path(world, read)))
    assert seen == ({"AUTOCOMMIT"} if world["db"].url.startswith("postgresql") else {None})
    item_id = get(world, "/api/v1/items/captures").json()[0]["id"]
    patch = lambda: world["client"].patch(f"/api/v1/items/captures/{item_id}", json={"title": "Renamed"},  # noqa: E731
                                          headers={"Authorization": f"Bearer {world['db'].key}"})
    assert "AUTOCOMMIT" not in _isolation_of_statements(world, patch)
    assert get(world, "/api/v1/items/captures").json()[0]["title"] == "Renamed"


@pytest.mark.parametrize("read", READS)
def test_an_authenticated_read_is_one_statement_with_the_keys_lookup(world, read):
    """The key's lookup and the reads are one statement (``db.folded``), a job's check of the item
    it names (a chat here) among them. On the driver's cursor as through SQLAlchemy (a listener
    on the engine): the same statements either way."""
    statements = []
    engine = world["app"].state.reader.engine
    listener = lambda conn, cursor, statement, *rest: statements.append(statement)  # noqa: E731
    event.listen(engine, "before_cursor_execute", listener)
    try:
        assert get(world, _path(world, read)).status_code == 200
    finally:
        event.remove(engine, "before_cursor_execute", listener)
    assert len(statements) == 1 and "api_keys" in statements[0]


def test_an_unknown_key_and_an_empty_read_are_told_apart(world):
    """No row for an unknown key (401); a known key's reads that find nothing answer as empty."""
    with world["db"].sessions() as session:
        lone = add_user(session, create_org(session, "Empty"), "lone@empty.test", "admin", "Lone")
        _, lone_key = create_key(session, lone)
        session.commit()
    assert get(world, "/api/v1/items/captures", lone_key).json() == []
    assert get(world, "/api/v1/me/work", lone_key).json() == {"open": 0, "blocked": 0, "docflows": 0,
                                                             "changes_requested": 0}
    board = get(world, "/api/v1/dashboard", lone_key).json()
    assert board["counts"]["total"] == 0 and board["writers"] == [] and board["releases"] == []
    assert get(world, f"/api/v1/jobs/{world['jobs']['ada']}", lone_key).status_code == 404
    for path in ("/api/v1/items/captures", "/api/v1/me/work", "/api/v1/dashboard", _path(world, "job")):
        assert get(world, path, "dsv_unknown").status_code == 401


def test_the_item_listing_is_one_statement_and_pages_as_before(world):
    statements = []
    engine = world["app"].state.reader.engine
    listener = lambda conn, cursor, statement, *rest: statements.append(statement)  # noqa: E731
    event.listen(engine, "before_cursor_execute", listener)
    try:
        first = get(world, "/api/v1/items/captures?limit=2")
    finally:
        event.remove(engine, "before_cursor_execute", listener)
    assert first.status_code == 200
    assert len(statements) == 1 and "api_keys" in statements[0]  # the key, the page and its total together
    if "json_agg(" in statements[0]:  # PostgreSQL: the aggregate is ordered itself, not by its input's order
        assert re.search(r"json_agg\(json_build_array\([^)]*\) ORDER BY \w+\.fold_position\)", statements[0])
    assert [i["title"] for i in first.json()] == ["Capture 3", "Capture 2"]
    assert first.headers["X-Total-Count"] == "3"
    assert 'rel="next"' in first.headers["Link"] and "offset=2" in first.headers["Link"]
    last = get(world, "/api/v1/items/captures?limit=2&offset=2")
    assert [i["title"] for i in last.json()] == ["Capture 1"]
    assert last.headers["X-Total-Count"] == "3" and "Link" not in last.headers
    past = get(world, "/api/v1/items/captures?offset=10")  # no row carries the total: counted apart
    assert past.json() == [] and past.headers["X-Total-Count"] == "3"
    none = get(world, "/api/v1/items/diagrams")
    assert none.json() == [] and none.headers["X-Total-Count"] == "0"
    item = first.json()[0]
    assert set(item) == {"id", "tool", "title", "created_at", "created_by", "created_by_user_id", "release_id",
                         "release_name", "writer_user_id", "writer_name", "work_status", "status_note",
                         "pull_request", "updated_at"}
    assert item["created_at"].endswith("Z") and item["work_status"] == "todo" and item["pull_request"] is None


def test_filters_of_every_shape_list_the_same_items(world):
    ada_id = world["db"].user_id
    item_id = get(world, "/api/v1/items/captures").json()[0]["id"]
    claimed = world["client"].patch(f"/api/v1/items/captures/{item_id}", json={"writer_user_id": ada_id},
                                    headers={"Authorization": f"Bearer {world['db'].key}"})
    assert claimed.status_code == 200, claimed.text
    mine = get(world, f"/api/v1/items/captures?writer_id={ada_id}").json()
    assert [i["id"] for i in mine] == [item_id] and mine[0]["writer_name"] == "Ada"
    assert len(get(world, "/api/v1/items/captures?writer_id=none").json()) == 2
    assert len(get(world, "/api/v1/items/captures?release_id=none&status=todo").json()) == 3
    assert get(world, "/api/v1/items/captures?status=done").json() == []
    assert get(world, "/api/v1/items/captures?writer_id=x").status_code == 422


def test_chats_stay_private_in_listings_and_their_jobs(world):
    ada, wes = world["db"].key, world["wes_key"]
    assert [c["title"] for c in get(world, "/api/v1/items/chats", ada).json()] == ["ada's chat"]
    assert [c["title"] for c in get(world, "/api/v1/items/chats", wes).json()] == ["wes's chat"]
    ada_job, wes_job = world["jobs"]["ada"], world["jobs"]["wes"]
    assert get(world, f"/api/v1/jobs/{ada_job}", ada).status_code == 200
    assert get(world, f"/api/v1/jobs/{ada_job}", wes).status_code == 404
    assert get(world, f"/api/v1/jobs/{wes_job}", wes).json()["status"] == "completed"
    assert get(world, f"/api/v1/jobs/{uuid.uuid4()}", ada).status_code == 404


def test_a_job_of_another_organisation_or_of_a_deleted_item(world):
    db = world["db"]
    with db.sessions() as session:
        other = get_org(session, "Other")
        olga = get_user_by_email(session, "olga@other.test")
        _, olga_key = create_key(session, olga)
        theirs = Job(id=str(uuid.uuid4()), org_id=other.id, user_id=olga.id, kind="conversion", state="queued",
                     params={}, progress={"message": "queued", "percent": 0})
        gone = Job(id=str(uuid.uuid4()), org_id=db.org_id, user_id=db.user_id, kind="conversion",
                   state="completed", params={"item_id": 10**9}, result={"item_id": 10**9})
        session.add_all([theirs, gone])
        session.commit()
        ids = theirs.id, gone.id
    assert get(world, f"/api/v1/jobs/{ids[0]}").status_code == 404
    assert get(world, f"/api/v1/jobs/{ids[0]}", olga_key).json()["status"] == "queued"
    assert get(world, f"/api/v1/jobs/{ids[1]}").status_code == 200  # an item no longer there hides nothing


@pytest.mark.parametrize("named, hidden", [
    (lambda chat: {"params": {"item_id": chat}}, True), (lambda chat: {"result": {"item_id": chat}}, True),
    (lambda chat: {"params": {"item_id": str(chat)}}, False),
    (lambda chat: {"params": {"item_id": float(chat)}}, False),
    (lambda chat: {"params": {"item_id": True}}, False), (lambda chat: {"params": {"item_id": 10**30}}, False),
    (lambda chat: {"params": {"item": chat}, "result": ["item_id", chat]}, False),
])
def test_a_job_naming_another_users_chat_is_hidden_only_for_an_integer_id(world, named, hidden):
    """The chat a job names (its params' or result's ``item_id``, a JSON integer as given) hides
    it from everyone but the chat's author; any other value names no item (the statement reads
    the id out of the JSON: ``db.jsonint``)."""
    db = world["db"]
    with db.sessions() as session:
        chat = session.query(Item).filter(Item.title == "wes's chat").one().id
        fields = {"params": {}, "result": None, **named(chat)}
        job = Job(id=str(uuid.uuid4()), org_id=db.org_id, user_id=db.user_id, kind="conversion", state="completed",
                  progress={"message": "done", "percent": 100}, **fields)
        session.add(job)
        session.commit()
        job_id = job.id
    assert get(world, f"/api/v1/jobs/{job_id}").status_code == (404 if hidden else 200)
    assert get(world, f"/api/v1/jobs/{job_id}", world["wes_key"]).status_code == 200  # the chat's author


@pytest.mark.parametrize("read", READS)
def test_a_revoked_or_deleted_key_stops_working_at_once(world, read):
    db = world["db"]
    with db.sessions() as session:
        user = session.get(User, db.user_id)
        first, first_key = create_key(session, user, "first")
        second, second_key = create_key(session, user, "second")
        session.commit()
        ids = first.id, second.id
    path = _path(world, read)
    assert get(world, path, first_key).status_code == 200
    assert get(world, path, second_key).status_code == 200
    with db.sessions() as session:
        revoke_key(session, ids[0])
        session.execute(delete(ApiKey).where(ApiKey.id == ids[1]))
        session.commit()
    for key in (first_key, second_key):
        refused = get(world, path, key)
        assert refused.status_code == 401
        assert refused.json()["detail"] == "Unknown or revoked API key"
        assert refused.headers["WWW-Authenticate"] == "Bearer"
    assert get(world, path).status_code == 200  # the organisation's other key still works


@pytest.mark.parametrize("path", ["/api/v1/items/captures?limit=0", "/api/v1/jobs/x?wait=-1",
                                  "/api/v1/items/captures?offset=-1"])
def test_a_bad_key_is_refused_before_a_bad_parameter(world, path):
    """The key is looked up when the route runs, which FastAPI skips when a parameter is invalid:
    the answer is still 401 (as when the key was looked up first), then 422 with a good key."""
    unknown = world["client"].get(path, headers={"Authorization": "Bearer dsv_not-a-key"})
    assert unknown.status_code == 401 and unknown.json()["detail"] == "Unknown or revoked API key"
    missing = world["client"].get(path)
    assert missing.status_code == 401 and missing.json()["detail"].startswith("Missing API key")
    malformed = world["client"].get(path, headers={"Authorization": "Basic abc"})
    assert malformed.status_code == 401 and malformed.json()["detail"].startswith("Malformed Authorization")
    assert get(world, path).status_code == 422


def test_last_use_is_stamped_at_most_once_a_minute(world):
    db = world["db"]
    with db.sessions() as session:
        session.query(ApiKey).update({ApiKey.last_used_at: None})
        session.commit()
    assert get(world, "/api/v1/me/work").status_code == 200
    with db.sessions() as session:
        stamped = session.query(ApiKey).filter(ApiKey.user_id == db.user_id).one().last_used_at
    assert stamped is not None
    assert get(world, "/api/v1/me/work").status_code == 200
    with db.sessions() as session:
        assert session.query(ApiKey).filter(ApiKey.user_id == db.user_id).one().last_used_at == stamped


def test_work_and_dashboard_answers(world):
    work = get(world, "/api/v1/me/work").json()
    assert work == {"open": 0, "blocked": 0, "docflows": 0, "changes_requested": 0}
    board = get(world, "/api/v1/dashboard").json()
    assert board["counts"]["total"] == 4  # three captures and Ada's own chat, never Wes's
    assert board["counts"]["by_tool"]["captures"] == 3 and board["counts"]["by_tool"]["chats"] == 1
    assert [w["name"] for w in board["writers"]] == ["Unassigned"]


@pytest.mark.parametrize("value, text", [
    (dt.datetime(2026, 12, 6, 15, 9, 50, 886026), "2026-12-06T15:09:50.886026Z"),  # SQLite's naive UTC
    (dt.datetime(2026, 12, 6, 15, 9, 50), "2026-12-06T15:09:50Z"),
    (dt.datetime(2026, 12, 6, 15, 9, 50, tzinfo=dt.timezone.utc), "2026-12-06T15:09:50Z"),
    (dt.datetime(2026, 12, 6, 17, 9, 50, tzinfo=dt.timezone(dt.timedelta(hours=2))), "2026-12-06T15:09:50Z"),
    (dt.datetime(2026, 12, 6, 15, 9, 50, 5, tzinfo=dt.timezone.utc), "2026-12-06T15:09:50.000005Z"),
    (dt.datetime(2026, 12, 6, 15, 9, 50, 500000), "2026-12-06T15:09:50.500000Z"),
    (None, None),
])
def test_rfc3339(value, text):
    assert rfc3339(value) == text


def test_rfc3339_writes_what_isoformat_writes():
    import random

    rng = random.Random(3339)
    for n in range(2000):
        value = dt.datetime(1970, 1, 1) + dt.timedelta(seconds=rng.randrange(4 * 10**9),
                                                      microseconds=rng.randrange(10**6) if n % 3 else 0)
        assert rfc3339(value) == value.isoformat() + "Z"
        assert rfc3339(value.replace(tzinfo=dt.timezone.utc)) == value.isoformat() + "Z"


def test_requests_share_a_few_threads_and_slow_work_has_its_own(world, monkeypatch):
    """The app's loop runs requests' blocking work on REQUEST_THREADS threads (not anyio's 40,
    which under load mostly queued for the GIL and the connections), and a diagram's OCR on
    threads of its own, so that slow requests never hold every request's thread."""
    from docsvc.server import app as app_module
    from docsvc.server.services import diagrams as diagram_service

    tokens = world["client"].portal.call(lambda: _tokens())
    assert tokens == app_module.REQUEST_THREADS < 40
    limiters = []
    real_run_sync = anyio.to_thread.run_sync

    async def run_sync(func, *args, limiter=None, **kwargs):
        limiters.append(limiter)
        return await real_run_sync(func, *args, limiter=limiter, **kwargs)

    monkeypatch.setattr(anyio.to_thread, "run_sync", run_sync)
    monkeypatch.setattr(diagram_service, "generate", lambda *args: {"id": 1})
    answer = world["client"].post("/api/v1/diagram/generate", data={"description": "Build it"},
                                  headers={"Authorization": f"Bearer {world['db'].key}"})
    assert answer.status_code == 201, answer.text
    slow = world["app"].state.slow_threads
    assert slow in limiters and slow.total_tokens == app_module.SLOW_THREADS


async def _tokens() -> float:
    return anyio.to_thread.current_default_thread_limiter().total_tokens


@pytest.mark.parametrize("path, module, name", [
    ("/api/v1/docflows/1/approve", "docflows", "approve"),
    ("/api/v1/oas/scans/1/pull-request", "api_specs", "open_pull_requests"),
])
def test_reads_answer_while_pull_requests_are_opened(world, monkeypatch, path, module, name):
    """An approval or a scan's pull request waits for a code host up to its deadline (45 s): held,
    as many as the request threads, they take the slow threads alone, and reads still answer."""
    import importlib
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from docsvc.server import app as app_module

    held, release = threading.Semaphore(0), threading.Event()

    def slow(*args):
        held.release()
        release.wait(30)
        return {"opened": True}

    monkeypatch.setattr(importlib.import_module(f"docsvc.server.services.{module}"), name, slow)
    auth = {"Authorization": f"Bearer {world['db'].key}"}
    with ThreadPoolExecutor(app_module.REQUEST_THREADS) as pool, ThreadPoolExecutor(1) as reader:
        posts = [pool.submit(world["client"].post, path, json={}, headers=auth)
                 for _ in range(app_module.REQUEST_THREADS)]
        try:
            assert all(held.acquire(timeout=10) for _ in range(app_module.SLOW_THREADS))
            assert not held.acquire(timeout=0.5)  # the others wait for a slow thread, holding no request thread
            for read in ("/api/v1/me", "/api/v1/me/work", "/api/v1/releases"):  # sync routes and a hot read
                assert reader.submit(get, world, read).result(timeout=10).status_code == 200
        finally:
            release.set()
        assert [post.result(timeout=30).status_code for post in posts] == [200] * app_module.REQUEST_THREADS
