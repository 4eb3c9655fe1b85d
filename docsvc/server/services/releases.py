"""Releases (the release tags of items): their target date, its history, and their status.

Every setting of a target date is kept as a ``ReleaseDateChange`` (the first one with ``old_date``
None), so the dashboard can show the first planned date and each change since.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..db.tables import Organization, Release, ReleaseDateChange, User
from ..problems import as_id
from .accounts import AdminError

RELEASE_STATUSES = ("planned", "in_progress", "released")


def add_release(session: Session, org: Organization, name: str, target: str | None = None) -> Release:
    name = name.strip()
    if not name:
        raise AdminError("release name must not be empty")
    if session.scalar(select(Release).where(Release.org_id == org.id, Release.name == name)):
        raise AdminError(f"release {name!r} already exists in {org.name!r}")
    target_date = parse_date(target, "--target") if target else None
    release = Release(org_id=org.id, name=name)
    session.add(release)
    session.flush()
    if target_date is not None:
        set_target(session, release, target_date)  # the first setting is history too
    return release


def parse_date(text: str, option: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text.strip())
    except ValueError:
        raise AdminError(f"{option} must be a date YYYY-MM-DD, got {text!r}") from None


def find_release(session: Session, org: Organization, name_or_id: str) -> Release:
    """A release of ``org`` by name, or by id when no release has that name."""
    release = session.scalar(select(Release).where(Release.org_id == org.id, Release.name == name_or_id.strip()))
    if release is None and as_id(name_or_id) is not None:
        release = org_release(session, org.id, as_id(name_or_id))
    if release is None:
        raise AdminError(f"no release {name_or_id!r} in {org.name!r}")
    return release


def set_target(session: Session, release: Release, new_date: dt.date | None, *, reason: str | None = None,
               changed_by: User | None = None) -> ReleaseDateChange | None:
    """Set the target date and record the change; None when the date is already that one."""
    if release.target_date == new_date:
        return None
    change = ReleaseDateChange(release_id=release.id, old_date=release.target_date, new_date=new_date,
                               reason=(reason or "").strip() or None,
                               changed_by_id=changed_by.id if changed_by is not None else None)
    release.target_date = new_date
    session.add(change)
    session.flush()
    return change


def set_status(release: Release, status: str) -> None:
    if status not in RELEASE_STATUSES:
        raise AdminError(f"status must be one of {', '.join(RELEASE_STATUSES)}, got {status!r}")
    release.status = status


def date_changes(session: Session, release_id: int) -> list[ReleaseDateChange]:
    """The release's target-date history, oldest first."""
    return list(session.scalars(select(ReleaseDateChange).where(ReleaseDateChange.release_id == release_id)
                                .order_by(ReleaseDateChange.changed_at, ReleaseDateChange.id)))


def list_releases(session: Session, org_id: int) -> list[Release]:
    # Newest first, like every list of the API.
    return list(session.scalars(
        select(Release).where(Release.org_id == org_id).order_by(Release.created_at.desc(), Release.id.desc())
    ))


def org_release(session: Session, org_id: int, release_id: int) -> Release | None:
    release = session.get(Release, release_id)
    return release if release is not None and release.org_id == org_id else None
