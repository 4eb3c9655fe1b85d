"""Release notes: the organisation's product categories, the release-notes queue of each release,
and Release Composer items (``release-notes`` tool) that assemble a release's notes from it.

The queue has one entry per source item (a Docflows suggestion or a Feature Author draft, unique
``item_id``): approving again updates the entry. Entries stay when their item is dismissed as done
or deleted. The Composer renders the queue on every read, so its Markdown follows each entry that
joins without a stored copy to keep in step (and item listings never touch the queue).
"""

from __future__ import annotations

from typing import Iterable

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from ..db.session import rfc3339
from ..db.tables import Item, Organization, ProductCategory, Release, ReleaseNoteEntry
from ..problems import Problem, invalid, is_int, not_found
from .accounts import AdminError, Caller
from .releases import org_release
from .items import get_item

# Sections in the order the notes show them, with their headings.
SECTIONS = {"feature": "New features", "enhancement": "Enhancements", "bug": "Bug fixes",
            "known-issue": "Known issues", "developer": "For developers"}
OTHER = "Other"
FEATURE_AUTHOR_BADGE = "Feature Author"


# --- product categories --------------------------------------------------------------------

def org_categories(session: Session, org_id: int) -> list[str]:
    return list(session.scalars(select(ProductCategory.name).where(ProductCategory.org_id == org_id)
                                .order_by(ProductCategory.position, ProductCategory.id)))


def set_categories(session: Session, org: Organization, names: Iterable[str]) -> list[str]:
    """Replace the organisation's categories with ``names``, in that order."""
    cleaned: list[str] = []
    for name in names:
        name = " ".join(name.split())
        if not name:
            raise AdminError("a category name must not be empty")
        if len(name) > 200:
            raise AdminError(f"category {name[:40]!r}… is longer than 200 characters")
        if name.lower() == OTHER.lower():
            raise AdminError(f"{OTHER!r} is always allowed; it is not one of the categories to set")
        if name.lower() in (c.lower() for c in cleaned):
            raise AdminError(f"category {name!r} is given twice")
        cleaned.append(name)
    session.execute(delete(ProductCategory).where(ProductCategory.org_id == org.id))
    session.add_all(ProductCategory(org_id=org.id, name=name, position=i) for i, name in enumerate(cleaned))
    session.flush()
    return cleaned


def check_category(session: Session, org_id: int, value: str | None) -> str | None:
    """``value`` as the organisation spells it (case does not matter), or 422 naming the allowed ones."""
    if value is None:
        return None
    allowed = org_categories(session, org_id) + [OTHER]
    for name in allowed:
        if name.lower() == value.strip().lower():
            return name
    raise invalid("rn_category", f"{value!r} is not one of your product categories; allowed: {', '.join(allowed)}")


def check_section(value: str | None) -> str | None:
    if value is not None and value not in SECTIONS:
        raise invalid("rn_section", f"must be one of {', '.join(SECTIONS)}, got {value!r}")
    return value


def check_decision(session: Session, org_id: int, body: dict) -> dict:
    """The release-notes fields of a request, checked: include/skip, section, category, note."""
    notes = body.get("release_notes")
    if notes is not None and notes not in ("include", "skip"):
        raise invalid("release_notes", f"must be include or skip, got {notes!r}")
    note = body.get("rn_note")
    if note is not None and not isinstance(note, str):
        raise invalid("rn_note", "must be text")
    return {"release_notes": notes, "rn_section": check_section(body.get("rn_section")),
            "rn_category": check_category(session, org_id, body.get("rn_category")),
            "rn_note": " ".join(note.split()) if note is not None else None}


# --- the queue -----------------------------------------------------------------------------

def put_entry(session: Session, item: Item, release_id: int, *, section: str, category: str, note: str,
              badge: str | None) -> ReleaseNoteEntry:
    """Add the item's entry to a release's queue, or update the one it has (one per item)."""
    entry = session.scalar(select(ReleaseNoteEntry).where(ReleaseNoteEntry.item_id == item.id))
    if entry is None:
        entry = ReleaseNoteEntry(org_id=item.org_id, item_id=item.id, tool=item.tool)
        session.add(entry)
    entry.release_id, entry.title, entry.section = release_id, item.title, section
    entry.category, entry.note, entry.badge = category, note or item.title, badge
    session.flush()
    return entry


def remove_entry(session: Session, item_id: int) -> bool:
    """Take the item's entry out of the queue; whether there was one."""
    return bool(session.execute(delete(ReleaseNoteEntry).where(ReleaseNoteEntry.item_id == item_id)).rowcount)


def entry_of(session: Session, item_id: int) -> ReleaseNoteEntry | None:
    return session.scalar(select(ReleaseNoteEntry).where(ReleaseNoteEntry.item_id == item_id))


def release_entries(session: Session, release_id: int) -> list[ReleaseNoteEntry]:
    return list(session.scalars(select(ReleaseNoteEntry).where(ReleaseNoteEntry.release_id == release_id)
                                .order_by(ReleaseNoteEntry.created_at, ReleaseNoteEntry.id)))


def entry_view(entry: ReleaseNoteEntry) -> dict:
    return {"id": entry.id, "release_id": entry.release_id, "item_id": entry.item_id, "tool": entry.tool,
            "title": entry.title, "rn_section": entry.section, "rn_category": entry.category,
            "rn_note": entry.note, "badge": entry.badge, "created_at": rfc3339(entry.created_at),
            "updated_at": rfc3339(entry.updated_at)}


def queue(session: Session, caller: Caller, release_id: int) -> list[dict]:
    if org_release(session, caller.org_id, release_id) is None:
        raise not_found("Release", release_id)
    return [entry_view(e) for e in release_entries(session, release_id)]


def render(release_name: str, entries: list[ReleaseNoteEntry], categories: list[str]) -> str:
    """The release's notes as Markdown: sections in their fixed order, within a section the
    categories in the organisation's order (categories no longer listed after them by name, Other
    last), one bullet per entry in the order it joined; Feature Author entries carry their badge."""
    order = {name: i for i, name in enumerate(categories)}

    def category_key(name: str):
        return (name == OTHER, name not in order, order.get(name, 0), name.lower())

    lines = [f"# Release notes: {release_name}", ""]
    if not entries:
        return "\n".join(lines + ["_No entries in the release-notes queue yet._", ""])
    for section, heading in SECTIONS.items():
        in_section = [e for e in entries if e.section == section]
        if not in_section:
            continue
        lines += [f"## {heading}", ""]
        for category in sorted({e.category for e in in_section}, key=category_key):
            lines += [f"### {category}", ""]
            for e in (e for e in in_section if e.category == category):
                badge = f" _[{e.badge}]_" if e.badge else ""
                lines.append(f"- {e.note}{badge}")
            lines.append("")
    return "\n".join(lines)


# --- Release Composer items ----------------------------------------------------------------

def create_composer(session: Session, caller: Caller, release_id, title: str | None) -> Item:
    """A Release Composer item for one of the organisation's releases (one per release)."""
    if not is_int(release_id):
        raise invalid("release_id", "must be a release ID (an integer)")
    release = org_release(session, caller.org_id, release_id)
    if release is None:
        raise invalid("release_id", f"release {release_id} does not exist in your organisation")
    existing = session.scalar(select(Item.id).where(Item.org_id == caller.org_id, Item.tool == "release-notes",
                                                    Item.release_id == release_id).limit(1))
    if existing is not None:
        raise Problem(409, f"release {release.name} already has a Release Composer item ({existing}): "
                           f"docsvc release-notes show {existing}")
    title = " ".join((title or f"Release notes for {release.name}").split())
    if not title or len(title) > 500:
        raise invalid("title", "must be 1 to 500 characters")
    item = Item(org_id=caller.org_id, tool="release-notes", title=title, created_by_id=caller.user_id,
                release_id=release_id, data={})
    session.add(item)
    session.commit()
    session.refresh(item)
    return item


def get_composer(session: Session, caller: Caller, item_id: int) -> Item:
    return get_item(session, caller, "release-notes", item_id)


def composer_view(session: Session, item: Item) -> dict:
    """The item's release notes, assembled now from its release's queue. The release is the item's
    release tag, so retagging the item points it at another release."""
    release = session.get(Release, item.release_id) if item.release_id else None
    if release is None:
        return {"item_id": item.id, "title": item.title, "release_id": None, "release_name": None, "entries": [],
                "markdown": f"# {item.title}\n\n_This item has no release: tag one with "
                            f"docsvc items tag release-notes {item.id} --release ID._\n"}
    entries = release_entries(session, release.id)
    return {"item_id": item.id, "title": item.title, "release_id": release.id, "release_name": release.name,
            "entries": [entry_view(e) for e in entries],
            "markdown": render(release.name, entries, org_categories(session, item.org_id))}
