"""A forward proxy on loopback that holds one browser to the egress policy.

Chromium sends every connection through it: each page, each subresource, each hop of a redirect
(a new request of its own), https by ``CONNECT``. The proxy resolves the host once, refuses it
when the policy does (answering 403 and noting why), and connects to the very address it checked,
so a second DNS answer cannot point the connection elsewhere. Request interception in the browser
cannot do this: a redirect the browser follows is not intercepted again.
"""

from __future__ import annotations

import select
import socket
import socketserver
import threading
from urllib.parse import urlsplit

from ...egress import Egress, EgressRefused

__all__ = ["EgressProxy"]

_MAX_HEAD = 64 * 1024
_TIMEOUT = 60.0


class EgressProxy:
    """``with EgressProxy(egress, refused) as proxy:`` serves on ``proxy.address`` until the block
    ends; every refusal's reason is appended to ``refused``."""

    def __init__(self, egress: Egress, refused: list[str]) -> None:
        self.egress, self.refused = egress, refused
        self._server: socketserver.ThreadingTCPServer | None = None

    @property
    def address(self) -> str:
        assert self._server is not None
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def __enter__(self) -> "EgressProxy":
        proxy = self

        class Handler(socketserver.BaseRequestHandler):
            def handle(self) -> None:
                proxy._handle(self.request)

        server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, name="docsvc-egress-proxy", daemon=True).start()
        self._server = server
        return self

    def __exit__(self, *exc) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    # -- one connection from the browser ------------------------------------------------------

    def _handle(self, client: socket.socket) -> None:
        client.settimeout(_TIMEOUT)
        read = _read_head(client)
        if read is None:
            return
        head, pending = read
        request_line, _, rest = head.partition(b"\r\n")
        try:
            method, target, version = request_line.decode("latin-1").split(" ", 2)
        except ValueError:
            return
        if method == "CONNECT":
            host, _, port = target.rpartition(":")
            port_number = int(port) if port.isdigit() else 443
            upstream = self._connect(client, host.strip("[]"), port_number)
            if upstream is not None:
                client.sendall(b"HTTP/1.1 200 Connection Established\r\n\r\n")
                _pipe(client, upstream, pending)
            return
        parts = urlsplit(target)
        if parts.scheme != "http" or not parts.hostname:
            self._refuse(client, f"{target}: only http and https addresses are opened")
            return
        upstream = self._connect(client, parts.hostname, parts.port or 80)
        if upstream is None:
            return
        path = parts.path or "/"
        if parts.query:
            path += "?" + parts.query
        headers = [line for line in rest.split(b"\r\n") if line and not line.lower().startswith(
            (b"proxy-connection:", b"connection:", b"keep-alive:"))]
        upstream.sendall(f"{method} {path} {version}\r\n".encode("latin-1") + b"\r\n".join(headers) +
                         b"\r\nConnection: close\r\n\r\n")
        _pipe(client, upstream, pending)

    def _connect(self, client: socket.socket, host: str, port: int) -> socket.socket | None:
        try:
            addresses = self.egress.addresses(host, port)
        except EgressRefused as exc:
            self._refuse(client, str(exc))
            return None
        for address in addresses:
            try:
                return socket.create_connection((address, port), timeout=_TIMEOUT)
            except OSError:
                continue
        _answer(client, 502, f"cannot connect to {host}:{port}")
        return None

    def _refuse(self, client: socket.socket, reason: str) -> None:
        self.refused.append(reason)
        _answer(client, 403, reason)


def _read_head(sock: socket.socket) -> tuple[bytes, bytes] | None:
    """The request's head, and the bytes read past it (the start of a body), or None."""
    data = b""
    while b"\r\n\r\n" not in data:
        try:
            chunk = sock.recv(4096)
        except OSError:
            return None
        if not chunk or len(data) > _MAX_HEAD:
            return None
        data += chunk
    head, _, pending = data.partition(b"\r\n\r\n")
    return head, pending


def _answer(client: socket.socket, status: int, reason: str) -> None:
    body = reason.encode("utf-8", "replace")
    try:
        client.sendall(f"HTTP/1.1 {status} {'Forbidden' if status == 403 else 'Bad Gateway'}\r\n"
                       f"Content-Type: text/plain; charset=utf-8\r\nContent-Length: {len(body)}\r\n"
                       "Connection: close\r\n\r\n".encode() + body)
    except OSError:
        pass


def _pipe(client: socket.socket, upstream: socket.socket, pending: bytes) -> None:
    """Send ``pending`` upstream, then copy bytes both ways until either side closes."""
    try:
        if pending:
            upstream.sendall(pending)
        sockets = [client, upstream]
        while True:
            readable, _, broken = select.select(sockets, [], sockets, _TIMEOUT)
            if broken or not readable:
                return
            for source in readable:
                data = source.recv(65536)
                if not data:
                    return
                (upstream if source is client else client).sendall(data)
    except OSError:
        return
    finally:
        upstream.close()
