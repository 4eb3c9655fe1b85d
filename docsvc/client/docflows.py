"""``client.docflows``: trigger Docflows suggestions and review them."""

from __future__ import annotations

import json
import os
from typing import Any, Mapping

from docsvc.models.docflows import ApproveResult, DocflowSummary, HistoryRound
from docsvc.models.jobs import JobRef

from ._files import FilePart, files_from_paths
from ._resource import APIResource
from ._types import PathLike, strip_none

__all__ = ["DocflowsResource"]


def _unique_name(name: str, taken: set[str]) -> str:
    """``name``, or ``stem-2.ext``, ``stem-3.ext``... when another screenshot already uses it.

    The service matches each listed route to its file part by filename, so two images both
    called ``home.png`` from different folders must not share a name.
    """
    stem, ext = os.path.splitext(name)
    candidate, n = name, 1
    while candidate in taken:
        n += 1
        candidate = f"{stem}-{n}{ext}"
    taken.add(candidate)
    return candidate


class DocflowsResource(APIResource):
    def generate(
        self,
        *,
        integration_id: int,
        pr_data: Mapping[str, Any],
        screenshots: Mapping[str, PathLike] | None = None,
        idempotency_key: str | None = None,
    ) -> JobRef:
        """Trigger a suggestion for a pull request (a job).

        Without ``screenshots`` the body is JSON ``{integration_id, pr_data}``. With them
        (route -> image path) it is multipart: text fields ``integration_id`` and ``pr_data``
        (JSON whose ``screenshots`` lists ``{route, filename}``) and one ``screenshots`` file
        part per image, streamed from disk and re-read on a retry. The service then skips its
        own screenshot stage and uses these images.
        """
        if not screenshots:
            return self._client.call(
                "docflows.generate",
                json={"integration_id": integration_id, "pr_data": dict(pr_data)},
                cast=JobRef,
                idempotency_key=idempotency_key,
            )
        taken: set[str] = set()
        listed: list[dict[str, str]] = []
        parts: list[FilePart] = []
        for route, path in screenshots.items():
            filename = _unique_name(os.path.basename(os.fspath(path)), taken)
            listed.append({"route": route, "filename": filename})
            parts.append(("screenshots", path, filename))
        fields = {
            "integration_id": integration_id,
            "pr_data": json.dumps({**pr_data, "screenshots": listed}),
        }
        return self._client.call(
            "docflows.generate",
            files_factory=files_from_paths(fields, parts),
            cast=JobRef,
            idempotency_key=idempotency_key,
        )

    def get(self, id: int) -> DocflowSummary:
        """Per-file summary with the screenshot plan and whether the PR has new commits."""
        return self._client.call("docflows.get", path_params={"id": id}, cast=DocflowSummary)

    def get_diff(self, id: int) -> str:
        """The suggestion as a unified diff against the docs repository (plain text)."""
        return self._client.call(
            "docflows.get", path_params={"id": id}, params={"format": "diff"}, raw_text=True
        )

    def take_screenshots(
        self, id: int, routes: list[str], *, idempotency_key: str | None = None
    ) -> JobRef:
        """Take more screenshots of the given page routes or addresses (a job)."""
        return self._client.call(
            "docflows.take_screenshots", path_params={"id": id}, json={"routes": list(routes)},
            cast=JobRef, idempotency_key=idempotency_key,
        )

    def approve(
        self,
        id: int,
        *,
        release_id: int | None = None,
        new_release_name: str | None = None,
        assignee_id: int | str = "me",
        release_notes: str | None = None,
        rn_section: str | None = None,
        rn_category: str | None = None,
        rn_note: str | None = None,
        idempotency_key: str | None = None,
    ) -> ApproveResult:
        """Approve into a release (``release_id``, or ``new_release_name`` to create or reuse
        one by name; the service refuses neither). ``release_notes`` left None keeps the
        service's own include/skip suggestion."""
        body = strip_none({
            "release_id": release_id,
            "new_release_name": new_release_name,
            "assignee_id": assignee_id,
            "release_notes": release_notes,
            "rn_section": rn_section,
            "rn_category": rn_category,
            "rn_note": rn_note,
        })
        return self._client.call(
            "docflows.approve", path_params={"id": id}, json=body, cast=ApproveResult,
            idempotency_key=idempotency_key,
        )

    def dismiss(self, id: int, *, done: bool = False) -> dict[str, Any]:
        """Dismiss the suggestion: status Rejected, or Done with ``done=True`` (the docs
        already contain the change; its release notes stay queued)."""
        body = {"reason": "done"} if done else {}
        return self._client.call("docflows.dismiss", path_params={"id": id}, json=body) or {}

    def history(self, id: int, *, versions: bool = False) -> list[HistoryRound]:
        """Review history rounds; ``versions=True`` includes the text of each kept version."""
        return self._client.call(
            "docflows.history", path_params={"id": id},
            params={"versions": 1 if versions else None}, cast=list[HistoryRound],
        )

    def restore(self, id: int, version: int) -> dict[str, Any]:
        """Restore kept version N; the current text is kept as a new version."""
        return self._client.call(
            "docflows.restore", path_params={"id": id}, json={"version": version}
        ) or {}

    def sync(self, id: int, *, idempotency_key: str | None = None) -> JobRef:
        """Sync Latest Code: add what the draft lacks from the PR's newest code (a job)."""
        return self._client.call(
            "docflows.sync", path_params={"id": id}, cast=JobRef, idempotency_key=idempotency_key
        )

    def request_changes(
        self,
        id: int,
        feedback: str,
        *,
        target_file: str | None = None,
        idempotency_key: str | None = None,
    ) -> JobRef:
        """Ask the Technical Writer for changes (optionally to one file); the Editor reviews."""
        return self._client.call(
            "docflows.request_changes", path_params={"id": id},
            json=strip_none({"feedback": feedback, "target_file": target_file}),
            cast=JobRef, idempotency_key=idempotency_key,
        )

    def check(
        self, id: int, *, ai: bool | None = None, idempotency_key: str | None = None
    ) -> JobRef:
        """Check one suggestion against the docs (a job); ``ai=False`` is the free text check."""
        return self._client.call(
            "docflows.check", path_params={"id": id}, json=strip_none({"ai": ai}),
            cast=JobRef, idempotency_key=idempotency_key,
        )

    def check_many(
        self,
        *,
        ids: list[int] | None = None,
        dismiss_done: bool | None = None,
        ai: bool | None = None,
        idempotency_key: str | None = None,
    ) -> JobRef:
        """Check several suggestions (every open one when ``ids`` is None); the job's result
        lists each suggestion's verdict. ``dismiss_done`` dismisses those already in the docs."""
        return self._client.call(
            "docflows.check_many",
            json=strip_none({
                "ids": list(ids) if ids is not None else None,
                "dismiss_done": dismiss_done,
                "ai": ai,
            }),
            cast=JobRef,
            idempotency_key=idempotency_key,
        )
