"""Jobs through the running service: GET /jobs/<id>, and recovery of jobs cut off by a crash."""

import datetime as dt
import time
import uuid

import httpx
import pytest

from docsvc.client import Client, NotFoundError
from docsvc.server.db.session import make_engine, make_sessionmaker
from docsvc.server.db.tables import Job, utcnow
from docsvc.server.jobs.watch import MAX_HELD_PER_KEY


@pytest.fixture(scope="module")
def setup(service):
    key = service.admin("init", "--org", "Jobs Inc", "--admin-email", "ops@jobs.test")
    other = service.admin("init", "--org", "Other Co", "--admin-email", "ops@other.test")
    engine = make_engine(service.db_url)
    yield service, key, other, make_sessionmaker(engine)
    engine.dispose()


def crashed_job(sessions, org_id: int, attempts: int) -> str:
    """A job as a killed worker leaves it: running, with a heartbeat long gone."""
    job_id = str(uuid.uuid4())
    with sessions() as session:
        session.add(Job(id=job_id, org_id=org_id, kind="no.such.kind", state="running", params={},
                        attempts=attempts, max_attempts=2, locked_by="killed-host:1:dead",
                        heartbeat_at=utcnow() - dt.timedelta(hours=1), started_at=utcnow()))
        session.commit()
    return job_id


def wait_finished(client: Client, job_id: str):
    return client.jobs.wait(job_id, timeout=30)


def org_id_of(sessions, name: str) -> int:
    from sqlalchemy import select

    from docsvc.server.db.tables import Organization

    with sessions() as session:
        return session.scalar(select(Organization.id).where(Organization.name == name))


def test_cut_off_jobs_are_run_again_or_failed_never_left_queued(setup):
    service, key, _other, sessions = setup
    org = org_id_of(sessions, "Jobs Inc")
    last_attempt = crashed_job(sessions, org, attempts=2)
    retried = crashed_job(sessions, org, attempts=1)
    with Client(key, service.base_url) as client:
        failed = wait_finished(client, last_attempt)
        assert failed.status == "failed"
        assert failed.error.title == "Job interrupted"
        assert "2 of 2 attempts used" in failed.error.detail
        # Run again: this service has no handler for the kind, so the second run fails, saying so.
        again = wait_finished(client, retried)
        assert again.status == "failed" and again.error.title == "Unknown job kind"
        assert again.model_extra["attempts"] == 2


def test_a_job_of_another_organisation_is_not_found(setup):
    service, key, other, sessions = setup
    job_id = crashed_job(sessions, org_id_of(sessions, "Jobs Inc"), attempts=2)
    with Client(other, service.base_url) as client:
        with pytest.raises(NotFoundError):
            client.jobs.get(job_id)


def held_job(sessions, worker: str) -> str:
    """A running job held by a live-looking ``worker`` of another process (its heartbeat an hour
    ahead): the service must leave it alone."""
    job_id = str(uuid.uuid4())
    with sessions() as session:
        session.add(Job(id=job_id, org_id=org_id_of(sessions, "Jobs Inc"), kind="no.such.kind",
                        state="running", params={}, attempts=1, max_attempts=2, locked_by=worker,
                        heartbeat_at=utcnow() + dt.timedelta(hours=1)))
        session.commit()
    return job_id


def test_an_unfinished_job_carries_a_poll_hint(setup):
    service, key, _other, sessions = setup
    job_id = held_job(sessions, "elsewhere")
    answer = httpx.get(f"{service.base_url}/api/v1/jobs/{job_id}", headers={"Authorization": f"Bearer {key}"})
    assert answer.status_code == 200 and answer.headers["retry-after"] == "0"  # young: poll freely
    assert answer.json()["status"] == "queued"
    time.sleep(0.5)
    assert httpx.get(f"{service.base_url}/api/v1/jobs/{job_id}",
                     headers={"Authorization": f"Bearer {key}"}).json()["status"] == "queued"


def test_a_long_poll_notices_the_end_of_a_job_run_by_another_process(setup):
    import threading

    from sqlalchemy import update

    service, key, _other, sessions = setup
    job_id = held_job(sessions, "another-process")

    def finish() -> None:  # as the other process's worker would
        with sessions() as session:
            session.execute(update(Job).where(Job.id == job_id).values(state="completed", result={"ok": True},
                                                                       locked_by=None, finished_at=utcnow()))
            session.commit()

    # The finish comes 0.6 s after the timer starts: on a loaded machine the request itself may take
    # a few tenths of a second to reach the service, which then waits the rest (0.25 s at least).
    threading.Timer(0.6, finish).start()
    answer = httpx.get(f"{service.base_url}/api/v1/jobs/{job_id}", params={"wait": "8"},
                       headers={"Authorization": f"Bearer {key}"}, timeout=30)
    assert answer.json()["status"] == "completed" and answer.json()["result"] == {"ok": True}
    assert 0.25 < float(answer.headers["x-docsvc-waited"]) < 5  # its row is read again meanwhile


def test_held_polls_of_one_key_leave_the_api_to_everyone_else(setup):
    """Many long polls held with one key must not stall another organisation's requests: a held
    poll takes no thread of the pool that answers the sync routes (AnyIO's 40), and one key holds
    only a few at once (the rest are answered at once, to be polled again after the hint)."""
    import threading

    from sqlalchemy import update

    service, key, other, sessions = setup
    job_id = held_job(sessions, "another-process")  # unfinished for as long as the test wants
    polls: list[httpx.Response] = []

    def poll() -> None:
        polls.append(httpx.get(f"{service.base_url}/api/v1/jobs/{job_id}", params={"wait": "10"},
                               headers={"Authorization": f"Bearer {key}"}, timeout=60))

    threads = [threading.Thread(target=poll) for _ in range(60)]
    try:
        for thread in threads:
            thread.start()
        time.sleep(1.0)  # the polls reach the service and are held
        started = time.monotonic()
        me = httpx.get(f"{service.base_url}/api/v1/me", headers={"Authorization": f"Bearer {other}"}, timeout=60)
        took = time.monotonic() - started
        assert me.status_code == 200
        assert took < 3, f"GET /me of another organisation took {took:.1f} s while polls were held"
    finally:
        with sessions() as session:  # the job ends: the polls still held answer now
            session.execute(update(Job).where(Job.id == job_id).values(state="completed", result={"ok": True},
                                                                       locked_by=None, finished_at=utcnow()))
            session.commit()
        for thread in threads:
            thread.join(60)
    assert len(polls) == 60 and all(answer.status_code == 200 for answer in polls)
    held = [answer for answer in polls if float(answer.headers["x-docsvc-waited"]) > 0.5]
    assert held, "no poll was held at all"
    assert len(held) <= MAX_HELD_PER_KEY  # the others were answered at once, to be polled again
    assert all(answer.json()["status"] == "completed" for answer in held)  # woken by the end, not the 10 s
    assert max(float(answer.headers["x-docsvc-waited"]) for answer in held) < 8
