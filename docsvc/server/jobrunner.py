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
               stop: threading.Event | None = None) -> None:
    """Run ``settings.job_workers`` workers, the lease maintenance and the Keep in sync schedule
    until SIGTERM or SIGINT (or ``stop``); jobs still running then go back to the queue."""
    stop = stop or threading.Event()
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, lambda *_: stop.set())
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
