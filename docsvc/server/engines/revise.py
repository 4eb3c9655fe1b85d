"""The ``docflow.revise`` job (request-changes): a new round where the Writer applies the
feedback it can read and the Editor reviews the result.

Instructions the rule-based Writer reads, one per line or sentence (quotes optional):
``replace "X" with "Y"``, ``remove "X"`` (a table row or list item holding X, else the words),
``add "TEXT" after "HEADING"``, ``rename section "X" to "Y"``. Anything else is reported as not
applied, plainly. Costs 8 credits, taken only when something was applied.
"""

from __future__ import annotations

import re

from ..db.tables import Item, User, utcnow
from ..jobs.registry import JobContext, JobFailure, handler
from .docflow import charge_or_fail, keep_version, unified_diff
from .editor import review

KIND = "docflow.revise"
COST = 8
_QUOTED = r"[\"“'`]?(.+?)[\"”'`]?"
_RULES = [
    ("replace", re.compile(rf"^replace\s+{_QUOTED}\s+(?:with|by)\s+{_QUOTED}$", re.I)),
    ("rename-section", re.compile(rf"^rename\s+(?:the\s+)?section\s+{_QUOTED}\s+to\s+{_QUOTED}$", re.I)),
    ("add-after", re.compile(rf"^add\s+{_QUOTED}\s+after\s+(?:the\s+)?(?:heading\s+|section\s+)?{_QUOTED}$", re.I)),
    ("remove", re.compile(rf"^(?:remove|delete)\s+{_QUOTED}$", re.I)),
]


def instructions(feedback: str) -> list[str]:
    parts = re.split(r"\n+|;\s*|(?<=[\"”'`.])\s*\.\s+(?=[A-Z])", feedback)
    return [p.strip().rstrip(".") for p in parts if p.strip().rstrip(".")]


def apply(instruction: str, text: str) -> tuple[str, bool]:
    for name, pattern in _RULES:
        match = pattern.match(instruction)
        if not match:
            continue
        if name == "replace":
            old, new = match.groups()
            return (text.replace(old, new), old in text)
        if name == "rename-section":
            old, new = match.groups()
            heading = re.compile(rf"^(#{{1,6}}\s+){re.escape(old)}\s*$", re.M)
            return (heading.sub(lambda m: m.group(1) + new, text), bool(heading.search(text)))
        if name == "add-after":
            addition, title = match.groups()
            heading = re.compile(rf"^#{{1,6}}\s+{re.escape(title)}\s*$", re.M)
            found = heading.search(text)
            if not found:
                return text, False
            end = found.end()
            return (text[:end] + f"\n\n{addition}" + text[end:], True)
        if name == "remove":
            (target,) = match.groups()
            lines = text.split("\n")
            kept = [line for line in lines if not (target in line and re.match(r"^\s*(\||[-*+]\s|\d+[.)]\s)", line))]
            if len(kept) != len(lines):
                return "\n".join(kept), True
            return (text.replace(target, ""), target in text)
    return text, False


def _still_requested(who: User | None, feedback: str, not_applied: list[str]) -> dict | None:
    """What stays requested after the Writer's revision: the instructions it could not apply,
    or None when the new draft answers the whole request."""
    if not not_applied:
        return None
    return {"by": who.name if who else None, "at": utcnow().isoformat(), "feedback": feedback,
            "pending": not_applied}


@handler(KIND)
def run_revise(ctx: JobContext) -> dict:
    item_id, feedback, target = ctx.params["item_id"], ctx.params["feedback"], ctx.params.get("target_file")
    with ctx.sessions() as session:
        item = session.get(Item, item_id)
        if item is None or item.org_id != ctx.org_id:
            raise JobFailure("Unknown suggestion", f"Docflows suggestion {item_id} no longer exists")
        data = dict(item.data or {})
        who = session.get(User, ctx.user_id) if ctx.user_id else None
    files = {p: dict(e) for p, e in (data.get("files") or {}).items()}
    applied, not_applied = [], []
    for instruction in instructions(feedback):
        changed_any = False
        for path, entry in files.items():
            if target and path != target:
                continue
            new_text, changed = apply(instruction, entry["new"])
            if changed:
                entry["new"], changed_any = new_text, True
        (applied if changed_any else not_applied).append(instruction)
    renames = [(f["old"], f["name"]) for f in data.get("facts") or [] if f.get("change") == "renamed"]
    result = review({p: e["new"] for p, e in files.items()}, lambda p: True, renames)
    comments = [c.__dict__ for c in result.comments]
    if applied:
        with ctx.sessions() as session:
            charge_or_fail(session, ctx, COST, "request-changes", item_id)
            stored = session.get(Item, item_id)
            versions, version = keep_version(data, files)
            rounds = list(data.get("rounds") or [])
            rounds.append({"round": len(rounds) + 1, "stage": "Changes requested", "author": who.name if who else None,
                           "at": utcnow().isoformat(), "summary": feedback})
            rounds.append({"round": len(rounds) + 1, "stage": "Writer (revision)", "version": version,
                           "summary": f"applied {len(applied)} of {len(applied) + len(not_applied)} instruction(s)",
                           "notes": [f"applied: {a}" for a in applied] +
                                    [f"could not apply: {n}" for n in not_applied],
                           "text": unified_diff({p: (e["old"], e["new"]) for p, e in files.items()})})
            rounds.append({"round": len(rounds) + 1, "stage": "Editor", "comments": comments,
                           "summary": "passed" if result.passed else f"{len(comments)} comment(s)"})
            stored.data = {**data, "files": files, "versions": versions, "rounds": rounds,
                           "editor_passed": result.passed, "editor_comments": comments,
                           "changes_requested": _still_requested(who, feedback, not_applied)}
            session.commit()
    elif not_applied:
        # Nothing the Writer could apply: the request stays open for a person to answer
        # (``GET /me/work`` and the dashboard count it).
        with ctx.sessions() as session:
            stored = session.get(Item, item_id)
            stored.data = {**(stored.data or {}), "changes_requested": _still_requested(who, feedback, not_applied)}
            session.commit()
    return {"applied": applied, "not_applied": not_applied, "editor_passed": result.passed,
            "editor_comments": comments, "charged": COST if applied else 0}
