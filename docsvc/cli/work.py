"""``docsvc mywork``: the caller's own work summary in one line."""

from __future__ import annotations

import click

from .context import client
from .output import emit, json_option


@click.command()
@json_option
def mywork(as_json: bool) -> None:
    """Print '<n> open · <n> blocked · <n> Docflows to review' for you."""
    summary = client().me.work()
    emit(summary, as_json, lambda s: f"{s.open} open · {s.blocked} blocked · {s.docflows} Docflows to review")


def register(cli: click.Group) -> None:
    cli.add_command(mywork)
