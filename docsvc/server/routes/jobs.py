from __future__ import annotations

from fastapi import APIRouter, Depends, Response
from sqlalchemy.orm import Session

from ..db.tables import Job
from ..jobs.queue import job_view
from ..problems import not_found
from ..services.accounts import Caller
from .deps import get_caller, get_session

router = APIRouter(tags=["jobs"])


@router.get("/jobs/{job_id}")
def get_job(job_id: str, response: Response, caller: Caller = Depends(get_caller),
            session: Session = Depends(get_session)):
    job = session.get(Job, job_id)
    if job is None or job.org_id != caller.org_id:
        raise not_found("Job", job_id)
    if job.state in ("queued", "running"):
        response.headers["Retry-After"] = "1"  # the poll hint; clients back off from here
    return job_view(job)
