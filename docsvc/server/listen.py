"""Serving the app with uvicorn on a port claimed first, announced only once it answers.

``docsvc-server run`` and ``demo`` both serve this way, so a port in use is one line before any
work, and "the service is on http://..." is never said of a service that did not start.
"""

from __future__ import annotations

import errno
import os
import socket
from typing import Callable


# The standard library's event loop, not uvloop (which uvicorn takes when it is installed): under
# more requests than the service answers at once, uvloop starts reading new requests before it
# writes out the answers already made (MagicStack/uvloop#123), so some clients wait many times as
# long as the rest. With 50 clients on the hot reads (benchmarks/api_load.py) p99 was 8-15x p50
# on uvloop and 2-4x on asyncio's loop, at the same requests/s.
LOOP = "asyncio"


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

    return Server(uvicorn.Config(app, log_level=log_level, loop=LOOP))


def serve_processes(settings, sock: socket.socket, processes: int, *, log_level: str,
                    on_started: Callable[[], None] | None = None) -> None:
    """Serve the app from ``processes`` processes that accept on ``sock`` together (uvicorn's
    supervisor: a process that dies is replaced; SIGTERM or Ctrl-C stops them all). Each makes its
    own app from the environment, so the settings given on the command line go there first; each
    runs its own job workers (``settings.job_workers``; 0 when ``run`` keeps them in a child), which
    share the queue through the database.
    ``on_started`` is called once the port answers."""
    import threading

    import uvicorn
    from uvicorn.supervisors import Multiprocess

    os.environ["DOCSVC_SERVER_DATABASE_URL"] = settings.database_url
    os.environ["DOCSVC_SERVER_JOB_WORKERS"] = str(settings.job_workers)
    if settings.job_wake:  # the job workers' child of ``run`` (jobs/wake.py)
        os.environ["DOCSVC_SERVER_JOB_WAKE"] = settings.job_wake
    config = uvicorn.Config("docsvc.server.app:create_app", factory=True, workers=processes, log_level=log_level,
                            loop=LOOP)
    if on_started is not None:
        threading.Thread(target=_when_answering, args=(sock.getsockname(), on_started), daemon=True).start()
    Multiprocess(config, sockets=[sock]).run()


def _when_answering(address, then: Callable[[], None], timeout: float = 120.0) -> None:
    """Call ``then()`` once ``GET /healthz`` at ``address`` answers 200."""
    import http.client
    import time

    host, port = address[0], address[1]
    if host in ("0.0.0.0", "::"):
        host = "127.0.0.1" if host == "0.0.0.0" else "::1"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        connection = http.client.HTTPConnection(host, port, timeout=2)
        try:
            connection.request("GET", "/healthz")
            if connection.getresponse().status == 200:
                then()
                return
        except OSError:
            pass
        finally:
            connection.close()
        time.sleep(0.2)
