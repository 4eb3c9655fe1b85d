"""Queue operations on the job table. Every state change is one conditional UPDATE, so several
workers (threads or processes) on one database never run a job twice at once.

A job is leased: its worker renews ``heartbeat_at`` every third of the lease
(``DOCSVC_SERVER_JOB_LEASE_SECONDS``); a running job whose heartbeat is older than the lease is
put back in the queue by any process (``recover_stale``) and runs again, up to ``max_attempts``.
An attempt's changes are fenced: they commit only while the attempt still holds the job
(``hold``), and a handler commits its effects and the job's completion in one transaction
(``settle``), so a job is never completed twice and its effects never land twice.
"""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
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


def _running_with_key(session: Session, key: str) -> bool:
    return session.scalar(select(Job.id).where(Job.state == "running", Job.concurrency_key == key).limit(1)) is not None


def claim_next(session: Session, worker_id: str) -> Job | None:
    """Take the oldest queued job whose concurrency key is free; None when there is none. Jobs of
    one key run in the order they were queued: a later one is never taken past an older one that
    another transaction holds (a second sync waits for the first, even the first's rerun).

    Exclusive across processes: the claim is one conditional UPDATE (``state = 'queued'``), so of
    two workers only one changes the row; on PostgreSQL the row is first locked with ``FOR UPDATE
    SKIP LOCKED``, so a second worker passes on to the next job instead of waiting. A second
    running job with the same concurrency key is refused by the unique index on the keys of
    running jobs (migration 0006)."""
    candidates = session.execute(
        select(Job.id, Job.concurrency_key).where(Job.state == "queued").order_by(Job.created_at, Job.id).limit(50)
    ).all()
    session.rollback()
    skip_locked = session.get_bind().dialect.name == "postgresql"  # SQLite has one writer anyway
    passed: set[str] = set()  # keys whose older job was passed over: their later jobs wait their turn
    for job_id, key in candidates:
        if key and (key in passed or _running_with_key(session, key)):
            session.rollback()
            continue
        if skip_locked and session.scalar(select(Job.id).where(Job.id == job_id, Job.state == "queued")
                                          .with_for_update(skip_locked=True)) is None:
            session.rollback()  # another worker is claiming it right now (or requeuing it)
            if key:
                passed.add(key)
            continue
        now = utcnow()
        try:
            claimed = session.execute(
                update(Job).where(Job.id == job_id, Job.state == "queued")
                .values(state="running", locked_by=worker_id, heartbeat_at=now, started_at=now,
                        attempts=Job.attempts + 1, updated_at=now)
            ).rowcount
            session.commit()
        except IntegrityError:  # a job with the same key started meanwhile (in any process)
            session.rollback()
            if key:
                passed.add(key)
            continue
        if claimed == 1:
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


def _held(job_id: str, worker_id: str, attempt: int):
    """The conditions under which a worker still holds a job: this attempt is the running one."""
    return (Job.id == job_id, Job.locked_by == worker_id, Job.state == "running", Job.attempts == attempt)


def hold(session: Session, job_id: str, worker_id: str, attempt: int) -> bool:
    """In the caller's transaction: confirm the worker still holds the job (and renew its lease).
    Once confirmed, the row stays locked until the transaction ends, so no other process can
    take the job over before the caller's changes are committed."""
    return session.execute(
        update(Job).where(*_held(job_id, worker_id, attempt)).values(heartbeat_at=utcnow())
    ).rowcount == 1


def settle(session: Session, job_id: str, worker_id: str, attempt: int, *, result: dict | None = None,
           error: dict | None = None) -> bool:
    """In the caller's transaction: mark the job completed (``result``) or failed (``error``).
    False when the attempt no longer holds it (its lease ran out and the job was taken over)."""
    now = utcnow()
    values: dict[str, Any] = {"state": "failed" if error else "completed", "finished_at": now,
                              "updated_at": now, "locked_by": None, "result": result, "error": error}
    if not error:
        values["progress"] = {"message": "completed", "percent": 100}
    return session.execute(update(Job).where(*_held(job_id, worker_id, attempt)).values(**values)).rowcount == 1


def finish(session: Session, job_id: str, worker_id: str, attempt: int, *, result: dict | None = None,
           error: dict | None = None) -> bool:
    """Settle the job in a transaction of its own. False when the job was taken away."""
    done = settle(session, job_id, worker_id, attempt, result=result, error=error)
    session.commit()
    return done


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
            # The heartbeat is checked again: a worker that renewed its lease meanwhile keeps its job.
            update(Job).where(Job.id == job.id, Job.state == "running", Job.locked_by == job.locked_by,
                              Job.attempts == job.attempts, Job.heartbeat_at < cutoff)
            .values(updated_at=utcnow(), **values).execution_options(synchronize_session=False)
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
