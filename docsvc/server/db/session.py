"""Engine and sessions: a SQLite file by default, PostgreSQL by URL."""

from __future__ import annotations

import datetime as dt
import select
from contextlib import contextmanager
from typing import Iterator

import msgspec
from sqlalchemy import create_engine, event
from sqlalchemy.engine import URL, Engine, make_url
from sqlalchemy.exc import ArgumentError, DisconnectionError
from sqlalchemy.orm import Session, sessionmaker


POSTGRES_EXTRA_HINT = "pip install 'docsvc-cli[server,postgres]'"


class MissingDriver(RuntimeError):
    """The database URL names a database whose driver is not installed (an optional extra)."""


class BadDatabaseURL(ValueError):
    """A database URL this service cannot use. The message names the URL's scheme at most, never
    the rest of it: a URL may hold a password."""


# The databases the migrations and tests cover; psycopg 3 for PostgreSQL (SQLAlchemy's default
# driver for postgresql:// is psycopg2, which the ``postgres`` extra does not install).
_DRIVERS = {"sqlite": "sqlite", "sqlite+pysqlite": "sqlite+pysqlite", "postgresql": "postgresql+psycopg",
            "postgres": "postgresql+psycopg", "postgresql+psycopg": "postgresql+psycopg"}
_EXPECTED = "expected sqlite:///FILE or postgresql://USER:PASSWORD@HOST/DATABASE"


def check_url(url: str) -> URL:
    """``url`` parsed, with the driver the service uses; BadDatabaseURL for a URL that is not one
    or names a database the service does not support (else SQLAlchemy fails later, in a traceback:
    NoSuchModuleError for an unknown scheme, ModuleNotFoundError for a driver not installed)."""
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):  # ValueError: a port that is not a number
        raise BadDatabaseURL(f"not a database URL: {_EXPECTED}") from None
    driver = _DRIVERS.get(parsed.drivername.lower())
    if driver is None:
        raise BadDatabaseURL(f"unsupported database URL scheme {parsed.drivername!r}: {_EXPECTED}")
    return parsed.set(drivername=driver)


def normalize_url(url: str) -> str:
    """``check_url``'s URL as text; without psycopg (the ``postgres`` extra) a PostgreSQL URL is
    refused in one line, before SQLAlchemy's own traceback would."""
    parsed = check_url(url)
    if parsed.drivername == "postgresql+psycopg":
        try:
            import psycopg  # noqa: F401
        except ImportError:
            raise MissingDriver(f"a PostgreSQL database needs psycopg: {POSTGRES_EXTRA_HINT}") from None
    return parsed.render_as_string(hide_password=False)


# Connections one process keeps to PostgreSQL, as many as the old pool's 10 plus 10 overflow.
POOL_SIZE = 20
SQLITE_POOL_SIZE = 15


def make_engine(url: str, *, autocommit: bool = False) -> Engine:
    """An engine on ``url``. ``autocommit``: on PostgreSQL, connections that run each statement in
    a transaction of their own from the start (``reader.py``'s); SQLite's driver runs a SELECT
    outside a transaction anyway."""
    from .. import jsoncodec

    url = normalize_url(url)
    # JSON columns hold job results and items' data: a scan's thousands of findings among them.
    codec = {"json_serializer": jsoncodec.dumps, "json_deserializer": jsoncodec.loads}
    if url.startswith("sqlite"):
        # Every connection of the pool is kept (SQLAlchemy's default keeps 5 and opens up to 10 more,
        # each closed again when returned): with more requests in flight than 5, about one request
        # in seven opened a connection and ran the pragmas below. The most open at once is the same.
        # (An in-memory database is one connection per thread, SingletonThreadPool: no pool to size.)
        in_memory = make_url(url).database in (None, "", ":memory:")
        pool = {} if in_memory else {"pool_size": SQLITE_POOL_SIZE, "max_overflow": 0}
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30}, **pool, **codec)

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_conn, _record):  # pragma: no cover - trivial
            cur = dbapi_conn.cursor()
            # WAL lets the API read while a job writes; foreign keys are off by default in SQLite.
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA busy_timeout=30000")
            cur.close()

        return engine
    # Up to POOL_SIZE connections, opened as needed and then kept: overflow connections beyond a
    # smaller pool were closed as they came back, so a busy service opened (and PostgreSQL forked
    # a backend for) about one new connection per ten requests. No pre-ping either (a round trip
    # per checkout, two per request): a connection the server closed is found without one.
    isolation = {"isolation_level": "AUTOCOMMIT"} if autocommit else {}
    engine = create_engine(url, pool_size=POOL_SIZE, max_overflow=0, **codec, **isolation)
    event.listen(engine, "checkout", _refuse_dropped)
    return engine


def _refuse_dropped(dbapi_conn, _record, _proxy) -> None:
    """Refuse a pooled connection the server has closed (pg_terminate_backend, a restart, an idle
    timeout, a proxy): the pool then opens a new one in its place, and the request never sees it.

    Such a server sends its reason (a FATAL error) and closes its end, so the idle socket, with no
    query in flight, has something to read: one poll() of the socket, no round trip to the server.
    A healthy idle connection has nothing to read (nothing here LISTENs); if it ever had, it is only
    replaced. A peer that vanished without a word (a host gone off the network) is not seen here:
    the first statement fails, SQLAlchemy invalidates the pool's older connections, and the next
    request gets new ones, as it did with a pre-ping that fails the same way (``reader.py``'s pool
    is checked alike)."""
    if dbapi_conn.closed or dbapi_conn.broken:
        raise DisconnectionError("the connection was closed")
    poller = select.poll()
    poller.register(dbapi_conn.pgconn.socket, select.POLLIN | select.POLLPRI)
    if poller.poll(0):
        raise DisconnectionError("the server closed the connection")


def make_sessionmaker(engine: Engine) -> sessionmaker[Session]:
    """Sessions on ``engine`` (the hot reads take a connection of their own: ``reader.py``)."""
    return sessionmaker(engine, expire_on_commit=False)


@contextmanager
def session_scope(factory: sessionmaker[Session]) -> Iterator[Session]:
    session = factory()
    try:
        yield session
        session.commit()
    except BaseException:
        session.rollback()
        raise
    finally:
        session.close()


def as_utc(value: dt.datetime | None) -> dt.datetime | None:
    """SQLite hands back naive datetimes; everything is stored in UTC."""
    if value is None:
        return None
    return value if value.tzinfo else value.replace(tzinfo=dt.timezone.utc)


def rfc3339(value: dt.datetime | None) -> str | None:
    """``value`` in UTC as RFC 3339 text (``...Z``; the fraction only when there is one, as
    ``isoformat`` writes it). A listing writes two per item: msgspec writes them five times
    faster than ``isoformat``, which looks the offset up through the tzinfo's Python method."""
    if value is None:
        return None
    if value.tzinfo is not dt.timezone.utc:
        # SQLite's are naive, stored in UTC.
        value = value.replace(tzinfo=dt.timezone.utc) if value.tzinfo is None else value.astimezone(dt.timezone.utc)
    return msgspec.json.encode(value)[1:-1].decode()


def object_session_or_none(obj):
    from sqlalchemy.orm import object_session

    return object_session(obj)
