from __future__ import annotations

from ._base import WireModel


class ReleaseNotesDecision(WireModel):
    release_notes: str | None = None  # "include" or "skip"
    rn_section: str | None = None
    rn_category: str | None = None
    rn_note: str | None = None
    release_id: int | None = None
    source: str | None = None  # "decision" or "editor" (the Editor's suggestion)
