"""``client.chats``: DocOps Assistant chats, answered from the docs index (an addition)."""

from __future__ import annotations

from docsvc.models.chats import Chat
from docsvc.models.jobs import JobRef

from ._resource import APIResource

__all__ = ["ChatsResource"]


class ChatsResource(APIResource):
    def create(self, question: str, *, idempotency_key: str | None = None) -> JobRef:
        """Ask ``question``; the job's result holds the answer, its citations and ``chat_id``
        (the chat is saved as the caller's own)."""
        return self._client.call("chats.create", json={"question": question}, cast=JobRef,
                                 idempotency_key=idempotency_key)

    def get(self, chat_id: int) -> Chat:
        """One of the caller's own chats; anyone else's is not found (404)."""
        return self._client.call("chats.get", path_params={"id": chat_id}, cast=Chat)
