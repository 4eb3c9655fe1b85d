from __future__ import annotations

from ._base import WireModel


class Diagram(WireModel):
    id: int | None = None
    format: str | None = None
    source: str | None = None
