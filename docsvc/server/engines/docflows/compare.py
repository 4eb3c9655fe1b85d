"""A suggestion compared with the docs as they are now (check-docs).

Per file, the text comparison (free) finds one of:
- ``already in the docs``: the docs now read as the suggestion would make them (or hold every line
  it adds and none it removes);
- ``probably already in the docs``: most of its added lines are there and none of its removed
  ones, with the reason;
- ``still needed``: the docs still read as when the suggestion was drafted;
- ``updated to fit changed docs``: the docs changed since, and the suggestion's facts were applied
  again on their new text (the suggestion now holds that edit).
A suggestion's verdict is the weakest of its files (``ORDER``).
"""

from __future__ import annotations

import re
from typing import Any

from .facts import Fact
from .evidence.model import PlannedPage, Plan
from .writer import write

__all__ = ["ALREADY", "PROBABLY", "NEEDED", "UPDATED", "ORDER", "compare", "read_closely", "reapply"]

ALREADY, PROBABLY, NEEDED, UPDATED = ("already in the docs", "probably already in the docs", "still needed",
                                      "updated to fit changed docs")
ORDER = [NEEDED, UPDATED, PROBABLY, ALREADY]  # weakest first


def _lines(text: str) -> set[str]:
    return {line.strip() for line in text.split("\n") if line.strip()}


def compare(old: str, new: str, current: str | None) -> tuple[str, str]:
    """(finding, reason) for one file."""
    if current is None:
        return NEEDED, "the file is gone from the docs branch"
    if current == new:
        return ALREADY, "the docs read exactly as the suggestion would make them"
    added, removed, now = _lines(new) - _lines(old), _lines(old) - _lines(new), _lines(current)
    if current == old:
        return NEEDED, "the docs are unchanged since the suggestion was drafted"
    present = added & now
    if added and present == added and not (removed & now):
        return ALREADY, "every line the suggestion adds is there, and none it removes"
    if added and len(present) >= max(1, round(0.6 * len(added))) and not (removed & now):
        missing = sorted(added - present)
        return PROBABLY, f"{len(present)} of {len(added)} added lines are there; missing: {missing[0][:80]}"
    return UPDATED, "the docs changed since the suggestion was drafted"


def _normal(line: str) -> str:
    """A line with formatting ignored: case, emphasis and code marks, spacing, table padding."""
    return re.sub(r"\s+", " ", re.sub(r"[*_`]", "", line)).replace(" |", "|").replace("| ", "|").strip().lower()


def read_closely(old: str, new: str, current: str) -> tuple[str, str] | None:
    """The extra reading of a file the text comparison left at "probably": the lines compared
    with formatting ignored. Returns an upgraded (finding, reason), or None when it stays."""
    normal = lambda text: {_normal(x) for x in text.split("\n") if x.strip()}  # noqa: E731
    added, removed, now = normal(new) - normal(old), normal(old) - normal(new), normal(current)
    if added and added <= now and not (removed & now):
        return ALREADY, "read closely: every added line is there once formatting is ignored"
    return None


def reapply(path: str, current: str, facts: list[dict[str, Any]]) -> str | None:
    """The suggestion's facts written again on the docs' new text; None when nothing applies."""
    page = PlannedPage(path, "direct", 1.0, facts=[Fact(**{k: f.get(k) for k in (
        "kind", "change", "name", "path", "rule", "old", "new", "line", "note")},
        siblings=tuple(f.get("siblings") or ()), follows=tuple(f.get("follows") or ()), importable=tuple(f.get("importable") or ())) for f in facts])
    draft = write(Plan([page], []), lambda _p: current)
    return draft.files.get(path)
