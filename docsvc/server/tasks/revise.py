"""The ``docflow.revise`` job (request-changes): a new round where the Writer applies the
feedback it can read (``engines/docflows/feedback``) and the Editor reviews the result. Costs 8
credits, taken only when something was applied.
"""

from __future__ import annotations

from ..db.tables import Item, User, utcnow
from ..engines.docflows.drafts import keep_version, unified_diff
from ..engines.docflows.editor import review
from ..engines.docflows.feedback import apply, instructions
from ..jobs.registry import JobContext, JobFailure, handler
from ..services.docflows import REVISE as KIND
from ..services.docflows import REVISE_COST as COST
from ._support import charge_or_fail, still_open


def _still_requested(who: User | None, feedback: str, not_applied: list[str]) -> dict | None:
    """What stays requested after the Writer's revision: the instructions it could not apply,
    or None when the new draft answers the whole request."""
    if not not_applied:
        return None
    return {"by": who.name if who else None, "at": utcnow().isoformat(), "feedback": feedback,
            "pending": not_applied}


def _asked(rounds: list[dict], who, feedback: str, **extra) -> None:
    """The "Changes requested" round: who asked for what, kept in the history whether or not the
    Writer could apply any of it."""
    rounds.append({"round": len(rounds) + 1, "stage": "Changes requested", "author": who.name if who else None,
                   "at": utcnow().isoformat(), "summary": feedback, **extra})


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
            if changed:  # new text: no longer Reviewed
                entry["new"], entry["reviewed"], changed_any = new_text, False, True
        (applied if changed_any else not_applied).append(instruction)
    renames = [(f["old"], f["name"]) for f in data.get("facts") or [] if f.get("change") == "renamed"]
    result = review({p: e["new"] for p, e in files.items()}, lambda p: True, renames)
    comments = [c.__dict__ for c in result.comments]
    answer = {"applied": applied, "not_applied": not_applied, "editor_passed": result.passed,
              "editor_comments": comments, "charged": COST if applied else 0}
    if applied:
        with ctx.sessions() as session:
            stored = session.get(Item, item_id)
            still_open(stored, "changed (request-changes)")
            charge_or_fail(session, ctx, COST, "request-changes", item_id)
            versions, version = keep_version(data, files)
            rounds = list(data.get("rounds") or [])
            _asked(rounds, who, feedback)
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
            # The charge and the revision commit with the job's completion: a re-run never charges twice.
            return ctx.complete(session, answer)
    if not_applied:
        # Nothing the Writer could apply: the request stays open for a person to answer
        # (``GET /me/work`` and the dashboard count it).
        with ctx.sessions() as session:
            stored = session.get(Item, item_id)
            still_open(stored, "changed (request-changes)")
            kept = dict(stored.data or {})
            rounds = list(kept.get("rounds") or [])
            _asked(rounds, who, feedback, notes=[f"could not apply: {n}" for n in not_applied])
            stored.data = {**kept, "rounds": rounds,
                           "changes_requested": _still_requested(who, feedback, not_applied)}
            return ctx.complete(session, answer)
    return answer
