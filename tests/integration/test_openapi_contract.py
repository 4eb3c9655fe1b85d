"""The OpenAPI document is the contract: it names every endpoint of ``docsvc.endpoints`` and
nothing else, every error answer is a problem+json ``Problem``, bodies and the bearer scheme are
described, and schemathesis, fuzzing the real service (SQLite, then PostgreSQL when set) from the
document alone, finds no server error and no answer that breaks it."""

from __future__ import annotations

import re

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings

from docsvc.endpoints import ENDPOINTS
from docsvc.models.requests import REQUEST_BODIES
from tests.support import connected_org

# No job workers: the fuzzer starts jobs by the hundred; their acceptance is what is tested here.
SERVICE_ENV = {"DOCSVC_SERVER_JOB_WORKERS": "0"}
PREFIX = "/api/v1"
# The bar: no server error, and every answer as the document says (status, media type,
# schema, headers). Whether the service accepts each schema-valid value is not asked here.
CHECKS = [schemathesis.checks.not_a_server_error, schemathesis.checks.status_code_conformance,
          schemathesis.checks.content_type_conformance, schemathesis.checks.response_schema_conformance,
          schemathesis.checks.response_headers_conformance]


def shape(path: str) -> str:
    return re.sub(r"\{[^}]*\}", "{}", path)


@pytest.fixture(scope="module")
def key(service, tmp_path_factory) -> str:
    return connected_org(service, tmp_path_factory.mktemp("contract"), "Contract")[0]


@pytest.fixture(scope="module")
def document(service) -> dict:
    answer = httpx.get(f"{service.base_url}{PREFIX}/openapi.json", timeout=30)
    assert answer.status_code == 200
    return answer.json()


def test_the_document_names_every_endpoint_and_nothing_else(document):
    described = {(e.method, shape(e.path)) for e in ENDPOINTS}
    served = {(method.upper(), shape(path.removeprefix(PREFIX))) for path, ops in document["paths"].items()
              for method in ops}
    assert served == described


def test_every_operation_answers_errors_as_problems_behind_the_api_key(document):
    problem = {"$ref": "#/components/schemas/Problem"}
    assert document["components"]["securitySchemes"]["apiKey"] == {
        "type": "http", "scheme": "bearer", "description": "An API key: `docsvc-server keys create`"}
    assert document["security"] == [{"apiKey": []}]
    for path, ops in document["paths"].items():
        for method, operation in ops.items():
            errors = operation["responses"]["4XX"]["content"]
            assert errors == {"application/problem+json": {"schema": problem}}, (method, path)
            assert "422" not in operation["responses"] or "HTTPValidationError" not in str(operation["responses"])
    assert set(document["components"]["schemas"]["Problem"]["properties"]) >= {"type", "title", "status", "detail"}


def test_the_bodies_that_start_work_are_described(document):
    for (method, path), model in REQUEST_BODIES.items():
        body = document["paths"][PREFIX + re.sub(r"\{(\w+)\}", r"{\1}", path)][method.lower()]["requestBody"]
        assert body["content"]["application/json"]["schema"] == {"$ref": f"#/components/schemas/{model.__name__}"}
    assert document["components"]["schemas"]["ConvertRequest"]["properties"]["source_type"]["enum"] == [
        "openapi", "helm"]
    note = document["components"]["schemas"]["ItemPatch"]["properties"]["status_note"]
    assert any(option.get("maxLength") == 4000 for option in note["anyOf"])
    pr = document["components"]["schemas"]["PullRequestData"]["properties"]  # the bounds the service holds it to
    assert (pr["title"]["maxLength"], pr["body"]["maxLength"], pr["url"]["maxLength"]) == (500, 65536, 2048)


def test_no_server_error_and_no_answer_breaks_the_document(service, key):
    schema = schemathesis.openapi.from_url(f"{service.base_url}{PREFIX}/openapi.json")
    tested = 0
    for found in schema.get_all_operations():
        operation = found.ok()

        @settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True,
                  database=None)
        @given(case=operation.as_strategy())
        def call(case):
            case.call_and_validate(headers={"Authorization": f"Bearer {key}"}, checks=CHECKS, timeout=60)

        call()
        tested += 1
    assert tested == len(ENDPOINTS)


def test_the_webhooks_are_signed_not_behind_the_api_key(document):
    for host, header in (("github", "X-Hub-Signature-256"), ("gitlab", "X-Gitlab-Token")):
        operation = document["paths"][f"{PREFIX}/webhooks/{host}/{{integration_id}}"]["post"]
        assert operation["security"] == []
        assert header in {p["name"] for p in operation["parameters"] if p["in"] == "header"}
        assert {"200", "202", "4XX"} <= set(operation["responses"])
