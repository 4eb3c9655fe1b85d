"""``docsvc admin``: organisation listings for System Administrators."""

from __future__ import annotations

import click

from .context import client
from .output import columns, emit, json_option
from .examples import examples


@examples(
    'docsvc admin users list',
    'docsvc admin integrations list --json',
)
@click.group()
def admin() -> None:
    """Organisation listings (System Administrators only)."""


@examples(
    'docsvc admin users list',
    'docsvc admin users list --json',
)
@admin.group()
def users() -> None:
    """Users of your organisation."""


@examples(
    'docsvc admin users list',
    'docsvc admin users list --json',
)
@users.command("list")
@json_option
def list_users(as_json: bool) -> None:
    """List users (source of user IDs for --writer): ID, name, email, role."""
    rows = client().admin.list_users()
    emit(rows, as_json, lambda us: columns([
        [str(u.id), u.name or "", f"<{u.email}>" if u.email else "",
         getattr(u, "role_name", None) or u.role or ""] for u in us]), empty="No users.")


@examples(
    'docsvc admin integrations list',
    'docsvc admin integrations list --json',
    'docsvc admin integrations deliveries 3',
)
@admin.group()
def integrations() -> None:
    """Repository integrations of your organisation."""


@examples(
    'docsvc admin integrations list',
    'docsvc admin integrations list --json',
)
@integrations.command("list")
@json_option
def list_integrations(as_json: bool) -> None:
    """List repository integrations: ID, name, code and docs repositories, where pull requests are
    opened (github, gitlab or git), Keep in sync."""
    rows = client().admin.list_integrations()

    def render(rows):
        return columns([
            [str(i.id), i.name, f"code {i.code_repo} ({i.code_branch})",
             f"docs {i.docs_repo} ({i.docs_branch}) /{i.docs_path}",
             f"pull requests: {i.host or 'git'}",
             "keep in sync: " + ("on" if i.keep_in_sync else "off")] for i in rows])

    emit(rows, as_json, render, empty="No integrations.")


@examples(
    'docsvc admin integrations deliveries 3',
    'docsvc admin integrations deliveries 3 --json',
)
@integrations.command("deliveries")
@click.argument("integration_id", type=click.IntRange(1))
@json_option
def list_deliveries(integration_id: int, as_json: bool) -> None:
    """[addition] List the webhook deliveries of an integration, newest first: when, event, delivery ID, outcome and
    what came of it."""
    rows = client().admin.list_webhook_deliveries(integration_id)

    def render(rows):
        return columns([[d.received_at or "", (d.event or "") + (f" ({d.action})" if d.action else ""),
                         d.delivery or "", d.outcome or "", d.result or ""] for d in rows])

    emit(rows, as_json, render, empty=f"No webhook deliveries for integration {integration_id} yet.")


def register(cli: click.Group) -> None:
    cli.add_command(admin)
