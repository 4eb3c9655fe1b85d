"""``client.captures``: zoom-on-click settings of an interactive capture."""

from __future__ import annotations

from typing import Mapping

from docsvc.models.captures import ZoomSetting

from ._resource import APIResource
from ._types import strip_none

__all__ = ["CapturesResource"]


class CapturesResource(APIResource):
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
