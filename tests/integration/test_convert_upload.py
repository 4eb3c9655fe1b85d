"""``POST /convert``'s additions for large specs, through the real service: the spec as a
multipart ``file`` part, ``inline_document: false`` (the document is then read raw from
``/conversions/<id>/document``), and the interface's JSON form unchanged beside them. Bad forms are
a 4xx naming the field."""

from __future__ import annotations

import json

import httpx
import pytest

SPEC = {"openapi": "3.0.3", "info": {"title": "Pets", "version": "1"}, "paths": {"/pets": {"get": {
    "summary": "List pets", "responses": {"200": {"description": "ok"}}}}}}


@pytest.fixture(scope="module")
def api(service):
    key = service.admin("init", "--org", "Uploads", "--admin-email", "up@uploads.test")
    with httpx.Client(base_url=service.base_url + "/api/v1", headers={"Authorization": f"Bearer {key}"},
                      timeout=60) as client:
        yield client


def finished(client: httpx.Client, answer: httpx.Response) -> dict:
    assert answer.status_code == 202, answer.text
    job = client.get(f"/jobs/{answer.json()['job_id']}", params={"wait": 10}).json()
    assert job["status"] == "completed", job
    return job["result"]


def problem(answer: httpx.Response, status: int) -> str:
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"].startswith("application/problem+json")
    return answer.json()["detail"]


def test_the_json_form_still_holds_the_document(api):
    result = finished(api, api.post("/convert", json={"source_type": "openapi", "target_format": "md",
                                                      "content": json.dumps(SPEC)}))
    assert "`GET /pets`" in result["document"]
    assert api.get(f"/conversions/{result['item_id']}/document").text == result["document"]


def test_a_file_part_converts_the_same(api):
    inline = finished(api, api.post("/convert", json={"source_type": "openapi", "target_format": "rst",
                                                      "content": json.dumps(SPEC)}))
    answer = api.post("/convert", data={"source_type": "openapi", "target_format": "rst"},
                      files={"file": ("pets.json", json.dumps(SPEC).encode(), "application/json")})
    assert finished(api, answer)["document"] == inline["document"]


def test_inline_document_false_leaves_it_to_the_download(api):
    answer = api.post("/convert", data={"source_type": "openapi", "target_format": "md", "inline_document": "false"},
                      files={"file": ("pets.json", json.dumps(SPEC).encode())})
    result = finished(api, answer)
    assert "document" not in result
    download = api.get(f"/conversions/{result['item_id']}/document")
    assert download.headers["content-type"] == "text/markdown; charset=utf-8"
    assert "`GET /pets`" in download.text
    result = finished(api, api.post("/convert", json={"source_type": "openapi", "target_format": "md",
                                                      "content": json.dumps(SPEC), "inline_document": False}))
    assert "document" not in result and result["item_id"]


@pytest.mark.parametrize("fields, files, status, expected", [
    ({"source_type": "openapi", "target_format": "md"}, None, 422, "file: the spec is missing"),
    ({"source_type": "openapi", "target_format": "md", "file": "{}"}, None, 422, "file: the spec is missing"),
    ({"source_type": "openapi", "target_format": "md"}, [("file", ("a.json", b"{}")), ("file", ("b.json", b"{}"))],
     422, "file: send one spec file"),
    ({"source_type": "openapi", "target_format": "md"}, [("file", ("bad.json", b"\xff\xfe{"))], 422,
     "file: bad.json: not UTF-8 text (byte 0)"),
    ({"source_type": "openapi", "target_format": "md"}, [("file", ("broken.json", b'{"openapi": "3.0.0",\n "info"'))],
     422, "file: line 2: not valid JSON"),
    ({"source_type": "openapi", "target_format": "md", "inline_document": "maybe"},
     [("file", ("a.json", json.dumps(SPEC).encode()))], 422, "inline_document: must be true or false"),
    ({"source_type": "openapi", "target_format": "md", "content": "{}"},
     [("file", ("a.json", json.dumps(SPEC).encode()))], 422, "content: send the spec once"),
    ({"source_type": "swagger", "target_format": "md"}, [("file", ("a.json", b"{}"))], 422, "source_type: must be one of"),
])
def test_bad_forms_are_4xx_naming_the_field(api, fields, files, status, expected):
    detail = problem(api.post("/convert", data=fields, files=files or {"unused": ("x", b"")} if files is None else files),
                     status)
    assert detail.startswith(expected), detail


def test_a_broken_multipart_body_is_400(api):
    answer = api.post("/convert", content=b"--b\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\nxx",
                      headers={"Content-Type": "multipart/form-data"})
    assert problem(answer, 400).startswith("The multipart/form-data body has no boundary")


def test_a_held_poll_answers_when_the_job_ends(api):
    answer = api.post("/convert", json={"source_type": "openapi", "target_format": "md", "content": json.dumps(SPEC)})
    polled = api.get(f"/jobs/{answer.json()['job_id']}", params={"wait": 8})
    assert polled.json()["status"] == "completed"
    # Woken by the worker that ended it, not at the end of the hold.
    assert float(polled.headers.get("x-docsvc-waited", "0")) < 4
