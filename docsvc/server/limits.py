"""A limit on request body size: 413 beyond it, before the body is read into memory.

A declared ``Content-Length`` over the limit is refused at once; a chunked body is counted as it
streams and cut off when it passes the limit, so no route ever holds more than the limit.
"""

from __future__ import annotations

import json

from .problems import PROBLEM_JSON, Problem


class _TooLarge(Exception):
    pass


class BodyLimitMiddleware:
    def __init__(self, app, *, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            return await self._refuse(send)
        seen = 0
        started = False

        async def counting_receive():
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    raise _TooLarge()
            return message

        async def tracking_send(message):
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counting_receive, tracking_send)
        except _TooLarge:
            if not started:
                await self._refuse(send)

    async def _refuse(self, send) -> None:
        limit_mb = self.max_bytes / (1024 * 1024)
        problem = Problem(413, f"The request body is larger than this service accepts ({limit_mb:g} MB; "
                               "set DOCSVC_SERVER_MAX_BODY_MB to change it)")
        body = json.dumps(problem.body()).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", PROBLEM_JSON.encode()), (b"content-length", str(len(body)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})
