"""Worker threads inside the service process, plus one maintenance thread that sends heartbeats
and recovers jobs cut off by a crash of any process sharing the database."""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
import uuid
from pathlib import Path
from typing import Callable

from sqlalchemy import event
from sqlalchemy.orm import Session, sessionmaker

from ...credentials import hidden
from . import queue
from .registry import RESULT_KEY, JobContext, JobFailure, LeaseLost, get_handler

log = logging.getLogger("docsvc.server.jobs")

_PROGRESS_INTERVAL = 0.5  # seconds between progress writes of one job
_FIRST_PROGRESS = 0.1  # a job shorter than this writes no progress (each write is a commit)


class _Progress:
    """One job's progress reports, written to its row from _FIRST_PROGRESS into the job, then at
    most once an interval (and at the end of a counted stage once anything was written). A report
    made sooner is kept and written at _FIRST_PROGRESS by a timer if the job still runs: a job
    done sooner writes only its result, a long one shows its first step (a long clone) from then
    on instead of "queued"."""

    def __init__(self, write: Callable[[dict], None]) -> None:
        self._write = write
        self._lock = threading.Lock()
        self._last = time.monotonic() + _FIRST_PROGRESS - _PROGRESS_INTERVAL  # as if written just then
        self._written = False
        self._pending: dict | None = None
        self._timer: threading.Timer | None = None
        self._closed = False

    def report(self, message: str, done: int | None = None, total: int | None = None) -> None:
        progress = {"message": message, "done": done, "total": total,
                    "percent": round(100.0 * done / total, 1) if done is not None and total else None}
        now = time.monotonic()
        with self._lock:
            if self._closed:
                return
            stage_done = done is not None and done == total and self._written
            if now - self._last < _PROGRESS_INTERVAL and not stage_done:
                if not self._written:  # too early to write: the timer writes the latest one
                    self._pending = progress
                    if self._timer is None:
                        self._timer = threading.Timer(self._last + _PROGRESS_INTERVAL - now, self._flush)
                        self._timer.daemon = True
                        self._timer.start()
                return
            self._pending, self._written, self._last = None, True, now
        self._write(progress)

    def _flush(self) -> None:
        with self._lock:
            progress, self._pending = self._pending, None
            if progress is None or self._closed:
                return
            self._written, self._last = True, time.monotonic()
        try:
            self._write(progress)  # a job that ended meanwhile is left alone (set_progress: running only)
        except Exception:
            log.exception("progress write failed")

    def close(self) -> None:
        """The handler returned: nothing more is written."""
        with self._lock:
            self._closed = True
            if self._timer is not None:
                self._timer.cancel()


class WorkerPool:
    def __init__(self, sessions: sessionmaker[Session], settings, link=None) -> None:
        self.sessions = sessions
        self.settings = settings
        # ``run``'s job workers' child (jobs/wake.py ApiLink), when the jobs run there: woken by
        # ``notify``, its jobs counted as this pool's, its ends told as this pool's.
        self._link = link
        self.worker_id = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._threads: list[threading.Thread] = []
        self._end_listeners: list[Callable[[], None]] = []
        if link is not None:
            link.on_end = self._ended

    def start(self) -> None:
        with self.sessions() as session:
            recovered = queue.recover_stale(session, self.settings.job_lease_seconds)
        if recovered:
            log.warning("recovered %d job(s) cut off by an earlier stop", len(recovered))
        for n in range(max(1, self.settings.job_workers)):
            self._spawn(self._work_loop, f"docsvc-worker-{n}")
        self._spawn(self._maintenance_loop, "docsvc-jobs-maintenance")

    def _spawn(self, target, name: str) -> None:
        thread = threading.Thread(target=target, name=name, daemon=True)
        thread.start()
        self._threads.append(thread)

    def notify(self) -> None:
        """A job was enqueued: wake a worker now instead of at the next poll."""
        self._wake.set()
        if self._link is not None:
            self._link.wake()

    def runs(self, job) -> bool:
        """Whether one of this pool's workers (or its child's) is running ``job`` (as its row says)."""
        return job.state == "running" and (job.locked_by == self.worker_id
                                           or (self._link is not None and self._link.runs(job.locked_by)))

    def on_end(self, listener: Callable[[], None]) -> None:
        """Call ``listener()`` (from the worker's thread) each time a job of this pool ended, after
        its commit: how held long polls on the event loop learn of it (``jobs/watch.py``)."""
        self._end_listeners.append(listener)

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        self._wake.set()
        deadline = time.monotonic() + timeout
        for thread in self._threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        # Jobs still running here go back to the queue now rather than after the lease runs out.
        with self.sessions() as session:
            from sqlalchemy import select

            from ..db.tables import Job

            for job_id in session.scalars(select(Job.id).where(Job.locked_by == self.worker_id,
                                                               Job.state == "running")).all():
                queue.release(session, job_id, self.worker_id)

    def _work_loop(self) -> None:
        while not self._stop.is_set():
            try:
                with self.sessions() as session:
                    job = queue.claim_next(session, self.worker_id)
                if job is None:
                    self._wake.wait(self.settings.job_poll_seconds)
                    self._wake.clear()
                    continue
                self._run(job)
            except Exception:  # keep the worker alive whatever one job or the database did
                log.exception("job worker error")
                self._stop.wait(1.0)

    def _run(self, job) -> None:
        try:
            self._run_handler(job)
        finally:  # committed (or given up): whoever waits for the job reads it now
            self._ended()

    def _ended(self) -> None:
        for listener in self._end_listeners:
            try:
                listener()
            except Exception:
                log.exception("job end listener failed")

    def _run_handler(self, job) -> None:
        def write(progress: dict) -> None:
            with self.sessions() as session:
                queue.set_progress(session, job.id, self.worker_id, progress)

        progress = _Progress(write)
        ctx = JobContext(job_id=job.id, kind=job.kind, org_id=job.org_id, user_id=job.user_id,
                         params=job.params or {}, attempt=job.attempts, sessions=self._fenced(job),
                         settings=self.settings, report=progress.report)
        handler = get_handler(job.kind)
        result = error = None
        if handler is None:
            error = {"title": "Unknown job kind", "detail": f"this service has no handler for {job.kind!r}"}
        else:
            try:
                try:
                    result = handler(ctx) or {}
                finally:
                    progress.close()
            except JobFailure as exc:
                error = {"title": exc.title, "detail": self._public(exc.detail)}  # it may quote a repository's URL
            except LeaseLost:
                log.warning("job %s (%s) attempt %d was taken over after its lease ran out; its work is dropped",
                            job.id, job.kind, job.attempts)
                return
            except Exception as exc:
                log.exception("job %s (%s) crashed", job.id, job.kind)
                error = {"title": "Internal error", "detail": self._public(f"{type(exc).__name__}: {exc}")}
        if ctx.completed and error is None:
            return  # the handler's last commit completed the job with its effects
        with self.sessions() as session:
            queue.finish(session, job.id, self.worker_id, job.attempts, result=result, error=error)

    def _public(self, detail: str) -> str:
        """A job's error as API users read it: no URL's credentials, and no path into the service's
        data directory (where the server keeps its files is none of their business)."""
        data = Path(self.settings.data_dir)
        for spelling in dict.fromkeys((str(data.resolve()), str(data.absolute()))):
            detail = detail.replace(spelling, "<data>")
        return hidden(detail)

    def _fenced(self, job) -> sessionmaker[Session]:
        """The handler's sessions: each commit first confirms that this attempt still holds the
        job, and locks its row until the commit ends, so a worker whose lease ran out (a long
        pause, a lost connection) never commits effects beside the attempt that took over. A
        commit through ``JobContext.complete`` also completes the job in the same transaction."""
        sessions = sessionmaker(**self.sessions.kw)

        @event.listens_for(sessions, "before_commit")
        def fence(session: Session) -> None:
            result = session.info.pop(RESULT_KEY, None)
            held = (queue.hold(session, job.id, self.worker_id, job.attempts) if result is None
                    else queue.settle(session, job.id, self.worker_id, job.attempts, result=result))
            if not held:
                raise LeaseLost(f"job {job.id} attempt {job.attempts} is no longer held by {self.worker_id}")

        return sessions

    def _maintenance_loop(self) -> None:
        interval = max(0.2, min(5.0, self.settings.job_lease_seconds / 3))
        while not self._stop.wait(interval):
            try:
                with self.sessions() as session:
                    queue.heartbeat(session, self.worker_id)
                    queue.recover_stale(session, self.settings.job_lease_seconds)
                self._wake.set()
            except Exception:
                log.exception("job maintenance error")
