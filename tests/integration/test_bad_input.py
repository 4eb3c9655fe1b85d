"""Bad input gets a 4xx problem+json naming the problem, never a 5xx, through the real service on
SQLite and PostgreSQL: JSON nested too deep, ids beyond the databases' integers, text the database
cannot store, text over its length, an upload named '..', a wrong method, an external $ref."""

from __future__ import annotations

import json

import httpx
import pytest

from tests.support import PNG, connected_org



@pytest.fixture(scope="module")
def api(service, tmp_path_factory):
    key, integration = connected_org(service, tmp_path_factory.mktemp("bad-input"), "Bad Input")
    with httpx.Client(base_url=service.base_url + "/api/v1", headers={"Authorization": f"Bearer {key}"},
                      timeout=60) as client:
        item = int(service.admin("items", "add", "captures", "--org", "Bad Input", "--title", "A capture"))
        yield client, int(integration), item


def problem(response: httpx.Response, status: int) -> dict:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    return response.json()


@pytest.mark.parametrize("method, path", [("POST", "/convert"), ("POST", "/docflows/generate"), ("POST", "/sync"),
                                          ("PATCH", "/items/captures/{item}")])
def test_json_nested_too_deep_is_400(api, method, path):
    client, _, item = api
    deep = '{"a":' * 50_000 + "1" + "}" * 50_000
    response = client.request(method, path.format(item=item), content=deep, headers={"Content-Type": "application/json"})
    assert problem(response, 400)["detail"] == "The request nests too deeply to be read"


@pytest.mark.parametrize("content_type", ["text/plain", "application/xml", "application/x-www-form-urlencoded"])
@pytest.mark.parametrize("method, path, expected", [
    ("POST", "/sync", "application/json"),  # a body model
    ("PATCH", "/items/captures/{item}", "application/json"),
    ("POST", "/chats", "application/json"),  # a route that reads its own JSON
    ("POST", "/convert", "application/json or multipart/form-data"),
])
def test_a_json_body_sent_as_another_type_is_415_naming_the_type(api, method, path, expected, content_type):
    client, integration, item = api
    response = client.request(method, path.format(item=item), content=json.dumps({"integration_id": integration}),
                              headers={"Content-Type": content_type})
    assert problem(response, 415)["detail"] == f"The request body must be {expected}, not {content_type}"


def test_a_json_body_without_a_content_type_is_read_as_json(api):
    client, _, item = api
    response = client.patch(f"/items/captures/{item}", content=json.dumps({"title": "No type given"}))
    assert response.status_code == 200 and response.json()["title"] == "No type given"


def test_a_bad_query_parameter_is_located_in_the_query(api, service):
    client, _, _ = api
    suggestion = int(service.admin("items", "add", "docflows", "--org", "Bad Input", "--title", "Format"))
    body = problem(client.get(f"/docflows/{suggestion}?format=xml"), 422)
    assert body["errors"] == [{"loc": ["query", "format"], "msg": "the only format is 'diff'"}]


@pytest.mark.parametrize("method, path", [("PATCH", "/items/captures/9223372036854775808"),
                                          ("GET", "/captures/99999999999999999999"),
                                          ("GET", "/docflows/9223372036854775808")])
def test_ids_beyond_the_databases_integers_are_422_naming_the_field(api, method, path):
    client, _, item = api
    body = problem(client.request(method, path, json={"title": "x"} if method == "PATCH" else None), 422)
    assert body["detail"].startswith("item_id: a number beyond 9223372036854775807")


@pytest.mark.parametrize("digits", [25, 4301])  # 4,301: more than Python's int() reads from text
@pytest.mark.parametrize("method, path", [
    ("GET", "/docflows/{n}"), ("PATCH", "/items/docflows/{n}"), ("DELETE", "/items/docflows/{n}"),
    ("GET", "/captures/{n}/zoom"), ("POST", "/repos/{n}/request-sync"), ("GET", "/feature-drafts/{n}/release-notes"),
    ("POST", "/docflows/{n}/sync"), ("POST", "/oas/scans/{n}/pull-request"), ("GET", "/items/docflows?writer_id={n}"),
    ("GET", "/items/docflows?release_id={n}"), ("GET", "/dashboard?writer_id={n}"), ("GET", "/dashboard?release_id={n}")])
def test_an_id_of_any_length_is_a_4xx_naming_it(api, method, path, digits):
    client, _, _ = api
    n = "9" * digits
    answer = client.request(method, path.format(n=n), json={"title": "x"} if method == "PATCH" else
                            {"targets": ["docs"]} if method == "POST" else None)
    assert answer.status_code in (404, 422), answer.text[:300]
    assert answer.headers["content-type"].startswith("application/problem+json")


def test_an_integration_id_of_any_length_in_the_docflow_form_is_422(api):
    client, _, _ = api
    pr = {"number": 1, "title": "t", "body": "", "author": "wes", "branch": "b"}
    form = {"integration_id": (None, "9" * 4301), "pr_data": (None, json.dumps(pr))}
    answer = client.post("/docflows/generate", files=form)  # multipart, as the CLI sends it
    assert answer.status_code == 422 and "integration_id" in answer.json()["detail"], answer.text[:300]


@pytest.mark.parametrize("method, path, field", [("PATCH", "/items/captures/{item}", "release_id"),
                                                 ("POST", "/sync", "integration_id")])
def test_a_number_too_large_in_a_body_is_422_naming_the_field(api, method, path, field):
    client, _, item = api
    body = problem(client.request(method, path.format(item=item), json={field: 2**70}), 422)
    assert body["detail"] == f"{field}: a number beyond 9223372036854775807 is out of range"
    assert body["errors"][0]["loc"] == ["body", field]


def test_a_lone_surrogate_is_422_naming_the_field(api):
    client, _, item = api
    raw = json.dumps({"title": "\ud800"})  # json.dumps writes the lone surrogate as \ud800
    body = problem(client.patch(f"/items/captures/{item}", content=raw, headers={"Content-Type": "application/json"}),
                   422)
    assert body["detail"].startswith("title: ")


def test_a_nul_character_is_stored_or_refused_with_422(api, service):
    client, _, item = api
    response = client.patch(f"/items/captures/{item}", json={"title": "a\u0000b"})
    if service.backend == "postgresql":  # PostgreSQL cannot store NUL in text
        assert "NUL" in problem(response, 422)["detail"]
    else:
        assert response.status_code == 200, response.text


def test_text_over_its_length_is_422(api):
    client, _, item = api
    body = problem(client.patch(f"/items/captures/{item}", json={"status_note": "x" * 5000}), 422)
    assert body["detail"].startswith("status_note: ") and "4000" in body["detail"]


def test_an_upload_named_dot_dot_is_422(api):
    client, integration, _ = api
    pr = {"number": 1, "title": "t", "author": "a", "screenshots": [{"filename": "..", "route": "/x"}]}
    response = client.post("/docflows/generate", data={"integration_id": str(integration),
                                                       "pr_data": json.dumps(pr)},
                           files=[("screenshots", ("..", PNG, "image/png"))])
    body = problem(response, 422)
    assert "not a usable file name" in body["detail"]


@pytest.mark.parametrize("method, path, allowed", [("GET", "/docflows/generate", "POST"),
                                                   ("GET", "/docflows/check-docs", "POST"),
                                                   ("DELETE", "/releases", "GET")])
def test_a_wrong_method_is_405_with_allow(api, method, path, allowed):
    client, _, item = api
    response = client.request(method, path)
    problem(response, 405)
    assert response.headers["allow"] == allowed


def test_an_external_ref_in_parameters_converts_with_a_warning(api):
    client, _, item = api
    spec = {"openapi": "3.0.3", "info": {"title": "T", "version": "1"}, "paths": {"/a": {"get": {
        "parameters": [{"$ref": "./params.yaml#/Limit"}], "responses": {"200": {"description": "ok"}}}}}}
    response = client.post("/convert", json={"source_type": "openapi", "target_format": "md",
                                             "content": json.dumps(spec)})
    assert response.status_code in (200, 202), response.text


@pytest.mark.parametrize("query", ["/dashboard?release_id=%C2%B2", "/dashboard?writer_id=%C2%B2",
                                   "/items/captures?release_id=%C2%B2", "/items/captures?release_id=1_0"])
def test_an_id_in_a_query_is_ascii_digits_only(api, query):
    client, _, _ = api
    body = problem(client.get(query), 422)
    assert "must be an ID" in body["detail"]


def test_sync_latest_code_of_a_suggestion_without_an_integration_is_409_before_any_job(api, service):
    client, _, _ = api
    suggestion = int(service.admin("items", "add", "docflows", "--org", "Bad Input", "--title", "Added by hand"))
    service.admin("credits", "set", "--org", "Bad Input", "--amount", "100")
    body = problem(client.post(f"/docflows/{suggestion}/sync"), 409)
    assert body["detail"] == (f"Docflows suggestion {suggestion} has no integration to sync the latest code from "
                              f"(it was not drafted from a pull request, or its integration was removed)")
    assert client.get(f"/docflows/{suggestion}").json()["new_commits"] is False
    # Nothing looked up a NULL primary key (SQLAlchemy's SAWarning in the service's log).
    assert "fully NULL primary key" not in (service.workdir / "server.log").read_text()
