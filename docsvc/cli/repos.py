"""``docsvc sync``, ``docsvc repos list|request-sync`` and ``docsvc search``: repositories and
the search index they feed."""

from __future__ import annotations

import click

from .. import exit_codes
from .context import CliExit, client
from .output import columns, emit, json_option, status
from .examples import examples
from .progress import timeout_option, wait_for_job
from .params import ID


@examples(
    'docsvc sync --integration-id 1',
    'docsvc sync --integration-id 1 --timeout 300 --json',
)
@click.command()
@click.option("--integration-id", type=ID, required=True,
              help="the repository integration to sync (see: docsvc admin integrations list)")
@timeout_option("the sync goes on in the service")
@json_option
def sync(integration_id: int, timeout: float | None, as_json: bool) -> None:
    """Sync a connected repository into the search index; waits and shows progress."""
    api = client()
    ref = api.repos.sync(integration_id)
    status(f"Sync of integration {integration_id} queued (job {ref.job_id})")
    result = wait_for_job(api, ref, "sync", timeout)

    def render(r) -> str:
        kind = "incremental" if r.get("incremental") else "full"
        return (f"Synced integration {r.get('integration_id')} at {str(r.get('commit', ''))[:12]} ({kind}): "
                f"{r.get('files_indexed')} file(s) indexed, {r.get('files_removed')} removed, "
                f"{r.get('files_total')} in the index, {r.get('seconds')} s")

    emit(result, as_json, render)


@examples(
    'docsvc repos list',
    'docsvc repos request-sync 2',
)
@click.group()
def repos() -> None:
    """Connected repositories: sync state and sync requests."""


@examples(
    'docsvc repos list',
    'docsvc repos list --json',
)
@repos.command("list")
@json_option
def list_repos(as_json: bool) -> None:
    """Show each repository's sync state, last sync and Keep in sync setting."""
    rows = client().repos.list()
    emit(rows, as_json, lambda rs: columns([
        [str(r.id), r.name, r.state or "", f"last sync {r.last_synced_at}" if r.last_synced_at else "never synced",
         "keep in sync: " + ("on" if r.keep_in_sync else "off")] for r in rs]), empty="No repositories.")


@examples(
    'docsvc repos request-sync 2',
    'docsvc repos request-sync 2 --json',
)
@repos.command("request-sync")
@click.argument("repo_id", type=ID, metavar="ID")
@json_option
def request_sync(repo_id: int, as_json: bool) -> None:
    """Email your organisation's System Administrators that the repository needs a sync.

    At most one email per repository per day."""
    from ..client import RateLimitError

    try:
        result = client().repos.request_sync(repo_id)
    except RateLimitError as exc:
        extra = exc.problem.model_extra or {} if exc.problem else {}
        when = extra.get("next_possible_at")
        wait = f"; the next request is possible at {when}" if when else ""
        raise CliExit(f"{exc.problem.detail if exc.problem else exc}{wait}", exit_codes.FAILED) from None
    emit(result, as_json, lambda r: r.detail or "Sync requested")


@examples(
    "docsvc search 'retry policy'",
    'docsvc search DOCSVC_BASE_URL --integration-id 1 --limit 5 --json',
)
@click.command()
@click.argument("query")
@click.option("--integration-id", type=ID, default=None, help="only this repository's docs")
@click.option("--limit", type=click.IntRange(1, 200), default=20, show_default=True)
@json_option
def search(query: str, integration_id: int | None, limit: int, as_json: bool) -> None:
    """[addition] Search the synced docs: path, line and a snippet per hit.

    An addition to the interface (GET /search), not in the hosted service's documented API."""
    hits = client().search.query(query, integration_id=integration_id, limit=limit)
    emit(hits, as_json, lambda hs: [f"{h.path}:{h.line}: {h.snippet}" for h in hs], empty="No matches.")


def register(cli: click.Group) -> None:
    cli.add_command(sync)
    cli.add_command(repos)
    cli.add_command(search)
