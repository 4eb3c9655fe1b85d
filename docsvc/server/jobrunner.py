"""Job workers without the API: ``docsvc-server worker``.

A deployment scales these apart from the API (the Helm chart's worker Deployment), and ``run
--job-workers 0`` leaves every job to them, so CPU-heavy jobs (a conversion of a 13 MB spec, a
browser taking screenshots) never share a process, its GIL and its event loop with the API's
requests. The guarantees are the queue's own (jobs/queue.py): claims are conditional updates,
leases are renewed by heartbeats and taken over when they run out, so any number of these
processes and of ``run`` processes share one database without running a job twice.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
from typing import Callable

from . import tasks as _tasks  # noqa: F401  (importing registers every job handler)
from .db.session import make_engine, make_sessionmaker
from .jobs.worker import WorkerPool
from .settings import ServerSettings
from .tasks.keep_in_sync import KeepInSync

log = logging.getLogger("docsvc.server.jobs")


def serve_jobs(settings: ServerSettings, on_started: Callable[[], None] | None = None,
               stop: threading.Event | None = None, parent_pid: int | None = None) -> None:
    """Run ``settings.job_workers`` workers, the lease maintenance and the Keep in sync schedule
    until SIGTERM or SIGINT (or ``stop``, or, with ``parent_pid``, until that process is gone: the
    child of ``run --jobs-apart`` never outlives it, however it ended); jobs still running then go
    back to the queue."""
    stop = stop or threading.Event()
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, lambda *_: stop.set())
    if parent_pid is not None:
        def orphaned() -> None:
            while not stop.wait(0.5):
                if os.getppid() != parent_pid:
                    log.warning("the service process %d is gone: its job workers stop", parent_pid)
                    stop.set()

        threading.Thread(target=orphaned, name="docsvc-parent-watch", daemon=True).start()
    engine = make_engine(settings.database_url)
    sessions = make_sessionmaker(engine)
    pool = WorkerPool(sessions, settings)
    keep_in_sync = KeepInSync(sessions, settings, pool.notify)
    try:
        pool.start()
        keep_in_sync.start()
        if on_started is not None:
            on_started()
        stop.wait()
    finally:
        keep_in_sync.stop()
        pool.stop()
        engine.dispose()
