"""Job workers in another process (``run``'s child) are woken the moment a job is queued, not at
their next poll; a wake-up nobody hears is dropped without an error."""

import sys
import threading
import time

import pytest

from docsvc.server.jobrunner import serve_jobs
from docsvc.server.jobs import queue, wake
from docsvc.server.jobs.worker import WorkerPool
from docsvc.server.settings import ServerSettings
from tests.unit.dbfixtures import db  # noqa: F401  (fixture)
from tests.unit.test_jobs import enqueue, state, wait_for

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="abstract sockets: Linux only")


def test_a_wake_up_reaches_the_listener_and_one_nobody_hears_is_dropped():
    address = wake.new_address()
    assert address != wake.new_address()  # one per service
    heard = threading.Event()
    stop = wake.listen(address, heard.set)
    try:
        wake.sender(address)()
        assert heard.wait(5)
    finally:
        stop()
    assert wait_for(lambda: "docsvc-jobs-wake" not in {t.name for t in threading.enumerate()}, 5)
    wake.sender(address)()  # no listener any more: no error


def test_an_api_without_job_workers_wakes_those_elsewhere():
    woken = []
    pool = WorkerPool(None, ServerSettings(job_workers=0), wake_elsewhere=lambda: woken.append(1))
    pool.notify()
    assert woken == [1]


def test_served_job_workers_take_a_woken_job_at_once_not_at_their_poll(db):
    # A poll of a minute, and lease maintenance (which also wakes the workers) every 5 s at most:
    # only the wake-up can start the job within two seconds.
    settings = ServerSettings(database_url=db.url, job_workers=1, job_poll_seconds=60, job_lease_seconds=600,
                              keep_in_sync_seconds=0, job_wake=wake.new_address())
    stop = threading.Event()
    started = threading.Event()
    server = threading.Thread(target=serve_jobs, args=(settings,), kwargs={"on_started": started.set, "stop": stop})
    server.start()
    try:
        assert started.wait(30)
        time.sleep(0.3)  # the worker has polled an empty queue and sleeps
        job_id = enqueue(db, kind="no.such.kind")  # ends at once, failed: no handler
        wake.sender(settings.job_wake)()
        assert wait_for(lambda: state(db, job_id).state != "queued", timeout=2.0)
    finally:
        stop.set()
        server.join(30)
    assert queue.job_view(state(db, job_id))["status"] == "failed"
