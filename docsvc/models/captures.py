from __future__ import annotations

from typing import Any

from ._base import WireModel


class ZoomSetting(WireModel):
    mode: str = "auto"
    steps: dict[str, str] = {}
    step_list: list[dict[str, Any]] | None = None  # each step with id, description, setting
