"""``client.search``: full-text search of the synced docs (an addition to the interface)."""

from __future__ import annotations

import builtins

from docsvc.models.search import SearchHit

from ._resource import APIResource

__all__ = ["SearchResource"]


class SearchResource(APIResource):
    def query(self, q: str, *, integration_id: int | None = None, limit: int | None = None
              ) -> builtins.list[SearchHit]:
        """Passages of the indexed docs matching every word of ``q``, best first."""
        return self._client.call("search.query", params={"q": q, "integration_id": integration_id,
                                                         "limit": limit}, cast=list[SearchHit])
