"""``client.me``: the caller: who they are, and their work summary."""

from __future__ import annotations

from docsvc.models.me import WorkSummary
from docsvc.models.users import User

from ._resource import APIResource

__all__ = ["MeResource"]


class MeResource(APIResource):
    def get(self) -> User:
        """The caller's user record (its id is what ``--writer me`` and ``--claim`` use)."""
        return self._client.call("me.get", cast=User)

    def work(self) -> WorkSummary:
        """Counts for the caller: ``open``, ``blocked``, ``docflows``, ``changes_requested``."""
        return self._client.call("me.work", cast=WorkSummary)
