"""jobs/watch.py: the bound on polls held per key, and a wake-up from this process's worker."""

from __future__ import annotations

import asyncio
import threading
from types import SimpleNamespace

from docsvc.server.jobs.watch import JobWatch


class _Pool:
    worker_id = "here"

    def __init__(self) -> None:
        self.listeners = []

    def on_end(self, listener) -> None:
        self.listeners.append(listener)

    def runs(self, job) -> bool:  # as WorkerPool.runs
        return job.state == "running" and job.locked_by == self.worker_id


def test_one_key_holds_at_most_the_bound_and_frees_its_places():
    watch = JobWatch(sessions=None, pool=_Pool(), max_held_per_key=2)
    with watch.held("Bearer a") as first, watch.held("Bearer a") as second, watch.held("Bearer a") as third:
        assert (first, second, third) == (True, True, False)
        with watch.held("Bearer b") as other:
            assert other  # another key has its own places
    with watch.held("Bearer a") as again:
        assert again
    assert watch._held == {}


def test_a_poll_wakes_when_a_job_of_this_process_ends(monkeypatch):
    pool = _Pool()
    watch = JobWatch(sessions=None, pool=pool, local_recheck=30)  # no safety read within the test
    rows = {"job-1": SimpleNamespace(state="running", locked_by="here")}
    reads = []
    monkeypatch.setattr(watch, "_read", lambda ids: reads.append(ids) or {i: rows[i] for i in ids})

    async def scenario() -> bool:
        def end() -> None:  # the worker commits the end, then tells the pool's listeners
            rows["job-1"] = SimpleNamespace(state="completed", locked_by=None)
            for listener in pool.listeners:
                listener()

        threading.Timer(0.2, end).start()
        woke = await watch.until_ended("job-1", 10)
        await watch.close()
        return woke

    loop = asyncio.new_event_loop()
    try:
        started = loop.time()
        assert loop.run_until_complete(scenario())
        assert loop.time() - started < 5
    finally:
        loop.close()
    assert len(reads) == 2  # once when the poll came, once at the end: none in between
