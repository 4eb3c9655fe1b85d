"""Releases (the release tags of items)."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..db.tables import Organization, Release
from .accounts import AdminError


def add_release(session: Session, org: Organization, name: str, target: str | None = None) -> Release:
    name = name.strip()
    if not name:
        raise AdminError("release name must not be empty")
    if session.scalar(select(Release).where(Release.org_id == org.id, Release.name == name)):
        raise AdminError(f"release {name!r} already exists in {org.name!r}")
    target_date = None
    if target:
        try:
            target_date = dt.date.fromisoformat(target)
        except ValueError:
            raise AdminError(f"--target must be a date YYYY-MM-DD, got {target!r}") from None
    release = Release(org_id=org.id, name=name, target_date=target_date)
    session.add(release)
    session.flush()
    return release


def list_releases(session: Session, org_id: int) -> list[Release]:
    # Newest first, like every list of the API.
    return list(session.scalars(
        select(Release).where(Release.org_id == org_id).order_by(Release.created_at.desc(), Release.id.desc())
    ))


def org_release(session: Session, org_id: int, release_id: int) -> Release | None:
    release = session.get(Release, release_id)
    return release if release is not None and release.org_id == org_id else None
