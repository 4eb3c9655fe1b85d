"""``client.releases``: the organisation's releases (the source of release ids)."""

from __future__ import annotations

import builtins

from docsvc.models.releases import Release

from ._resource import APIResource

__all__ = ["ReleasesResource"]


class ReleasesResource(APIResource):
    def list(self) -> builtins.list[Release]:
        """Every release, newest first."""
        return self._client.call("releases.list", cast=list[Release])
