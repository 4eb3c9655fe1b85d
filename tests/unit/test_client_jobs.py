"""``jobs.wait``: polling with backoff and the server's hint, progress, final state, time-out."""

from __future__ import annotations

import httpx
import pytest

from docsvc.client import JobTimeoutError, NotFoundError
from docsvc.client.testing import FakeClock, MockAPI, fake_client, json_response, problem_response


def job(status, percent=None, **extra):
    body = {"job_id": "job-1", "status": status, **extra}
    if percent is not None:
        body["progress"] = {"message": f"{percent}% done", "percent": percent}
    return body


def poll(status, retry_after=None, **kwargs):
    headers = {"Retry-After": retry_after} if retry_after is not None else None
    return json_response(200, job(status, **kwargs), headers=headers)


@pytest.mark.parametrize("final", ["completed", "failed"])
def test_returns_the_final_job_without_raising(final):
    clock = FakeClock()
    api = MockAPI(poll(final, result={"url": "https://x"}, error=None))
    result = fake_client(api, clock).jobs.wait("job-1")
    assert result.status == final
    assert result.finished
    assert result.result == {"url": "https://x"}
    assert clock.sleeps == []  # the first poll is immediate
    assert api.last.url.path == "/api/v1/jobs/job-1"


def test_polls_until_finished_and_reports_each_poll():
    clock = FakeClock()
    api = MockAPI(poll("queued", percent=0), poll("queued", percent=40),
                  poll("queued", percent=80), poll("completed", percent=100))
    seen = []
    result = fake_client(api, clock).jobs.wait("job-1", on_progress=seen.append)
    assert result.status == "completed"
    assert [(j.status, j.progress.percent) for j in seen] == [
        ("queued", 0), ("queued", 40), ("queued", 80), ("completed", 100)]
    assert clock.sleeps == pytest.approx([0.2, 0.3, 0.45])


def test_interval_grows_by_half_and_is_capped_at_5_seconds():
    clock = FakeClock()
    api = MockAPI(*[poll("queued")] * 12, poll("completed"))
    fake_client(api, clock).jobs.wait("job-1")
    expected = [min(0.2 * 1.5 ** n, 5.0) for n in range(12)]
    assert clock.sleeps == pytest.approx(expected)
    assert max(clock.sleeps) == 5.0


@pytest.mark.parametrize(
    "hints, expected",
    [
        (["2"], [2.0]),  # the hint is a floor above the 0.2 s interval
        (["0"], [0.2]),  # a smaller hint does not speed polling up
        (["0.1", "0.1"], [0.2, 0.3]),
        (["120"], [30.0]),  # a hint is capped at 30 s
        (["garbage"], [0.2]),
        (["Wed, 21 Oct 2015 07:28:00 GMT"], [0.2]),  # a date in the past
        (["1", None, "10"], [1.0, 0.3, 10.0]),  # the backoff goes on underneath the hints
    ],
)
def test_retry_after_on_the_poll_answer_is_a_floor(hints, expected):
    clock = FakeClock()
    api = MockAPI(*[poll("queued", retry_after=h) for h in hints], poll("completed"))
    fake_client(api, clock).jobs.wait("job-1")
    assert clock.sleeps == pytest.approx(expected)


def test_timeout_raises_with_the_last_job_after_a_last_poll_at_the_deadline():
    clock = FakeClock()
    api = MockAPI(poll("queued", percent=10), poll("queued", percent=20))
    seen = []
    with pytest.raises(JobTimeoutError) as info:
        fake_client(api, clock).jobs.wait("job-1", timeout=1.0, on_progress=seen.append)
    err = info.value
    assert err.job.status == "queued" and err.job.progress.percent == 20
    assert err.timeout == 1.0
    assert str(err) == "job job-1 is still queued; stopped waiting after 1 s"
    # 0.2 + 0.3 + 0.45 then the 0.05 s left: the last poll happens exactly at the deadline.
    assert clock.sleeps == pytest.approx([0.2, 0.3, 0.45, 0.05])
    assert sum(clock.sleeps) == pytest.approx(1.0)
    assert len(api.requests) == len(seen) == 5


def test_timeout_zero_polls_once():
    clock = FakeClock()
    api = MockAPI(poll("queued"))
    with pytest.raises(JobTimeoutError):
        fake_client(api, clock).jobs.wait("job-1", timeout=0)
    assert len(api.requests) == 1
    assert clock.sleeps == []


def test_a_long_hint_does_not_overshoot_the_timeout():
    clock = FakeClock()
    api = MockAPI(poll("queued", retry_after="25"))
    with pytest.raises(JobTimeoutError):
        fake_client(api, clock).jobs.wait("job-1", timeout=10)
    assert clock.sleeps == [10.0]
    assert len(api.requests) == 2


def test_finishing_before_the_timeout_returns():
    clock = FakeClock()
    api = MockAPI(poll("queued"), poll("failed", error={"title": "Boom", "detail": "bad spec"}))
    result = fake_client(api, clock).jobs.wait("job-1", timeout=60)
    assert result.status == "failed"
    assert result.error.detail == "bad spec"


def test_transient_errors_while_polling_are_retried_by_the_client():
    clock = FakeClock()
    api = MockAPI(poll("queued"), problem_response(503, "Down", headers={"Retry-After": "1"}),
                  poll("completed"))
    assert fake_client(api, clock).jobs.wait("job-1").status == "completed"
    assert clock.sleeps == pytest.approx([0.2, 1.0])


def test_unknown_job_raises_not_found():
    api = MockAPI(problem_response(404, "Not Found", "No job job-9"))
    with pytest.raises(NotFoundError, match="No job job-9"):
        fake_client(api).jobs.wait("job-9")


def test_unknown_job_fields_are_kept():
    api = MockAPI(poll("completed", attempts=2))
    assert fake_client(api).jobs.wait("job-1").attempts == 2


def test_polls_run_under_the_wait_timeout_transient_503s_end_as_job_timeout():
    clock = FakeClock()
    api = MockAPI(poll("queued"), problem_response(503, "Down", headers={"Retry-After": "10"}))
    with pytest.raises(JobTimeoutError) as info:
        fake_client(api, clock).jobs.wait("job-1", timeout=5)
    assert info.value.job.status == "queued"
    assert sum(clock.sleeps) <= 5


def test_a_hanging_poll_is_bounded_by_the_wait_timeout():
    clock = FakeClock()
    seen = []

    def hang(request):
        seen.append(request.extensions["timeout"]["read"])
        clock.now += seen[-1]  # the read time-out runs out
        raise httpx.ReadTimeout("timed out", request=request)

    api = MockAPI(poll("queued"), hang)
    client = fake_client(api, clock, max_retries=0)
    with pytest.raises(JobTimeoutError):
        client.jobs.wait("job-1", timeout=5)
    assert seen and max(seen) <= 5 + 1.0  # the timeout, plus the last poll's moment to answer
    assert client._current_deadline() is None


def test_a_retry_cut_short_by_an_enclosing_deadline_is_a_job_timeout():
    clock = FakeClock()
    api = MockAPI(poll("queued"), problem_response(503, "Down", headers={"Retry-After": "10"}))
    client = fake_client(api, clock)
    with client.deadline(5), pytest.raises(JobTimeoutError) as info:
        client.jobs.wait("job-1")
    assert info.value.job.status == "queued"
