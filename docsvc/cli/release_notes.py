"""``docsvc release-notes``: Release Composer items and the release-notes queue of a release."""

from __future__ import annotations

import click

from .context import client
from .output import columns, emit, json_option, status
from .examples import examples
from .params import ID


@examples(
    'docsvc release-notes create --release 3',
    'docsvc release-notes show 11',
)
@click.group("release-notes")
def release_notes() -> None:
    """[addition] Release notes: each release's queue, assembled by Release Composer items."""


@examples(
    'docsvc release-notes create --release 3',
    "docsvc release-notes create --release 3 --title 'v2.4 notes'",
)
@release_notes.command("create")
@click.option("--release", "release_id", type=ID, required=True, help="release ID")
@click.option("--title", default=None, help="the item's title (default: Release notes for <release>)")
@json_option
def create(release_id: int, title: str | None, as_json: bool) -> None:
    """[addition] Create a Release Composer item for a release; prints its id.

    Wraps POST /release-notes, which the interface does not list. The item assembles the
    release's notes from its queue: docsvc release-notes show ID."""
    item = client().release_notes.create(release_id=release_id, title=title)
    if not as_json:
        status(f"Release Composer item {item.id} ({item.title}) for release {item.release_name}")
    emit(item, as_json, lambda i: str(i.id))


@examples(
    'docsvc release-notes show 11',
    'docsvc release-notes show 11 > notes.md',
)
@release_notes.command("show")
@click.argument("item_id", type=ID, metavar="ID")
@json_option
def show(item_id: int, as_json: bool) -> None:
    """[addition] Print a Release Composer item's release notes as Markdown: by section (feature,
    enhancement, bug, known-issue, developer), then category; assembled from the queue now."""
    notes = client().release_notes.get(item_id)
    emit(notes, as_json, lambda n: n.markdown.rstrip("\n"))


@examples(
    'docsvc release-notes queue --release 3',
    'docsvc release-notes queue --release 3 --json',
)
@release_notes.command("queue")
@click.option("--release", "release_id", type=ID, required=True, help="release ID")
@json_option
def queue(release_id: int, as_json: bool) -> None:
    """[addition] List a release's release-notes queue: item, section, category, note, badge."""
    entries = client().release_notes.queue(release_id)
    emit(entries, as_json, lambda es: columns([
        [f"{e.tool} {e.item_id}" if e.item_id else f"{e.tool} (deleted)", e.rn_section or "", e.rn_category or "",
         e.rn_note or "", f"[{e.badge}]" if e.badge else ""] for e in es]),
         empty=f"Release {release_id} has no release-notes entries yet.")


def register(cli: click.Group) -> None:
    cli.add_command(release_notes)
