"""Queue operations on the job table. Every state change is one conditional UPDATE, so several
workers (threads or processes) on one database never run a job twice at once."""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from ..db.session import rfc3339
from ..db.tables import Job, utcnow


def enqueue(
    session: Session,
    *,
    org_id: int,
    user_id: int | None,
    kind: str,
    params: dict[str, Any],
    concurrency_key: str | None = None,
    max_attempts: int = 2,
) -> Job:
    job = Job(id=str(uuid.uuid4()), org_id=org_id, user_id=user_id, kind=kind, params=params,
              concurrency_key=concurrency_key, max_attempts=max_attempts, state="queued",
              progress={"message": "queued", "percent": 0})
    session.add(job)
    session.commit()
    return job


def _running_with_key(session: Session, key: str, other_than: str) -> bool:
    return session.scalar(
        select(Job.id).where(Job.state == "running", Job.concurrency_key == key, Job.id != other_than).limit(1)
    ) is not None


def claim_next(session: Session, worker_id: str) -> Job | None:
    """Take the oldest queued job whose concurrency key is free; None when there is none."""
    candidates = session.execute(
        select(Job.id, Job.concurrency_key).where(Job.state == "queued").order_by(Job.created_at, Job.id).limit(50)
    ).all()
    for job_id, key in candidates:
        if key and _running_with_key(session, key, job_id):
            continue
        now = utcnow()
        claimed = session.execute(
            update(Job).where(Job.id == job_id, Job.state == "queued")
            .values(state="running", locked_by=worker_id, heartbeat_at=now, started_at=now,
                    attempts=Job.attempts + 1, updated_at=now)
        ).rowcount
        session.commit()
        if claimed != 1:
            continue
        if key and _running_with_key(session, key, job_id):
            # Another worker claimed a job with the same key at the same moment: step back.
            release(session, job_id, worker_id)
            continue
        return session.get(Job, job_id, populate_existing=True)
    return None


def release(session: Session, job_id: str, worker_id: str) -> None:
    """Put a job this worker holds back in the queue without counting the attempt."""
    session.execute(
        update(Job).where(Job.id == job_id, Job.locked_by == worker_id, Job.state == "running")
        .values(state="queued", locked_by=None, attempts=Job.attempts - 1, updated_at=utcnow())
    )
    session.commit()


def set_progress(session: Session, job_id: str, worker_id: str, progress: dict[str, Any]) -> None:
    session.execute(
        update(Job).where(Job.id == job_id, Job.locked_by == worker_id, Job.state == "running")
        .values(progress=progress, heartbeat_at=utcnow(), updated_at=utcnow())
    )
    session.commit()


def finish(session: Session, job_id: str, worker_id: str, *, result: dict | None = None,
           error: dict | None = None) -> bool:
    """Mark completed (``result``) or failed (``error``). False when the job was taken away."""
    now = utcnow()
    values: dict[str, Any] = {"state": "failed" if error else "completed", "finished_at": now,
                              "updated_at": now, "locked_by": None, "result": result, "error": error}
    if not error:
        values["progress"] = {"message": "completed", "percent": 100}
    done = session.execute(
        update(Job).where(Job.id == job_id, Job.locked_by == worker_id, Job.state == "running").values(**values)
    ).rowcount
    session.commit()
    return done == 1


def heartbeat(session: Session, worker_id: str) -> None:
    session.execute(
        update(Job).where(Job.locked_by == worker_id, Job.state == "running").values(heartbeat_at=utcnow())
    )
    session.commit()


def recover_stale(session: Session, lease_seconds: float) -> list[str]:
    """Jobs whose worker went silent (a crash, a kill): run them again, or fail them when their
    attempts are used up. Returns the ids that were recovered."""
    cutoff = utcnow() - dt.timedelta(seconds=lease_seconds)
    stale = session.scalars(
        select(Job).where(Job.state == "running", Job.heartbeat_at < cutoff)
    ).all()
    recovered = []
    for job in stale:
        if job.attempts < job.max_attempts:
            values: dict[str, Any] = {"state": "queued", "locked_by": None,
                                      "progress": {"message": f"requeued after attempt {job.attempts} was cut off",
                                                   "percent": 0}}
        else:
            values = {"state": "failed", "locked_by": None, "finished_at": utcnow(),
                      "error": {"title": "Job interrupted",
                                "detail": f"the service stopped while the job was running, "
                                          f"{job.attempts} of {job.max_attempts} attempts used"}}
        changed = session.execute(
            update(Job).where(Job.id == job.id, Job.state == "running", Job.locked_by == job.locked_by)
            .values(updated_at=utcnow(), **values)
        ).rowcount
        if changed:
            recovered.append(job.id)
    session.commit()
    return recovered


def job_view(job: Job) -> dict[str, Any]:
    """The wire form of a job. ``running`` shows as ``queued``: the interface knows three statuses."""
    status = {"running": "queued"}.get(job.state, job.state)
    return {
        "job_id": job.id,
        "status": status,
        "kind": job.kind,
        "created_at": rfc3339(job.created_at),
        "updated_at": rfc3339(job.updated_at),
        "progress": job.progress,
        "result": job.result,
        "error": job.error,
        "attempts": job.attempts,
    }
