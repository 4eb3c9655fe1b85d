"""Waking job workers in another process the moment a job is queued.

``docsvc-server run`` runs its job workers in a child process (``jobrunner.JobsChild``): the API
that queues a job cannot set the workers' wake-up event directly, and without a word from it they
would take the job at their next poll only (``job_poll_seconds``), adding up to half a second to
every job. So the child listens on a Unix datagram socket named by ``DOCSVC_SERVER_JOB_WAKE`` (in
Linux's abstract namespace: no file to clean up after a kill) and each API process sends it one
empty datagram per queued job. A datagram that finds no listener is dropped: the workers' poll
stays the fallback, the wake-up only makes it sooner. Elsewhere than Linux there is no address and
the poll alone remains.
"""

from __future__ import annotations

import logging
import os
import socket
import sys
import threading
import uuid
from typing import Callable

log = logging.getLogger("docsvc.server.jobs")


def new_address() -> str | None:
    """A fresh address for one service's wake-ups, or None where abstract sockets do not exist."""
    if not sys.platform.startswith("linux"):
        return None
    return f"@docsvc-jobs-{os.getpid()}-{uuid.uuid4().hex[:12]}"


def _raw(address: str) -> str:
    return "\0" + address[1:] if address.startswith("@") else address


def sender(address: str) -> Callable[[], None]:
    """A function that wakes the listener at ``address``; it never blocks and never raises."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.setblocking(False)
    target = _raw(address)

    def wake() -> None:
        try:
            sock.sendto(b"", target)
        except OSError:  # no listener (yet, or any more), or its buffer is full: the poll remains
            pass

    return wake


def listen(address: str, on_wake: Callable[[], None]) -> Callable[[], None]:
    """Call ``on_wake()`` for every datagram sent to ``address`` (from a daemon thread); returns
    the function that stops listening."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(_raw(address))
    stopped = threading.Event()

    def loop() -> None:
        while not stopped.is_set():
            try:
                sock.recv(16)
            except OSError:  # closed by stop()
                return
            if not stopped.is_set():
                on_wake()

    threading.Thread(target=loop, name="docsvc-jobs-wake", daemon=True).start()

    def stop() -> None:
        stopped.set()
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        sock.close()

    return stop
