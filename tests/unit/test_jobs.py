"""The durable job queue and its workers, on a real database."""

import datetime as dt
import threading
import time

import pytest
from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError

from docsvc.server.db.tables import Job, Release, utcnow
from docsvc.server.jobs import queue
from docsvc.server.jobs.registry import HANDLERS, JobFailure, handler
from docsvc.server.jobs.worker import WorkerPool
from docsvc.server.settings import ServerSettings
from tests.unit.dbfixtures import db  # noqa: F401  (fixture)


def enqueue(db, kind="test.kind", key=None, **params):
    with db.sessions() as session:
        return queue.enqueue(session, org_id=db.org_id, user_id=db.user_id, kind=kind, params=params,
                             concurrency_key=key).id


def state(db, job_id) -> Job:
    with db.sessions() as session:
        return session.get(Job, job_id)


def wait_for(predicate, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False


def test_claim_and_finish(db):
    job_id = enqueue(db)
    with db.sessions() as session:
        job = queue.claim_next(session, "w1")
        assert job.id == job_id and job.state == "running" and job.attempts == 1
        assert queue.job_view(job)["status"] == "queued"  # the interface knows no "running"
        assert queue.claim_next(session, "w2") is None
        assert queue.finish(session, job_id, "w1", 1, result={"ok": True})
    view = queue.job_view(state(db, job_id))
    assert view["status"] == "completed" and view["result"] == {"ok": True}


def test_same_concurrency_key_never_runs_twice_at_once(db):
    first, second = enqueue(db, key="sync:1"), enqueue(db, key="sync:1")
    other = enqueue(db, key="sync:2")
    with db.sessions() as session:
        assert queue.claim_next(session, "w1").id == first
        assert queue.claim_next(session, "w2").id == other  # skips the blocked one
        assert queue.claim_next(session, "w3") is None
        queue.finish(session, first, "w1", 1, result={})
        assert queue.claim_next(session, "w3").id == second


def test_a_worker_that_lost_its_job_cannot_overwrite_it(db):
    job_id = enqueue(db)
    with db.sessions() as session:
        queue.claim_next(session, "w1")
        assert not queue.finish(session, job_id, "someone-else", 1, result={})
        assert not queue.finish(session, job_id, "w1", 2, result={})  # an attempt that is not the running one
    assert state(db, job_id).state == "running"


@pytest.mark.parametrize("attempts, expected", [(1, "queued"), (2, "failed")])
def test_stale_running_jobs_are_run_again_or_failed(db, attempts, expected):
    job_id = enqueue(db)
    with db.sessions() as session:
        queue.claim_next(session, "crashed")
        job = session.get(Job, job_id)
        job.attempts = attempts
        job.heartbeat_at = utcnow() - dt.timedelta(minutes=5)
        session.commit()
        fresh = enqueue(db)
        queue.claim_next(session, "alive")  # a live worker's job is left alone
        assert queue.recover_stale(session, lease_seconds=30) == [job_id]
    job = state(db, job_id)
    assert job.state == expected and job.locked_by is None
    if expected == "failed":
        assert job.error["title"] == "Job interrupted" and "2 of 2 attempts" in job.error["detail"]
    assert state(db, fresh).state == "running"


@pytest.fixture()
def pool(db):
    settings = ServerSettings(database_url=db.url, job_workers=2, job_poll_seconds=0.05, job_lease_seconds=1.0)
    workers = WorkerPool(db.sessions, settings)
    workers.start()
    yield workers
    workers.stop(timeout=2)


@pytest.fixture()
def kinds():
    added = []

    def register(kind, func):
        handler(kind)(func)
        added.append(kind)

    yield register
    for kind in added:
        HANDLERS.pop(kind, None)


def test_workers_run_handlers_with_progress_and_results(db, pool, kinds):
    def count(ctx):
        for n in range(1, ctx.params["n"] + 1):
            ctx.progress(f"step {n}", done=n, total=ctx.params["n"])
        return {"counted": ctx.params["n"], "org": ctx.org_id}

    kinds("test.count", count)
    job_id = enqueue(db, "test.count", n=3)
    pool.notify()
    assert wait_for(lambda: state(db, job_id).state == "completed")
    job = state(db, job_id)
    assert job.result == {"counted": 3, "org": db.org_id}
    assert job.progress["percent"] == 100


@pytest.mark.parametrize("raise_, title, detail", [
    (JobFailure("Repository unreachable", "fatal: could not read from remote"), "Repository unreachable",
     "fatal: could not read from remote"),
    (ZeroDivisionError("division by zero"), "Internal error", "ZeroDivisionError: division by zero"),
])
def test_failures_end_the_job_failed_with_a_reason(db, pool, kinds, raise_, title, detail):
    def fail(ctx):
        raise raise_

    kinds("test.fail", fail)
    job_id = enqueue(db, "test.fail")
    assert wait_for(lambda: state(db, job_id).state == "failed")
    assert state(db, job_id).error == {"title": title, "detail": detail}


def test_a_failed_jobs_detail_names_no_path_of_the_data_directory(db, pool, kinds):
    def fail(ctx):
        from pathlib import Path

        raise FileNotFoundError(2, "No such file", str(Path(ctx.settings.data_dir).resolve() / "store" / "x"))

    kinds("test.fail.path", fail)
    job_id = enqueue(db, "test.fail.path")
    assert wait_for(lambda: state(db, job_id).state == "failed")
    assert state(db, job_id).error["detail"] == "FileNotFoundError: [Errno 2] No such file: '<data>/store/x'"


def test_unknown_kind_fails_instead_of_staying_queued(db, pool):
    job_id = enqueue(db, "no.such.kind")
    assert wait_for(lambda: state(db, job_id).state == "failed")
    assert state(db, job_id).error["title"] == "Unknown job kind"


def test_stopping_puts_running_jobs_back_in_the_queue(db, kinds):
    started, release = threading.Event(), threading.Event()

    def block(ctx):
        started.set()
        release.wait(10)
        return {}

    kinds("test.block", block)
    settings = ServerSettings(database_url=db.url, job_workers=1, job_poll_seconds=0.05)
    workers = WorkerPool(db.sessions, settings)
    workers.start()
    job_id = enqueue(db, "test.block")
    assert started.wait(10)
    workers.stop(timeout=0.2)
    job = state(db, job_id)
    assert (job.state, job.attempts, job.locked_by) == ("queued", 0, None)
    release.set()


def test_jobs_of_one_key_run_in_order_while_the_older_ones_row_is_held(db):
    """A worker claiming the older job (or the recovery requeuing it) holds its row: another
    worker must not take the younger job of the same key past it (seen as a flaky restart test:
    a second sync completed while the first, requeued, still waited)."""
    if not db.url.startswith("postgresql"):
        pytest.skip("row locks are PostgreSQL's; SQLite has one writer")
    first, second = enqueue(db, key="sync:3"), enqueue(db, key="sync:3")
    other = enqueue(db, key="sync:4")
    with db.sessions() as holder, db.sessions() as session:
        holder.execute(select(Job.id).where(Job.id == first).with_for_update())
        assert queue.claim_next(session, "w2").id == other
        assert queue.claim_next(session, "w3") is None
        holder.rollback()
        assert queue.claim_next(session, "w3").id == first
    assert state(db, second).state == "queued"


def test_the_database_refuses_a_second_running_job_with_one_key(db):
    """The rule holds for any process: a claim that slipped past the check still fails."""
    first, second = enqueue(db, key="sync:7"), enqueue(db, key="sync:7")
    with db.sessions() as session:
        assert queue.claim_next(session, "w1").id == first
        with pytest.raises(IntegrityError):
            session.execute(update(Job).where(Job.id == second).values(state="running", locked_by="w2"))
            session.commit()
        session.rollback()
    assert state(db, second).state == "queued"


def test_a_renewed_lease_is_not_recovered(db):
    job_id = enqueue(db)
    with db.sessions() as session:
        queue.claim_next(session, "w1")
        assert queue.hold(session, job_id, "w1", 1)
        session.commit()
        assert queue.recover_stale(session, lease_seconds=30) == []
    assert state(db, job_id).state == "running"


def _releases(db) -> list[str]:
    with db.sessions() as session:
        return list(session.scalars(select(Release.name).where(Release.org_id == db.org_id)))


def test_effects_and_completion_commit_together(db, pool, kinds):
    def make(ctx):
        with ctx.sessions() as session:
            session.add(Release(org_id=ctx.org_id, name=ctx.params["name"]))
            return ctx.complete(session, {"made": ctx.params["name"]})

    kinds("test.make", make)
    job_id = enqueue(db, "test.make", name="R1")
    pool.notify()
    assert wait_for(lambda: state(db, job_id).state == "completed")
    assert state(db, job_id).result == {"made": "R1"} and _releases(db) == ["R1"]


def test_an_attempt_that_lost_its_lease_commits_nothing(db, pool, kinds):
    """A worker paused past its lease (the job taken over meanwhile) must not add its effects
    beside the new attempt's: its commit is refused and its work dropped."""
    taken_over = threading.Event()

    def slow(ctx):
        if ctx.attempt == 1:
            with db.sessions() as other:  # another process recovers the job and claims it
                other.execute(update(Job).where(Job.id == ctx.job_id)
                              .values(state="running", locked_by="elsewhere", attempts=2))
                other.commit()
            taken_over.set()
        with ctx.sessions() as session:
            session.add(Release(org_id=ctx.org_id, name=f"attempt {ctx.attempt}"))
            return ctx.complete(session, {"attempt": ctx.attempt})

    kinds("test.slow", slow)
    job_id = enqueue(db, "test.slow")
    pool.notify()
    assert taken_over.wait(10)
    time.sleep(0.5)
    job = state(db, job_id)
    assert (job.state, job.locked_by, job.result) == ("running", "elsewhere", None)
    assert _releases(db) == []
    with db.sessions() as session:
        assert session.scalar(select(func.count()).select_from(Job).where(Job.state == "completed")) == 0


def test_a_job_pays_for_an_action_once_whatever_its_attempts(db):
    """A re-run of a job whose first attempt committed its charge before it was cut off."""
    from docsvc.server.services import credits

    with db.sessions() as session:
        start = credits.balance(session, db.org_id)
        for _attempt in range(2):
            credits.charge(session, db.org_id, 1, "check-docs extra reading", item_id=5, job_id="job-1")
            session.commit()
        credits.charge(session, db.org_id, 1, "check-docs extra reading", item_id=6, job_id="job-1")
        credits.charge(session, db.org_id, 1, "check-docs extra reading", item_id=5, job_id="job-2")
        session.commit()
        assert credits.balance(session, db.org_id) == start - 3


def test_the_end_of_a_job_of_this_process_is_told_after_its_commit(db, pool, kinds):
    """How a held long poll learns of it (jobs/watch.py): no reads while the job runs."""
    release, ended, seen = threading.Event(), threading.Event(), []

    def block(ctx):
        release.wait(10)
        return {"released": True}

    def told() -> None:
        seen.append(state(db, job_id).state)
        ended.set()

    kinds("test.block", block)
    job_id = enqueue(db, "test.block")
    pool.on_end(told)
    pool.notify()
    assert wait_for(lambda: state(db, job_id).state == "running")
    assert pool.runs(state(db, job_id))
    assert not ended.wait(0.1)  # still running: nothing told
    threading.Timer(0.2, release.set).start()
    assert ended.wait(10)
    # Told after the job's commit: the row says completed, and the job is no longer this pool's.
    assert seen == ["completed"] and not pool.runs(state(db, job_id))


def test_a_short_job_writes_no_progress_and_a_long_one_shows_its_first_step(db, pool, kinds, monkeypatch):
    writes = []
    set_progress = queue.set_progress
    monkeypatch.setattr(queue, "set_progress", lambda session, job_id, *args: (
        writes.append(job_id), set_progress(session, job_id, *args))[1])
    release = threading.Event()

    def short(ctx):
        ctx.progress("one step", done=1, total=1)
        return {}

    def long(ctx):
        ctx.progress("cloning the repository")  # before the first write may happen: kept, not dropped
        release.wait(10)
        return {}

    kinds("test.short", short)
    kinds("test.long", long)
    quick = enqueue(db, "test.short")
    pool.notify()
    assert wait_for(lambda: state(db, quick).state == "completed")
    assert quick not in writes  # each write is a commit of its own: none for a job this short

    slow = enqueue(db, "test.long")
    pool.notify()
    try:
        assert wait_for(lambda: (state(db, slow).progress or {}).get("message") == "cloning the repository", 5)
        assert state(db, slow).state == "running"
    finally:
        release.set()
    assert wait_for(lambda: state(db, slow).state == "completed")
    assert writes.count(slow) == 1
