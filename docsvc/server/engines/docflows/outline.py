"""The suggestion page by page: which pages were edited, which are for review only and which are
only worth a look, each with why.

One list a reader goes through top to bottom (edited first, then for review, then worth a look),
built from the plan's pages (as the Information Architect's round stores them), the files the
Writer drafted, its open points and the planner's weaker signs. Pure: dicts in, dicts out.
"""

from __future__ import annotations

import re
from typing import Iterable, Mapping

__all__ = ["EDITED", "REVIEW", "LOOK", "outline", "with_looks"]

EDITED, REVIEW, LOOK = "edited", "for review", "worth a look"
_NO_FACT = "not edited: no fact of the pull request says what to write here; a person reads it"
_NOTHING_WRITTEN = "not edited: the Writer found no place on the page for the change"


def _about(point: str, path: str) -> str | None:
    """An open point of the Writer's about ``path`` (``path: …`` or ``path:12: …``), without the path."""
    match = re.match(rf"{re.escape(path)}(?::\d+)?: (.+)", point, re.S)
    return match.group(1) if match else None


def outline(plan: Iterable[Mapping], edited: Iterable[str], looks: Iterable[Mapping],
            open_points: Iterable[str] = ()) -> list[dict]:
    """``[{path, action, mode, why}]``: ``action`` is ``edited``, ``for review`` (planned, not
    edited: ``why`` ends with the reason it was not) or ``worth a look`` (a weaker sign, never
    edited); ``why`` lists the reasons, the plan's first. A page the Writer drafted outside the
    plan is edited too, its reason said."""
    edited = list(dict.fromkeys(edited))
    points, looks = list(open_points), list(looks)
    rows, seen = [], set()
    for page in plan:
        path = page["path"]
        seen.add(path)
        why = list(page.get("reasons") or [])
        if path in edited:
            rows.append({"path": path, "action": EDITED, "mode": page.get("mode"), "why": why})
            continue
        own = [point for p in points if (point := _about(p, path))]
        # the Editor dropped the page's draft: that, not "no place for it", is why it was not edited
        own = [look["reason"] for look in looks if look["path"] == path] + own
        if page.get("mode") == "related":
            why.append(_NO_FACT)
        else:
            why += [f"not edited: {point}" for point in own if not point.startswith("review by hand")] or \
                [_NOTHING_WRITTEN]
        rows.append({"path": path, "action": REVIEW, "mode": page.get("mode"), "why": why})
    rows += [{"path": path, "action": EDITED, "mode": None,
              "why": ["drafted by the Writer beside the planned pages (a new section, a moved reference)"]}
             for path in edited if path not in seen]
    seen |= set(edited)
    rows += [{"path": look["path"], "action": LOOK, "mode": None, "why": [look["reason"]]}
             for look in looks if look["path"] not in seen]
    order = {EDITED: 0, REVIEW: 1, LOOK: 2}
    return sorted(rows, key=lambda row: order[row["action"]])  # stable: the plan's order within each


def with_looks(rows: Iterable[Mapping], looks: Iterable[Mapping]) -> list[dict]:
    """An outline (``outline``'s rows) with the pages a later round found worth a look (the drafts
    Sync Latest Code's Editor dropped): a page listed already keeps its action and gains the
    reason why this round left it as it was; another is listed as worth a look."""
    out = [{**row, "why": list(row.get("why") or [])} for row in rows]
    by_path = {row["path"]: row for row in out}
    for look in looks:
        row = by_path.get(look["path"])
        if row is None:
            row = by_path[look["path"]] = {"path": look["path"], "action": LOOK, "mode": None, "why": []}
            out.append(row)
        said = look["reason"] if row["action"] == LOOK else \
            f"{'not updated' if row['action'] == EDITED else 'not edited'}: {look['reason']}"
        if said not in row["why"]:
            row["why"].append(said)
    return out
