"""Bad input gets a 4xx problem+json naming the problem, never a 5xx, through the real service on
SQLite and PostgreSQL: JSON nested too deep, ids beyond the service's integers (2**31-1 on both),
text the database cannot store, text over its length, an upload named '..', a wrong method, an
external $ref. The admin commands refuse the same numbers, and text longer than its column, with
one ``Error:`` line."""

from __future__ import annotations

import json

import subprocess

import httpx
import pytest

from docsvc.server.problems import MAX_ID
from tests.support import PNG, command, connected_org

BEYOND = f"a number beyond {MAX_ID} is out of range"



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


@pytest.mark.parametrize("n", [2**31, 2**63, 10**20])  # 2**31: beyond PostgreSQL's integer, held by SQLite's
@pytest.mark.parametrize("method, path, field", [("PATCH", "/items/captures/{n}", "item_id"),
                                                 ("GET", "/captures/{n}", "item_id"),
                                                 ("GET", "/docflows/{n}", "item_id"),
                                                 ("GET", "/items/captures?release_id={n}", "release_id"),
                                                 ("GET", "/search?q=x&integration_id={n}", "integration_id")])
def test_ids_beyond_the_services_integers_are_422_naming_the_field(api, method, path, field, n):
    client, _, _ = api
    answer = client.request(method, path.format(n=n), json={"title": "x"} if method == "PATCH" else None)
    body = problem(answer, 422)
    assert body["errors"][0]["loc"] == ["query" if "?" in path else "path", field]
    if field != "release_id":  # a tag filter: "an ID or 'none'"
        assert body["detail"] == f"{field}: {BEYOND}"


@pytest.mark.parametrize("path", ["/items/captures?release_id={n}", "/docflows/{n}"])
def test_the_largest_id_is_looked_up(api, path):
    client, _, _ = api
    assert client.get(path.format(n=MAX_ID)).status_code in (200, 404)


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
@pytest.mark.parametrize("n", [2**31, 2**70])
def test_a_number_too_large_in_a_body_is_422_naming_the_field(api, method, path, field, n):
    client, _, item = api
    body = problem(client.request(method, path.format(item=item), json={field: n}), 422)
    assert body["detail"] == f"{field}: {BEYOND}"
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


def admin(service, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*command("docsvc-server"), *args], cwd=service.workdir, env=service.env(),
                          capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=120)


def refused(done: subprocess.CompletedProcess) -> str:
    """The one ``Error:`` line of a usage error (exit 2), never a traceback."""
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr[-2000:]
    errors = [line for line in done.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1, done.stderr[-2000:]
    return errors[0]


@pytest.mark.parametrize("n", [2**31, 2**63 - 1])  # the help said 2**63-1; PostgreSQL held 2**31-1
@pytest.mark.parametrize("args, option, least", [
    (["credits", "set", "--org", "Bad Input", "--amount", "{n}"], "'--amount'", 0),
    (["keys", "revoke", "{n}"], "'KEY_ID'", 1),
    (["integrations", "webhook", "--integration", "{n}"], "'--integration'", 1),
    (["integrations", "update", "--integration", "{n}", "--keep-in-sync"], "'--integration'", 1),
    (["integrations", "deliveries", "--integration", "{n}"], "'--integration'", 1),
    (["api-specs", "set", "--org", "Bad Input", "--integration", "{n}", "--path", "a.yaml"], "'--integration'", 1),
    (["integrations", "update", "--integration", "1", "--github-app-id", "{n}"], "'--github-app-id'", 0),
])
def test_admin_numbers_beyond_the_services_integers_are_one_line(api, service, args, option, least, n):
    line = refused(admin(service, *(a.format(n=n) for a in args)))
    assert line == f"Error: Invalid value for {option}: {n} is not in the range {least}<=x<={MAX_ID}."


def test_the_largest_amount_is_stored(api, service):
    assert admin(service, "credits", "set", "--org", "Bad Input", "--amount", str(MAX_ID)).stdout.strip() == str(MAX_ID)
    admin(service, "credits", "set", "--org", "Bad Input", "--amount", "0")


LONG = "x" * 1000


@pytest.mark.parametrize("args, option, limit", [
    (["items", "add", "captures", "--org", "Bad Input", "--title", "x" * 100_000], "--title", 500),  # the API's cap
    (["init", "--org", LONG, "--admin-email", "long@example.test"], "--org", 200),
    (["init", "--org", "Long Admin", "--admin-email", LONG + "@example.test"], "--admin-email", 320),
    (["releases", "add", "--org", "Bad Input", "--name", LONG], "--name", 200),
    (["integrations", "add", "--org", "Bad Input", "--name", LONG, "--code-repo", "/c", "--docs-repo", "/d"],
     "--name", 200),
    (["integrations", "add", "--org", "Bad Input", "--name", "n", "--code-repo", "/c", "--docs-repo", "/d",
      "--docs-path", LONG], "--docs-path", 500),
    (["users", "add", "--org", "Bad Input", "--role", "writer", "--email", LONG + "@example.test"], "--email", 320),
    (["users", "add", "--org", "Bad Input", "--role", "writer", "--email", "w@example.test", "--name", LONG],
     "--name", 200),
    (["api-specs", "set", "--org", "Bad Input", "--integration", "1", "--path", "a.yaml", "--branch", LONG],
     "--branch", 200),
])
def test_admin_text_longer_than_its_column_is_one_line(api, service, args, option, limit):
    before = admin(service, "items", "add", "captures", "--org", "Bad Input", "--title", "before")
    line = refused(admin(service, *args))
    given = len(args[args.index(option) + 1])
    assert line == f"Error: Invalid value for '{option}': at most {limit} characters, got {given}"
    after = admin(service, "items", "add", "captures", "--org", "Bad Input", "--title", "after")
    assert int(after.stdout.split()[-1]) == int(before.stdout.split()[-1]) + 1  # nothing written between
