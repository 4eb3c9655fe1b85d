from __future__ import annotations

import functools

import anyio.to_thread
from fastapi import APIRouter, Depends, Request

from ..services.dashboard import moved, read
from .deps import JSONBodyRoute, PendingCaller, get_key, hot_read, in_session, slow_threads

router = APIRouter(tags=["dashboard"], route_class=JSONBodyRoute)


@router.get("/dashboard")
async def dashboard(request: Request, release_id: str | None = None, writer_id: str | None = None,
                    tool: str | None = None, caller: PendingCaller = Depends(get_key)):
    """The dashboard's numbers; ``release_id`` an id or ``none``, ``writer_id`` an id, ``none``,
    ``me`` or ``all`` (the default). Read on the event loop (``hot_read``); the open suggestions'
    pull requests, when there are any, are looked at (an ls-remote each) on the slow threads."""
    answer, suggestions = await hot_read(request, caller, functools.partial(
        read, release_id=release_id, writer_id=writer_id, tool=tool))
    if suggestions:
        state = request.app.state
        answer["attention"]["new_commits"] = await anyio.to_thread.run_sync(
            in_session, state.sessions, moved, caller.caller.org_id, suggestions, state.settings.egress,
            limiter=slow_threads(request))
    return answer
