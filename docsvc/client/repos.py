"""``client.repos``: repository sync (a job), sync state, and asking admins for a sync."""

from __future__ import annotations

import builtins

from docsvc.models.jobs import JobRef
from docsvc.models.repos import Repo, RequestSyncResult

from ._resource import APIResource

__all__ = ["ReposResource"]


class ReposResource(APIResource):
    def sync(self, integration_id: int, *, idempotency_key: str | None = None) -> JobRef:
        """Start a sync of the integration's repository into the search index (a job)."""
        return self._client.call(
            "repos.sync", json={"integration_id": integration_id}, cast=JobRef,
            idempotency_key=idempotency_key,
        )

    def list(self) -> builtins.list[Repo]:
        """Repositories with their sync state."""
        return self._client.call("repos.list", cast=list[Repo])

    def request_sync(self, repo_id: int) -> RequestSyncResult:
        """Email the organisation's admins that the repository needs a sync (once a day)."""
        return self._client.call(
            "repos.request_sync", path_params={"id": repo_id}, cast=RequestSyncResult
        )
