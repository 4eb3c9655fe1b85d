from __future__ import annotations

from ._base import WireModel


class Repo(WireModel):
    id: int
    name: str
    state: str | None = None  # "Up to date", "Behind <host>: N commits", "Not synced yet"
    last_synced_at: str | None = None
    keep_in_sync: bool | None = None
    integration_id: int | None = None


class RequestSyncResult(WireModel):
    sent: bool | None = None
    detail: str | None = None
    next_possible_at: str | None = None
