"""The ``docflow.check`` job: check suggestions against the docs repository as it is now
(``engines/docflows/compare`` decides per file). Whether a suggestion's pull request was merged
(its head is in the default branch) or closed (its branch is gone) is told beside it.
"""

from __future__ import annotations

from sqlalchemy import select

from ..db.tables import Integration, Item, utcnow
from ..engines.docflows.compare import ALREADY, NEEDED, ORDER, PROBABLY, UPDATED, compare, read_closely, reapply
from ..engines.git import GitError, Mirror
from ..jobs.registry import JobContext, JobFailure, handler
from ..services import credits
from ..services.docflows import CHECK as KIND
from ..services.docflows import close, stored_pr

AI_COST = 1  # the extra reading, per suggestion that needs it

def pr_state(code: Mirror, integration: Integration, data: dict) -> str:
    head, branch = data.get("head_sha"), stored_pr(data).get("head_branch")
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
            docs = Mirror.for_url(ctx.settings.mirrors_dir, integration.docs_repo, ctx.settings.egress)
            code = Mirror.for_url(ctx.settings.mirrors_dir, integration.code_repo, ctx.settings.egress)
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
                redone = reapply(path, current, data.get("facts") or [])
                if redone is None:
                    finding, reason = NEEDED, "the docs changed since, and the edit does not apply to their new text"
                else:
                    files[path] = {**entry, "old": current, "new": redone}
            files[path] = {**files[path], "last_check": finding}
            findings.append({"path": path, "finding": finding, "reason": reason})
        extra = None
        if ai and any(f["finding"] == PROBABLY for f in findings):
            extra = _read_closely(ctx, item.id, files, findings, docs, head)
        verdict = min((f["finding"] for f in findings), key=ORDER.index)
        dismissed = dismiss_done and verdict == ALREADY and not data.get("dismissed")
        data.update(files=files, last_check={"verdict": verdict, "at": utcnow().isoformat(), "docs_commit": head})
        if verdict == UPDATED:
            data["docs_commit"] = head
        with ctx.sessions() as session:
            stored = session.get(Item, item.id)
            stored.data = data
            if dismissed:  # only "already in the docs", never "probably"
                close(session, stored, "done")
            session.commit()
        results.append({"id": item.id, "verdict": verdict, "files": findings,
                        "pr_state": pr_state(code, integration, data), "dismissed": dismissed,
                        **({"extra_reading": extra} if extra else {})})
    ctx.progress("checked", done=len(items), total=len(items))
    return {"suggestions": results}


def _read_closely(ctx: JobContext, item_id: int, files: dict, findings: list[dict], docs: Mirror, head: str) -> str:
    """1 credit per suggestion that needs it; without the credits the text verdict stands."""
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
