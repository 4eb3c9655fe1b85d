"""Work items of every tool: listing, tags, status, rename, delete.

Rules of the interface kept here:
- tags never limit who sees an item; chats are the exception: a caller sees only their own;
- the writer tag must name a member of the caller's organisation;
- only the item's writer or a System Administrator changes its status, and tags are applied
  before the status so that claim-and-move is one call;
- ``rejected`` does not apply to chats;
- a dismissed Docflows suggestion keeps its status (``suggestion_states.check_status_change``);
- deleting a capture deletes its files; a Docflows suggestion is dismissed, not deleted.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any, Callable

from sqlalchemy import Select, bindparam, func, literal_column, or_, select
from sqlalchemy.orm import Session

from ...endpoints import TOOLS, WORK_STATUSES
from ..db.tables import Item, Organization, Release, StoredFile, User
from ..limits import MAX_TITLE
from ..problems import Problem, as_id, invalid, not_found
from ..storage import FILE_KINDS, FileStore
from .accounts import AdminError, Caller, Read, org_member
from .releases import org_release
from .suggestion_states import check_status_change
from .views import item_fields

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


def visible_to(org_id, user_id, items=Item) -> list:
    """The filter every item query starts from: the organisation's items, and of chats (private to
    their creator) only the user's own. ``org_id`` and ``user_id`` are values, or bind parameters
    of a statement built once; ``items`` the mapped class, or the table's columns (``ITEMS``)."""
    return [items.org_id == org_id, or_(items.tool != "chats", items.created_by_id == user_id)]


def visible_items(caller: Caller) -> list:
    """``visible_to`` the caller."""
    return visible_to(caller.org_id, caller.user_id)


def is_open(status) -> Any:
    """``status`` (a column) is one of OPEN_STATUSES, written into the statement: an IN of bound
    values is one parameter that SQLAlchemy expands on every execution, re-rendering the SQL
    (a third of the CPU of ``GET /me/work``)."""
    return status.in_([literal_column(f"'{value}'") for value in OPEN_STATUSES])


# For statements built once (at import): the table's columns, so running them skips the ORM's
# compile step, and bind parameters for what a request brings.
ITEMS = Item.__table__.c
ORG_ID, USER_ID = bindparam("org_id"), bindparam("user_id")


def _visible(caller: Caller, tool: str):
    return [*visible_items(caller), Item.tool == tool]


def _tag(value: str | None, name: str) -> int | str | None:
    """A tag filter's value: None (no filter), ``"none"`` (untagged) or an id; 422 otherwise."""
    if value is None or value == "":
        return None
    if value == "none":
        return value
    if as_id(value) is None:
        raise Problem(422, f"{name} must be an ID or 'none', got {value!r}",
                      errors=[{"loc": ["query", name], "msg": "an ID or 'none'"}])
    return as_id(value)


def tag_shape(tag: int | str | None) -> str | None:
    """What a statement built once depends on of a tag filter's value: None (no filter),
    ``"none"`` (untagged) or ``"id"`` (the id itself is bound, not built in)."""
    return None if tag is None else "none" if tag == "none" else "id"


def tag_conditions(release: str | None, writer: str | None) -> list:
    """The conditions of the release and writer filters' ``tag_shape``s: each column untagged, or
    equal to the bind parameter ``release_id`` / ``writer_id``; none for a filter not given."""
    return [column.is_(None) if shape == "none" else column == bindparam(name)
            for column, shape, name in ((ITEMS.release_id, release, "release_id"),
                                        (ITEMS.writer_user_id, writer, "writer_id")) if shape is not None]


_creator, _writer, _release = User.__table__.alias("creator"), User.__table__.alias("writer"), Release.__table__
# An item's fields in ``views.item_fields``'s order, then the count of every row the filter finds
# (a window over the unpaged result: the page and the total in one query).
_LISTED = (ITEMS.id, ITEMS.tool, ITEMS.title, ITEMS.created_at, _creator.c.name, ITEMS.created_by_id, ITEMS.release_id,
           _release.c.name, ITEMS.writer_user_id, _writer.c.name, ITEMS.work_status, ITEMS.status_note,
           ITEMS.pull_request, ITEMS.updated_at)


@functools.lru_cache(maxsize=None)
def _listing(release: str | None, writer: str | None, status: bool) -> tuple[Select, Select]:
    """The page and the count statements of ``list_items`` for one shape of filters (each tag:
    None, ``"none"`` or ``"id"``), built once: a request only binds its values."""
    conditions = [*visible_to(ORG_ID, USER_ID, ITEMS), ITEMS.tool == bindparam("tool"),
                  *tag_conditions(release, writer)]
    if status:
        conditions.append(ITEMS.work_status == bindparam("status"))
    joined = (Item.__table__.outerjoin(_creator, _creator.c.id == ITEMS.created_by_id)
              .outerjoin(_writer, _writer.c.id == ITEMS.writer_user_id)
              .outerjoin(_release, _release.c.id == ITEMS.release_id))
    page = (select(*_LISTED, func.count().over()).select_from(joined).where(*conditions)
            .order_by(ITEMS.created_at.desc(), ITEMS.id.desc()).limit(bindparam("limit")).offset(bindparam("offset")))
    return page, select(func.count()).select_from(Item.__table__).where(*conditions)


def list_items(
    tool: str,
    *,
    release_id: str | None = None,
    writer_id: str | None = None,
    status: str | None = None,
    limit: int = 100,
    offset: int = 0,
) -> tuple[list[Read], Callable[..., tuple[list[dict[str, Any]], int]]]:
    """The listing's read as the caller (``deps.hot_read``), and its answer: items of one tool
    (``views.item_fields``), newest first, and the total count before paging."""
    values: dict[str, Any] = {"tool": check_tool(tool), "limit": limit, "offset": offset}
    release, writer = _tag(release_id, "release_id"), _tag(writer_id, "writer_id")
    values.update(release_id=release, writer_id=writer)
    if status:
        if status not in WORK_STATUSES:
            raise Problem(422, f"status must be one of {', '.join(WORK_STATUSES)}, got {status!r}",
                          errors=[{"loc": ["query", "status"], "msg": "unknown status"}])
        values["status"] = status
    page, count = _listing(tag_shape(release), tag_shape(writer), bool(status))

    def answer(connection, caller: Caller, found: list[list]) -> tuple[list[dict[str, Any]], int]:
        rows = found[0]
        if rows:
            total = rows[0][-1]
        elif offset:  # no row to carry the count: a page past the end, or none at all
            total = connection.execute(count, {**values, "org_id": caller.org_id, "user_id": caller.user_id}).scalar()
        else:
            total = 0
        return [item_fields(*row[:-1]) for row in rows], total

    return [(page, values)], answer


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
        if status is not None and tool == "docflows":
            check_status_change(item, status)
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
