from __future__ import annotations

from ._base import WireModel


class Integration(WireModel):
    id: int
    name: str
    code_repo: str | None = None
    code_branch: str | None = None
    docs_repo: str | None = None
    docs_branch: str | None = None
    docs_path: str | None = None
    preview_url: str | None = None
    keep_in_sync: bool | None = None
    code_host: str | None = None
    host: str | None = None  # github | gitlab | git: the API that opens pull requests


class WebhookDelivery(WireModel):
    """One webhook delivery a code host sent for an integration, and what came of it."""

    id: int
    delivery: str | None = None
    host: str | None = None
    event: str | None = None
    action: str | None = None
    outcome: str | None = None  # done | ignored | refused | replay (a body taken before, under another id)
    result: str | None = None
    job_id: str | None = None
    received_at: str | None = None
