"""Error answers become typed exceptions with a readable one-line message and no secret."""

from __future__ import annotations

import pickle
import traceback

import httpx
import pytest

from docsvc.client import (
    APIConnectionError,
    APIResponseValidationError,
    APIStatusError,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    DocsvcError,
    InsufficientCreditsError,
    InternalServerError,
    JobTimeoutError,
    NotFoundError,
    NotImplementedByServiceError,
    PayloadTooLargeError,
    PermissionDeniedError,
    RateLimitError,
    UnprocessableEntityError,
    error_for_status,
)
from docsvc.client.testing import (
    TEST_API_KEY,
    MockAPI,
    fake_client,
    json_response,
    problem_response,
)
from docsvc.models.jobs import Job
from docsvc.models.problem import Problem


@pytest.mark.parametrize(
    "status, cls",
    [
        (400, BadRequestError),
        (401, AuthenticationError),
        (402, InsufficientCreditsError),
        (403, PermissionDeniedError),
        (404, NotFoundError),
        (409, ConflictError),
        (413, PayloadTooLargeError),
        (422, UnprocessableEntityError),
        (429, RateLimitError),
        (501, NotImplementedByServiceError),
        (500, InternalServerError),
        (502, InternalServerError),
        (503, InternalServerError),
        (504, InternalServerError),
        (599, InternalServerError),
        (405, APIStatusError),
        (418, APIStatusError),
        (302, APIStatusError),
    ],
)
def test_error_class_per_status(status, cls):
    assert error_for_status(status) is cls
    api = MockAPI(problem_response(status, "Trouble", f"detail of {status}"))
    with pytest.raises(cls) as info:
        fake_client(api, max_retries=0).items.list("docflows")
    err = info.value
    assert type(err) is cls
    assert isinstance(err, APIStatusError) and isinstance(err, DocsvcError)
    assert err.status_code == status
    assert err.detail == f"detail of {status}"
    assert str(err) == f"{status} Trouble: detail of {status}"


@pytest.mark.parametrize(
    "answer, message",
    [
        (problem_response(404, "Not Found", "Item 12 not found"),
         "404 Not Found: Item 12 not found"),
        # No title: the reason phrase of the status.
        (problem_response(404, "", "Item 12 not found"), "404 Not Found: Item 12 not found"),
        (problem_response(409, "Conflict"), "409 Conflict"),
        (problem_response(403, "Forbidden", "Only the item's writer\nor an admin\n  may do this"),
         "403 Forbidden: Only the item's writer or an admin may do this"),
        (problem_response(422, "Unprocessable Entity",
                          errors=[{"loc": ["body", "work_status"], "msg": "not a status"},
                                  {"loc": [], "msg": "bad"}]),
         "422 Unprocessable Entity: body.work_status: not a status; bad"),
        # Not problem+json: the body text (one line), under the reason phrase.
        (httpx.Response(502, text="<html>\n<h1>Bad gateway</h1>\n</html>"),
         "502 Bad Gateway: <html> <h1>Bad gateway</h1> </html>"),
        (httpx.Response(500, text=""), "500 Internal Server Error"),
        (httpx.Response(404, json=["not", "a", "problem"]), '404 Not Found: ["not","a","problem"]'),
        (httpx.Response(400, json={"title": 5, "errors": "nope"}),
         '400 Bad Request: {"title":5,"errors":"nope"}'),
    ],
    ids=["title+detail", "no-title", "no-detail", "multiline", "validation", "html", "empty",
         "json-list", "malformed-problem"],
)
def test_str_is_one_readable_line(answer, message):
    with pytest.raises(APIStatusError) as info:
        fake_client(MockAPI(answer), max_retries=0).me.get()
    assert str(info.value) == message
    assert "\n" not in repr(info.value)


def test_long_bodies_are_truncated_in_the_message_but_kept_on_the_problem():
    detail = "x" * 5000
    with pytest.raises(APIStatusError) as info:
        fake_client(MockAPI(problem_response(400, "Bad Request", detail)), max_retries=0).me.get()
    assert len(str(info.value)) < 400
    assert str(info.value).endswith("…")
    assert info.value.problem.detail == detail


def test_error_carries_problem_headers_and_retry_after():
    answer = problem_response(429, "Too Many Requests", "slow down",
                              headers={"Retry-After": "7"}, instance="/api/v1/me/work",
                              limit=100)
    with pytest.raises(RateLimitError) as info:
        fake_client(MockAPI(answer), max_retries=0).me.work()
    err = info.value
    assert isinstance(err.problem, Problem)
    assert err.problem.title == "Too Many Requests"
    assert err.problem.status == 429
    # Unknown problem members are kept.
    assert err.problem.instance == "/api/v1/me/work"
    assert err.problem.limit == 100
    assert err.headers["retry-after"] == "7"
    assert err.retry_after == 7.0


def test_retry_after_is_none_without_the_header():
    with pytest.raises(NotFoundError) as info:
        fake_client(MockAPI(problem_response(404, "Not Found")), max_retries=0).me.get()
    assert info.value.retry_after is None


def test_status_error_can_be_built_from_a_mapping_or_nothing():
    err = NotFoundError(404, {"title": "Not Found", "detail": "no such item"}, {"x": "1"})
    assert str(err) == "404 Not Found: no such item"
    assert err.problem.status == 404
    assert str(APIStatusError(418)) == "418 I'm a Teapot"
    assert str(APIStatusError(299)) == "299"


def test_key_never_appears_in_errors_even_when_the_server_echoes_it():
    echo = problem_response(401, f"Unknown key {TEST_API_KEY}",
                            f"The key {TEST_API_KEY} is not valid", key=TEST_API_KEY)
    with pytest.raises(AuthenticationError) as info:
        fake_client(MockAPI(echo), max_retries=0).me.get()
    err = info.value
    rendered = [str(err), repr(err), "".join(traceback.format_exception(err)),
                repr(err.problem), str(err.problem.model_dump()), repr(dict(err.headers)),
                repr(vars(err))]
    for text in rendered:
        assert TEST_API_KEY not in text
    assert "[redacted]" in str(err)


@pytest.mark.parametrize("answer", [httpx.ConnectError("refused"), httpx.ReadTimeout("slow"),
                                    httpx.Response(200, text="<html>login</html>")])
def test_key_never_appears_in_other_errors(answer):
    with pytest.raises(DocsvcError) as info:
        fake_client(MockAPI(answer), max_retries=1).me.get()
    err = info.value
    assert TEST_API_KEY not in str(err) + repr(err)
    assert TEST_API_KEY not in "".join(traceback.format_exception(err))
    assert "Bearer" not in str(err)


def test_key_in_a_transport_error_is_redacted_and_not_chained():
    leak = httpx.LocalProtocolError(f"Illegal header value b'Bearer {TEST_API_KEY}'")
    with pytest.raises(APIConnectionError) as info:
        fake_client(MockAPI(leak)).me.work()
    assert TEST_API_KEY not in "".join(traceback.format_exception(info.value))
    assert "[redacted]" in str(info.value)
    assert info.value.__cause__ is None


def test_connection_error_names_the_call():
    with pytest.raises(APIConnectionError) as info:
        fake_client(MockAPI(httpx.ConnectError("connection refused")), max_retries=0).me.work()
    assert str(info.value) == "GET https://docsvc.test/api/v1/me/work: connection refused"


def test_non_json_success_answer_is_a_validation_error():
    answer = httpx.Response(200, text="<html>proxy login</html>",
                            headers={"content-type": "text/html"})
    with pytest.raises(APIResponseValidationError, match=r"GET /api/v1/me/work: .*not JSON"):
        fake_client(MockAPI(answer)).me.work()


def test_wrong_shape_answer_is_a_validation_error():
    with pytest.raises(APIResponseValidationError, match=r"GET /api/v1/releases: .*shape"):
        fake_client(MockAPI(json_response(200, [{"name": "no id"}]))).releases.list()


def test_job_timeout_error_carries_the_last_job():
    job = Job(job_id="j7", status="queued")
    err = JobTimeoutError(job, 30)
    assert err.job is job
    assert isinstance(err, DocsvcError)
    assert str(err) == "job j7 is still queued; stopped waiting after 30 s"
    assert str(JobTimeoutError(job)) == "job j7 is still queued; stopped waiting"


def test_errors_survive_pickling_for_multiprocessing_runners():
    err = pickle.loads(pickle.dumps(APIConnectionError("GET x: refused")))
    assert str(err) == "GET x: refused"
    err = pickle.loads(pickle.dumps(NotFoundError(404, {"title": "Not Found", "detail": "gone"},
                                                  {"x-request-id": "r1"})))
    assert type(err) is NotFoundError
    assert str(err) == "404 Not Found: gone"
    assert (err.status_code, err.headers["x-request-id"]) == (404, "r1")
    err = pickle.loads(pickle.dumps(JobTimeoutError(Job(job_id="j1", status="queued"), 5)))
    assert (err.job.job_id, err.timeout) == ("j1", 5)


@pytest.mark.parametrize("answer", [httpx.Response(200), httpx.Response(200, content=b"null"),
                                    httpx.Response(204)], ids=["empty", "null", "204"])
def test_no_data_where_a_model_is_expected_is_a_validation_error(answer):
    with pytest.raises(APIResponseValidationError, match=r"GET /api/v1/me/work: an empty answer"):
        fake_client(MockAPI(answer)).me.work()


def test_an_empty_job_ref_is_a_validation_error_not_none():
    with pytest.raises(APIResponseValidationError, match=r"POST /api/v1/convert: an empty answer"):
        fake_client(MockAPI(httpx.Response(202, content=b"null"))).convert.create(
            source_type="openapi", content="{}")


def test_only_an_endpoint_documented_as_empty_may_answer_nothing():
    assert fake_client(MockAPI(httpx.Response(204))).items.delete("docflows", 3).deleted
    with pytest.raises(APIResponseValidationError):
        fake_client(MockAPI(httpx.Response(200, content=b"null"))).items.delete("docflows", 3)
