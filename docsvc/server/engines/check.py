"""The ``docflow.check`` job: check suggestions against the docs repository as it is now.

Per file, the text comparison (free) finds one of:
- ``already in the docs``: the docs now read as the suggestion would make them (or hold every line
  it adds and none it removes);
- ``probably already in the docs``: most of its added lines are there and none of its removed
  ones, with the reason;
- ``still needed``: the docs still read as when the suggestion was drafted;
- ``updated to fit changed docs``: the docs changed since, and the suggestion's facts were applied
  again on their new text (the suggestion now holds that edit).
A suggestion's verdict is the weakest of its files. Whether its pull request was merged (its head
is in the default branch) or closed (its branch is gone) is told beside it.
"""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy import select

from ..db.tables import Integration, Item, utcnow
from ..jobs.registry import JobContext, JobFailure, handler
from .facts import Fact
from .git import GitError, Mirror
from .planner import PlannedPage, Plan
from .writer import write

KIND = "docflow.check"
ALREADY, PROBABLY, NEEDED, UPDATED = ("already in the docs", "probably already in the docs", "still needed",
                                      "updated to fit changed docs")
_ORDER = [NEEDED, UPDATED, PROBABLY, ALREADY]  # weakest first


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


AI_COST = 1


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


def pr_state(code: Mirror, integration: Integration, data: dict) -> str:
    head, branch = data.get("head_sha"), (data.get("pr") or {}).get("head_branch")
    try:
        main = code.head(integration.code_branch)
        if head and code.has_commit(head) and code.merge_base(head, main) == head:
            return "merged"
        if branch and not code.has_commit(f"refs/heads/{branch}"):
            return "closed"
    except GitError:
        return "unknown"
    return "open"


@handler(KIND)
def run_check(ctx: JobContext) -> dict:
    ids, dismiss_done = ctx.params.get("ids"), bool(ctx.params.get("dismiss_done"))
    ai = ctx.params.get("ai") is not False  # the extra reading unless turned off (--no-ai)
    with ctx.sessions() as session:
        query = select(Item).where(Item.org_id == ctx.org_id, Item.tool == "docflows")
        items = [i for i in session.scalars(query.order_by(Item.id)).unique()
                 if (ids and i.id in ids) or (not ids and not (i.data or {}).get("dismissed"))]
        if ids:
            unknown = sorted(set(ids) - {i.id for i in items})
            if unknown:
                raise JobFailure("Unknown suggestion", f"no Docflows suggestion {', '.join(map(str, unknown))}")
        integrations = {i.id: i for i in session.scalars(select(Integration).where(Integration.org_id == ctx.org_id))}
        for item in items:
            session.expunge(item)
        for integration in integrations.values():
            session.expunge(integration)
    results, mirrors = [], {}
    for n, item in enumerate(items, 1):
        ctx.progress(f"checking suggestion {item.id}", done=n - 1, total=len(items))
        data = dict(item.data or {})
        integration = integrations.get(data.get("integration_id"))
        if integration is None or not data.get("files"):
            results.append({"id": item.id, "verdict": NEEDED, "files": [], "pr_state": "unknown"})
            continue
        if integration.id not in mirrors:
            docs = Mirror.for_url(ctx.settings.data_dir, integration.docs_repo)
            code = Mirror.for_url(ctx.settings.data_dir, integration.code_repo)
            try:
                docs.fetch()
                code.fetch()
            except GitError as exc:
                raise JobFailure("Repository unreachable", str(exc)) from None
            mirrors[integration.id] = (docs, code, docs.head(integration.docs_branch))
        docs, code, head = mirrors[integration.id]
        files, findings = dict(data["files"]), []
        for path, entry in files.items():
            blob = docs.show(head, path)
            current = blob.decode("utf-8", "replace") if blob is not None else None
            finding, reason = compare(entry["old"], entry["new"], current)
            if finding == UPDATED:
                redone = _reapply(path, current, data.get("facts") or [])
                if redone is None:
                    finding, reason = NEEDED, "the docs changed since, and the edit does not apply to their new text"
                else:
                    files[path] = {**entry, "old": current, "new": redone}
            files[path] = {**files[path], "last_check": finding}
            findings.append({"path": path, "finding": finding, "reason": reason})
        extra = None
        if ai and any(f["finding"] == PROBABLY for f in findings):
            extra = _read_closely(ctx, item.id, files, findings, docs, head)
        verdict = min((f["finding"] for f in findings), key=_ORDER.index)
        dismissed = dismiss_done and verdict == ALREADY and not data.get("dismissed")
        data.update(files=files, last_check={"verdict": verdict, "at": utcnow().isoformat(), "docs_commit": head})
        if verdict == UPDATED:
            data["docs_commit"] = head
        with ctx.sessions() as session:
            stored = session.get(Item, item.id)
            stored.data = data
            if dismissed:  # only "already in the docs", never "probably"
                from ..services.docflows import close

                close(session, stored, "done")
            session.commit()
        results.append({"id": item.id, "verdict": verdict, "files": findings,
                        "pr_state": pr_state(code, integration, data), "dismissed": dismissed,
                        **({"extra_reading": extra} if extra else {})})
    ctx.progress("checked", done=len(items), total=len(items))
    return {"suggestions": results}


def _read_closely(ctx: JobContext, item_id: int, files: dict, findings: list[dict], docs: Mirror, head: str) -> str:
    """1 credit per suggestion that needs it; without the credits the text verdict stands."""
    from ..services import credits

    with ctx.sessions() as session:  # unlike the other actions, no credits means no extra reading, not a failure
        try:
            credits.charge(session, ctx.org_id, AI_COST, "check-docs extra reading", item_id=item_id,
                           job_id=ctx.job_id)
            session.commit()
        except credits.NotEnoughCredits as exc:
            return f"skipped: {exc}"
    for finding in findings:
        if finding["finding"] != PROBABLY:
            continue
        entry = files[finding["path"]]
        blob = docs.show(head, finding["path"])
        upgraded = read_closely(entry["old"], entry["new"], blob.decode("utf-8", "replace") if blob else "")
        if upgraded:
            finding["finding"], finding["reason"] = upgraded
            files[finding["path"]] = {**entry, "last_check": upgraded[0]}
    return f"done ({AI_COST} credit)"


def _reapply(path: str, current: str, facts: list[dict[str, Any]]) -> str | None:
    """The suggestion's facts written again on the docs' new text; None when nothing applies."""
    page = PlannedPage(path, "direct", 1.0, facts=[Fact(**{k: f.get(k) for k in (
        "kind", "change", "name", "path", "rule", "old", "new", "line", "note")},
        siblings=tuple(f.get("siblings") or ())) for f in facts])
    draft = write(Plan([page], []), lambda _p: current)
    return draft.files.get(path)
