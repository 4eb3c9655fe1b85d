"""The ``feature_drafts.create`` job: the Feature Author's Writer drafts the page from the brief
(``engines/feature_author``), the Docflows Editor reviews it and suggests its release-notes
entry, and the draft is saved as a ``feature-drafts`` item."""

from __future__ import annotations

from sqlalchemy import select

from ..db.tables import Integration, Item, Release, SearchDoc
from ..engines.docflows.editor import review, suggest_release_notes
from ..engines.feature_author import draft_path, write_draft
from ..jobs.registry import JobContext, JobFailure, handler
from ..services.feature_drafts import KIND
from ..services.release_notes import org_categories


@handler(KIND)
def run(ctx: JobContext) -> dict:
    title, brief, release_id = ctx.params["title"], ctx.params["brief"], ctx.params.get("release_id")
    ctx.progress("Writer: drafting the page from the brief")
    draft = write_draft(title, brief)
    with ctx.sessions() as session:
        integration = session.scalar(select(Integration).where(Integration.org_id == ctx.org_id)
                                     .order_by(Integration.id).limit(1))
        # Relative links are checked against the organisation's indexed docs.
        known = set(session.scalars(select(SearchDoc.path).where(SearchDoc.org_id == ctx.org_id)))
        categories = org_categories(session, ctx.org_id)
    path = draft_path(title, integration.docs_path if integration else None)
    ctx.progress("Editor: reviewing the draft")
    verdict = review({path: draft.markdown}, lambda p: p == path or p in known)
    suggestion = suggest_release_notes(title, brief, categories)
    comments = [c.__dict__ for c in verdict.comments]
    with ctx.sessions() as session:
        if release_id is not None:
            release = session.get(Release, release_id)
            if release is None or release.org_id != ctx.org_id:
                raise JobFailure("Unknown release", f"release {release_id} no longer exists")
        item = Item(org_id=ctx.org_id, tool="feature-drafts", title=title[:500], created_by_id=ctx.user_id,
                    release_id=release_id, work_status="in_review" if verdict.passed else "in_progress",
                    data={"brief": brief, "page": draft.markdown, "path": path, "writer_notes": draft.notes,
                          "editor_passed": verdict.passed, "editor_comments": comments,
                          "rn_suggestion": suggestion, "job_id": ctx.job_id})
        session.add(item)
        session.flush()
        return ctx.complete(session, {
            "item_id": item.id, "draft_id": item.id, "title": title, "path": path, "page": draft.markdown,
            "editor_passed": verdict.passed, "editor_comments": comments, "release_notes_suggestion": suggestion,
            "writer_notes": draft.notes})
