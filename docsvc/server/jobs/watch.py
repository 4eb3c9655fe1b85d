"""Wake-ups of held long polls (``GET /jobs/<id>?wait=``), on the event loop.

A held poll is a coroutine waiting here, never a thread: the threads of AnyIO's pool answer every
sync route of the service (40 of them), and polls that slept in them stalled the whole API for
every organisation. One watcher task per process looks after every held poll at once:

- a job run by this process's workers ends with a wake-up from the pool (``WorkerPool.on_end``),
  after its commit: no reads meanwhile, which would take a core and the GIL from the very job;
- a queued job, or one run by another process sharing the database, is read again every
  ``recheck`` seconds: one query for all the jobs waited for, whatever the number of polls, in a
  thread of its own limiter (never one of the routes' threads). This is how an end crosses
  processes, as it did before: through the shared database.

``held(key)`` bounds how many polls one API key holds at once in this process; the route answers
the others at once (a client then polls again after its pause, as without long polling).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from contextlib import contextmanager
from typing import Any, Iterator

import anyio
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from ..db.tables import Job

log = logging.getLogger("docsvc.server.jobs")

UNFINISHED = ("queued", "running")
# Polls one API key may hold at once in one process: the CLI waits for one job at a time; ten leave
# room for a CI matrix sharing a key. The others are answered at once and polled again after a pause.
MAX_HELD_PER_KEY = 10


class JobWatch:
    def __init__(self, sessions: sessionmaker[Session], pool, *, recheck: float = 0.02,
                 max_held_per_key: int = MAX_HELD_PER_KEY, local_recheck: float = 1.0) -> None:
        self._sessions = sessions
        self._pool = pool
        self.recheck = recheck  # seconds between reads while a watched job is not run here
        self.local_recheck = local_recheck  # while every watched job runs here: a safety read only
        self.max_held_per_key = max_held_per_key
        self._held: dict[str, int] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._waiting: dict[str, set[asyncio.Future]] = {}
        self._kick: asyncio.Event | None = None
        self._task: asyncio.Task | None = None
        self._limiter = anyio.CapacityLimiter(1)
        pool.on_end(self._job_ended)

    # -- the bound per key ------------------------------------------------------------------

    @contextmanager
    def held(self, authorization: str | None) -> Iterator[bool]:
        """Count one held poll of the key in ``authorization``; yields False (counting nothing)
        when the key already holds ``max_held_per_key``. Runs on the event loop only."""
        key = hashlib.sha256((authorization or "").encode("utf-8", "replace")).hexdigest()
        if self._held.get(key, 0) >= self.max_held_per_key:
            yield False
            return
        self._held[key] = self._held.get(key, 0) + 1
        try:
            yield True
        finally:
            left = self._held[key] - 1
            if left:
                self._held[key] = left
            else:
                del self._held[key]

    # -- waiting ------------------------------------------------------------------------------

    async def until_ended(self, job_id: str, timeout: float) -> bool:
        """Return when the job's row says it ended (or is gone), or when ``timeout`` runs out
        (False). An end committed before the call is seen too: the watcher reads every newly
        watched job before it sleeps."""
        loop = asyncio.get_running_loop()
        if self._loop is not loop:  # a new event loop (a test client's): start afresh on it
            self._loop, self._waiting, self._task = loop, {}, None
            self._kick = asyncio.Event()
        future = loop.create_future()
        self._waiting.setdefault(job_id, set()).add(future)
        self._kick.set()  # read the new job at once
        if self._task is None or self._task.done():
            self._task = loop.create_task(self._watch(), name="docsvc-job-watch")
        try:
            await asyncio.wait_for(asyncio.shield(future), timeout)
            return True
        except asyncio.TimeoutError:
            return False
        finally:
            waiters = self._waiting.get(job_id)
            if waiters is not None:
                waiters.discard(future)
                if not waiters:
                    del self._waiting[job_id]

    def _job_ended(self) -> None:
        """From a worker thread, after a job's end was committed."""
        loop, kick = self._loop, self._kick
        if loop is None or kick is None:
            return
        try:
            loop.call_soon_threadsafe(kick.set)
        except RuntimeError:  # the loop is closed: nobody waits
            pass

    def _read(self, job_ids: list[str]) -> dict[str, Any]:
        with self._sessions() as session:
            rows = session.execute(select(Job.id, Job.state, Job.locked_by).where(Job.id.in_(job_ids))).all()
        return {row.id: row for row in rows}

    async def _watch(self) -> None:
        kick = self._kick
        while self._waiting:
            kick.clear()  # before the read: an end committed after it sets it again
            job_ids = list(self._waiting)
            try:
                rows = await anyio.to_thread.run_sync(self._read, job_ids, limiter=self._limiter)
            except Exception:  # the database is away for a moment: the polls wait on, up to their end
                log.exception("long poll: reading the jobs waited for failed")
                rows = None
            local = rows is not None
            for job_id in job_ids:
                if rows is None:
                    break
                row = rows.get(job_id)
                if row is None or row.state not in UNFINISHED:  # ended, or gone
                    for future in self._waiting.pop(job_id, ()):
                        if not future.done():
                            future.set_result(None)
                elif not self._pool.runs(row):
                    local = False
            if not self._waiting:
                break
            pause = self.local_recheck if local else self.recheck
            try:
                await asyncio.wait_for(kick.wait(), pause)
            except asyncio.TimeoutError:
                pass

    async def close(self) -> None:
        """The service stops: the watcher task ends (polls still held answer at their time-out)."""
        task, self._task = self._task, None
        if task is not None and not task.done() and task.get_loop() is asyncio.get_running_loop():
            task.cancel()
            try:
                await task
            except BaseException:  # noqa: BLE001  (cancelled, or whatever ended it)
                pass
