"""The hot read routes' statements (``routes.deps.hot_read``): on a connection of an engine of
their own, without the ORM's Session, and on SQLite without the thread pool.

A read of a few rows costs microseconds in the database; the Session around it, a trip through
the thread pool and back, and the GIL's handoffs between the loop and the request threads under
load cost more CPU than the read itself (benchmarks/api_profile.py, api_load.py). So:

- SQLite (a file): the read runs on the event loop itself, after one turn of the loop, on its own
  engine's connection (the loop never waits for the request threads' connections, which they may
  all hold). Under WAL a SELECT takes no lock a writer holds: it does not wait for a job's writes.
- PostgreSQL: in a request thread (a round trip on the loop would stall every other request while
  the server answers), on an engine whose connections are in autocommit from the start (each
  statement a transaction of its own, no BEGIN and ROLLBACK round trips): switching a pooled
  connection to autocommit at checkout and back at return (an engine's ``execution_options``), as
  the reads' sessions did before, cost a third of a read's CPU. SQLAlchemy's asyncio engine on
  psycopg's async connections was measured too: it cost more CPU per request than the thread it
  saves. So did the read on the loop, blocking it for each round trip (and p99 went to seconds).
- An in-memory SQLite database (one per thread) keeps to the app's engine, in a thread.

What runs here must only read, and only what takes a few milliseconds at most: anything that
writes (on SQLite it would wait for the write lock on the loop) or calls out goes to a thread.
"""

from __future__ import annotations

from typing import Any, Callable, TypeVar

import anyio.lowlevel
import anyio.to_thread
from sqlalchemy.engine import Engine, make_url

from .session import make_engine, normalize_url

T = TypeVar("T")


class Reader:
    """Runs ``fn(connection, *args)``, a short read, for a request (see the module)."""

    def __init__(self, url: str, app_engine: Engine) -> None:
        url = normalize_url(url)
        parsed = make_url(url)
        self.on_loop = parsed.drivername.startswith("sqlite") and parsed.database not in (None, "", ":memory:")
        if parsed.drivername.startswith("postgresql"):
            self.engine = make_engine(url, autocommit=True)
        elif self.on_loop:
            self.engine = make_engine(url)
        else:
            self.engine = app_engine
        self._own = self.engine is not app_engine

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        if self.on_loop:
            # One turn of the loop first, as the trip to a thread gave: the loop reads the sockets
            # that are ready before this read runs. Without it, a request that arrived went from
            # its bytes to its answer in one go, and under 50 clients p99 was 2-4x the thread's.
            await anyio.lowlevel.checkpoint()
            return self.read(fn, *args)
        return await anyio.to_thread.run_sync(self.read, fn, *args)

    def read(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(connection, *args)`` here and now (blocking)."""
        with self.engine.connect() as connection:
            return fn(connection, *args)

    def close(self) -> None:
        if self._own:
            self.engine.dispose()
