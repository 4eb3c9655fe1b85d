"""Job workers without the API: ``docsvc-server worker``, and ``run``'s own (``JobsChild``).

``docsvc-server run`` runs its job workers in such a process, a child of its own (``JobsChild``);
a deployment may also scale them apart from the API (the Helm chart's worker Deployment), and
``run --job-workers 0`` leaves every job to them. Either way CPU-heavy jobs (a conversion of a 13 MB spec, a
browser taking screenshots) never share a process, its GIL and its event loop with the API's
requests. The guarantees are the queue's own (jobs/queue.py): claims are conditional updates,
leases are renewed by heartbeats and taken over when they run out, so any number of these
processes and of ``run`` processes share one database without running a job twice.
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import threading
import time
from typing import Callable

from .jobs import wake
from .settings import ServerSettings

log = logging.getLogger("docsvc.server.jobs")


def serve_jobs(settings: ServerSettings, on_started: Callable[[], None] | None = None,
               stop: threading.Event | None = None) -> None:
    """Run ``settings.job_workers`` workers, the lease maintenance and the Keep in sync schedule
    until SIGTERM or SIGINT (or ``stop``); jobs still running then go back to the queue. With
    ``settings.job_wake`` (``run``'s child) a queued job wakes the workers at once, and the API's
    processes hear of each end (``jobs/wake.py``)."""
    from . import tasks as _tasks  # noqa: F401  (importing registers every job handler)
    from .db.session import make_engine, make_sessionmaker
    from .jobs.worker import WorkerPool
    from .tasks.keep_in_sync import KeepInSync

    stop = stop or threading.Event()
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, lambda *_: stop.set())
    engine = make_engine(settings.database_url)
    sessions = make_sessionmaker(engine)
    pool = WorkerPool(sessions, settings)
    keep_in_sync = KeepInSync(sessions, settings, pool.notify)
    link = wake.WorkersLink(settings.job_wake, pool.worker_id, pool.notify) if settings.job_wake else None
    if link is not None:
        pool.on_end(link.ended)
    try:
        pool.start()
        keep_in_sync.start()
        if on_started is not None:
            on_started()
        stop.wait()
    finally:
        if link is not None:
            link.close()
        keep_in_sync.stop()
        pool.stop()
        engine.dispose()


class JobsChild:
    """``docsvc-server run``'s job workers in a process of their own: a ``docsvc-server worker``
    child at a lower CPU priority, so that when both want the CPU the API's answers come first and
    a job's Python never holds the API's GIL. The same queue, leases and fencing as any other
    worker process (jobs/queue.py), so nothing runs twice.

    The child is the service's: it is started again if it ends on its own (a crash, the kernel's
    OOM killer), after a pause that doubles up to a minute while it keeps failing at once;
    ``stop()`` ends it (SIGTERM: its running jobs go back to the queue); and it dies with the
    service if that is killed (``die_with``). It runs in a session of its own,
    so a Ctrl-C at the terminal reaches the service only, which then stops the child in order
    instead of racing it. Its output goes where the service's does."""

    def __init__(self, settings: ServerSettings, log_level: str, *, pause: float = 1.0) -> None:
        self.settings = settings
        self.log_level = log_level
        self.pause = pause
        self.process: subprocess.Popen | None = None
        self._lock = threading.Lock()
        self._stopping = threading.Event()

    def start(self) -> "JobsChild":
        self._spawn()
        threading.Thread(target=self._supervise, name="docsvc-jobs-child", daemon=True).start()
        return self

    def _spawn(self) -> None:
        env = {**os.environ, "DOCSVC_SERVER_DATABASE_URL": self.settings.database_url}  # not on a command line
        if self.settings.job_wake:
            env["DOCSVC_SERVER_JOB_WAKE"] = self.settings.job_wake
        with self._lock:
            if self._stopping.is_set():
                return
            self.process = subprocess.Popen(
                [sys.executable, "-m", "docsvc.server.admin", "worker", "--job-workers", str(self.settings.job_workers),
                 "--log-level", self.log_level, "--parent-pid", str(os.getpid())],
                env=env, stdin=subprocess.DEVNULL, start_new_session=True)
            try:
                os.setpriority(os.PRIO_PROCESS, self.process.pid, min(19, os.getpriority(os.PRIO_PROCESS, 0) + 10))
            except OSError:  # it already ended: the supervisor sees to it
                pass

    def _supervise(self) -> None:
        pause = self.pause
        while True:
            process = self.process
            started = time.monotonic()
            code = process.wait()
            if self._stopping.is_set():
                return
            pause = self.pause if time.monotonic() - started > 60 else min(60.0, pause * 2)
            log.error("the job workers' process %d ended (exit %s): starting it again in %g s",
                      process.pid, code, pause)
            if self._stopping.wait(pause):
                return
            self._spawn()

    def stop(self, timeout: float = 30.0) -> None:
        """SIGTERM, then SIGKILL after ``timeout`` s; returns once it has ended."""
        with self._lock:
            self._stopping.set()
            process = self.process
        if process is None or process.poll() is not None:
            return
        process.terminate()
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
