from __future__ import annotations

from ._base import WireModel


class Repo(WireModel):
    id: int
    name: str
    state: str | None = None  # "Up to date", "Behind <host>: N commits", "Not synced yet"
    last_synced_at: str | None = None
    keep_in_sync: bool | None = None
    integration_id: int | None = None
    code_host: str | None = None
    behind: int | None = None
    files_indexed: int | None = None
    synced_commit: str | None = None
    remote_error: str | None = None


class RequestSyncResult(WireModel):
    sent: bool | None = None  # False: no SMTP on the service, the mail waits in its outbox
    recipients: list[str] | None = None
    repository: str | None = None
    detail: str | None = None
    next_possible_at: str | None = None
