from __future__ import annotations

from ._base import WireModel


class WorkSummary(WireModel):
    open: int = 0
    blocked: int = 0
    docflows: int = 0
    changes_requested: int = 0
