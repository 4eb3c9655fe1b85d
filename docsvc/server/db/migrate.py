"""Schema migrations with Alembic, run programmatically by ``docsvc-server`` before it touches data."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config

from .session import normalize_url

MIGRATIONS = Path(__file__).with_name("migrations")


def alembic_config(url: str) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    # ConfigParser treats % as interpolation; URLs may hold percent-encoded passwords.
    cfg.set_main_option("sqlalchemy.url", normalize_url(url).replace("%", "%%"))
    return cfg


def upgrade(url: str) -> None:
    command.upgrade(alembic_config(url), "head")
