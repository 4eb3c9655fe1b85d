"""The wire form of stored records: what routes and services send back."""

from __future__ import annotations

from typing import Any

from ...credentials import hidden
from ..db.session import rfc3339
from ..db.tables import Integration, Item, Release, User
from .accounts import ROLE_NAMES
from .integrations import code_host


def item_view(item: Item) -> dict[str, Any]:
    return item_fields(item.id, item.tool, item.title, item.created_at, item.created_by.name if item.created_by else None,
                       item.created_by_id, item.release_id, item.release.name if item.release else None,
                       item.writer_user_id, item.writer.name if item.writer else None, item.work_status,
                       item.status_note, item.pull_request, item.updated_at)


def item_fields(id, tool, title, created_at, created_by, created_by_id, release_id, release_name, writer_user_id,
                writer_name, work_status, status_note, pull_request, updated_at) -> dict[str, Any]:
    """An item's wire form from its fields, in this order: of an ``Item`` (``item_view``), or of a
    row of a listing's columns (``items.list_items``), which builds no ORM object."""
    return {
        "id": id,
        "tool": tool,
        "title": title,
        "created_at": rfc3339(created_at),
        "created_by": created_by,
        "created_by_user_id": created_by_id,
        "release_id": release_id,
        "release_name": release_name,
        "writer_user_id": writer_user_id,
        "writer_name": writer_name,
        "work_status": work_status,
        "status_note": status_note,
        "pull_request": pull_request or None,
        "updated_at": rfc3339(updated_at),
    }


def release_view(release: Release) -> dict[str, Any]:
    return {
        "id": release.id,
        "name": release.name,
        "target_date": release.target_date.isoformat() if release.target_date else None,
        "status": release.status,
        "created_at": rfc3339(release.created_at),
    }


def user_view(user: User) -> dict[str, Any]:
    return {
        "id": user.id,
        "name": user.name,
        "email": user.email,
        "role": user.role,
        "role_name": ROLE_NAMES.get(user.role, user.role),
        "organization": user.organization.name if user.organization else None,
    }


def integration_view(integration: Integration) -> dict[str, Any]:
    return {
        "id": integration.id,
        "name": integration.name,
        "code_repo": hidden(integration.code_repo),
        "code_branch": integration.code_branch,
        "docs_repo": hidden(integration.docs_repo),
        "docs_branch": integration.docs_branch,
        "docs_path": integration.docs_path,
        "preview_url": integration.preview_url,
        "keep_in_sync": integration.keep_in_sync,
        "code_host": code_host(integration.code_repo),
        # where pull requests are opened: github, gitlab, or git (a pushed branch and a compare link)
        "host": integration.host,
        "created_at": rfc3339(integration.created_at),
    }
