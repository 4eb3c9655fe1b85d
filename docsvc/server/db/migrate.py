"""Schema migrations with Alembic, run programmatically by ``docsvc-server`` before it touches data.

Several processes may start at once on one PostgreSQL database (a scaled-out deployment): the
upgrade runs under a session-level advisory lock, so one process migrates and the others wait,
then find the schema at head and do nothing.
"""

from __future__ import annotations

from importlib.resources import files

from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, pool, text

from .session import normalize_url

# The advisory lock's key: any constant the deployment's other users of the database leave alone.
_MIGRATION_LOCK = 0x646F6373  # "docs"


def migrations_folder() -> str:
    """The migration scripts, package data of ``docsvc.server.db``. Alembic reads them as files,
    which every regular install (site-packages, ``pip install --target``, editable) has."""
    return str(files("docsvc.server.db").joinpath("migrations"))


def alembic_config(url: str) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", migrations_folder())
    # ConfigParser treats % as interpolation; URLs may hold percent-encoded passwords.
    cfg.set_main_option("sqlalchemy.url", normalize_url(url).replace("%", "%%"))
    return cfg


def upgrade(url: str) -> None:
    cfg = alembic_config(url)
    if not normalize_url(url).startswith("postgresql"):
        command.upgrade(cfg, "head")  # SQLite serialises writers itself
        return
    engine = create_engine(normalize_url(url), poolclass=pool.NullPool)
    try:
        with engine.connect() as connection:
            connection.execute(text("SELECT pg_advisory_lock(:key)"), {"key": _MIGRATION_LOCK})
            connection.commit()
            try:
                cfg.attributes["connection"] = connection  # migrations/env.py runs on this connection
                command.upgrade(cfg, "head")
                connection.commit()
            finally:
                connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": _MIGRATION_LOCK})
                connection.commit()
    finally:
        engine.dispose()


def head_revision() -> str | None:
    """The newest migration this package ships."""
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config("sqlite://")).get_current_head()


def current_revision(url: str) -> str | None:
    """The revision the database at ``url`` is migrated to (None: never migrated)."""
    from alembic.runtime.migration import MigrationContext

    engine = create_engine(normalize_url(url), poolclass=pool.NullPool)
    try:
        with engine.connect() as connection:
            return MigrationContext.configure(connection).get_current_revision()
    finally:
        engine.dispose()
