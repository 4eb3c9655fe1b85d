from __future__ import annotations

from typing import Any

from ._base import WireModel


class PullRequest(WireModel):
    url: str | None = None
    state: str | None = None
    review: str | None = None


class Item(WireModel):
    id: int
    title: str = ""
    tool: str | None = None
    created_at: str | None = None
    created_by: Any = None
    release_id: int | None = None
    release_name: str | None = None
    writer_user_id: int | None = None
    writer_name: str | None = None
    work_status: str | None = None
    status_note: str | None = None
    pull_request: PullRequest | None = None


class DeleteResult(WireModel):
    """Answer of DELETE /items/<tool>/<id>; a Docflows suggestion comes back dismissed."""

    id: int
    deleted: bool = True
    dismissed: bool = False
    detail: str | None = None
    item: Item | None = None
