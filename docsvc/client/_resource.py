"""``APIResource``: base of the resource groups (``client.items``, ``client.jobs``, ...)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ._base import BaseClient

__all__ = ["APIResource"]


class APIResource:
    """Holds the client; every method of a resource group goes through ``self._client.call``,
    so HTTP policy (auth, retries, errors) is never decided per endpoint."""

    def __init__(self, client: BaseClient) -> None:
        self._client = client

    def __repr__(self) -> str:
        return f"<{type(self).__name__} of {self._client!r}>"
