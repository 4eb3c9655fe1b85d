"""The ``docflow.generate`` job: from a pull request to a Docflows suggestion.

Stages, each replaceable by a language-model provider later, each noted in the suggestion's
history with the rule that produced it: find the change (PR head against its merge base with the
default branch), extract facts (``facts``), plan pages with the docs index (``planner``), draft
the edits (``writer``), review them (``editor``), and let the Writer revise once on the Editor's
comments. Nothing affected: the job completes with "no documentation change needed" and its
reasons, and no suggestion is made.
"""

from __future__ import annotations

import difflib
import time
from typing import Any

from ..db.tables import Integration, Item, RepoState, utcnow
from ..jobs.registry import JobContext, JobFailure, handler
from ..services import search
from .editor import review
from .facts import Fact, facts_between
from .git import GitError, Mirror
from .planner import plan
from .writer import write

KIND = "docflow.generate"


def resolve_head(mirror: Mirror, pr: dict) -> str:
    """The PR head: its SHA, else its branch, else the code host's ``refs/pull/<n>/head``."""
    candidates = []
    if pr.get("head_sha"):
        candidates.append(pr["head_sha"])
    if pr.get("head_branch"):
        candidates.append(f"refs/heads/{pr['head_branch']}")
    if pr.get("number"):
        candidates.append(f"refs/pull/{pr['number']}/head")
    for ref in candidates:
        if mirror.has_commit(ref):
            return mirror.rev(ref)
    raise JobFailure("Pull request not found", "none of " + ", ".join(candidates or ["(no head given)"]) +
                     f" exists in {mirror.url}")


def unified_diff(files: dict[str, tuple[str, str]]) -> str:
    out = []
    for path, (old, new) in sorted(files.items()):
        out += difflib.unified_diff(old.splitlines(keepends=True), new.splitlines(keepends=True),
                                    fromfile=f"a/{path}", tofile=f"b/{path}")
    return "".join(line if line.endswith("\n") else line + "\n" for line in out)


def counts(old: str, new: str) -> tuple[int, int]:
    added = removed = 0
    for line in difflib.unified_diff(old.splitlines(), new.splitlines(), lineterm="", n=0):
        if line.startswith("+") and not line.startswith("+++"):
            added += 1
        elif line.startswith("-") and not line.startswith("---"):
            removed += 1
    return added, removed


def suggest_screenshots(files: dict[str, str], tree: set[str]) -> list[dict[str, Any]]:
    """Images on the planned pages that show a page of the product: each a suggested shot of the
    route its file name names, replacing that image. (Uploaded screenshots skip this stage.)"""
    import posixpath
    import re as _re

    from ...images import route_for_image

    suggested, seen = [], set()
    for path, text in sorted(files.items()):
        for image in _re.findall(r"!\[[^\]]*\]\(\s*([^)\s]+)", text):
            if _re.match(r"^[a-z]+:", image) or not image.lower().endswith((".png", ".jpg", ".jpeg", ".webp")):
                continue
            resolved = posixpath.normpath(posixpath.join(posixpath.dirname(path), image))
            if resolved in seen or resolved not in tree:
                continue
            seen.add(resolved)
            suggested.append({"route": route_for_image(image), "taken": False, "replaces": resolved,
                              "reason": f"{path} shows {image}, a screen of the product that the change may alter"})
    return suggested


def index_finder(ctx: JobContext, integration_id: int):
    """``find(term)`` for the planner: the docs pages the integration's index holds for a term."""
    from ..problems import Problem

    def find(term: str) -> list[str]:
        with ctx.sessions() as session:
            try:
                hits = search.search(session, ctx.org_id, term, integration_id=integration_id, limit=50)
            except Problem:  # a term the index cannot search (punctuation only): no pages
                return []
        return [hit.path for hit in hits]

    return find


def keep_version(data: dict, files: dict[str, dict]) -> tuple[list[dict], int]:
    """The suggestion's versions with the current draft added as the next version number."""
    versions = list(data.get("versions") or [])
    version = max([v["version"] for v in versions] or [0]) + 1
    versions.append({"version": version, "files": {p: e["new"] for p, e in files.items()}})
    return versions, version


def charge_or_fail(session, ctx: JobContext, amount: int, action: str, item_id: int) -> None:
    """Take the action's price now that it succeeded; a balance that cannot pay fails the job
    and nothing is saved."""
    from ..services import credits

    try:
        credits.charge(session, ctx.org_id, amount, action, item_id=item_id, job_id=ctx.job_id)
    except credits.NotEnoughCredits as exc:
        raise JobFailure("Not enough credits", str(exc)) from None


def _kept_versions(rounds: list[dict], first: dict[str, str], final: dict[str, str]) -> list[dict]:
    """The text of each round that has a version number: 1 the Writer's draft, 2 its revision."""
    versions = [{"version": 1, "files": first}]
    if any(r.get("version") == 2 for r in rounds):
        versions.append({"version": 2, "files": final})
    return versions


def _fact_view(fact: Fact) -> dict[str, Any]:
    return {"kind": fact.kind, "change": fact.change, "name": fact.name, "old": fact.old, "new": fact.new,
            "path": fact.path, "line": fact.line, "rule": fact.rule, "note": fact.note,
            "siblings": list(fact.siblings), "text": fact.describe()}


@handler(KIND)
def run_generate(ctx: JobContext) -> dict:
    started = time.monotonic()
    pr: dict = ctx.params["pr_data"]
    integration_id = int(ctx.params["integration_id"])
    with ctx.sessions() as session:
        integration = session.get(Integration, integration_id)
        state = session.get(RepoState, integration_id)
        if integration is None or integration.org_id != ctx.org_id:
            raise JobFailure("Unknown integration", f"integration {integration_id} no longer exists")
        if state is None or state.docs_commit is None:
            raise JobFailure("Docs not synced", f"integration {integration_id} has no docs index yet: run "
                                                f"docsvc sync --integration-id {integration_id} first")
        session.expunge(integration)
        docs_commit = state.docs_commit
    root = ctx.settings.data_dir
    code, docs = Mirror.for_url(root, integration.code_repo), Mirror.for_url(root, integration.docs_repo)
    ctx.progress(f"fetching the code repository {code.url}")
    try:
        code.fetch()
        head = resolve_head(code, pr)
        base = code.merge_base(code.head(integration.code_branch), head)
    except GitError as exc:
        raise JobFailure("Repository unreachable", f"code repository {code.url}: {exc}") from None

    ctx.progress("reading the pull request's changes")
    facts = facts_between(code, base, head)
    texts: dict[str, str | None] = {}

    def read(path: str) -> str | None:
        if path not in texts:
            data = docs.show(docs_commit, path)
            texts[path] = data.decode("utf-8", "replace") if data is not None else None
        return texts[path]

    ctx.progress(f"planning the docs change for {len(facts)} fact(s)")
    planned = plan(facts, index_finder(ctx, integration_id), read)
    rounds: list[dict[str, Any]] = [{
        "round": 1, "stage": "Information Architect", "at": utcnow().isoformat(),
        "summary": f"{len(planned.pages)} page(s) planned" if planned.pages else planned.verdict,
        "pages": [{"path": p.path, "mode": p.mode, "confidence": p.confidence, "reasons": p.reasons}
                  for p in planned.pages],
        "unaffected": planned.unaffected}]
    base_result = {"verdict": planned.verdict, "facts": [_fact_view(f) for f in facts], "head_sha": head,
                   "base_sha": base}
    if not planned.pages:
        return {**base_result, "suggestion_id": None, "reasons": planned.unaffected or ["the pull request "
                "changes nothing that documentation talks about (no facts found)"],
                "seconds": round(time.monotonic() - started, 3)}

    ctx.progress("drafting the edits")
    draft = write(planned, read)
    renames = [(f.old, f.name) for f in facts if f.change == "renamed"]
    tree = set(docs.tree(docs_commit, "."))
    exists = lambda p: p in tree or p in draft.files  # noqa: E731
    first = review(draft.files, exists, renames)
    first_draft = dict(draft.files)
    rounds.append({"round": 2, "stage": "Writer", "summary": f"edited {len(draft.files)} file(s)",
                   "notes": draft.notes, "open_points": draft.open_points, "version": 1,
                   "text": unified_diff({p: (read(p) or "", t) for p, t in draft.files.items()})})
    rounds.append({"round": 3, "stage": "Editor", "summary": "passed" if first.passed else
                   f"{len(first.comments)} comment(s)", "comments": [c.__dict__ for c in first.comments]})
    final = first
    if not first.passed:
        # The Writer revises once: old names left behind are renamed; the rest stays listed.
        from .writer import _word

        for comment in first.comments:
            if comment.check == "leftover-name":
                old, new = next((o, n) for o, n in renames if f"'{o}'" in comment.message)
                lines = draft.files[comment.path].split("\n")
                lines[comment.line - 1] = _word(old).sub(new, lines[comment.line - 1])
                draft.files[comment.path] = "\n".join(lines)
        final = review(draft.files, exists, renames)
        rounds.append({"round": 4, "stage": "Writer (revision)", "version": 2,
                       "summary": "passed the Editor" if final.passed else
                       f"{len(final.comments)} Editor comment(s) remain",
                       "comments": [c.__dict__ for c in final.comments],
                       "text": unified_diff({p: (read(p) or "", t) for p, t in draft.files.items()})})

    files = {path: (read(path) or "", text) for path, text in draft.files.items()}
    screenshots = ctx.params.get("screenshots") or suggest_screenshots(draft.files, tree)
    with ctx.sessions() as session:
        number = pr.get("number")
        item = Item(org_id=ctx.org_id, tool="docflows", title=f"PR #{number}: {pr.get('title', '')}".strip(),
                    created_by_id=ctx.user_id, data={
                        "integration_id": integration_id, "pr": pr, "head_sha": head, "base_sha": base,
                        "docs_commit": docs_commit, "facts": base_result["facts"],
                        "plan": rounds[0]["pages"], "open_points": draft.open_points,
                        "files": {p: {"old": o, "new": n, "reviewed": False, "last_check": None}
                                  for p, (o, n) in files.items()},
                        "editor_passed": final.passed, "editor_comments": [c.__dict__ for c in final.comments],
                        "rounds": rounds, "screenshots": screenshots,
                        "versions": _kept_versions(rounds, first_draft, draft.files),
                        "verdict": planned.verdict})
        session.add(item)
        session.commit()
        item_id = item.id
    return {**base_result, "suggestion_id": item_id, "item_id": item_id, "files": sorted(files),
            "editor_passed": final.passed, "open_points": draft.open_points,
            "seconds": round(time.monotonic() - started, 3)}
