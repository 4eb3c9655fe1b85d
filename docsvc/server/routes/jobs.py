from __future__ import annotations

import functools
import time
from typing import NamedTuple

from fastapi import APIRouter, Depends, Query, Request
from sqlalchemy.engine import Connection

from ..jobs.queue import job_view
from ..services.jobs import get_job as visible_job
from ..services.accounts import Caller
from .deps import JSONBody, JSONBodyRoute, PendingCaller, get_key, hot_read

router = APIRouter(tags=["jobs"], route_class=JSONBodyRoute)


# Long polling: ``?wait=S`` holds an unfinished job's answer up to S seconds (at most MAX_WAIT) and
# answers as soon as it finishes, so a client notices the end at once instead of at its next poll.
# The answer then says how long it was held (``X-Docsvc-Waited``), which a client may take off its
# own pause; a service without long polling ignores the parameter and sends no such header.
#
# The route is async and a held poll is a coroutine: it holds no thread (AnyIO's pool of 40 answers
# every sync route, and polls that slept in it stalled the API for everyone) and no database
# connection (its reads give theirs back before it waits). The wake-up is jobs/watch.py's: the end
# of a job run here, else a read of the shared database every 20 ms for all held polls at once.
# One key holds at most ``JobWatch.max_held_per_key`` polls at once; beyond that the answer comes
# at once, with ``X-Docsvc-Waited: 0.000`` and the poll hint, and the client polls again after its
# own pause (``client.jobs.wait``), as it does with a service that does not hold polls. Not a 429:
# that would spend the client's retries and turn a wait for a job into an error.
MAX_WAIT = 10.0


class _Seen(NamedTuple):
    view: dict
    unfinished: bool
    hint: str


def _look(job_id: str):
    """The job as the caller may see it (404 for another organisation's or another user's chat
    job), read with the key's lookup (``hot_read``): the connection goes back to the pool before
    any wait, and each read sees the job as it is then."""
    reads, job_of = visible_job(job_id)

    def seen(connection: Connection, caller: Caller, rows: list[list]) -> _Seen:
        job = job_of(connection, caller, rows)
        unfinished = job.state in ("queued", "running")
        return _Seen(job_view(job), unfinished, poll_hint(job) if unfinished else "")

    return reads, seen


@router.get("/jobs/{job_id}")
async def get_job(job_id: str, request: Request, caller: PendingCaller = Depends(get_key),
                  wait: float = Query(0.0, ge=0.0, description="hold an unfinished job's answer up to this many "
                                                               f"seconds (at most {MAX_WAIT:g})")):
    seen = await hot_read(request, caller, functools.partial(_look, job_id))
    headers = {}
    if wait > 0:
        started = time.monotonic()
        if seen.unfinished:
            watch = request.app.state.job_watch
            with watch.held(request.headers.get("authorization")) as holding:
                end = started + min(wait, MAX_WAIT)
                while holding and seen.unfinished and (remaining := end - time.monotonic()) > 0:
                    await watch.until_ended(job_id, remaining)
                    # Read again, ended or not: a hold that ran out answers the job's latest progress.
                    seen = await hot_read(request, caller, functools.partial(_look, job_id))
        headers["X-Docsvc-Waited"] = f"{time.monotonic() - started:.3f}"
    if seen.unfinished:
        headers["Retry-After"] = seen.hint
    # The view is JSON already (the result comes from a JSON column): answered as it is, without
    # FastAPI's jsonable_encoder, which walks every value and took 86 ms on a scan's 3,910 findings.
    return JSONBody(seen.view, headers=headers)


def poll_hint(job) -> str:
    """Retry-After for an unfinished job: poll freely while it is young (most jobs finish in
    seconds), gently once it has run a while; clients add their own backoff on top."""
    from ..db.session import as_utc
    from ..db.tables import utcnow

    age = (utcnow() - as_utc(job.created_at)).total_seconds()
    return "0" if age < 10 else "1" if age < 300 else "2"


def accepted(request, job):
    """The 202 answer of every job-starting POST: ``{status, job_id}`` with Location and a poll hint.

    Wakes a worker at once, so a short job is done by the client's first poll."""
    from fastapi.responses import JSONResponse

    request.app.state.pool.notify()
    return JSONResponse({"status": "queued", "job_id": job.id}, status_code=202,
                        headers={"Location": f"/api/v1/jobs/{job.id}", "Retry-After": poll_hint(job)})
