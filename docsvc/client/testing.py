"""Test doubles for code that uses the client: a scripted API and a fake clock.

No network and no real sleeping: ``MockAPI`` is an ``httpx`` transport that answers from a
script and records every request; ``FakeClock`` stands in for ``time.sleep`` and
``time.monotonic`` and advances instantly. ``fake_client`` wires both into a ``Client``.
Used by the client's own unit tests and available to the CLI and CI layers' tests. Not
imported by ``docsvc.client``.

    api = MockAPI(json_response(503), json_response(200, {"id": 1, "name": "me"}))
    client = fake_client(api)
    client.me.get()
    assert len(api.requests) == 2
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, NamedTuple, Union

import httpx

from ._client import Client

__all__ = [
    "TEST_API_KEY",
    "TEST_BASE_URL",
    "Answer",
    "FakeClock",
    "FormPart",
    "MockAPI",
    "fake_client",
    "json_response",
    "multipart_parts",
    "problem_response",
]

TEST_API_KEY = "dsk_test_0123456789abcdef"
TEST_BASE_URL = "https://docsvc.test"

# A scripted answer: a response, an exception to raise (e.g. httpx.ConnectError), or a
# function of the request that returns a response.
Answer = Union[httpx.Response, Exception, Callable[[httpx.Request], httpx.Response]]


class FakeClock:
    """A monotonic clock whose ``sleep`` returns at once and moves time forward."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start
        self.sleeps: list[float] = []

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


class MockAPI(httpx.MockTransport):
    """Answers requests with ``answers`` in order (the last one repeats) and records them.

    ``requests`` holds every request received, its body already read, so tests can look at
    headers and bodies after the call.
    """

    def __init__(self, *answers: Answer) -> None:
        if not answers:
            raise ValueError("MockAPI needs at least one answer")
        self.answers = list(answers)
        self.requests: list[httpx.Request] = []
        super().__init__(self._answer)

    def _answer(self, request: httpx.Request) -> httpx.Response:
        request.read()
        index = min(len(self.requests), len(self.answers) - 1)
        self.requests.append(request)
        answer = self.answers[index]
        if isinstance(answer, Exception):
            raise answer
        if callable(answer) and not isinstance(answer, httpx.Response):
            answer = answer(request)
        # A fresh copy each time: a response object is consumed by the client that reads it,
        # and the last answer may be served many times.
        return httpx.Response(answer.status_code, headers=answer.headers, content=answer.read())

    @property
    def last(self) -> httpx.Request:
        return self.requests[-1]


def json_response(status_code: int = 200, body: Any = None, *,
                  headers: Mapping[str, str] | None = None) -> httpx.Response:
    """A response with a JSON body (no body when ``body`` is None)."""
    if body is None:
        return httpx.Response(status_code, headers=headers)
    return httpx.Response(status_code, json=body, headers=headers)


def problem_response(status_code: int, title: str = "", detail: str | None = None, *,
                     headers: Mapping[str, str] | None = None, **extra: Any) -> httpx.Response:
    """An RFC 9457 ``application/problem+json`` error answer."""
    body = {"type": "about:blank", "title": title, "status": status_code, **extra}
    if detail is not None:
        body["detail"] = detail
    response = httpx.Response(status_code, json=body, headers=headers)
    response.headers["content-type"] = "application/problem+json"
    return response


def fake_client(api: httpx.BaseTransport, clock: FakeClock | None = None,
                **options: Any) -> Client:
    """A ``Client`` on ``api`` with a fake clock and a jitter source fixed at 1.0 (the delay is
    the backoff ceiling), unless ``options`` says otherwise."""
    clock = clock or FakeClock()
    options.setdefault("sleep", clock.sleep)
    options.setdefault("clock", clock.monotonic)
    options.setdefault("rng", lambda: 1.0)
    return Client(options.pop("api_key", TEST_API_KEY), options.pop("base_url", TEST_BASE_URL),
                  transport=api, **options)


class FormPart(NamedTuple):
    name: str
    filename: str | None
    content_type: str | None
    content: bytes


def multipart_parts(request: httpx.Request) -> list[FormPart]:
    """The parts of a recorded multipart/form-data request, in order."""
    from email.parser import BytesParser
    from email.policy import HTTP

    content_type = request.headers["content-type"]
    if not content_type.startswith("multipart/form-data"):
        raise AssertionError(f"not multipart/form-data: {content_type}")
    message = BytesParser(policy=HTTP).parsebytes(
        b"Content-Type: " + content_type.encode() + b"\r\n\r\n" + request.content
    )
    return [
        FormPart(
            name=part.get_param("name", header="content-disposition"),
            filename=part.get_filename(),
            content_type=part.get("content-type"),
            content=part.get_payload(decode=True),
        )
        for part in message.iter_parts()
    ]
