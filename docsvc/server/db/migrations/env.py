from __future__ import annotations

from alembic import context
from sqlalchemy import engine_from_config, pool

from docsvc.server.db.tables import Base

config = context.config
target_metadata = Base.metadata


def _ours(obj, name, type_, reflected, compare_to) -> bool:
    # The full-text index (FTS5 tables, the tsvector column) is made by hand in 0002: autogenerate
    # must not propose to drop it.
    return not (type_ == "table" and name and name.startswith("search_fts"))


def _migrate(connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        include_object=_ours,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    # A caller's connection (``db/migrate.py`` holds an advisory lock on it), else one of our own.
    given = context.config.attributes.get("connection")
    if given is not None:
        _migrate(given)
        return
    connectable = engine_from_config(
        config.get_section(config.config_ini_section, {}), prefix="sqlalchemy.", poolclass=pool.NullPool
    )
    with connectable.connect() as connection:
        _migrate(connection)


run_migrations_online()
