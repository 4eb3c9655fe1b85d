"""The ``docflow.generate`` job: from a pull request to a Docflows suggestion.

Stages, each replaceable by a language-model provider later, each noted in the suggestion's
history with the rule that produced it: find the change (PR head against its merge base with the
default branch), extract facts (``facts``), plan pages with the docs index (``planner``), draft
the edits (``writer``), review them (``editor``), and let the Writer revise once on the Editor's
comments. Nothing affected: the job completes with "no documentation change needed" and its
reasons, and no suggestion is made.
"""

from __future__ import annotations

import time
from typing import Any

from ..db.tables import Integration, Item, RepoState, utcnow
from ..engines.docflows.changed_names import diff_of, is_example, name_changes, user_code
from ..engines.docflows.drafts import fact_view, kept_versions, suggest_screenshots, unified_diff
from ..engines.docflows.editor import check_draft, checked_against, review
from ..engines.docflows.expected_output import outputs_between
from ..engines.docflows.facts import facts_between
from ..engines.docflows.linked_pages import linked_pages, links_near_changes
from ..engines.docflows.outline import outline
from ..engines.docflows.planner import plan
from ..engines.docflows.release import release_of
from ..engines.docflows.words import said_in
from ..engines.docflows.writer import reword, write
from ..engines.git import Mirror
from ..jobs.registry import JobContext, JobFailure, handler
from ..limits import MAX_TITLE
from ..problems import Problem
from ..services.docflows import GENERATE as KIND, check_pr_data, made_result, suggestion_for, with_screenshots
from ..services.suggestion_states import refuse_if_dismissed
from ..storage import FileStore
from ._support import changed_texts, docs_pages, documents_file, reaching, resolve_head


def _made_before(ctx: JobContext, session, item: Item, head: str | None) -> dict:
    """The job's answer when the pull request has its suggestion already: that one. A head the
    suggestion was not made at (a webhook's new commit) is kept, so the suggestion shows it has
    new commits (Sync Latest Code brings them in). Screenshots uploaded with the request are that
    suggestion's from now on, as ``docsvc items screenshots --take`` would make them (each in its
    route's place); a dismissed suggestion takes none, and the answer warns that they were dropped."""
    data = dict(item.data or {})
    if head and not str(data.get("head_sha") or "").lower().startswith(head.lower()):
        data["host_head_sha"] = head
    uploaded, unused, said = ctx.params.get("screenshots") or [], [], {}
    if uploaded:
        try:
            refuse_if_dismissed(item, "given screenshots")
            data["screenshots"], unused = with_screenshots(data.get("screenshots") or [], uploaded)
            said["screenshots_attached"] = [s["route"] for s in uploaded]
        except Problem as exc:
            unused = [s["file"] for s in uploaded]
            said["warnings"] = [f"the {len(uploaded)} uploaded screenshot(s) were not kept: {exc.detail}"]
    if data != (item.data or {}):
        item.data = data
    answer = ctx.complete(session, {**made_result(item), **said})
    # after the commit: uploads nothing uses any more (a dismissed suggestion's, or those replaced)
    FileStore(ctx.settings.data_dir).discard_uploads(unused)
    return answer


@handler(KIND)
def run_generate(ctx: JobContext) -> dict:
    started = time.monotonic()
    try:  # checked when the job was queued; again for a job queued before pr_data was checked
        pr: dict = check_pr_data(ctx.params["pr_data"])
    except Problem as exc:
        raise JobFailure("Invalid pull request data", exc.detail) from None
    integration_id = int(ctx.params["integration_id"])
    per_pull_request = ctx.params.get("per_pull_request") is True
    with ctx.sessions() as session:
        integration = session.get(Integration, integration_id)
        state = session.get(RepoState, integration_id)
        if integration is None or integration.org_id != ctx.org_id:
            raise JobFailure("Unknown integration", f"integration {integration_id} no longer exists")
        if per_pull_request or pr.get("head_sha"):  # made before? Then nothing to fetch or analyse
            made = suggestion_for(session, ctx.org_id, integration_id, pr["number"],
                                  None if per_pull_request else pr["head_sha"])
            if made is not None:
                return _made_before(ctx, session, made, pr.get("head_sha"))
        if state is None or state.docs_commit is None:
            raise JobFailure("Docs not synced", f"integration {integration_id} has no docs index yet: run "
                                                f"docsvc sync --integration-id {integration_id} first")
        session.expunge(integration)
        docs_commit = state.docs_commit
    mirrors = ctx.settings.mirrors_dir
    code = Mirror.for_url(mirrors, integration.code_repo, ctx.settings.egress)
    docs = Mirror.for_url(mirrors, integration.docs_repo, ctx.settings.egress)
    ctx.progress(f"fetching the code repository {code.url}")
    with reaching("code", code.url):
        code.fetch()
        head = resolve_head(code, pr)
        base = code.merge_base(code.head(integration.code_branch), head)
    if not per_pull_request:  # a branch, or an abbreviated SHA, named a head made before
        with ctx.sessions() as session:
            if (made := suggestion_for(session, ctx.org_id, integration_id, pr["number"], head)) is not None:
                return _made_before(ctx, session, made, head)

    ctx.progress("reading the docs pages")
    pages = docs_pages(docs, docs_commit, integration.docs_path)
    ctx.progress("reading the pull request's changes")
    notes: list[str] = []
    documented = documents_file(pages)
    facts = facts_between(code, base, head, documented=documented, notes=notes)
    diff = diff_of(code, base, head)
    code_diff = user_code(diff, documented)
    hunks = [hunk for _, hunk in code_diff]
    names = name_changes([hunk for path, hunk in code_diff if not is_example(path)])
    read = pages.read
    links = linked_pages(links_near_changes(hunks), pages.texts, read)
    outputs = outputs_between(diff, code_changed=bool(hunks))
    del diff

    ctx.progress(f"planning the docs change for {len(facts)} fact(s) and {len(names.counts)} changed name(s)")
    added = [path for status, _, path in code.changed_files(base, head) if status == "A"]
    planned = plan(facts, pages.find, read, total_pages=len(pages), names=names, family=pages.family,
                   links=links, outputs=outputs, said=said_in(pr.get("title"), pr.get("body")), words=pages.bm25,
                   added=added)
    rounds: list[dict[str, Any]] = [{
        "round": 1, "stage": "Information Architect", "at": utcnow().isoformat(),
        "summary": f"{len(planned.pages)} page(s) planned" if planned.pages else planned.verdict,
        "pages": [{"path": p.path, "mode": p.mode, "confidence": p.confidence, "reasons": p.reasons}
                  for p in planned.pages],
        "unaffected": planned.unaffected, "worth_a_look": list(planned.worth_a_look), "not_read": notes}]
    base_result = {"verdict": planned.verdict, "facts": [fact_view(f) for f in facts], "head_sha": head,
                   "base_sha": base, "worth_a_look": planned.worth_a_look,
                   "pages": outline(rounds[0]["pages"], (), planned.worth_a_look)}
    if not planned.pages:
        return {**base_result, "suggestion_id": None, "reasons": planned.unaffected or ["the pull request "
                "changes nothing that documentation talks about (no facts found)"],
                "seconds": round(time.monotonic() - started, 3)}

    ctx.progress("drafting the edits")
    draft = write(planned, read, release_of(code, base, head), pr.get("title"), outputs,
                  changed_texts(code, base, head, facts), code.tree(head, "."))
    tree = set(docs.tree(docs_commit, "."))
    renames, exists = checked_against(facts, tree, draft.files)
    # A draft that leaves its page worse than it found it goes; the page is for a person to look at.
    checked, drops = check_draft(draft, {p: read(p) or "" for p in draft.files}, exists, renames)
    planned.worth_a_look.extend({"path": path, "reason": reason} for path, reason in drops.items())
    first = review(draft.files, exists, renames) if drops else checked
    first_draft = dict(draft.files)
    rounds.append({"round": 2, "stage": "Writer", "summary": f"edited {len(draft.files)} file(s)",
                   "notes": draft.notes, "open_points": draft.open_points, "version": 1,
                   "text": unified_diff({p: (read(p) or "", t) for p, t in draft.files.items()})})
    rounds.append({"round": 3, "stage": "Editor", "summary": ("passed" if first.passed else
                   f"{len(first.comments)} comment(s)") + (f"; {len(drops)} draft(s) dropped" if drops else ""),
                   "comments": [c.__dict__ for c in checked.comments]})
    final = first
    if not first.passed:
        # The Writer revises once: old names left behind are renamed; the rest stays listed.
        for comment in first.comments:
            if comment.check == "leftover-name":
                old, new = next((o, n) for o, n in renames if f"'{o}'" in comment.message)
                lines = draft.files[comment.path].split("\n")
                lines[comment.line - 1] = reword(lines[comment.line - 1], old, new)
                draft.files[comment.path] = "\n".join(lines)
        final = review(draft.files, exists, renames)
        rounds.append({"round": 4, "stage": "Writer (revision)", "version": 2,
                       "summary": "passed the Editor" if final.passed else
                       f"{len(final.comments)} Editor comment(s) remain",
                       "comments": [c.__dict__ for c in final.comments],
                       "text": unified_diff({p: (read(p) or "", t) for p, t in draft.files.items()})})

    files = {path: (read(path) or "", text) for path, text in draft.files.items()}
    by_page = outline(rounds[0]["pages"], draft.files, planned.worth_a_look, draft.open_points)
    screenshots = ctx.params.get("screenshots") or suggest_screenshots(draft.files, tree)
    with ctx.sessions() as session:
        title = f"PR #{pr.get('number')}: {pr.get('title', '')}".strip()[:MAX_TITLE]
        item = Item(org_id=ctx.org_id, tool="docflows", title=title,
                    created_by_id=ctx.user_id, data={
                        "integration_id": integration_id, "pr": pr, "head_sha": head, "base_sha": base,
                        "docs_commit": docs_commit, "facts": base_result["facts"],
                        "plan": rounds[0]["pages"], "open_points": draft.open_points,
                        "worth_a_look": planned.worth_a_look, "pages": by_page,
                        "files": {p: {"old": o, "new": n, "reviewed": False, "last_check": None}
                                  for p, (o, n) in files.items()},
                        "editor_passed": final.passed, "editor_comments": [c.__dict__ for c in final.comments],
                        "rounds": rounds, "screenshots": screenshots,
                        "versions": kept_versions(rounds, first_draft, draft.files),
                        "verdict": planned.verdict})
        session.add(item)
        session.flush()
        return ctx.complete(session, {
            **base_result, "pages": by_page, "suggestion_id": item.id, "item_id": item.id, "files": sorted(files),
            "editor_passed": final.passed, "open_points": draft.open_points,
            "seconds": round(time.monotonic() - started, 3)})
