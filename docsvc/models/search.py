from __future__ import annotations

from ._base import WireModel


class SearchHit(WireModel):
    """One passage of the synced docs that matches a search (an addition to the interface)."""

    path: str
    line: int
    snippet: str = ""
    integration_id: int | None = None
    title: str | None = None
    score: float | None = None
