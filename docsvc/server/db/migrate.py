"""Schema migrations with Alembic, run programmatically by ``docsvc-server`` before it touches data.

Several processes may start at once on one PostgreSQL database (a scaled-out deployment): the
upgrade runs under a session-level advisory lock, so one process migrates and the others wait,
then find the schema at head and do nothing.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib.resources import files
from typing import TYPE_CHECKING

from sqlalchemy import create_engine, pool, text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError

if TYPE_CHECKING:
    from alembic.config import Config

from .session import normalize_url

# The advisory lock's key: any constant the deployment's other users of the database leave alone.
_MIGRATION_LOCK = 0x646F6373  # "docs"


def migrations_folder() -> str:
    """The migration scripts, package data of ``docsvc.server.db``. Alembic reads them as files,
    which every regular install (site-packages, ``pip install --target``, editable) has."""
    return str(files("docsvc.server.db").joinpath("migrations"))


def alembic_config(url: str) -> "Config":
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", migrations_folder())
    # ConfigParser treats % as interpolation; URLs may hold percent-encoded passwords.
    cfg.set_main_option("sqlalchemy.url", normalize_url(url).replace("%", "%%"))
    return cfg


# A script's own ``revision = '0009'`` and ``down_revision = '0008'`` (or None) lines.
_REVISION_LINE = re.compile(r"^(down_revision|revision)\s*(?::[^=]*)?=\s*(?:'([^']*)'|\"([^\"]*)\"|None)\s*$", re.M)


@lru_cache(maxsize=1)
def shipped_head() -> str | None:
    """The newest migration this package ships, read from the scripts' revision lines without
    Alembic (whose import and script loading were a quarter of an admin command's time). None
    when the scripts are not one plain chain: then only Alembic's own reading is trusted."""
    parents: dict[str, str | None] = {}
    folder = files("docsvc.server.db").joinpath("migrations").joinpath("versions")
    for script in folder.iterdir():
        if not script.name.endswith(".py"):
            continue
        found = {m.group(1): m.group(2) or m.group(3) for m in _REVISION_LINE.finditer(script.read_text("utf-8"))}
        if not found.get("revision") or "down_revision" not in found or found["revision"] in parents:
            return None
        parents[found["revision"]] = found["down_revision"]
    heads = set(parents) - set(parents.values())
    return heads.pop() if len(heads) == 1 else None


def at_head(connection: Connection) -> bool:
    """The database on ``connection`` is at the newest migration this package ships, read without
    loading Alembic while the scripts are one plain chain (``shipped_head``). One without the
    version table yet (or mid-migration by another process: PostgreSQL's DDL is transactional) is
    not at head."""
    head = shipped_head() or head_revision()
    try:
        versions = connection.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
    except DBAPIError:  # no version table: never migrated
        return False
    return versions == [head]


def _at_head(url: str) -> bool:
    """``at_head`` on a connection of its own: a database that cannot be reached fails here as it
    would in Alembic. Not when the scripts are no plain chain: Alembic alone reads those."""
    if shipped_head() is None:
        return False
    engine = create_engine(normalize_url(url), poolclass=pool.NullPool)
    try:
        with engine.connect() as connection:
            return at_head(connection)
    finally:
        engine.dispose()


def upgrade(url: str) -> None:
    if _at_head(url):
        return
    from alembic import command

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
