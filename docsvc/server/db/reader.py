"""The hot read routes' statements (``routes.deps.hot_read``): on a connection of an engine of
their own, without the ORM's Session, and on SQLite without the thread pool.

A read of a few rows costs microseconds in the database; the Session around it, a trip through
the thread pool and back, and the GIL's handoffs between the loop and the request threads under
load cost more CPU than the read itself (benchmarks/api_profile.py, api_load.py). So:

- SQLite (a file): the read runs on the event loop itself, after one turn of the loop, on its own
  engine's connection (the loop never waits for the request threads' connections, which they may
  all hold). Under WAL a SELECT takes no lock a writer holds: it does not wait for a job's writes.
- PostgreSQL: in a thread of the reads' own (a round trip on the loop would stall every other
  request while the server answers), handed over by the loop's ``run_in_executor``: AnyIO's
  ``to_thread`` (a capacity limiter, its own worker queue and wake-ups) cost a fifth of a read's
  CPU more (api_profile: /me/work 0.25-0.29 -> 0.20-0.23 ms). On an engine whose connections are
  in autocommit from the start (each statement a transaction of its own, no BEGIN and ROLLBACK
  round trips): switching a pooled connection to autocommit at checkout and back at return (an
  engine's ``execution_options``), as the reads' sessions did before, cost a third of a read's
  CPU. SQLAlchemy's asyncio engine on psycopg's async connections was measured too: it cost more
  CPU per request than the thread it saves. So did the read on the loop, blocking it for each
  round trip (and p99 went to seconds), and psycopg's own ``AsyncConnection`` on the loop, the
  read in a greenlet (api_profile, with two to six statements a read: 2-30 % more CPU).
- An in-memory SQLite database (one per thread) keeps to the app's engine, in a thread.
- Either way a statement runs on the driver's cursor (``Direct``): compiled once for the dialect,
  its rows read as named tuples. SQLAlchemy's execution around a statement (its cache key, the
  execution context, the result object) cost more CPU than the read's round trip on PostgreSQL.
- A read is one statement, the key's lookup with the read's statements folded in
  (``db.folded``, ``accounts.look_up_key``): psycopg's work per statement, the server's, and the
  thread's wait for each answer were most of what a read cost above SQLite's.

What runs here must only read, and only what takes a few milliseconds at most: anything that
writes (on SQLite it would wait for the write lock on the loop) or calls out goes to a thread.
"""

from __future__ import annotations

import asyncio
import collections
import contextvars
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, NamedTuple, TypeVar

import anyio.lowlevel
import anyio.to_thread
from sqlalchemy.engine import Connection, Dialect, Engine, make_url
from sqlalchemy.exc import MultipleResultsFound, NoResultFound
from sqlalchemy.sql import Executable

from .session import make_engine, normalize_url

T = TypeVar("T")


class Reader:
    """Runs ``fn(connection, *args)``, a short read, for a request (see the module)."""

    def __init__(self, url: str, app_engine: Engine, threads: int = 8) -> None:
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
        self.threads = threads
        self._executor: ThreadPoolExecutor | None = None  # made in the process that serves (--workers forks)
        self.plans: dict[int, tuple[Executable, _Plan | None]] = {}  # ``Direct``'s, of this engine's dialect

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        if self.on_loop:
            # One turn of the loop first, as the trip to a thread gave: the loop reads the sockets
            # that are ready before this read runs. Without it, a request that arrived went from
            # its bytes to its answer in one go, and under 50 clients p99 was 2-4x the thread's.
            await anyio.lowlevel.checkpoint()
            return self.read(fn, *args)
        if not self._own:  # the app's engine, whose in-memory database is one per request thread
            return await anyio.to_thread.run_sync(self.read, fn, *args)
        if self._executor is None:
            self._executor = ThreadPoolExecutor(self.threads, thread_name_prefix="docsvc-read")
        context = contextvars.copy_context()  # as AnyIO's trip would: tracing's spans nest
        return await asyncio.get_running_loop().run_in_executor(self._executor, context.run, self.read, fn, *args)

    def read(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(connection, *args)`` here and now (blocking)."""
        with self.engine.connect() as connection:
            return fn(Direct(connection, self.plans), *args)

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False)
            self._executor = None
        if self._own:
            self.engine.dispose()


class _Plan(NamedTuple):
    """A statement compiled for a dialect: its SQL, its bind parameters' names in order (a
    positional paramstyle) or None (named), their built-in values, and its rows' type and each
    column's result processor (None for none)."""

    sql: str
    order: tuple[str, ...] | None
    fixed: dict[str, Any]
    row: type
    processors: tuple | None


_MAX_PLANS = 512  # the hot reads' statements are a few dozen shapes


def _plan(dialect: Dialect, statement: Executable) -> _Plan | None:
    """``statement``'s plan, or None when it needs what only SQLAlchemy's execution does: bind
    processors, parameters expanded or rendered at execution, escaped names, or it is no SELECT."""
    if not hasattr(statement, "selected_columns"):  # not a SELECT
        return None
    compiled = statement.compile(dialect=dialect)
    if (not compiled._result_columns or compiled._bind_processors or compiled.literal_execute_params
            or compiled.post_compile_params or compiled.escaped_bind_names
            or any(bind.expanding or bind.callable is not None for bind in compiled.bind_names)):
        return None
    try:
        processors = tuple(column[3]._cached_result_processor(dialect, None) for column in compiled._result_columns)
    except Exception:  # a type that needs the cursor's column type to say: left to SQLAlchemy
        return None
    row = collections.namedtuple("Row", list(statement.selected_columns.keys()), rename=True)
    return _Plan(compiled.string, tuple(compiled.positiontup) if compiled.positional else None,
                 {name: bind.effective_value for bind, name in compiled.bind_names.items() if not bind.required},
                 row, processors if any(processors) else None)


class Rows:
    """A statement's rows, with the part of SQLAlchemy's ``Result`` the hot reads use."""

    __slots__ = ("rows",)

    def __init__(self, rows: list) -> None:
        self.rows = rows

    def __iter__(self):
        return iter(self.rows)

    def all(self) -> list:
        return self.rows

    def first(self):
        return self.rows[0] if self.rows else None

    def one(self):
        if len(self.rows) != 1:
            raise (NoResultFound if not self.rows else MultipleResultsFound)("expected one row")
        return self.rows[0]

    def scalar(self):
        return self.rows[0][0] if self.rows else None

    def scalars(self):
        return [row[0] for row in self.rows]


class Direct:
    """A connection whose ``execute`` runs a statement built once (the hot reads' are, at import or
    cached) on the driver's cursor (see the module): no execution context, no Result. Anything else
    (``_plan``), every statement on an engine with event listeners (tracing sees them as before),
    and a statement the driver fails (to wrap the error as SQLAlchemy does and drop a connection
    the server closed) run through SQLAlchemy's ``Connection`` as before."""

    __slots__ = ("connection", "plans")

    def __init__(self, connection: Connection, plans: dict) -> None:
        self.connection = connection
        self.plans = plans  # by the statement's id: (the statement, kept so its id stays its own; its plan)

    def execute(self, statement: Executable, params: dict[str, Any] | None = None):
        dialect = self.connection.dialect
        try:
            plan = self.plans[id(statement)][1]
        except KeyError:
            if len(self.plans) >= _MAX_PLANS:  # statements built per call: not planned, not kept
                return self.connection.execute(statement, params)
            try:
                plan = _plan(dialect, statement)
            except Exception:  # SQLAlchemy's compiled form is no public API: on a change, its own path
                plan = None
            self.plans[id(statement)] = (statement, plan)
        if plan is None or self.connection._has_events or self.connection.engine._has_events:
            return self.connection.execute(statement, params)
        values = {**plan.fixed, **params} if params else plan.fixed
        bound = values if plan.order is None else tuple(values[name] for name in plan.order)
        cursor = self.connection.connection.cursor()
        try:
            cursor.execute(plan.sql, bound)
            fetched = cursor.fetchall()
        except dialect.loaded_dbapi.Error:
            return self.connection.execute(statement, params)
        finally:
            cursor.close()
        make = plan.row._make
        if plan.processors is None:
            return Rows([make(row) for row in fetched])
        processors = plan.processors
        return Rows([make([value if p is None else p(value) for p, value in zip(processors, row)]) for row in fetched])

    def __getattr__(self, name: str):
        return getattr(self.connection, name)

