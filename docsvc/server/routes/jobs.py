from __future__ import annotations

from fastapi import APIRouter, Depends, Response
from sqlalchemy.orm import Session

from ..jobs.queue import job_view
from ..services.accounts import Caller
from ..services.jobs import get_job as visible_job
from .deps import get_caller, get_session

router = APIRouter(tags=["jobs"])


@router.get("/jobs/{job_id}")
def get_job(job_id: str, response: Response, caller: Caller = Depends(get_caller),
            session: Session = Depends(get_session)):
    job = visible_job(session, caller, job_id)  # 404 for another organisation's or another user's chat job
    if job.state in ("queued", "running"):
        response.headers["Retry-After"] = poll_hint(job)
    return job_view(job)


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
