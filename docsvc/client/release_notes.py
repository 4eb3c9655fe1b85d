"""``client.release_notes``: Release Composer items and the release-notes queue of a release."""

from __future__ import annotations

import builtins

from docsvc.models.items import Item
from docsvc.models.release_notes import ReleaseNoteEntry, ReleaseNotes

from ._resource import APIResource
from ._types import strip_none

__all__ = ["ReleaseNotesResource"]


class ReleaseNotesResource(APIResource):
    def create(self, *, release_id: int, title: str | None = None, idempotency_key: str | None = None) -> Item:
        """A Release Composer item (``release-notes`` tool) for a release."""
        return self._client.call("release_notes.create", json=strip_none({"release_id": release_id, "title": title}),
                                 cast=Item, idempotency_key=idempotency_key)

    def get(self, id: int) -> ReleaseNotes:
        """The item's release notes, assembled from its release's queue (Markdown and entries)."""
        return self._client.call("release_notes.get", path_params={"id": id}, cast=ReleaseNotes)

    def queue(self, release_id: int) -> builtins.list[ReleaseNoteEntry]:
        """The release's release-notes queue, in the order entries joined."""
        return self._client.call("release_notes.queue", path_params={"id": release_id},
                                 cast=list[ReleaseNoteEntry])
