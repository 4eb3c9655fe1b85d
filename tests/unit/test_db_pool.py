"""The PostgreSQL pool: connections are kept once opened (no connection per few requests under
load), and a connection the server closed is replaced at checkout without a round trip per
checkout (no pre-ping), so the caller never sees it."""

from __future__ import annotations

import os
import threading
import time

import pytest
from sqlalchemy import event, func, select, text

from docsvc.server.db.session import POOL_SIZE, make_engine
from tests.support import TestDatabase

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(not os.environ.get("DOCSVC_TEST_DATABASE_URL"),
                       reason="needs PostgreSQL: set DOCSVC_TEST_DATABASE_URL"),
]


@pytest.fixture()
def engine(tmp_path):
    database = TestDatabase("postgresql", tmp_path)
    engine = make_engine(database.url)
    engine.connects = []
    event.listen(engine, "connect", lambda *_: engine.connects.append(1))
    yield engine
    engine.dispose()
    database.drop()


def _backend(connection) -> int:
    return connection.execute(select(func.pg_backend_pid())).scalar_one()


def _terminate(engine, pids: set[int]) -> None:
    """pg_terminate_backend from a connection of its own; returns once they are gone."""
    with make_engine(engine.url.render_as_string(hide_password=False)).connect() as admin:
        admin.execute(text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid = ANY(:p)"),
                      {"p": list(pids)})
        deadline = time.monotonic() + 10
        while admin.execute(text("SELECT count(*) FROM pg_stat_activity WHERE pid = ANY(:p)"),
                            {"p": list(pids)}).scalar_one():
            assert time.monotonic() < deadline
            time.sleep(0.05)
            admin.rollback()
        admin.engine.dispose()


def test_connections_the_server_closed_are_replaced_unseen(engine):
    held = [engine.connect() for _ in range(3)]
    pids = {_backend(c) for c in held}
    for c in held:
        c.close()  # back in the pool, idle
    _terminate(engine, pids)
    time.sleep(0.2)  # the server's goodbye has reached the sockets
    again = [engine.connect() for _ in range(3)]  # each checkout meets a dead connection first
    try:
        assert {_backend(c) for c in again}.isdisjoint(pids)
    finally:
        for c in again:
            c.close()


def test_the_pool_keeps_what_it_opened(engine):
    concurrent = 15  # beyond the old pool of 10, whose overflow connections were closed on return
    barrier = threading.Barrier(concurrent)

    def use() -> None:
        with engine.connect() as c:
            barrier.wait(10)
            c.execute(select(1))

    for _ in range(3):
        threads = [threading.Thread(target=use) for _ in range(concurrent)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(20)
    assert len(engine.connects) == concurrent  # opened once, then reused
    assert engine.pool.checkedin() == concurrent <= POOL_SIZE


def test_a_checkout_sends_nothing_to_the_server(engine, monkeypatch):
    import psycopg

    with engine.connect() as c:
        c.execute(select(1))
    cursors = []
    real = psycopg.Connection.cursor
    monkeypatch.setattr(psycopg.Connection, "cursor", lambda self, *a, **k: cursors.append(1) or real(self, *a, **k))
    for _ in range(5):
        engine.connect().close()  # a pre-ping ran a statement on a cursor of its own at each one
    assert cursors == []
