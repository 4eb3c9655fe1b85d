from __future__ import annotations

from ._base import WireModel


class User(WireModel):
    id: int
    name: str | None = None
    email: str | None = None
    role: str | None = None  # "writer" or "admin" (System Administrator)
    organization: str | None = None
