"""The ``docflow.sync`` job (Sync Latest Code): when the pull request's head moved, add to the
draft what it lacks from the newest code. Costs 5 credits, or 8 when there is an update for the
Editor to review; nothing new to sync costs nothing."""

from __future__ import annotations

from ..db.tables import Item, utcnow
from ..engines.docflows.drafts import fact_view, keep_version, unified_diff
from ..engines.docflows.editor import check_draft, checked_against, review
from ..engines.docflows.outline import with_looks
from ..engines.docflows.facts import facts_between
from ..engines.docflows.planner import plan
from ..engines.docflows.release import release_of
from ..engines.docflows.writer import write
from ..engines.git import Mirror
from ..jobs.registry import JobContext, JobFailure, handler
from ..services.docflows import REFRESH as KIND
from ..services.docflows import REFRESH_COST as COST
from ..services.docflows import REFRESH_COST_WITH_UPDATE as COST_WITH_UPDATE
from ..services.docflows import stored_pr, suggestion_integration
from ..engines.docflows.evidence.pages import PageIndex
from ._support import charge_or_fail, docs_pages, documents_file, reaching, resolve_head, still_open


@handler(KIND)
def run_refresh(ctx: JobContext) -> dict:
    item_id = ctx.params["item_id"]
    with ctx.sessions() as session:
        item = session.get(Item, item_id)
        if item is None or item.org_id != ctx.org_id:
            raise JobFailure("Unknown suggestion", f"Docflows suggestion {item_id} no longer exists")
        data = dict(item.data or {})
        integration = suggestion_integration(session, item)
        if integration is None:  # removed since the job was queued (the route refuses one without)
            raise JobFailure("Unknown integration", "the suggestion's integration no longer exists")
        session.expunge(integration)
    code = Mirror.for_url(ctx.settings.mirrors_dir, integration.code_repo, ctx.settings.egress)
    with reaching("code", code.url):
        code.fetch()
        # The newest head its code host told of (a webhook), else the branch's as it is now.
        head = resolve_head(code, {**stored_pr(data), "head_sha": data.get("host_head_sha")})
    if head == data.get("head_sha"):
        return {"new_commits": False, "added": [], "charged": 0, "detail": "the pull request has no new commits"}
    known = {(f["kind"], f["change"], f["name"]) for f in data.get("facts") or []}
    files = {p: dict(e) for p, e in (data.get("files") or {}).items()}
    docs = Mirror.for_url(ctx.settings.mirrors_dir, integration.docs_repo, ctx.settings.egress)
    at_draft = docs_pages(docs, data["docs_commit"], integration.docs_path)
    # The pages on top of the current draft: its own pages may mention a term by now.
    pages = PageIndex({**at_draft.texts, **{p: e["new"] for p, e in files.items()}})
    facts = [f for f in facts_between(code, data["base_sha"], head, documented=documents_file(pages))
             if (f.kind, f.change, f.name) not in known]
    read = pages.read
    # the pull request's title, as for the first suggestion: the words of a name it adds without help text
    draft = write(plan(facts, pages.find, read, total_pages=len(pages)), read,
                  release_of(code, data["base_sha"], head), stored_pr(data).get("title"),
                  code_files=code.tree(head, ".")) if facts else None
    tree = set(docs.tree(data["docs_commit"], "."))
    renames, exists = checked_against(facts, tree, files, draft.files if draft is not None else ())
    checked, drops = (None, {})
    if draft is not None and draft.files:
        # The same Editor as the first suggestion's: a draft that leaves its page worse goes.
        checked, drops = check_draft(draft, {p: read(p) or "" for p in draft.files}, exists, renames)
    changed = {p: t for p, t in (draft.files.items() if draft else ()) if t != read(p)}
    cost = COST_WITH_UPDATE if changed else COST
    for path, text in changed.items():
        old = files[path]["old"] if path in files else (read(path) or "")
        files[path] = {**files.get(path, {"last_check": None}), "old": old, "new": text, "reviewed": False}
    looks = [{"path": path, "reason": reason} for path, reason in drops.items()]
    result = review({p: e["new"] for p, e in files.items()}, exists, renames) if checked is not None else None
    with ctx.sessions() as session:
        stored = session.get(Item, item_id)
        still_open(stored, "synced with the latest code")
        charge_or_fail(session, ctx, cost, "sync latest code", item_id)
        rounds = list(data.get("rounds") or [])
        entry = {"round": len(rounds) + 1, "stage": "Sync Latest Code", "at": utcnow().isoformat(),
                 "summary": f"{len(facts)} new fact(s) in {head[:12]}; {len(changed)} file(s) updated"}
        versions = list(data.get("versions") or [])
        if changed:
            versions, version = keep_version(data, files)
            entry.update(version=version, notes=draft.notes,
                         text=unified_diff({p: (e["old"], e["new"]) for p, e in files.items()}))
        rounds.append(entry)
        editor = {}
        if result is not None:
            # this round's dropped drafts, then the suggestion as it stands now
            comments = [c.__dict__ for c in checked.comments if c.path in drops] + \
                [c.__dict__ for c in result.comments]
            rounds.append({"round": len(rounds) + 1, "stage": "Editor", "comments": comments,
                           "summary": ("passed" if result.passed else f"{len(result.comments)} comment(s)") +
                           (f"; {len(drops)} draft(s) dropped" if drops else "")})
            editor = {"editor_passed": result.passed, "editor_comments": [c.__dict__ for c in result.comments]}
        by_page = with_looks(data.get("pages") or [], looks)
        stored.data = {**data, "files": files, "versions": versions, "rounds": rounds, "head_sha": head, **editor,
                       "facts": (data.get("facts") or []) + [fact_view(f) for f in facts],
                       "worth_a_look": (data.get("worth_a_look") or []) + looks, "pages": by_page}
        # The charge, the new round and the completion commit together: a re-run never charges twice.
        return ctx.complete(session, {
            "new_commits": True, "head_sha": head, "added": [f.describe() for f in facts],
            "updated_files": sorted(changed), "worth_a_look": looks, "charged": cost,
            "editor_passed": result.passed if result is not None else None})
