"""What the planner hands on: a plan of pages (``Plan``, ``PlannedPage``), and how each kind of
evidence adds to it (``Add``: a planned page with its mode, confidence, reason and fact; ``Look``:
a page worth a look, with its reason, not edited). Also the limits several kinds of evidence share."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional

from ..facts_model import Fact

__all__ = ["Add", "Look", "Plan", "PlannedPage", "NO_CHANGE", "MAX_CONCEPTUAL_PAGES", "MIN_SHOWN"]

NO_CHANGE = "no documentation change needed"
MAX_CONCEPTUAL_PAGES = 3  # an added name belongs on the few pages that document most of its siblings
MIN_SHOWN = 3  # pages at most that may show a changed output or a folder's files and still tell pages apart

# add(path, mode, confidence, reason, fact or None); look(path, reason)
Add = Callable[[str, str, float, str, Optional[Fact]], None]
Look = Callable[[str, str], None]


@dataclass
class PlannedPage:
    path: str
    mode: str  # direct | conceptual | related (names the change touches; reviewed, not edited)
    confidence: float
    reasons: list[str] = field(default_factory=list)
    facts: list[Fact] = field(default_factory=list)


@dataclass
class Plan:
    pages: list[PlannedPage]
    unaffected: list[str]  # per fact with no page: why
    worth_a_look: list[dict] = field(default_factory=list)  # {path, reason}: weak matches, not edited

    @property
    def verdict(self) -> str:
        return "documentation change planned" if self.pages else NO_CHANGE
