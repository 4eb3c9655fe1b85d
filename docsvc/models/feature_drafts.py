from __future__ import annotations

from ._base import WireModel
from .items import Item


class ReleaseNotesDecision(WireModel):
    release_notes: str | None = None  # "include" or "skip"
    rn_section: str | None = None
    rn_category: str | None = None
    rn_note: str | None = None
    release_id: int | None = None
    source: str | None = None  # "decision" or "editor" (the Editor's suggestion)


class EditorComment(WireModel):
    path: str | None = None
    line: int | None = None
    check: str | None = None
    message: str | None = None


class EditorVerdict(WireModel):
    passed: bool = False
    comments: list[EditorComment] = []


class SignOff(WireModel):
    user_id: int | None = None
    name: str | None = None
    at: str | None = None


class FeatureDraft(Item):
    """A draft as ``GET /feature-drafts/<id>`` gives it: the item's fields, the page, the Editor's
    verdict, the release-notes decision (or suggestion) and the sign-off."""

    page: str | None = None
    path: str | None = None
    editor: EditorVerdict | None = None
    editor_passed: bool | None = None
    release_notes: ReleaseNotesDecision | None = None
    sign_off: SignOff | None = None
