"""The link between ``run``'s API processes and its job workers' child (jobs/wake.py): a queued
job wakes the workers at once, not at their next poll; the API learns which running jobs are the
child's and hears of their ends; a datagram nobody hears is dropped without an error."""

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


class _Row:
    def __init__(self, locked_by):
        self.state, self.locked_by = "running", locked_by


def test_the_two_ends_wake_identify_and_tell_ends():
    address = wake.new_address()
    assert address != wake.new_address()  # one per service
    woken = threading.Event()
    workers = wake.WorkersLink(address, "host:42:abc", woken.set)
    api = wake.ApiLink(address)
    ended = threading.Event()
    pool = WorkerPool(None, ServerSettings(job_workers=0), link=api)
    pool.on_end(ended.set)
    try:
        assert wait_for(lambda: api.worker_id == "host:42:abc", 5)  # from its hello
        assert pool.runs(_Row("host:42:abc")) and not pool.runs(_Row("elsewhere:7:def"))
        pool.notify()
        assert woken.wait(5)
        workers.ended()
        assert ended.wait(5)  # the pool's end listeners (the long polls' watcher) hear of it
    finally:
        api.close()
    workers.ended()  # that API process is gone: dropped, no error
    assert workers._peers == set()
    workers.close()
    api.wake()  # nobody listens any more: no error
    assert wait_for(lambda: not {"docsvc-jobs-link", "docsvc-api-link"} & {t.name for t in threading.enumerate()}, 5)


def test_a_child_started_again_learns_of_the_api_from_its_hello(monkeypatch):
    monkeypatch.setattr(wake, "HELLO_SECONDS", 0.1)
    address = wake.new_address()
    api = wake.ApiLink(address)  # its first hello finds nobody
    ended = threading.Event()
    api.on_end = ended.set
    workers = wake.WorkersLink(address, "host:43:new", lambda: None)
    try:
        assert wait_for(lambda: api.worker_id == "host:43:new", 5)
        workers.ended()
        assert ended.wait(5)
    finally:
        api.close()
        workers.close()


def test_served_job_workers_take_a_woken_job_at_once_not_at_their_poll(db):
    # A poll of a minute, and lease maintenance (which also wakes the workers) every 5 s at most:
    # only the wake-up can start the job within two seconds.
    settings = ServerSettings(database_url=db.url, job_workers=1, job_poll_seconds=60, job_lease_seconds=600,
                              keep_in_sync_seconds=0, job_wake=wake.new_address())
    stop = threading.Event()
    started = threading.Event()
    server = threading.Thread(target=serve_jobs, args=(settings,), kwargs={"on_started": started.set, "stop": stop})
    server.start()
    api = wake.ApiLink(settings.job_wake)
    ended = threading.Event()
    api.on_end = ended.set
    try:
        assert started.wait(30)
        time.sleep(0.3)  # the worker has polled an empty queue and sleeps
        job_id = enqueue(db, kind="no.such.kind")  # ends at once, failed: no handler
        api.wake()
        assert wait_for(lambda: state(db, job_id).state != "queued", timeout=2.0)
        assert ended.wait(5)  # the end is told to the API process
    finally:
        api.close()
        stop.set()
        server.join(30)
    assert queue.job_view(state(db, job_id))["status"] == "failed"
