"""Retry policy of the client: what is retried, how often, how long it waits, and idempotency."""

from __future__ import annotations

import email.utils
import random
import time
import uuid

import httpx
import pytest

from docsvc.client import (
    APIConnectionError,
    APITimeoutError,
    InternalServerError,
    RateLimitError,
    error_for_status,
)
from docsvc.client._retry import RetryPolicy, is_retryable_status, parse_retry_after
from docsvc.client.testing import (
    FakeClock,
    MockAPI,
    fake_client,
    json_response,
    multipart_parts,
    problem_response,
)

RETRIED_STATUSES = [408, 429, 500, 502, 503, 504, 507, 599]
FINAL_STATUSES = [400, 401, 402, 403, 404, 409, 413, 422, 501]


@pytest.mark.parametrize(
    "status, retried",
    [(s, True) for s in RETRIED_STATUSES] + [(s, False) for s in FINAL_STATUSES],
)
def test_status_is_retried_or_raised_at_once(status, retried):
    api = MockAPI(problem_response(status, "Trouble"), json_response(200, []))
    client = fake_client(api)
    assert is_retryable_status(status) is retried
    if retried:
        assert client.releases.list() == []
        assert len(api.requests) == 2
    else:
        with pytest.raises(error_for_status(status)):
            client.releases.list()
        assert len(api.requests) == 1


@pytest.mark.parametrize(
    "exc, retried, raised",
    [
        (httpx.ConnectError("connection refused"), True, APIConnectionError),
        (httpx.ReadError("connection reset"), True, APIConnectionError),
        (httpx.RemoteProtocolError("server disconnected"), True, APIConnectionError),
        (httpx.ProxyError("proxy said no"), True, APIConnectionError),
        (httpx.ConnectTimeout("connect timed out"), True, APITimeoutError),
        (httpx.ReadTimeout("read timed out"), True, APITimeoutError),
        (httpx.WriteTimeout("write timed out"), True, APITimeoutError),
        (httpx.PoolTimeout("pool timed out"), True, APITimeoutError),
        (httpx.UnsupportedProtocol("no such scheme"), False, APIConnectionError),
        (httpx.LocalProtocolError("bad header"), False, APIConnectionError),
    ],
    ids=lambda v: type(v).__name__ if isinstance(v, Exception) else None,
)
def test_transport_errors_retry_table(exc, retried, raised):
    api = MockAPI(exc, json_response(200, {"open": 1}))
    client = fake_client(api)
    if retried:
        assert client.me.work().open == 1
        assert len(api.requests) == 2
    else:
        with pytest.raises(raised) as info:
            client.me.work()
        assert info.value.__cause__ is exc
        assert len(api.requests) == 1


@pytest.mark.parametrize("max_retries", [0, 1, 3, 5])
@pytest.mark.parametrize(
    "answer, raised",
    [
        (problem_response(503, "Service Unavailable"), error_for_status(503)),
        (httpx.ConnectError("refused"), APIConnectionError),
        (httpx.ReadTimeout("slow"), APITimeoutError),
    ],
    ids=["503", "connect-error", "read-timeout"],
)
def test_attempts_are_max_retries_plus_one(max_retries, answer, raised):
    clock = FakeClock()
    api = MockAPI(answer)  # the same failure, every time
    client = fake_client(api, clock, max_retries=max_retries)
    with pytest.raises(raised):
        client.me.work()
    assert len(api.requests) == max_retries + 1
    assert len(clock.sleeps) == max_retries


def test_default_max_retries_is_three():
    api = MockAPI(problem_response(502, "Bad Gateway"))
    with pytest.raises(error_for_status(502)):
        fake_client(api).me.work()
    assert len(api.requests) == 4


def _http_date(offset: float) -> str:
    return email.utils.formatdate(time.time() + offset, usegmt=True)


@pytest.mark.parametrize(
    "retry_after, expected",
    [
        ("3", 3.0),
        ("0", 0.0),
        ("1.5", 1.5),
        ("60", 60.0),
        ("Wed, 21 Oct 2015 07:28:00 GMT", 0.0),  # a date in the past: now
        ("soon", 0.5),  # malformed: ignored, backoff (rng=1.0, first retry: 0.5 s)
        ("", 0.5),
        (None, 0.5),
    ],
)
@pytest.mark.parametrize("status", [429, 503])
def test_retry_after_is_honoured_and_capped(status, retry_after, expected):
    clock = FakeClock()
    headers = {"Retry-After": retry_after} if retry_after is not None else {}
    api = MockAPI(problem_response(status, "Later", headers=headers), json_response(200, []))
    fake_client(api, clock).releases.list()
    assert clock.sleeps == [pytest.approx(expected)]


@pytest.mark.parametrize("retry_after", ["61", "86400", _http_date(7200)],
                         ids=["61", "86400", "http-date-in-2h"])  # stable ids: parallel workers compare them
@pytest.mark.parametrize("status, error", [(429, RateLimitError), (503, InternalServerError)])
def test_a_retry_after_beyond_the_cap_is_not_waited_for(status, error, retry_after):
    clock = FakeClock()
    api = MockAPI(problem_response(status, "Come back tomorrow", headers={"Retry-After": retry_after}),
                  json_response(200, []))
    with pytest.raises(error) as info:
        fake_client(api, clock).releases.list()
    assert clock.sleeps == [] and len(api.requests) == 1
    assert info.value.retry_after is not None and info.value.retry_after > 60


def test_retry_after_http_date_in_the_near_future():
    clock = FakeClock()
    api = MockAPI(problem_response(503, "Later", headers={"Retry-After": _http_date(20)}),
                  json_response(200, []))
    fake_client(api, clock).releases.list()
    # HTTP-dates have whole seconds: between 18 and 20 s from now.
    assert 18.0 <= clock.sleeps[0] <= 20.0


@pytest.mark.parametrize("cap, retry_after, expected", [(10, "4", [4.0]), (10, "10", [10.0]),
                                                         (10, "30", None), (0, "30", None)])
def test_max_retry_after_is_configurable(cap, retry_after, expected):
    clock = FakeClock()
    api = MockAPI(problem_response(429, "Slow down", headers={"Retry-After": retry_after}),
                  json_response(200, []))
    if expected is None:
        with pytest.raises(RateLimitError):
            fake_client(api, clock, max_retry_after=cap).releases.list()
        assert clock.sleeps == []
    else:
        fake_client(api, clock, max_retry_after=cap).releases.list()
        assert clock.sleeps == expected


@pytest.mark.parametrize(
    "value, expected",
    [
        ("42", 42.0),
        (" 42 ", 42.0),
        ("Wed, 21 Oct 2015 07:28:42 GMT", 42.0),
        ("Wed, 21 Oct 2015 07:27:00 GMT", 0.0),
        ("-5", 0.0),
        ("nan", None),
        ("inf", None),
        ("Wed, 21 Oct 2015", None),
        ("tomorrow", None),
        ("", None),
        (None, None),
    ],
)
def test_parse_retry_after(value, expected):
    now = email.utils.parsedate_to_datetime("Wed, 21 Oct 2015 07:28:00 GMT").timestamp()
    assert parse_retry_after(value, now=now) == expected


@pytest.mark.parametrize(
    "attempt, ceiling",
    [(0, 0.5), (1, 1.0), (2, 2.0), (3, 4.0), (4, 8.0), (5, 8.0), (20, 8.0), (5000, 8.0)],
)
def test_backoff_grows_then_is_capped(attempt, ceiling):
    policy = RetryPolicy()
    assert policy.backoff(attempt, rng=lambda: 1.0) == ceiling
    assert policy.backoff(attempt, rng=lambda: 0.0) == 0.0
    assert policy.backoff(attempt, rng=lambda: 0.25) == ceiling / 4


@pytest.mark.parametrize("attempt", range(8))
def test_full_jitter_stays_within_bounds(attempt):
    policy = RetryPolicy()
    ceiling = min(8.0, 0.5 * 2 ** attempt)
    rng = random.Random(attempt)
    delays = [policy.backoff(attempt, rng=rng.random) for _ in range(500)]
    assert all(0.0 <= d <= ceiling for d in delays)
    # Full jitter spreads over the whole range, not around a fixed point.
    assert min(delays) < ceiling * 0.1 and max(delays) > ceiling * 0.9


def test_client_sleeps_follow_the_backoff_sequence():
    clock = FakeClock()
    api = MockAPI(problem_response(503, "Down"))
    with pytest.raises(error_for_status(503)):
        fake_client(api, clock, max_retries=6).me.work()
    assert clock.sleeps == [0.5, 1.0, 2.0, 4.0, 8.0, 8.0]


def test_connection_errors_use_backoff_too():
    clock = FakeClock()
    api = MockAPI(httpx.ConnectError("refused"))
    with pytest.raises(APIConnectionError):
        fake_client(api, clock, rng=lambda: 0.5).me.work()
    assert clock.sleeps == [0.25, 0.5, 1.0]


# -- Idempotency-Key --------------------------------------------------------------------------

POST_CALLS = {
    "repos.sync": lambda c: c.repos.sync(7),
    "convert.create": lambda c: c.convert.create(source_type="openapi", content="{}"),
    "docflows.sync": lambda c: c.docflows.sync(5),
    "docflows.check_many": lambda c: c.docflows.check_many(),
    "oas.validate": lambda c: c.oas.validate(),
}
NON_POST_CALLS = {
    "GET items.list": lambda c: c.items.list("docflows"),
    "GET jobs.get": lambda c: c.jobs.get("j1"),
    "PATCH items.update": lambda c: c.items.update("docflows", 1, title="x"),
    "PUT captures.set_zoom": lambda c: c.captures.set_zoom(1, mode="off"),
    "DELETE items.delete": lambda c: c.items.delete("docflows", 1),
}
JOB = {"status": "queued", "job_id": "j1"}


@pytest.mark.parametrize("name", sorted(POST_CALLS))
def test_post_carries_the_same_idempotency_key_on_every_retry(name):
    api = MockAPI(problem_response(503, "Down"), httpx.ReadTimeout("slow"),
                  problem_response(429, "Later"), json_response(202, JOB))
    POST_CALLS[name](fake_client(api))
    keys = [r.headers.get("idempotency-key") for r in api.requests]
    assert len(keys) == 4
    assert len(set(keys)) == 1
    assert uuid.UUID(keys[0]).version == 4


def test_each_post_call_gets_its_own_key():
    api = MockAPI(json_response(202, JOB))
    client = fake_client(api)
    client.repos.sync(7)
    client.repos.sync(7)
    first, second = (r.headers["idempotency-key"] for r in api.requests)
    assert first != second


def test_caller_can_pass_the_idempotency_key():
    api = MockAPI(problem_response(500, "Oops"), json_response(202, JOB))
    fake_client(api).repos.sync(7, idempotency_key="ci-run-42-sync")
    assert [r.headers["idempotency-key"] for r in api.requests] == ["ci-run-42-sync"] * 2


@pytest.mark.parametrize("name", sorted(NON_POST_CALLS))
def test_other_methods_carry_no_idempotency_key(name):
    method = name.split()[0]
    body = [] if name == "GET items.list" else {"id": 1, "job_id": "j1", "status": "queued"}
    api = MockAPI(json_response(200, body))
    NON_POST_CALLS[name](fake_client(api))
    assert api.last.method == method
    assert "idempotency-key" not in api.last.headers


# -- multipart bodies are rebuilt per attempt -----------------------------------------------


def test_multipart_upload_rereads_files_on_retry_and_closes_them(tmp_path, monkeypatch):
    home = tmp_path / "home.png"
    settings = tmp_path / "shots" / "settings.png"
    settings.parent.mkdir()
    home.write_bytes(b"home-v1")
    settings.write_bytes(b"settings-v1")

    opened = []
    real_open = open

    def tracking_open(*args, **kwargs):
        file = real_open(*args, **kwargs)
        opened.append(file)
        return file

    monkeypatch.setattr("docsvc.client._files.open", tracking_open, raising=False)

    def fail_after_changing_the_file(request):
        # The next attempt must send what is on disk then, not a buffered copy.
        home.write_bytes(b"home-v2")
        return problem_response(503, "Down")

    api = MockAPI(fail_after_changing_the_file, json_response(202, JOB))
    ref = fake_client(api).docflows.generate(
        integration_id=3,
        pr_data={"number": 12},
        screenshots={"/": home, "/settings": str(settings)},
    )
    assert ref.job_id == "j1"
    first, second = (multipart_parts(r) for r in api.requests)
    assert [p.content for p in first if p.name == "screenshots"] == [b"home-v1", b"settings-v1"]
    assert [p.content for p in second if p.name == "screenshots"] == [b"home-v2", b"settings-v1"]
    assert len(opened) == 4  # two files, opened afresh for each of the two attempts
    assert all(f.closed for f in opened)
    keys = {r.headers["idempotency-key"] for r in api.requests}
    assert len(keys) == 1


def test_files_are_closed_when_the_upload_fails_for_good(tmp_path, monkeypatch):
    image = tmp_path / "sketch.jpg"
    image.write_bytes(b"jpeg")
    opened = []
    real_open = open
    monkeypatch.setattr("docsvc.client._files.open",
                        lambda *a, **k: opened.append(real_open(*a, **k)) or opened[-1],
                        raising=False)
    api = MockAPI(httpx.ConnectError("refused"))
    with pytest.raises(APIConnectionError):
        fake_client(api, max_retries=2).diagrams.generate(description="d", image_file=image)
    assert len(opened) == 3
    assert all(f.closed for f in opened)


# -- a multipart request keeps its bytes across retries; "still in progress" is waited out --------


def test_a_multipart_retry_sends_the_same_bytes(tmp_path):
    home = tmp_path / "home.png"
    home.write_bytes(b"\x89PNG home")
    api = MockAPI(httpx.ReadError("proxy dropped it"), problem_response(502, "Bad gateway"),
                  json_response(202, JOB))
    fake_client(api).docflows.generate(integration_id=3, pr_data={"number": 12}, screenshots={"/": home})
    bodies = {r.content for r in api.requests}
    types = {r.headers["content-type"] for r in api.requests}
    assert len(api.requests) == 3 and len(bodies) == 1 and len(types) == 1
    assert types.pop().startswith("multipart/form-data; boundary=")


def test_the_boundary_belongs_to_the_idempotency_key(tmp_path):
    image = tmp_path / "sketch.png"
    image.write_bytes(b"png")
    api = MockAPI(json_response(201, {"id": 1}))
    client = fake_client(api)
    for key in ("run-1", "run-1", "run-2"):
        client.diagrams.generate(description="d", image_file=image, idempotency_key=key)
    first, again, other = (r.headers["content-type"] for r in api.requests)
    assert first == again != other
    assert api.requests[0].content == api.requests[1].content
    # Without an image the body is multipart all the same, with the key's boundary.
    client.diagrams.generate(description="d", idempotency_key="run-1")
    assert api.last.headers["content-type"] == first


IN_PROGRESS = problem_response(409, "Conflict", "still being processed", headers={"Retry-After": "1"},
                               type="urn:docsvc:problem:idempotency-key-in-use")


def test_409_in_progress_is_waited_out_with_retry_after_and_the_answer_returned():
    clock = FakeClock()
    api = MockAPI(httpx.ReadError("dropped after the request was sent"), IN_PROGRESS, IN_PROGRESS,
                  json_response(202, JOB, headers={"Idempotent-Replayed": "true"}))
    ref = fake_client(api, clock).repos.sync(7)
    assert ref.job_id == "j1"
    assert clock.sleeps == [0.5, 1.0, 1.0]  # backoff after the drop, then the service's Retry-After
    assert len({r.headers["idempotency-key"] for r in api.requests}) == 1


def test_waiting_for_a_request_in_progress_does_not_use_up_the_retries():
    api = MockAPI(*[IN_PROGRESS] * 10, json_response(202, JOB))
    assert fake_client(api, max_retries=1).repos.sync(7).job_id == "j1"
    assert len(api.requests) == 11


def test_waiting_for_a_request_in_progress_is_bounded():
    from docsvc.client import ConflictError

    clock = FakeClock()
    api = MockAPI(IN_PROGRESS)
    with pytest.raises(ConflictError):
        fake_client(api, clock).repos.sync(7)
    assert sum(clock.sleeps) <= RetryPolicy().max_in_progress_wait
    assert len(api.requests) == 1 + int(RetryPolicy().max_in_progress_wait)


def test_a_retry_after_0_in_progress_still_waits_a_moment():
    clock = FakeClock()
    api = MockAPI(problem_response(409, "Conflict", headers={"Retry-After": "0"}), json_response(202, JOB))
    fake_client(api, clock).repos.sync(7)
    assert clock.sleeps == [RetryPolicy().min_in_progress_delay]


def test_a_409_state_conflict_is_final():
    from docsvc.client import ConflictError

    api = MockAPI(problem_response(409, "Conflict", "the suggestion was dismissed"), json_response(202, JOB))
    with pytest.raises(ConflictError):
        fake_client(api).repos.sync(7)
    assert len(api.requests) == 1


def test_a_409_with_retry_after_to_a_request_without_a_key_is_final():
    from docsvc.client import ConflictError

    api = MockAPI(IN_PROGRESS, json_response(200, []))
    with pytest.raises(ConflictError):
        fake_client(api).releases.list()
    assert len(api.requests) == 1
