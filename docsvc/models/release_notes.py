from __future__ import annotations

from ._base import WireModel


class ReleaseNoteEntry(WireModel):
    """An entry of a release's release-notes queue."""

    id: int | None = None
    release_id: int | None = None
    item_id: int | None = None
    tool: str | None = None
    title: str | None = None
    rn_section: str | None = None
    rn_category: str | None = None
    rn_note: str | None = None
    badge: str | None = None


class ReleaseNotes(WireModel):
    """A Release Composer item's notes: the release's queue assembled as Markdown."""

    item_id: int
    title: str | None = None
    release_id: int | None = None
    release_name: str | None = None
    markdown: str = ""
    entries: list[ReleaseNoteEntry] = []
