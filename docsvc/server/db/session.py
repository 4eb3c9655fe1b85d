"""Engine and sessions: a SQLite file by default, PostgreSQL by URL."""

from __future__ import annotations

import datetime as dt
from contextlib import contextmanager
from typing import Iterator

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.orm import Session, sessionmaker


POSTGRES_EXTRA_HINT = "pip install 'docsvc-cli[server,postgres]'"


class MissingDriver(RuntimeError):
    """The database URL names a database whose driver is not installed (an optional extra)."""


def normalize_url(url: str) -> str:
    """Use psycopg 3 for ``postgresql://`` URLs (SQLAlchemy would pick psycopg2); without psycopg
    (the ``postgres`` extra) say so in one line, before SQLAlchemy's own traceback would."""
    parsed = make_url(url)
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    if parsed.drivername == "postgresql+psycopg":
        try:
            import psycopg  # noqa: F401
        except ImportError:
            raise MissingDriver(f"a PostgreSQL database needs psycopg: {POSTGRES_EXTRA_HINT}") from None
    return parsed.render_as_string(hide_password=False)


def make_engine(url: str) -> Engine:
    from .. import jsoncodec

    url = normalize_url(url)
    # JSON columns hold job results and items' data: a scan's thousands of findings among them.
    codec = {"json_serializer": jsoncodec.dumps, "json_deserializer": jsoncodec.loads}
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30}, **codec)

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_conn, _record):  # pragma: no cover - trivial
            cur = dbapi_conn.cursor()
            # WAL lets the API read while a job writes; foreign keys are off by default in SQLite.
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA busy_timeout=30000")
            cur.close()

        return engine
    return create_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=10, **codec)


def make_sessionmaker(engine: Engine) -> sessionmaker[Session]:
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
    value = as_utc(value)
    return value.astimezone(dt.timezone.utc).isoformat().replace("+00:00", "Z") if value else None


def object_session_or_none(obj):
    from sqlalchemy.orm import object_session

    return object_session(obj)
