"""Redocly-recommended rules of the validation engine, one by one.

Each rule has a clean base document (per version) that triggers nothing, and a change that makes
the rule fire at a given pointer. The same cases were checked against @redocly/cli 2.77.0 itself
(``tests/fixtures/validate/README.md`` says how): the rule's findings are identical there.
"""

from __future__ import annotations

import copy
import json
from typing import Any, Callable

import pytest

from docsvc.server.engines.validate import run
from docsvc.server.engines.validate.rules import RECOMMENDED


def base(version: str = "3.0") -> dict:
    """A document Redocly's recommended rules and the OpenAPI schemas find nothing wrong with."""
    if version == "2.0":
        return {
            "swagger": "2.0",
            "info": {"title": "Pets", "version": "1.0",
                     "license": {"name": "MIT", "url": "https://opensource.org/licenses/MIT"}},
            "host": "api.pets.test", "basePath": "/v1", "schemes": ["https"],
            "security": [{"apiKey": []}],
            "tags": [{"name": "pets", "description": "Pets."}],
            "paths": {"/pets/{petId}": {"get": {
                "tags": ["pets"], "operationId": "getPet", "summary": "Get a pet", "produces": ["application/json"],
                "parameters": [{"name": "petId", "in": "path", "required": True, "type": "string"}],
                "responses": {"200": {"description": "OK", "schema": {"$ref": "#/definitions/Pet"}},
                              "404": {"description": "Not found"}}}}},
            "definitions": {"Pet": {"type": "object", "required": ["id"],
                                    "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}}},
            "securityDefinitions": {"apiKey": {"type": "apiKey", "in": "header", "name": "X-Key"}},
        }
    return {
        "openapi": "3.1.0" if version == "3.1" else "3.0.3",
        "info": {"title": "Pets", "version": "1.0",
                 "license": {"name": "MIT", "url": "https://opensource.org/licenses/MIT"}},
        "servers": [{"url": "https://api.pets.test/v1"}],
        "security": [{"apiKey": []}],
        "tags": [{"name": "pets", "description": "Pets."}],
        "paths": {"/pets/{petId}": {"get": {
            "tags": ["pets"], "operationId": "getPet", "summary": "Get a pet",
            "parameters": [{"name": "petId", "in": "path", "required": True, "schema": {"type": "string"}}],
            "responses": {
                "200": {"description": "OK", "content": {"application/json": {
                    "schema": {"$ref": "#/components/schemas/Pet"}, "example": {"id": 1, "name": "Rex"}}}},
                "404": {"description": "Not found"}}}}},
        "components": {
            "schemas": {"Pet": {"type": "object", "required": ["id"],
                                "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}}},
            "securitySchemes": {"apiKey": {"type": "apiKey", "in": "header", "name": "X-Key"}},
        },
    }


def _op(doc: dict) -> dict:
    return doc["paths"]["/pets/{petId}"]["get"]


def _pet(doc: dict) -> dict:
    return doc["definitions"]["Pet"] if "swagger" in doc else doc["components"]["schemas"]["Pet"]


def _schemas(doc: dict) -> dict:
    return doc["definitions"] if "swagger" in doc else doc["components"]["schemas"]


def _add_path(doc: dict, path: str, op_id: str, params: list | None = None) -> None:
    op = copy.deepcopy(_op(doc))
    op["operationId"] = op_id
    op["parameters"] = params or []
    doc["paths"][path] = {"get": op}


def _path_param(doc: dict, name: str) -> dict:
    if "swagger" in doc:
        return {"name": name, "in": "path", "required": True, "type": "string"}
    return {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}


def _set(path: list, value: Any) -> Callable[[dict], None]:
    def change(doc: dict) -> None:
        node = doc
        for part in path[:-1]:
            node = node[part]
        node[path[-1]] = value
    return change


def _del(path: list) -> Callable[[dict], None]:
    def change(doc: dict) -> None:
        node = doc
        for part in path[:-1]:
            node = node[part]
        del node[path[-1]]
    return change


# rule -> (versions it applies to, change, the pointer a finding must point at)
CASES: dict[str, tuple[tuple[str, ...], Callable[[dict], None], str]] = {
    "info-license": (("2.0", "3.0", "3.1"), _del(["info", "license"]), "/info"),
    "info-license-strict": (("2.0", "3.0"), _del(["info", "license", "url"]), "/info/license/url"),
    "no-ambiguous-paths": (("2.0", "3.0", "3.1"),
                           lambda d: _add_path(d, "/{kind}/mine", "getMine", [_path_param(d, "kind")]),
                           "/paths/~1{kind}~1mine"),
    "no-identical-paths": (("2.0", "3.0", "3.1"),
                           lambda d: _add_path(d, "/pets/{id}", "getById", [_path_param(d, "id")]),
                           "/paths/~1pets~1{id}"),
    "no-path-trailing-slash": (("2.0", "3.0", "3.1"), lambda d: _add_path(d, "/pets/", "listPets"), "/paths/~1pets~1"),
    "path-declaration-must-exist": (("3.0",), lambda d: _add_path(d, "/pets/{}", "odd"), "/paths/~1pets~1{}"),
    "path-not-include-query": (("3.0",), lambda d: _add_path(d, "/pets?kind=dog", "dogs"), "/paths/~1pets?kind=dog"),
    "path-parameters-defined": (("2.0", "3.0", "3.1"), lambda d: _op(d).pop("parameters"),
                                "/paths/~1pets~1{petId}/get/parameters"),
    "operation-parameters-unique": (("2.0", "3.0", "3.1"),
                                    lambda d: _op(d)["parameters"].append(copy.deepcopy(_op(d)["parameters"][0])),
                                    "/paths/~1pets~1{petId}/get/parameters/1"),
    "operation-operationId": (("2.0", "3.0", "3.1"), lambda d: _op(d).pop("operationId"),
                              "/paths/~1pets~1{petId}/get/operationId"),
    "operation-operationId-unique": (("3.0",), lambda d: _add_path(d, "/owners", "getPet"), "/paths/~1owners/get/getPet"),
    "operation-operationId-url-safe": (("3.0",), _set(["paths", "/pets/{petId}", "get", "operationId"], "get pet"),
                                       "/paths/~1pets~1{petId}/get/operationId"),
    "operation-summary": (("2.0", "3.0", "3.1"), lambda d: _op(d).pop("summary"), "/paths/~1pets~1{petId}/get/summary"),
    "operation-2xx-response": (("3.0",), lambda d: _op(d)["responses"].pop("200"),
                               "/paths/~1pets~1{petId}/get/responses"),
    "operation-4xx-response": (("2.0", "3.0", "3.1"), lambda d: _op(d)["responses"].pop("404"),
                               "/paths/~1pets~1{petId}/get/responses"),
    "security-defined": (("3.0",), _set(["security"], [{"oauth": []}]), "/security/0/oauth"),
    "security-scopes-defined": (("3.0",), lambda d: (
        d["components"]["securitySchemes"].update({"oauth": {"type": "oauth2", "flows": {"clientCredentials": {
            "tokenUrl": "https://auth.pets.test/token", "scopes": {"read": "Read"}}}}}),
        d.update(security=[{"apiKey": []}, {"oauth": ["write"]}])), "/security/1/oauth/0"),
    "tag-description": (("2.0", "3.0", "3.1"), _del(["tags", 0, "description"]), "/tags/0/description"),
    "no-duplicated-tag-names": (("3.0",), lambda d: d["tags"].append({"name": "pets", "description": "Again."}),
                                "/tags/1"),
    "no-enum-type-mismatch": (("2.0", "3.0", "3.1"), lambda d: _pet(d)["properties"]["name"].update(enum=["Rex", 7]),
                              "/properties/name/enum/1"),
    "no-duplicated-enum-values": (("3.0",), lambda d: _pet(d)["properties"]["name"].update(enum=["Rex", "Rex"]),
                                  "/properties/name/enum/1"),
    "no-schema-type-mismatch": (("3.0",), lambda d: _pet(d).update(items={"type": "string"}), "/Pet/items"),
    "nullable-type-sibling": (("3.0",), lambda d: _pet(d)["properties"].update(tag={"nullable": True}),
                              "/properties/tag/nullable"),
    "no-mixed-number-range-constraints": (("3.1",), lambda d: _pet(d)["properties"]["id"].update(
        maximum=10, exclusiveMaximum=11), "/properties/id/exclusiveMaximum"),
    "no-required-schema-properties-undefined": (("2.0", "3.0", "3.1"), lambda d: _pet(d)["required"].append("owner"),
                                                "/Pet/required/1"),
    "no-invalid-schema-examples": (("3.0", "3.1"), lambda d: _pet(d)["properties"]["id"].update(example="one"),
                                   "/properties/id/example"),
    "no-invalid-parameter-examples": (("3.0",), lambda d: _op(d)["parameters"][0].update(example=5),
                                      "/parameters/0/example"),
    "no-invalid-media-type-examples": (("3.0", "3.1"), _set(
        ["paths", "/pets/{petId}", "get", "responses", "200", "content", "application/json", "example"],
        {"id": "x", "name": "Rex", "colour": "red"}), "/content/application~1json/example/id"),
    "no-example-value-and-externalValue": (("3.0",), lambda d: _op(d)["responses"]["200"]["content"][
        "application/json"].update(examples={"rex": {"value": {"id": 1}, "externalValue": "https://pets.test/rex.json"}}),
        "/examples/rex/value"),
    "no-server-example.com": (("3.0",), _set(["servers", 0, "url"], "https://example.com/v1"), "/servers/0/url"),
    "no-server-trailing-slash": (("3.0",), _set(["servers", 0, "url"], "https://api.pets.test/v1/"), "/servers/0/url"),
    "no-server-variables-empty-enum": (("3.0",), _set(["servers", 0], {
        "url": "https://{region}.pets.test", "variables": {"region": {"default": "eu", "enum": []}}}), "/servers"),
    "no-undefined-server-variable": (("3.0",), _set(["servers", 0, "url"], "https://{region}.pets.test"),
                                     "/servers/0/url"),
    "no-empty-servers": (("3.0",), _del(["servers"]), "/openapi"),
    "no-unused-components": (("3.0",), lambda d: _schemas(d).update(Owner={"type": "object"}), "/components/schemas/Owner"),
    "spec-components-invalid-map-name": (("3.0",), lambda d: _schemas(d).update({"Pet Owner": {"type": "object"}}),
                                         "/components/schemas/Pet Owner"),
    "no-unresolved-refs": (("2.0", "3.0", "3.1"), lambda d: _pet(d)["properties"].update(
        owner={"$ref": "#/definitions/Owner" if "swagger" in d else "#/components/schemas/Owner"}),
        "/properties/owner"),
    "spec-ref-siblings": (("3.0",), lambda d: (
        d["components"].update(parameters={"PetId": _op(d)["parameters"][0]}),
        _op(d).update(parameters=[{"$ref": "#/components/parameters/PetId", "description": "The pet."}])),
        "/parameters/0/description"),
    "no-illogical-composition-keywords": (("3.0", "3.1"), lambda d: _pet(d)["properties"].update(
        tag={"oneOf": [{"type": "string"}]}), "/properties/tag/oneOf"),
    "no-unsafe-markdown": (("3.0",), lambda d: _op(d).update(description="Hi <script>alert(1)</script>"),
                           "/get/description"),
}


def case(rule: str, version: str) -> dict:
    doc = base(version)
    CASES[rule][1](doc)
    return doc


def scan(doc: dict, **kwargs):
    return run(json.dumps(doc, indent=2), **kwargs)


@pytest.mark.parametrize("version", ["2.0", "3.0", "3.1"])
def test_the_base_documents_are_clean(version):
    result = scan(base(version))
    assert result.findings == []
    assert result.stats["total"] == 0


_PARAMS = [(rule, version) for rule, (versions, _, _) in CASES.items() for version in versions]


@pytest.mark.parametrize("rule,version", _PARAMS, ids=[f"{r}-{v}" for r, v in _PARAMS])
def test_rule_fires_where_redocly_reports_it(rule, version):
    pointer = CASES[rule][2]
    clean = [f for f in scan(base(version)).findings if f["rule"] == rule]
    assert clean == []
    findings = [f for f in scan(case(rule, version)).findings if f["rule"] == rule]
    assert findings, f"{rule} did not fire"
    hit = [f for f in findings if f["pointer"].endswith(pointer)]
    assert hit, [f["pointer"] for f in findings]
    expected = {"error": "error", "warn": "warning"}[RECOMMENDED[version][rule]]
    assert {f["severity"] for f in findings} == {expected}
    assert {f["source"] for f in findings} == {"redocly"}
    assert all(f["line"] is not None for f in hit)


def test_every_recommended_rule_has_a_case_or_is_struct():
    rules = set().union(*(set(r) for r in RECOMMENDED.values()))
    assert rules - set(CASES) == {"struct"}


def test_messages_follow_redocly():
    def messages(rule, version="3.0"):
        return [f["message"] for f in scan(case(rule, version)).findings if f["rule"] == rule]

    assert messages("info-license") == ["Info object should contain `license` field."]
    assert messages("operation-summary") == ["Operation object should contain `summary` field."]
    assert messages("operation-4xx-response") == ["Operation must have at least one `4XX` response."]
    assert messages("path-parameters-defined") == [
        "The operation does not define the path parameter `{petId}` expected by path `/pets/{petId}`."]
    assert messages("no-invalid-media-type-examples") == [
        "Example value must conform to the schema: `id` property type must be integer.",
        "Example value must conform to the schema: must NOT have unevaluated properties `colour`."]
    assert messages("no-unused-components") == ['Component: "Owner" is never used.']
    assert messages("no-identical-paths") == ["The path already exists which differs only by path parameter "
                                              "name(s): `/pets/{petId}` and `/pets/{id}`."]


def test_security_defined_reports_every_operation_when_nothing_is_secured():
    doc = base("3.0")
    del doc["security"]
    findings = [f for f in scan(doc).findings if f["rule"] == "security-defined"]
    assert [(f["pointer"], f["message"]) for f in findings] == [
        ("/paths/~1pets~1{petId}/get", "Every operation should have security defined on it or on the root level.")]
    doc["paths"]["/pets/{petId}"]["get"]["security"] = []  # an explicit empty list counts, as in Redocly
    assert [f for f in scan(doc).findings if f["rule"] == "security-defined"] == []


def test_a_shared_component_example_is_reported_where_it_is_defined():
    doc = base("3.0")
    doc["components"]["examples"] = {"bad": {"value": {"id": "x"}}}
    content = doc["paths"]["/pets/{petId}"]["get"]["responses"]["200"]["content"]["application/json"]
    del content["example"]
    content["examples"] = {"one": {"$ref": "#/components/examples/bad"}}
    findings = [f for f in scan(doc).findings if f["rule"] == "no-invalid-media-type-examples"]
    assert [f["pointer"] for f in findings] == ["/components/examples/bad/value/id"]


def test_nullable_without_type_errors_the_example_like_ajv():
    doc = base("3.0")
    doc["components"]["schemas"]["Pet"]["properties"]["tag"] = {"nullable": True}
    findings = scan(doc).findings
    assert [f["message"] for f in findings if f["rule"] == "no-invalid-media-type-examples"] == [
        'Example validation errored: "nullable" cannot be used without "type".']
    assert [f["rule"] for f in findings if f["rule"] == "nullable-type-sibling"] == ["nullable-type-sibling"]


def test_allof_members_do_not_reject_properties_of_their_siblings():
    doc = base("3.0")
    schemas = doc["components"]["schemas"]
    schemas["Named"] = {"type": "object", "properties": {"name": {"type": "string"}}}
    schemas["Pet"] = {"allOf": [{"$ref": "#/components/schemas/Named"},
                                {"type": "object", "properties": {"id": {"type": "integer"}}}],
                      "properties": {"tag": {"type": "string"}}}
    content = doc["paths"]["/pets/{petId}"]["get"]["responses"]["200"]["content"]["application/json"]
    content["example"] = {"id": 1, "name": "Rex", "tag": "a"}
    assert [f for f in scan(doc).findings if f["rule"] == "no-invalid-media-type-examples"] == []
    content["example"] = {"id": 1, "name": "Rex", "tag": "a", "extra": True}
    findings = [f for f in scan(doc).findings if f["rule"] == "no-invalid-media-type-examples"]
    assert [f["pointer"] for f in findings] == [
        "/paths/~1pets~1{petId}/get/responses/200/content/application~1json/example/extra"]


def test_read_only_properties_are_not_required_in_requests():
    doc = base("3.0")
    schemas = doc["components"]["schemas"]
    schemas["Pet"]["properties"]["id"]["readOnly"] = True
    doc["paths"]["/pets/{petId}"]["get"]["requestBody"] = {"content": {"application/json": {
        "schema": {"$ref": "#/components/schemas/Pet"}, "example": {"name": "Rex"}}}}
    assert [f for f in scan(doc).findings if f["rule"] == "no-invalid-media-type-examples"] == []
    doc["paths"]["/pets/{petId}"]["get"]["requestBody"]["content"]["application/json"]["example"] = {"id": 2}
    messages = [f["message"] for f in scan(doc).findings if f["rule"] == "no-invalid-media-type-examples"]
    assert messages == ["Example value must conform to the schema: `id` property must NOT be present in request "
                        "context."]


def test_callback_operations_are_not_asked_for_an_operation_id_but_are_for_a_summary():
    doc = base("3.1")
    doc["paths"]["/pets/{petId}"]["get"]["callbacks"] = {"cb": {"{$request.body#/url}": {"post": {
        "responses": {"200": {"description": "ok"}, "400": {"description": "no"}}}}}}
    rules = [f["rule"] for f in scan(doc).findings]
    assert "operation-operationId" not in rules
    assert "operation-summary" in rules


def test_unused_components_stay_quiet_for_discriminator_subtypes():
    doc = base("3.0")
    schemas = doc["components"]["schemas"]
    schemas["Animal"] = {"type": "object", "discriminator": {"propertyName": "kind"},
                         "properties": {"kind": {"type": "string"}}, "required": ["kind"]}
    schemas["Cat"] = {"allOf": [{"$ref": "#/components/schemas/Animal"}]}
    schemas["Pet"]["properties"]["animal"] = {"$ref": "#/components/schemas/Animal"}
    unused = [f["message"] for f in scan(doc).findings if f["rule"] == "no-unused-components"]
    assert unused == []


def test_only_requested_engines_run():
    doc = case("operation-summary", "3.0")
    assert [f for f in scan(doc, run_redocly=False).findings if f["source"] == "redocly"] == []
    doc = base("3.0")
    del doc["info"]["title"]
    result = scan(doc, run_swagger=False)
    assert [(f["rule"], f["source"]) for f in result.findings] == [("struct", "redocly")]
