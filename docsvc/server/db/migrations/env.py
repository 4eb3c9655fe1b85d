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


def run_migrations_online() -> None:
    connectable = context.config.attributes.get("connection")
    if connectable is None:
        connectable = engine_from_config(
            config.get_section(config.config_ini_section, {}), prefix="sqlalchemy.", poolclass=pool.NullPool
        )
    with connectable.connect() as connection:
        context.configure(
            connection=connection,
            target_metadata=target_metadata,
            include_object=_ours,
            render_as_batch=connection.dialect.name == "sqlite",
        )
        with context.begin_transaction():
            context.run_migrations()


run_migrations_online()
