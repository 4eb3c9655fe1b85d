"""What several job handlers share: the pull request's head, the docs pages as the planner reads
them, the changed files' texts the Writer reads, and charging an action's credits once it succeeded."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

from ..engines.docflows.evidence.pages import PAGE_SUFFIXES, PageIndex
from ..engines.git import GitError, Mirror
from ..jobs.registry import JobContext, JobFailure
from ..problems import Problem
from ..services import credits
from ..services.suggestion_states import refuse_if_dismissed


@contextmanager
def reaching(what: str, url: str) -> Iterator[None]:
    """Git work on one repository: a GitError fails the job as "Repository unreachable", naming
    the repository (``what``, ``url``) and git's own reason."""
    try:
        yield
    except GitError as exc:
        raise JobFailure("Repository unreachable", f"{what} repository {url}: {exc}") from None


def resolve_head(mirror: Mirror, pr: dict) -> str:
    """The PR head: its SHA, else its branch, else the code host's own ref of it (GitHub's
    ``refs/pull/<n>/head``, GitLab's ``refs/merge-requests/<n>/head``: a fork's head is there)."""
    candidates = []
    if pr.get("head_sha"):
        candidates.append(pr["head_sha"])
    if pr.get("head_branch"):
        candidates.append(f"refs/heads/{pr['head_branch']}")
    if pr.get("number"):
        candidates += [f"refs/pull/{pr['number']}/head", f"refs/merge-requests/{pr['number']}/head"]
    for ref in candidates:
        if mirror.has_commit(ref):
            return mirror.rev(ref)
    raise JobFailure("Pull request not found", "none of " + ", ".join(candidates or ["(no head given)"]) +
                     f" exists in {mirror.url}")


def docs_pages(docs: Mirror, commit: str, folder: str) -> PageIndex:
    """The docs pages at ``commit`` (under the integration's docs folder), read in one batch, for
    the planner: which pages mention a term, and how common it is."""
    tree = {p: b for p, b in docs.tree(commit, folder).items() if p.lower().endswith(PAGE_SUFFIXES)}
    by_blob: dict[str, list[str]] = {}
    for path, blob in tree.items():
        by_blob.setdefault(blob, []).append(path)
    texts = {}
    for blob, content in docs.read_blobs(by_blob):
        if b"\0" in content[:8192]:
            continue
        for path in by_blob[blob]:
            texts[path] = content.decode("utf-8", "replace")
    return PageIndex(texts)


def documents_file(pages: PageIndex):
    """``documented(path)`` for the facts stage: whether a docs page names a repository file by
    its path (a nested path only: a bare ``pyproject.toml`` in the docs is usually the reader's own)."""
    return lambda path: "/" in path and bool(pages.find(path))


MAX_FILE_TEXT = 1 << 20  # bytes: a larger file is no example a page includes by its line numbers


def changed_texts(code: Mirror, base: str, head: str, facts) -> dict[str, tuple[str, str]]:
    """The text before and after of each repository file the docs name that the pull request
    changes (its ``file`` facts), for the Writer's ``included_lines``."""
    out = {}
    for fact in facts:
        if fact.kind == "file" and fact.change == "changed" and fact.name not in out:
            old, new = code.show(base, fact.name), code.show(head, fact.name)
            if old is not None and new is not None and max(len(old), len(new)) <= MAX_FILE_TEXT:
                out[fact.name] = (old.decode("utf-8", "replace"), new.decode("utf-8", "replace"))
    return out


def still_open(item, doing: str) -> None:
    """``refuse_if_dismissed`` for a job that was queued before its suggestion was dismissed: the
    job fails with the same reason, before it charges or writes anything."""
    try:
        refuse_if_dismissed(item, doing)
    except Problem as exc:
        raise JobFailure("Suggestion dismissed", exc.detail) from None


def charge_or_fail(session, ctx: JobContext, amount: int, action: str, item_id: int) -> None:
    """Take the action's price now that it succeeded; a balance that cannot pay fails the job
    and nothing is saved."""
    try:
        credits.charge(session, ctx.org_id, amount, action, item_id=item_id, job_id=ctx.job_id)
    except credits.NotEnoughCredits as exc:
        raise JobFailure("Not enough credits", str(exc)) from None


