"""The service's body limit (limits.BodyLimitMiddleware): 413 for a declared or a streamed body over
it; a request that HTTP/1 says has no body passes straight through, unwrapped."""

from __future__ import annotations

import asyncio
import json

from docsvc.server.limits import BodyLimitMiddleware


def _call(headers: list[tuple[bytes, bytes]], chunks: list[bytes], http_version: str = "1.1"):
    seen: dict = {}
    sent: list[dict] = []

    async def app(scope, receive, send):
        seen["receive"] = receive
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        seen["body"] = body
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    messages = [{"type": "http.request", "body": c, "more_body": i < len(chunks) - 1} for i, c in enumerate(chunks)]

    async def receive():
        return messages.pop(0)

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": "POST", "http_version": http_version, "headers": headers}
    asyncio.run(BodyLimitMiddleware(app, max_bytes=10)(scope, receive, send))
    return seen, sent, receive


def test_a_declared_length_over_the_limit_is_413_unread():
    seen, sent, _ = _call([(b"content-length", b"11")], [b"x" * 11])
    assert sent[0]["status"] == 413 and "body" not in seen
    assert "larger than this service accepts" in json.loads(sent[1]["body"])["detail"]


def test_a_chunked_body_is_cut_off_when_it_passes_the_limit():
    seen, sent, _ = _call([(b"transfer-encoding", b"chunked")], [b"x" * 6, b"x" * 6])
    assert sent[0]["status"] == 413 and "body" not in seen


def test_a_body_within_the_limit_is_read():
    seen, sent, receive = _call([(b"content-length", b"10")], [b"x" * 10])
    assert (sent[0]["status"], seen["body"]) == (200, b"x" * 10) and seen["receive"] is not receive


def test_no_body_by_http1_passes_unwrapped_but_http2_is_counted():
    seen, sent, receive = _call([], [b""])
    assert sent[0]["status"] == 200 and seen["receive"] is receive
    seen, sent, _ = _call([], [b"x" * 6, b"x" * 6], http_version="2")
    assert sent[0]["status"] == 413
