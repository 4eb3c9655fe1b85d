"""Feature Author drafts (``feature-drafts`` items): creating one (a job: the Writer drafts the page
from the brief, the Editor reviews it), reading it, its release-notes decision, and sign-off.

Rules kept here:
- a draft is approved only once the Editor has passed it (409 otherwise);
- the release-notes decision is the recorded one, else the Editor's suggestion; it can change at
  any stage, and for an approved draft the queue entry follows it (updated, or removed on skip);
- an included draft needs a release (its own tag or ``release_id``): 422 otherwise;
- ``rn_category`` is one of the organisation's product categories or ``Other``.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from ..db.session import rfc3339
from ..db.tables import Item, User, utcnow
from ..jobs import queue
from ..problems import Problem, invalid, is_int
from . import release_notes
from .accounts import Caller
from .releases import org_release
from .items import get_item

KIND = "feature_drafts.create"  # the job kind (``tasks/feature_draft``)

MAX_BRIEF = 100_000


def _release(session: Session, caller: Caller, release_id: Any):
    if not is_int(release_id):
        raise invalid("release_id", "must be a release ID (an integer)")
    release = org_release(session, caller.org_id, release_id)
    if release is None:
        raise invalid("release_id", f"release {release_id} does not exist in your organisation")
    return release


def start(session: Session, caller: Caller, body: Any, max_attempts: int):
    if not isinstance(body, dict):
        raise Problem(400, "The request body must be a JSON object")
    title, brief = body.get("title"), body.get("brief")
    if not isinstance(title, str) or not title.strip():
        raise invalid("title", "must be the feature's name (non-empty text)")
    if len(title.strip()) > 500:
        raise invalid("title", "must be at most 500 characters")
    if not isinstance(brief, str) or not brief.strip():
        raise invalid("brief", "must be the feature brief (non-empty text)")
    if len(brief) > MAX_BRIEF:
        raise invalid("brief", f"must be at most {MAX_BRIEF} characters")
    release_id = body.get("release_id")
    if release_id is not None:
        _release(session, caller, release_id)
    return queue.enqueue(session, org_id=caller.org_id, user_id=caller.user_id, kind=KIND,
                         params={"title": " ".join(title.split()), "brief": brief, "release_id": release_id},
                         max_attempts=max_attempts)


def get_draft(session: Session, caller: Caller, item_id: int) -> Item:
    return get_item(session, caller, "feature-drafts", item_id)


def current_release_notes(item: Item) -> dict:
    """The recorded decision, else the Editor's suggestion; ``source`` says which."""
    data = item.data or {}
    decision = data.get("rn_decision")
    if decision:
        view = {**decision, "source": "decision"}
    else:
        suggestion = data.get("rn_suggestion") or {}
        view = {k: suggestion.get(k) for k in ("release_notes", "rn_section", "rn_category", "rn_note")}
        view.update(source="editor", rules=suggestion.get("rules") or [])
    return {**view, "release_id": item.release_id, "release_name": item.release.name if item.release else None}


def view(session: Session, item: Item) -> dict:
    from .views import item_view

    data = item.data or {}
    entry = release_notes.entry_of(session, item.id)
    return {**item_view(item), "page": data.get("page"), "path": data.get("path"), "brief": data.get("brief"),
            "writer_notes": data.get("writer_notes") or [],
            "editor": {"passed": bool(data.get("editor_passed")), "comments": data.get("editor_comments") or []},
            "editor_passed": bool(data.get("editor_passed")),
            "release_notes": current_release_notes(item),
            "release_notes_suggestion": data.get("rn_suggestion"),
            "sign_off": data.get("sign_off"),
            "queue_entry": release_notes.entry_view(entry) if entry is not None else None}


def _decide(session: Session, caller: Caller, item: Item, body: dict) -> dict:
    """The decision after ``body``: the current one (recorded or suggested) with the given fields
    over it. A given ``release_id`` tags the draft with that release."""
    given = release_notes.check_decision(session, caller.org_id, body)
    current = current_release_notes(item)
    decision = {k: given[k] if given[k] is not None else current.get(k)
                for k in ("release_notes", "rn_section", "rn_category", "rn_note")}
    # A category chosen before the organisation's categories changed must still be allowed.
    decision["rn_category"] = release_notes.check_category(session, caller.org_id, decision["rn_category"] or "Other")
    decision["rn_section"] = decision["rn_section"] or "feature"
    decision["rn_note"] = decision["rn_note"] or item.title
    if body.get("release_id") is not None:
        item.release_id = _release(session, caller, body["release_id"]).id
    return decision


def _sync_queue(session: Session, item: Item, decision: dict) -> None:
    """An approved draft's queue entry follows its decision: there when included, gone on skip."""
    if decision["release_notes"] == "include":
        if item.release_id is None:
            raise invalid("release_id", "a release is required to include the draft in release notes: give "
                                        "release_id (docsvc items release-notes feature-drafts ID --release ID)")
        release_notes.put_entry(session, item, item.release_id, section=decision["rn_section"],
                                category=decision["rn_category"], note=decision["rn_note"],
                                badge=release_notes.FEATURE_AUTHOR_BADGE)
    else:
        release_notes.remove_entry(session, item.id)


def set_release_notes(session: Session, caller: Caller, item_id: int, body: dict) -> dict:
    item = get_draft(session, caller, item_id)
    if body.get("release_notes") is None:
        raise invalid("release_notes", "must be include or skip")
    decision = _decide(session, caller, item, body)
    data = dict(item.data or {})
    data["rn_decision"] = {**decision, "by": caller.name, "at": utcnow().isoformat()}
    if data.get("sign_off"):
        _sync_queue(session, item, decision)
    item.data = data
    session.commit()
    session.refresh(item)
    return current_release_notes(item)


def approve(session: Session, caller: Caller, item_id: int, body: dict) -> dict:
    item = get_draft(session, caller, item_id)
    data = dict(item.data or {})
    if not data.get("editor_passed"):
        comments = data.get("editor_comments") or []
        raise Problem(409, f"the Editor has not passed this draft ({len(comments)} comment(s)); it cannot be "
                           f"approved: see docsvc feature-drafts show {item_id}",
                      extra={"editor_comments": comments})
    decision = _decide(session, caller, item, body)
    _sync_queue(session, item, decision)
    user = session.get(User, caller.user_id)
    now = utcnow()
    data["rn_decision"] = {**decision, "by": caller.name, "at": now.isoformat()}
    data["sign_off"] = {"user_id": caller.user_id, "name": user.name if user else caller.name,
                        "at": rfc3339(now)}
    item.data = data
    item.work_status = "done"
    session.commit()
    session.refresh(item)
    return view(session, item)
