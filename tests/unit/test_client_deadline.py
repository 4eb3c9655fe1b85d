"""``client.deadline()``: per thread, nested, and held by every wait (retries, 409s, slow bodies)."""

from __future__ import annotations

import threading

import httpx
import pytest

from docsvc.client import APITimeoutError
from docsvc.client.testing import FakeClock, MockAPI, fake_client, json_response, problem_response


def test_a_deadline_binds_only_its_own_thread():
    clock = FakeClock()
    client = fake_client(MockAPI(json_response(200, {"open": 1})), clock)
    results = []
    with client.deadline(1):
        clock.now += 5  # this thread's deadline has passed
        worker = threading.Thread(target=lambda: results.append(client.me.work().open))
        worker.start()
        worker.join()
        with pytest.raises(APITimeoutError):
            client.me.work()
    assert results == [1]


def test_deadline_blocks_ending_out_of_order_leave_no_expired_deadline():
    clock = FakeClock()
    client = fake_client(MockAPI(json_response(200, {"open": 1})), clock)
    outer, inner = client.deadline(1), client.deadline(100)
    outer.__enter__()
    inner.__enter__()
    outer.__exit__(None, None, None)
    clock.now += 5
    inner.__exit__(None, None, None)
    assert client._current_deadline() is None
    assert client.me.work().open == 1


def test_an_inner_deadline_never_extends_the_outer_one():
    clock = FakeClock()
    client = fake_client(MockAPI(json_response(200, {"open": 1})), clock)
    with client.deadline(2):
        with client.deadline(0.5):
            assert client._current_deadline() == clock.now + 0.5
        with client.deadline(100):
            assert client._current_deadline() == clock.now + 2
            clock.now += 3
            with pytest.raises(APITimeoutError) as info:
                client.me.work()
            assert info.value.deadline


def test_a_409_still_in_progress_is_not_waited_out_past_the_deadline():
    clock = FakeClock()
    api = MockAPI(problem_response(409, "In progress", headers={"Retry-After": "50"}),
                  json_response(202, {"status": "queued", "job_id": "j"}))
    client = fake_client(api, clock)
    with client.deadline(2), pytest.raises(APITimeoutError) as info:
        client.repos.sync(1)
    assert clock.sleeps == []
    assert info.value.deadline and "409" in str(info.value)
    assert len(api.requests) == 1


class _Trickle(httpx.SyncByteStream):
    """A body that comes one byte per half second (of the fake clock)."""

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.sent = 0

    def __iter__(self):
        for _ in range(1000):
            self.clock.now += 0.5
            self.sent += 1
            yield b" "


def test_a_body_that_trickles_in_is_cut_off_at_the_deadline():
    clock = FakeClock()
    body = _Trickle(clock)
    api = httpx.MockTransport(lambda request: httpx.Response(
        200, headers={"Content-Length": "1000"}, stream=body))
    client = fake_client(api, clock, max_retries=0)
    with client.deadline(2), pytest.raises(APITimeoutError) as info:
        client.me.work()
    assert info.value.deadline
    assert body.sent <= 4


def test_the_next_read_is_bounded_by_the_time_left():
    clock = FakeClock()
    seen = []

    def answer(request):
        def chunks():
            for _ in range(3):
                clock.now += 0.5
                seen.append(request.extensions["timeout"]["read"])
                yield b"1"
        return httpx.Response(200, stream=_Gen(chunks()))

    client = fake_client(httpx.MockTransport(answer), clock)
    with client.deadline(10):
        assert client.call("me.work") == 111
    assert seen == pytest.approx([10, 9.5, 9.0])


class _Gen(httpx.SyncByteStream):
    def __init__(self, gen):
        self.gen = gen

    def __iter__(self):
        return self.gen
