"""Work items of every tool: listing, tags, status, rename, delete.

Rules of the interface kept here:
- tags never limit who sees an item; chats are the exception: a caller sees only their own;
- the writer tag must name a member of the caller's organisation;
- only the item's writer or a System Administrator changes its status, and tags are applied
  before the status so that claim-and-move is one call;
- ``rejected`` does not apply to chats;
- deleting a capture deletes its files; a Docflows suggestion is dismissed, not deleted.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from ...endpoints import TOOLS, WORK_STATUSES
from ..db.tables import Item, Organization, StoredFile, User
from ..limits import MAX_TITLE
from ..problems import Problem, as_id, invalid, not_found
from ..storage import FILE_KINDS, FileStore
from .accounts import AdminError, Caller, org_member
from .releases import org_release

OPEN_STATUSES = ("todo", "in_progress", "in_review", "blocked")
CLOSED_STATUSES = ("done", "rejected")


# What a 404 calls one record of each tool, so "not found" says what was looked for.
NOUNS = {
    "docflows": "Docflows suggestion",
    "feature-drafts": "Feature Author draft",
    "release-notes": "Release Composer item",
    "captures": "Capture",
    "conversions": "Conversion",
    "chats": "Chat",
    "api-scans": "API scan",
    "diagrams": "Diagram",
}


def check_tool(tool: str) -> str:
    if tool not in TOOLS:
        raise Problem(404, f"Unknown tool {tool!r}; tools are: {', '.join(TOOLS)}")
    return tool


def visible_items(caller: Caller) -> list:
    """The filter every item query starts from: the caller's organisation, and of chats (private to
    their creator) only the caller's own."""
    return [Item.org_id == caller.org_id, or_(Item.tool != "chats", Item.created_by_id == caller.user_id)]


def _visible(caller: Caller, tool: str):
    return [*visible_items(caller), Item.tool == tool]


def _tag_filter(column, value: str | None, name: str):
    if value is None or value == "":
        return None
    if value == "none":
        return column.is_(None)
    if as_id(value) is None:
        raise Problem(422, f"{name} must be an ID or 'none', got {value!r}",
                      errors=[{"loc": ["query", name], "msg": "an ID or 'none'"}])
    return column == as_id(value)


def list_items(
    session: Session,
    caller: Caller,
    tool: str,
    *,
    release_id: str | None = None,
    writer_id: str | None = None,
    status: str | None = None,
    limit: int = 100,
    offset: int = 0,
) -> tuple[list[Item], int]:
    """Items of one tool, newest first, and the total count before paging."""
    conditions = _visible(caller, check_tool(tool))
    for column, value, name in ((Item.release_id, release_id, "release_id"),
                                (Item.writer_user_id, writer_id, "writer_id")):
        condition = _tag_filter(column, value, name)
        if condition is not None:
            conditions.append(condition)
    if status:
        if status not in WORK_STATUSES:
            raise Problem(422, f"status must be one of {', '.join(WORK_STATUSES)}, got {status!r}",
                          errors=[{"loc": ["query", "status"], "msg": "unknown status"}])
        conditions.append(Item.work_status == status)
    total = session.scalar(select(func.count()).select_from(Item).where(*conditions)) or 0
    rows = session.scalars(
        select(Item).where(*conditions).order_by(Item.created_at.desc(), Item.id.desc())
        .limit(limit).offset(offset)
    )
    return list(rows.unique()), total


def get_item(session: Session, caller: Caller, tool: str, item_id: int) -> Item:
    """The caller's item of ``tool``; 404 (naming the kind of record) for an unknown id, another
    organisation's or another user's chat: never leak existence."""
    item = session.scalar(select(Item).where(Item.id == item_id, *_visible(caller, check_tool(tool))))
    if item is None:
        raise not_found(NOUNS[tool], item_id)
    return item


def update_item(session: Session, caller: Caller, tool: str, item_id: int, changes: dict[str, Any]) -> Item:
    """Apply a PATCH. All or nothing: a refused status change leaves the tags untouched too."""
    item = get_item(session, caller, tool, item_id)
    if "title" in changes:
        title = (changes["title"] or "").strip()
        if not title:
            raise invalid("title", "must not be empty")
        if len(title) > MAX_TITLE:
            raise invalid("title", f"must be at most {MAX_TITLE} characters")
        item.title = title
    # Tags first, so that claiming and moving works in one call.
    if "release_id" in changes:
        release_id = changes["release_id"]
        if release_id is not None and org_release(session, caller.org_id, release_id) is None:
            raise invalid("release_id", f"release {release_id} does not exist in your organisation")
        item.release_id = release_id
    if "writer_user_id" in changes:
        writer_id = changes["writer_user_id"]
        if writer_id is not None and org_member(session, caller.org_id, writer_id) is None:
            raise invalid("writer_user_id", f"user {writer_id} is not a member of your organisation")
        item.writer_user_id = writer_id
    if "work_status" in changes or "status_note" in changes:
        status = changes.get("work_status")
        if status is not None:
            if status not in WORK_STATUSES:
                raise invalid("work_status", f"must be one of {', '.join(WORK_STATUSES)}, got {status!r}")
            if tool == "chats" and status == "rejected":
                raise invalid("work_status", "'rejected' does not apply to chats")
        if not (caller.is_admin or item.writer_user_id == caller.user_id):
            writer = f" ({item.writer.name})" if item.writer is not None else " (none yet)"
            raise Problem(403, f"Only the item's writer{writer} or a System Administrator can change its "
                               "status; claim the item first (docsvc items status ... --claim)")
        if status is not None:
            item.work_status = status
        if "status_note" in changes:
            item.status_note = changes["status_note"]
    session.commit()
    session.refresh(item)  # the writer and release relationships follow the new ids
    return item


def delete_item(session: Session, caller: Caller, tool: str, item_id: int, store: FileStore) -> None:
    """Delete an item with its files. (A Docflows suggestion is dismissed instead: ``docflows.reject``.)"""
    item = get_item(session, caller, tool, item_id)
    recorded = [f.path for f in item.files]  # screenshots, audio, video, attachments
    session.delete(item)
    session.commit()
    # Files go after the row: a crash in between leaves stray files, never a row without its files.
    store.delete_item_files(item_id)
    for path in recorded:  # also any recorded outside the item's own folder
        store.discard(path)


def add_item(
    session: Session,
    org: Organization,
    tool: str,
    title: str,
    *,
    created_by: User | None = None,
    attachments: list[tuple[str, Path]] = (),
    store: FileStore | None = None,
    data: dict[str, Any] | None = None,
) -> Item:
    """Create an item (admin command and demo). ``attachments`` are (kind, path) pairs."""
    if tool not in TOOLS:
        raise AdminError(f"unknown tool {tool!r}; tools are: {', '.join(TOOLS)}")
    if not title.strip():
        raise AdminError("title must not be empty")
    if created_by is not None and created_by.org_id != org.id:
        raise AdminError(f"{created_by.email} is not a member of {org.name!r}")
    for kind, path in attachments:
        if kind not in FILE_KINDS:
            raise AdminError(f"attachment kind must be one of {', '.join(FILE_KINDS)}, got {kind!r}")
        if not path.is_file():
            raise AdminError(f"attachment {str(path)!r} is not a file")
    item = Item(org_id=org.id, tool=tool, title=title.strip(), created_by_id=created_by.id if created_by else None,
                data=data or {})
    session.add(item)
    session.flush()
    if attachments:
        assert store is not None
        for kind, path in attachments:
            relative, size = store.save_copy(item.id, path)
            session.add(StoredFile(item_id=item.id, kind=kind, path=relative, size=size))
        session.flush()
    return item
