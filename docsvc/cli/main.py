"""The ``docsvc`` root command: global options, error mapping, and the command groups."""

from __future__ import annotations

import sys

import click

from .. import __version__
from . import (admin, api_readiness, captures, chat, ci, convert, dashboard, diagrams, docflows, feature_drafts, items,
               release_notes, releases, repos, work)


class DocsvcGroup(click.Group):
    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except click.exceptions.Exit:
            raise
        except click.ClickException:
            raise
        except Exception as exc:
            from .errors import to_cli_exit

            cli_exit = to_cli_exit(exc)
            if cli_exit is None:
                raise
            raise cli_exit from None


@click.group(cls=DocsvcGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="docsvc")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """docsvc: trigger and review documentation operations from scripts and CI.

    Settings: DOCSVC_API_KEY and DOCSVC_BASE_URL, or api_key, base_url and integration_id in
    ./docsvc.yaml (the environment wins). Exit codes: 0 ok, 1 failed, 2 bad usage or input,
    4 authentication or permission, 8 a job still running when --timeout ran out.
    """
    ctx.ensure_object(dict)


for module in (items, releases, admin, repos, ci, docflows, work, convert, api_readiness, captures, dashboard, chat,
               feature_drafts, release_notes, diagrams):
    module.register(cli)


def main() -> None:
    try:
        cli.main(prog_name="docsvc")
    except KeyboardInterrupt:  # pragma: no cover - interactive
        click.echo("Interrupted", err=True)
        sys.exit(130)
