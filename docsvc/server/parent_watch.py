"""A child process that ends with its parent, however the parent ends.

``run``'s job workers' child (``jobrunner.JobsChild``) and the spec checker (``spec_check``) are
the service's own: neither may outlive it, or it would go on holding jobs' leases or memory with
no one to stop it.
"""

from __future__ import annotations

import logging
import os
import signal
import sys
import threading
import time

log = logging.getLogger("docsvc.server.jobs")


def die_with(parent_pid: int, *, kernel_signal: bool = True) -> None:
    """End this process as soon as ``parent_pid`` (its parent, ``run``) is gone, however that
    ended: run's child never outlives it. It dies at once, as job workers in run's own process
    would (SIGKILL on the parent's death on Linux, asked for before anything slow; elsewhere a
    check twice a second), and the leases hand its jobs to whichever process claims them next.
    Without ``kernel_signal``, only the check: for a child started from a thread that may end
    before its process does (the kernel's signal comes when the starting thread ends)."""
    if kernel_signal and sys.platform.startswith("linux"):
        try:
            import ctypes

            PR_SET_PDEATHSIG = 1
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):
            log.warning("could not ask to stop with the service process: checking on it instead")

    def orphaned() -> None:  # also covers a parent gone before prctl above
        while True:
            if os.getppid() != parent_pid:
                log.warning("the service process %d is gone: this process stops with it", parent_pid)
                os._exit(1)
            time.sleep(0.5)

    threading.Thread(target=orphaned, name="docsvc-parent-watch", daemon=True).start()
