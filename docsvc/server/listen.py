"""Serving the app with uvicorn on a port claimed first, announced only once it answers.

``docsvc-server run`` and ``demo`` both serve this way, so a port in use is one line before any
work, and "the service is on http://..." is never said of a service that did not start.
"""

from __future__ import annotations

import errno
import os
import socket
from typing import Callable


class PortUnavailable(Exception):
    """HOST:PORT cannot be listened on; the message says why in one line."""


def listening_socket(host: str, port: int) -> socket.socket:
    """A TCP socket bound to HOST:PORT and already listening.

    Checking that a port is free and letting uvicorn bind it later is a race (another process may
    take it in between), and a bind alone proves little: with SO_REUSEADDR, which lets a restart
    bind over connections of the previous run left in TIME_WAIT, Linux lets two sockets bind one
    port as long as neither listens yet. listen() is what claims the port; the socket is then handed
    to uvicorn, leaving no gap. (Not on Windows, where SO_REUSEADDR would let us share a port that
    another process is listening on.)"""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET  # as uvicorn decides
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        if os.name != "nt":
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(2048)  # uvicorn's default backlog
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise PortUnavailable(f"port {port} is in use") from None
        raise PortUnavailable(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    return sock


def make_server(app, *, log_level: str, on_started: Callable[[], None] | None = None):
    """A uvicorn server for ``app`` that calls ``on_started`` once the app's startup is done and it
    accepts connections. Run it with ``server.run(sockets=[listening_socket(...)])``."""
    import uvicorn

    class Server(uvicorn.Server):
        async def startup(self, sockets=None) -> None:
            await super().startup(sockets=sockets)
            if self.started and on_started is not None:  # never after a failed startup
                on_started()

    return Server(uvicorn.Config(app, log_level=log_level))
