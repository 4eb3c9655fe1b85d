from __future__ import annotations

import functools

from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, StrictInt
from sqlalchemy.orm import Session

from ..services import docflows
from ..services import items as service
from ..services.accounts import Caller
from ..services.views import item_view
from .deps import JSONBody, JSONBodyRoute, Page, PendingCaller, get_caller, get_key, get_session, hot_read, paging
from .fields import Name, Note

router = APIRouter(tags=["items"], route_class=JSONBodyRoute)


class ItemPatch(BaseModel):
    """Fields a PATCH may carry; unknown fields are refused so typos do not pass silently."""

    model_config = ConfigDict(extra="forbid")
    title: Name | None = None
    release_id: StrictInt | None = None  # a JSON integer: true is no user 1
    writer_user_id: StrictInt | None = None
    work_status: str | None = None
    status_note: Note | None = None


@router.get("/items/{tool}")
async def list_items(
    request: Request,
    tool: str,
    release_id: str | None = None,
    writer_id: str | None = None,
    status: str | None = None,
    page: Page = Depends(paging),
    caller: PendingCaller = Depends(get_key),
):
    items, total = await hot_read(request, caller, functools.partial(
        service.list_items, tool, release_id=release_id, writer_id=writer_id, status=status, limit=page.limit,
        offset=page.offset))
    # The items are JSON values already (``views.item_fields``): answered as they are, without a
    # walk to check them (``deps._answered_as_json``) that cost a tenth of the listing's CPU.
    response = JSONBody(items)
    page.link(response, total)
    return response


@router.patch("/items/{tool}/{item_id:id}")
def update_item(
    tool: str,
    item_id: int,
    patch: ItemPatch,
    caller: Caller = Depends(get_caller),
    session: Session = Depends(get_session),
):
    changes = patch.model_dump(include=patch.model_fields_set)
    return item_view(service.update_item(session, caller, tool, item_id, changes))


@router.delete("/items/{tool}/{item_id:id}", status_code=204, response_model=None)
def delete_item(
    tool: str,
    item_id: int,
    request: Request,
    caller: Caller = Depends(get_caller),
    session: Session = Depends(get_session),
):
    if tool != "docflows":
        service.delete_item(session, caller, tool, item_id, request.app.state.store)
        return Response(status_code=204)
    dismissed = docflows.reject(session, caller, item_id)
    return JSONResponse({
        "id": item_id,
        "deleted": False,
        "dismissed": True,
        "detail": "Docflows suggestions are dismissed, not deleted: its status is now rejected",
        "item": item_view(dismissed),
    })
