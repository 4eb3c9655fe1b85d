"""``client.items``: work items of every tool (list, tag, change status, rename, delete)."""

from __future__ import annotations

import builtins
from typing import Any, Literal, Union

from docsvc.models.items import DeleteResult, Item

from ._resource import APIResource
from ._types import NOT_GIVEN, NotGiven, strip_not_given

__all__ = ["ItemsResource", "TagFilter"]

# A release or writer filter: an id, or "none" for items without that tag.
TagFilter = Union[int, Literal["none"]]


class ItemsResource(APIResource):
    def list(
        self,
        tool: str,
        *,
        release_id: TagFilter | None = None,
        writer_id: TagFilter | None = None,
        status: str | None = None,
    ) -> builtins.list[Item]:
        """The tool's items, newest first; every page when the service paginates."""
        return self._client.call(
            "items.list",
            path_params={"tool": tool},
            params={"release_id": release_id, "writer_id": writer_id, "status": status},
            cast=list[Item],
        )

    def update(
        self,
        tool: str,
        item_id: int,
        *,
        title: str | NotGiven = NOT_GIVEN,
        release_id: int | None | NotGiven = NOT_GIVEN,
        writer_user_id: int | None | NotGiven = NOT_GIVEN,
        work_status: str | NotGiven = NOT_GIVEN,
        status_note: str | None | NotGiven = NOT_GIVEN,
    ) -> Item:
        """Change the given fields only; ``None`` clears a field (``writer_user_id=None``
        removes the writer tag). The service applies tags before the status, so claiming
        (``writer_user_id=<me>``) and moving work in one call."""
        body: dict[str, Any] = strip_not_given({
            "title": title,
            "release_id": release_id,
            "writer_user_id": writer_user_id,
            "work_status": work_status,
            "status_note": status_note,
        })
        return self._client.call(
            "items.update", path_params={"tool": tool, "id": item_id}, json=body, cast=Item
        )

    def delete(self, tool: str, item_id: int) -> DeleteResult:
        """Delete the item. A Docflows suggestion is dismissed instead (``dismissed=True``)."""
        result = self._client.call(
            "items.delete", path_params={"tool": tool, "id": item_id}, cast=DeleteResult
        )
        # 204 No Content: nothing to parse, the deletion itself is the answer.
        return result if result is not None else DeleteResult(id=item_id, deleted=True)
