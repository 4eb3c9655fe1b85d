from __future__ import annotations

from typing import Any

from ._base import WireModel


class ZoomSetting(WireModel):
    mode: str = "auto"
    steps: dict[str, str] = {}
    step_list: list[dict[str, Any]] | None = None  # each step with id, description, setting, effective zoom


class CaptureStep(WireModel):
    id: str
    action: str | None = None
    description: str | None = None
    selector: str | None = None
    url: str | None = None
    target: dict[str, float] | None = None  # the click target's width and height in CSS px
    zoom: str = "default"
    effective_zoom: bool | None = None
    zoom_reason: str | None = None
    screenshot: dict[str, Any] | None = None


class Capture(WireModel):
    id: int
    title: str | None = None
    start_url: str | None = None
    mode: str = "auto"
    steps: list[CaptureStep] = []
