"""The states of a Docflows suggestion that every changing action and the items PATCH obey alike:
a dismissed suggestion (Rejected or Done, the interface's end states) changes no more. Apart
from ``docflows`` so that ``items`` (which ``docflows`` builds on) can ask it too."""

from __future__ import annotations

from ..db.tables import Item
from ..problems import Problem


def refuse_if_dismissed(item: Item, doing: str) -> None:
    """The one rule of a dismissed suggestion: Rejected and Done are where it ends (the interface
    leads nowhere from them), so nothing changes it any more. Every changing action asks here
    before it charges a credit or writes anything: 409, "... it cannot be <doing>"."""
    data = item.data or {}
    if data.get("dismissed"):
        status = data.get("dismissed_as") or item.work_status
        raise Problem(409, f"Docflows suggestion {item.id} is already dismissed ({status}); it cannot be {doing}")


def check_status_change(item: Item, status: str) -> None:
    """A work-status change of a suggestion (``items status``, PATCH): a dismissed one keeps the
    status it was dismissed as (409 for any other; the interface leads nowhere from Rejected or
    Done). Setting that one again changes nothing, and mends a suggestion moved off it before."""
    if status != ((item.data or {}).get("dismissed_as") or item.work_status):
        refuse_if_dismissed(item, f"moved to {status}")
