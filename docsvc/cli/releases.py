"""``docsvc releases list``: the releases of your organisation (source of release ids)."""

from __future__ import annotations

import click

from .context import client
from .output import columns, emit, json_option
from .examples import examples


@examples(
    'docsvc releases list',
    'docsvc releases list --json',
)
@click.group()
def releases() -> None:
    """Releases (the source of release IDs for --release)."""


@examples(
    'docsvc releases list',
    'docsvc releases list --json',
)
@releases.command("list")
@json_option
def list_releases(as_json: bool) -> None:
    """List releases, newest first: ID, name, target date, status."""
    rows = client().releases.list()
    emit(rows, as_json, lambda rs: columns([
        [str(r.id), r.name, f"target {r.target_date}" if r.target_date else "no target date", r.status or ""]
        for r in rs]), empty="No releases.")


def register(cli: click.Group) -> None:
    cli.add_command(releases)
