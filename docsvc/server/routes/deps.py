"""Dependencies shared by the routers: the database session, the caller, paging."""

from __future__ import annotations

import json
from typing import Any, Iterator

from fastapi import Depends, Query, Request, Response
from sqlalchemy.orm import Session

from ..problems import Problem
from ..services.accounts import Caller, authenticate


def get_session(request: Request) -> Iterator[Session]:
    session = request.app.state.sessions()
    try:
        yield session
    finally:
        session.close()


def get_caller(request: Request, session: Session = Depends(get_session)) -> Caller:
    return authenticate(session, request.headers.get("authorization"))


async def json_body(request: Request, *, optional: bool = False) -> Any:
    """The request's JSON body (None for an empty one when ``optional``); 400 when it is not JSON.
    What it must hold is the service's to say."""
    raw = await request.body()
    if optional and not raw.strip():
        return None
    try:
        return json.loads(raw)
    except ValueError:
        raise Problem(400, "The request body is not valid JSON") from None


class Page:
    """``limit``/``offset`` paging with an RFC 8288 ``Link: <...>; rel="next"`` header."""

    def __init__(
        self,
        request: Request,
        limit: int | None = Query(None, ge=1, description="page size"),
        offset: int = Query(0, ge=0),
    ) -> None:
        settings = request.app.state.settings
        self.request = request
        self.limit = min(limit or settings.page_size_default, settings.page_size_max)
        self.offset = offset

    def link(self, response: Response, total: int) -> None:
        if self.offset + self.limit < total:
            url = self.request.url.include_query_params(limit=self.limit, offset=self.offset + self.limit)
            response.headers["Link"] = f'<{url}>; rel="next"'
        response.headers["X-Total-Count"] = str(total)
