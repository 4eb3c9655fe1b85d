"""``docsvc dashboard``: the web dashboard's numbers, as compact tables (or ``--json``)."""

from __future__ import annotations

import click

from ..endpoints import TOOLS
from .context import client
from .items import RELEASE, WRITER
from .output import columns, emit, json_option
from .examples import examples


def _progress(p) -> str:
    return f"{p.done}/{p.total} done ({p.percent}%)"


def _timeline(release) -> list[str]:
    lines = [f"Release timeline: {release.name} (ID {release.id})",
             f"  status {release.status or '-'} · target {release.target_date or 'none'}"
             f"{' (past target)' if release.past_target else ''} · first planned "
             f"{release.first_planned_date or 'none'} · progress {_progress(release.progress)}"]
    if not release.date_changes:
        lines.append("  no date changes")
    rows = [["  " + (c.changed_at or "")[:10], f"{c.old_date or 'none'} -> {c.new_date or 'none'}",
             f"by {c.changed_by}" if c.changed_by else "", c.reason or ""] for c in release.date_changes]
    return lines + columns(rows)


def _counts(counts, tool: str | None) -> list[str]:
    tools = [[f"  {name}", str(n)] for name, n in counts.by_tool.items() if n or tool]
    statuses = "  " + " · ".join(f"{n} {status}" for status, n in counts.by_status.items() if n)
    return [f"Item counts: {counts.total}", *columns(tools), statuses if counts.total else "  no items"]


def _releases(releases) -> list[str]:
    if not releases:
        return ["Releases: none"]
    return ["Releases:", *columns([[f"  {r.id}", r.name, r.status or "", f"target {r.target_date or 'none'}",
                                    _progress(r.progress), "past target" if r.past_target else ""]
                                   for r in releases])]


def _writers(writers) -> list[str]:
    if not writers:
        return ["Work per writer: no items"]
    rows = [["  Writer", "Open", "Done", "Total"]]
    rows += [[f"  {w.name}", str(w.open), str(w.done), str(w.total)] for w in writers]
    return ["Work per writer:", *columns(rows)]


def _attention(attention) -> list[str]:
    def item(i, extra: str = "") -> str:
        who = f" ({i.writer_name})" if i.writer_name else ""
        return f"  {i.tool} {i.id} {i.title}{who}{extra}"

    lines = [item(i, f": {i.note}" if i.note else "") + " — blocked" for i in attention.blocked]
    lines += [item(i) + " — pull request has new commits" for i in attention.new_commits]
    lines += [item(i) + " — changes requested" + (f" by {i.requested_by}" if i.requested_by else "")
              for i in attention.changes_requested]
    lines += [f"  release {r.name} (ID {r.id}) — {r.days_late} day(s) past its target {r.target_date}, "
              f"still {r.status}" for r in attention.releases_past_target]
    return ["Needs attention:", *(lines or ["  nothing"])]


def render(board, tool: str | None) -> list[str]:
    sections = []
    if board.release is not None:
        sections.append(_timeline(board.release))
    sections.append(_counts(board.counts, tool))
    if board.release is None:
        sections.append(_releases(board.releases))
    sections += [_writers(board.writers), _attention(board.attention)]
    out: list[str] = []
    for section in sections:
        out += ([""] if out else []) + section
    return out


@examples(
    'docsvc dashboard',
    'docsvc dashboard --release 3 --writer me',
    'docsvc dashboard --mine --tool docflows --json',
)
@click.command()
@click.option("--release", type=RELEASE, help="one release's timeline and items (an ID), or 'none' for items "
                                              "without a release")
@click.option("--writer", type=WRITER, help="only this writer's items: an ID, 'me', or 'none' for unassigned "
                                            "(default: everyone's)")
@click.option("--mine", is_flag=True, help="short for --writer me")
@click.option("--tool", type=click.Choice(TOOLS), help="only this tool's items")
@json_option
def dashboard(release, writer, mine: bool, tool: str | None, as_json: bool) -> None:
    """Print the dashboard: a release's timeline (with --release), item counts, each release's
    progress, work per writer and what needs attention. Without --writer or --mine it shows
    everyone's work; --json prints everything, the timeline included."""
    if mine and writer is not None:
        raise click.UsageError("give --mine or --writer, not both (--mine is --writer me)")
    board = client().dashboard.get(release_id=release, writer_id="me" if mine else writer, tool=tool)
    emit(board, as_json, lambda b: render(b, tool))


def register(cli: click.Group) -> None:
    cli.add_command(dashboard)
