from __future__ import annotations

from ._base import WireModel


class Release(WireModel):
    id: int
    name: str
    target_date: str | None = None
    status: str | None = None
    created_at: str | None = None
