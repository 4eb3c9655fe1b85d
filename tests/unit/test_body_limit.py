"""The service's body limit (limits.BodyLimitMiddleware): 413 for a declared or a streamed body over
it, never shown to the app, its rest read and dropped first within bounds; a request that HTTP/1 says
has no body passes straight through, unwrapped."""

from __future__ import annotations

import asyncio
import json
import time

import pytest

from docsvc.server import limits
from docsvc.server.limits import BodyLimitMiddleware


def _call(headers: list[tuple[bytes, bytes]], chunks: list[bytes], http_version: str = "1.1", complete: bool = True):
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

    messages = [{"type": "http.request", "body": c, "more_body": i < len(chunks) - complete} for i, c in enumerate(chunks)]

    async def receive():
        if not messages:  # a client that sends no more and keeps the connection open
            await asyncio.Event().wait()
        return messages.pop(0)

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": "POST", "http_version": http_version, "headers": headers}
    asyncio.run(BodyLimitMiddleware(app, max_bytes=10)(scope, receive, send))
    seen["unread"] = len(messages)
    return seen, sent, receive


def test_a_declared_length_over_the_limit_never_reaches_the_app_and_its_body_is_dropped_first():
    seen, sent, _ = _call([(b"content-length", b"15")], [b"x" * 5, b"x" * 5, b"x" * 5])
    assert sent[0]["status"] == 413 and "body" not in seen
    assert seen["unread"] == 0  # read to its end, so a client that writes it all then reads the answer
    assert (b"connection", b"close") in sent[0]["headers"]
    assert "larger than this service accepts" in json.loads(sent[1]["body"])["detail"]


def test_a_declared_length_beyond_twice_the_limit_is_answered_unread():
    seen, sent, _ = _call([(b"content-length", b"21")], [b"x" * 21])
    assert sent[0]["status"] == 413 and seen["unread"] == 1


def test_a_client_that_waits_for_100_continue_is_answered_unread():
    seen, sent, _ = _call([(b"content-length", b"11"), (b"expect", b"100-continue")], [b"x" * 11])
    assert sent[0]["status"] == 413 and seen["unread"] == 1  # reading would invite the body


def test_a_chunked_body_is_cut_off_when_it_passes_the_limit_and_its_rest_dropped():
    seen, sent, _ = _call([(b"transfer-encoding", b"chunked")], [b"x" * 6, b"x" * 6, b"x" * 6])
    assert sent[0]["status"] == 413 and "body" not in seen and seen["unread"] == 0


def test_a_chunked_body_is_drained_no_further_than_twice_the_limit():
    seen, sent, _ = _call([(b"transfer-encoding", b"chunked")], [b"x" * 8] * 6)
    assert sent[0]["status"] == 413 and seen["unread"] == 3  # 16 seen by the app's read, 24 drained


def test_a_chunked_body_that_ends_with_the_chunk_over_the_limit_is_not_read_again():
    started = time.monotonic()
    seen, sent, _ = _call([(b"transfer-encoding", b"chunked")], [b"x" * 6, b"x" * 6])
    assert sent[0]["status"] == 413 and time.monotonic() - started < limits.DRAIN_SECONDS / 2


def test_a_body_that_stops_coming_is_drained_no_longer_than_the_bound(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(limits, "DRAIN_SECONDS", 0.2)
    started = time.monotonic()
    seen, sent, _ = _call([(b"content-length", b"15")], [b"x" * 5], complete=False)  # 10 of 15 never come
    assert sent[0]["status"] == 413 and 0.2 <= time.monotonic() - started < 2


def test_a_body_within_the_limit_is_read():
    seen, sent, receive = _call([(b"content-length", b"10")], [b"x" * 10])
    assert (sent[0]["status"], seen["body"]) == (200, b"x" * 10) and seen["receive"] is not receive


def test_no_body_by_http1_passes_unwrapped_but_http2_is_counted():
    seen, sent, receive = _call([], [b""])
    assert sent[0]["status"] == 200 and seen["receive"] is receive
    seen, sent, _ = _call([], [b"x" * 6, b"x" * 6], http_version="2")
    assert sent[0]["status"] == 413
