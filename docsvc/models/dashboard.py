from __future__ import annotations

from ._base import WireModel


class Dashboard(WireModel):
    """The dashboard's structure is not shown by the interface: every field is kept as sent."""
