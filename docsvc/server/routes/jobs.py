from __future__ import annotations

import time

from fastapi import APIRouter, Depends, Query, Request, Response
from sqlalchemy.orm import Session

from ..jobs.queue import job_view
from ..services.accounts import Caller
from ..services.jobs import get_job as visible_job
from .deps import JSONBody, JSONBodyRoute, get_caller, get_session

router = APIRouter(tags=["jobs"], route_class=JSONBodyRoute)


# Long polling: ``?wait=S`` holds an unfinished job's answer up to S seconds (at most MAX_WAIT) and
# answers as soon as it finishes, so a client notices the end at once instead of at its next poll.
# The answer then says how long it was held (``X-Docsvc-Waited``), which a client may take off its
# own pause; a service without long polling ignores the parameter and sends no such header.
MAX_WAIT = 10.0
_RECHECK = 0.02  # seconds between looks at the job while holding: one primary-key read each


@router.get("/jobs/{job_id}")
def get_job(job_id: str, request: Request, response: Response, caller: Caller = Depends(get_caller),
            session: Session = Depends(get_session),
            wait: float = Query(0.0, ge=0.0, description="hold an unfinished job's answer up to this many "
                                                         f"seconds (at most {MAX_WAIT:g})")):
    pool = request.app.state.pool
    seen = pool.jobs_ended()
    job = visible_job(session, caller, job_id)  # 404 for another organisation's or another user's chat job
    if wait > 0:
        started = time.monotonic()
        end = started + min(wait, MAX_WAIT)
        while job.state in ("queued", "running") and time.monotonic() < end:
            remaining = max(0.0, end - time.monotonic())
            if pool.runs(job):  # this process runs it: woken when it ends, no reads meanwhile
                pool.wait_for_end(seen, remaining)
            else:  # queued, or run by another process sharing the database
                time.sleep(min(_RECHECK, remaining))
            seen = pool.jobs_ended()
            session.rollback()  # ends the read transaction: SQLite's snapshot would never see the change
            job = visible_job(session, caller, job_id)
        response.headers["X-Docsvc-Waited"] = f"{time.monotonic() - started:.3f}"
    if job.state in ("queued", "running"):
        response.headers["Retry-After"] = poll_hint(job)
    # The view is JSON already (the result comes from a JSON column): answered as it is, without
    # FastAPI's jsonable_encoder, which walks every value and took 86 ms on a scan's 3,910 findings.
    headers = {name: response.headers[name] for name in ("X-Docsvc-Waited", "Retry-After") if name in response.headers}
    return JSONBody(job_view(job), headers=headers)


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
