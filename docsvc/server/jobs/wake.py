"""The link between ``run``'s API processes and its job workers' child: wake-ups both ways.

``docsvc-server run`` runs its job workers in a child process (``jobrunner.JobsChild``), so the
two can no longer set each other's events directly. Without a word, the workers would take a
queued job at their next poll only (``job_poll_seconds``), and a held long poll
(``GET /jobs/{id}?wait=``) would learn of the job's end by reading the job again and again
(``JobWatch.recheck``). So they talk over Unix datagram sockets in Linux's abstract namespace (no
file to clean up after a kill):

- the child listens at ``DOCSVC_SERVER_JOB_WAKE`` (``WorkersLink``); each API process has a socket
  of its own (``ApiLink``) from which it sends ``w`` when it queues a job, and ``h`` every
  ``HELLO_SECONDS`` so that a child started again learns of it;
- the child answers every datagram from a process it did not know, and every ``h``, with its
  worker id (``i<id>``): the API then knows which running jobs are its child's;
- when a job ends, the child sends ``e`` to every API process it knows, after the commit.

A datagram that finds no listener is dropped: the polls and the reads stay the fallback, the
link only makes them sooner and rarer. Elsewhere than Linux there is no address and no link.
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

HELLO_SECONDS = 2.0
WAKE, HELLO, ENDED, IDENTITY = b"w", b"h", b"e", b"i"


def new_address() -> str | None:
    """A fresh address for one service's child, or None where abstract sockets do not exist."""
    if not sys.platform.startswith("linux"):
        return None
    return f"@docsvc-jobs-{os.getpid()}-{uuid.uuid4().hex[:12]}"


def _raw(address: str) -> str:
    return "\0" + address[1:] if address.startswith("@") else address


class _Endpoint:
    """A datagram socket with a thread handing what arrives to ``_received``."""

    def __init__(self, bind_to: str, name: str) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(bind_to)
        self._closed = threading.Event()
        threading.Thread(target=self._loop, name=name, daemon=True).start()

    def _send(self, data: bytes, to) -> bool:
        """Never blocks, never raises: False when nobody is there (any more)."""
        try:
            self.sock.sendto(data, socket.MSG_DONTWAIT, to)
            return True
        except OSError:
            return False

    def _loop(self) -> None:
        while not self._closed.is_set():
            try:
                data, peer = self.sock.recvfrom(256)
            except OSError:  # closed
                return
            if not self._closed.is_set():
                try:
                    self._received(data, peer)
                except Exception:  # a listener's failure must not end the link
                    log.exception("job link: handling %r failed", data[:1])

    def _received(self, data: bytes, peer) -> None:
        raise NotImplementedError

    def close(self) -> None:
        self._closed.set()
        try:
            self.sock.shutdown(socket.SHUT_RDWR)  # wakes the thread's recvfrom
        except OSError:
            pass
        self.sock.close()


class WorkersLink(_Endpoint):
    """The child's end: ``on_wake()`` for each queued job; ``ended()`` tells every API process."""

    def __init__(self, address: str, worker_id: str, on_wake: Callable[[], None]) -> None:
        self.worker_id = worker_id
        self.on_wake = on_wake
        self._peers: set = set()
        self._lock = threading.Lock()
        super().__init__(_raw(address), "docsvc-jobs-link")

    def _received(self, data: bytes, peer) -> None:
        if peer:
            with self._lock:
                new = peer not in self._peers
                self._peers.add(peer)
            if new or data == HELLO:
                self._send(IDENTITY + self.worker_id.encode(), peer)
        if data == WAKE:
            self.on_wake()

    def ended(self) -> None:
        """A job of these workers ended (after its commit)."""
        with self._lock:
            peers = list(self._peers)
        for peer in peers:
            if not self._send(ENDED, peer):
                with self._lock:
                    self._peers.discard(peer)  # that API process is gone


class ApiLink(_Endpoint):
    """An API process's end: ``wake()`` the child's workers, ``runs()`` whether a job's worker is
    the child's, and ``on_end()`` (set by the pool) when the child says a job ended."""

    def __init__(self, address: str) -> None:
        self.to = _raw(address)
        self.worker_id: str | None = None
        self.on_end: Callable[[], None] = lambda: None
        super().__init__("", "docsvc-api-link")  # "": an abstract address of its own (autobind)
        self._send(HELLO, self.to)
        threading.Thread(target=self._hello, name="docsvc-api-link-hello", daemon=True).start()

    def _hello(self) -> None:
        while not self._closed.wait(HELLO_SECONDS):
            self._send(HELLO, self.to)

    def _received(self, data: bytes, peer) -> None:
        if data == ENDED:
            self.on_end()
        elif data.startswith(IDENTITY):
            self.worker_id = data[1:].decode(errors="replace")

    def wake(self) -> None:
        self._send(WAKE, self.to)

    def runs(self, locked_by: str | None) -> bool:
        return locked_by is not None and locked_by == self.worker_id
