"""Limits of what a request may hold, in one place.

The body size: 413 beyond it, before the body is read into memory. A declared ``Content-Length``
over the limit never reaches a route; a chunked body is counted as it streams and cut off when it
passes the limit, so no route ever holds more than the limit. Before the 413 goes out, the rest of
the body is read and dropped (see ``BodyLimitMiddleware._drain``). That limit is one for every route
(``DOCSVC_SERVER_MAX_BODY_MB``, sized for the largest spec a convert takes); a route whose JSON
body is small by nature reads it with ``routes.deps.json_body(max_bytes=...)``, which refuses
more than its own bound before parsing it.

The values: the lengths of the fields a request stores (an item's title, a pull request's data).
"""

from __future__ import annotations

import asyncio
import json

from ..models.limits import PR_BODY_MAX, PR_TITLE_MAX
from .problems import PROBLEM_JSON, Problem

# An item's title: what PATCH /items/<tool>/<id> accepts, and what a title the service makes is cut to.
MAX_TITLE = 500

# pr_data of POST /docflows/generate (services.docflows.check_pr_data), in characters. The code
# hosts' own caps sit below: GitHub 256 for a title, 65,536 for a description, 255 bytes for a
# branch; GitLab 255 for a title and a user name. The title and body bounds live with the wire
# models, where the CI layer (which never imports the server) clips to them too.
assert PR_TITLE_MAX == MAX_TITLE  # a pull request's title becomes an item's title
PR_AUTHOR_MAX = 255
PR_BRANCH_MAX = 255
PR_URL_MAX = 2048
PR_SCREENSHOTS_MAX = 100  # entries of the multipart form's listing {route, filename}
PR_ROUTE_MAX = 500  # a screenshot's route, as POST /docflows/<id>/screenshots takes it
# The JSON body of POST /docflows/generate: the fields above, each escaped at worst (6 bytes a
# character), fit in well under this; nothing else is kept.
DOCFLOW_GENERATE_JSON_BYTES = 1 << 20


# How long an over-limit body is read and dropped before the 413 goes out, at most.
DRAIN_SECONDS = 10.0


class _TooLarge(Exception):
    def __init__(self, seen: int, ended: bool) -> None:
        super().__init__()
        self.seen, self.ended = seen, ended


class BodyLimitMiddleware:
    def __init__(self, app, *, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes
        # Beyond this many bytes (as much again as the limit) a body is not drained: answered unread.
        self.drain_bytes = 2 * max_bytes

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = dict(scope["headers"])
        declared = headers.get(b"content-length")
        if declared is None and b"transfer-encoding" not in headers and scope.get("http_version") in ("1.0", "1.1"):
            return await self.app(scope, receive, send)  # HTTP/1's rule: no body at all (a GET's)
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            if int(declared) <= self.drain_bytes and headers.get(b"expect", b"").lower() != b"100-continue":
                await self._drain(receive, 0)
            return await self._refuse(send)
        seen = 0
        started = False

        async def counting_receive():
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    raise _TooLarge(seen, ended=not message.get("more_body", False))
            return message

        async def tracking_send(message):
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counting_receive, tracking_send)
        except _TooLarge as cut:
            if not started:
                if not cut.ended:
                    await self._drain(receive, cut.seen)
                await self._refuse(send)

    async def _drain(self, receive, seen: int) -> None:
        """Read the rest of an over-limit body and drop it, while it stays within ``drain_bytes`` and
        ``DRAIN_SECONDS``.

        A client that writes its whole body before it reads (httpx and requests do) then finds the
        413 waiting. Answered unread, the 413 goes out with ``Connection: close`` on a socket that
        still holds unread bytes, and closing such a socket sends a TCP reset, which can discard the
        answer before the client reads it: the client sees "connection reset" instead of the reason.
        Dropping chunks as they come keeps memory flat; the bounds keep a huge or slow body from
        holding the connection (beyond them the answer goes out anyway, as nginx's lingering close
        gives up after its own time)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + DRAIN_SECONDS
        while seen <= self.drain_bytes:
            try:
                message = await asyncio.wait_for(receive(), max(deadline - loop.time(), 0))
            except asyncio.TimeoutError:
                return
            if message["type"] != "http.request" or not message.get("more_body", False):
                return
            seen += len(message.get("body", b""))

    async def _refuse(self, send) -> None:
        limit_mb = self.max_bytes / (1024 * 1024)
        problem = Problem(413, f"The request body is larger than this service accepts ({limit_mb:g} MB; "
                               "set DOCSVC_SERVER_MAX_BODY_MB to change it)")
        body = json.dumps(problem.body()).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", PROBLEM_JSON.encode()), (b"content-length", str(len(body)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})
