"""``client.feature_drafts``: create Feature Author drafts, approve them and decide their release notes."""

from __future__ import annotations

from typing import Any

from docsvc.models.feature_drafts import FeatureDraft, ReleaseNotesDecision
from docsvc.models.jobs import JobRef

from ._resource import APIResource
from ._types import strip_none

__all__ = ["FeatureDraftsResource"]


class FeatureDraftsResource(APIResource):
    def create(
        self,
        *,
        title: str,
        brief: str,
        release_id: int | None = None,
        idempotency_key: str | None = None,
    ) -> JobRef:
        """Draft a page from a feature brief (a job): the Writer drafts, the Editor reviews. The
        job's result names the draft (``item_id``) and the Editor's verdict."""
        return self._client.call(
            "feature_drafts.create", json=strip_none({"title": title, "brief": brief, "release_id": release_id}),
            cast=JobRef, idempotency_key=idempotency_key,
        )

    def get(self, id: int) -> FeatureDraft:
        """The draft: page, Editor verdict and comments, release-notes decision, sign-off."""
        return self._client.call("feature_drafts.get", path_params={"id": id}, cast=FeatureDraft)

    def approve(
        self,
        id: int,
        *,
        release_notes: str | None = None,
        rn_section: str | None = None,
        rn_category: str | None = None,
        rn_note: str | None = None,
        release_id: int | None = None,
        idempotency_key: str | None = None,
    ) -> dict[str, Any]:
        """Sign off the draft; refused (409) until the Editor has passed it. Without
        ``release_notes`` the Editor's suggestion is recorded."""
        body = strip_none(dict(release_notes=release_notes, rn_section=rn_section,
                         rn_category=rn_category, rn_note=rn_note, release_id=release_id))
        return self._client.call(
            "feature_drafts.approve", path_params={"id": id}, json=body,
            idempotency_key=idempotency_key,
        ) or {}

    def get_release_notes(self, id: int) -> ReleaseNotesDecision:
        """The recorded decision, or the Editor's suggestion when none is recorded."""
        return self._client.call(
            "feature_drafts.get_release_notes", path_params={"id": id}, cast=ReleaseNotesDecision
        )

    def set_release_notes(
        self,
        id: int,
        *,
        release_notes: str,
        rn_section: str | None = None,
        rn_category: str | None = None,
        rn_note: str | None = None,
        release_id: int | None = None,
    ) -> ReleaseNotesDecision:
        """Record the decision (``include`` or ``skip``), at any stage of the draft."""
        body = strip_none(dict(release_notes=release_notes, rn_section=rn_section,
                         rn_category=rn_category, rn_note=rn_note, release_id=release_id))
        return self._client.call(
            "feature_drafts.set_release_notes", path_params={"id": id}, json=body,
            cast=ReleaseNotesDecision,
        )
