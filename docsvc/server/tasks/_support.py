"""What several job handlers share: the pull request's head, the planner's view of the docs
index, and charging an action's credits once it succeeded."""

from __future__ import annotations

from ..engines.git import Mirror
from ..jobs.registry import JobContext, JobFailure
from ..problems import Problem
from ..services import credits, search


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


def index_finder(ctx: JobContext, integration_id: int):
    """``find(term)`` for the planner: the docs pages the integration's index holds for a term."""
    def find(term: str) -> list[str]:
        with ctx.sessions() as session:
            try:
                hits = search.search(session, ctx.org_id, term, integration_id=integration_id, limit=50)
            except Problem:  # a term the index cannot search (punctuation only): no pages
                return []
        return [hit.path for hit in hits]

    return find


def charge_or_fail(session, ctx: JobContext, amount: int, action: str, item_id: int) -> None:
    """Take the action's price now that it succeeded; a balance that cannot pay fails the job
    and nothing is saved."""
    try:
        credits.charge(session, ctx.org_id, amount, action, item_id=item_id, job_id=ctx.job_id)
    except credits.NotEnoughCredits as exc:
        raise JobFailure("Not enough credits", str(exc)) from None


