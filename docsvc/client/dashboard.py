"""``client.dashboard``: the web dashboard's numbers."""

from __future__ import annotations

from docsvc.models import dashboard as models

from ._resource import APIResource

__all__ = ["DashboardResource"]


class DashboardResource(APIResource):
    def get(
        self,
        *,
        release_id: int | str | None = None,
        writer_id: int | str | None = None,
        tool: str | None = None,
    ) -> models.Dashboard:
        """Dashboard numbers; ``writer_id`` may be an id, ``"none"``, ``"me"`` or ``"all"``,
        ``release_id`` an id or ``"none"``. Every field is kept as the service sent it."""
        return self._client.call(
            "dashboard.get",
            params={"release_id": release_id, "writer_id": writer_id, "tool": tool},
            cast=models.Dashboard,
        )
