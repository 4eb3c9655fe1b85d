"""``client.captures``: create an interactive capture (a job), read it, and read or change its
zoom-on-click settings."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from docsvc.models.captures import Capture, ZoomSetting
from docsvc.models.jobs import JobRef

from ._resource import APIResource
from ._types import strip_none

__all__ = ["CapturesResource"]


class CapturesResource(APIResource):
    def create(
        self,
        *,
        start_url: str,
        steps: Sequence[Mapping[str, Any]],
        title: str | None = None,
        step_timeout_seconds: float | None = None,
        idempotency_key: str | None = None,
    ) -> JobRef:
        """Start a capture (an addition): the service opens ``start_url`` in a browser and walks
        ``steps`` (each ``{action: click|type|navigate, selector?, text?, url?, description}``),
        screenshotting after each. The job's result holds ``item_id`` and the steps."""
        body = strip_none({"title": title, "start_url": start_url, "steps": [dict(s) for s in steps],
                           "step_timeout_seconds": step_timeout_seconds})
        return self._client.call("captures.create", json=body, cast=JobRef, idempotency_key=idempotency_key)

    def get(self, id: int) -> Capture:
        """The capture (an addition) with each step's target size, zoom and screenshot."""
        return self._client.call("captures.get", path_params={"id": id}, cast=Capture)

    def get_zoom(self, id: int) -> ZoomSetting:
        """The capture's mode and each step's setting."""
        return self._client.call("captures.get_zoom", path_params={"id": id}, cast=ZoomSetting)

    def set_zoom(
        self,
        id: int,
        *,
        mode: str | None = None,
        steps: Mapping[str, str] | None = None,
    ) -> ZoomSetting:
        """Change the mode (``auto``, ``always``, ``off``) and/or steps (step id -> ``on``,
        ``off`` or ``default``); what is None is left as it is."""
        body = strip_none({"mode": mode, "steps": dict(steps) if steps is not None else None})
        return self._client.call(
            "captures.set_zoom", path_params={"id": id}, json=body, cast=ZoomSetting
        )
