"""``docsvc convert``'s request: the spec as a file part, and the interface's JSON body for a
service that refuses the form."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from docsvc.cli.convert import _start
from docsvc.client import UnprocessableEntityError
from docsvc.client.testing import MockAPI, fake_client, json_response, problem_response

JOB = {"status": "queued", "job_id": "j1"}


def test_the_spec_goes_as_a_file_without_the_document_in_the_result():
    api = MockAPI(json_response(202, JOB))
    assert _start(fake_client(api), Path("api.json"), "openapi", b"{}", "md").job_id == "j1"
    assert len(api.requests) == 1
    assert api.last.headers["content-type"].startswith("multipart/form-data")
    assert b'name="inline_document"\r\n\r\nfalse' in api.last.content


@pytest.mark.parametrize("status", [400, 415])
def test_a_service_that_takes_only_json_gets_the_interface_body(status):
    api = MockAPI(problem_response(status, "The request body is not valid JSON"), json_response(202, JOB))
    assert _start(fake_client(api), Path("api.json"), "openapi", b"{}", "md").job_id == "j1"
    assert len(api.requests) == 2
    assert json.loads(api.last.content) == {"source_type": "openapi", "content": "{}", "target_format": "md"}


def test_a_refused_spec_is_not_sent_again():
    api = MockAPI(problem_response(422, "Unprocessable", "file: line 1: not valid JSON"))
    with pytest.raises(UnprocessableEntityError):
        _start(fake_client(api), Path("api.json"), "openapi", b"{", "md")
    assert len(api.requests) == 1
