"""Structural validation (the official OpenAPI JSON Schemas + openapi-spec-validator's extra checks):
pointers and lines in YAML and JSON input, for 2.0, 3.0 and 3.1; texts that are not specs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from docsvc.specload import SpecError
from docsvc.server.engines.validate import run
from docsvc.server.engines.validate.structure import validator

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "validate"


def swagger(result) -> list[tuple[str, str, int | None]]:
    return [(f["rule"], f["pointer"], f["line"]) for f in result.findings if f["source"] == "swagger"]


@pytest.mark.parametrize("name,lines", [("petstore-30.yaml", (30, 35, 27)), ("petstore-30.json", (51, 60, 46))])
def test_structural_findings_have_pointer_and_line_in_yaml_and_json(name, lines):
    result = run((FIXTURES / name).read_text(), file=name)
    assert result.syntax == name.rsplit(".", 1)[1]
    assert swagger(result) == [
        ("struct", "/paths/~1pets~1{petId}/get/parameters/0", lines[0]),
        ("struct", "/paths/~1pets~1{petId}/get/responses/200", lines[1]),
        ("spec", "/paths/~1pets~1{petId}/get", lines[2]),
    ]
    by_pointer = {f["pointer"]: f for f in result.findings if f["source"] == "swagger"}
    assert by_pointer["/paths/~1pets~1{petId}/get/responses/200"]["message"] == \
        "The field `description` must be present on this level."  # Redocly's wording
    assert '"nowhere"' in by_pointer["/paths/~1pets~1{petId}/get/parameters/0"]["message"]
    assert all(f["severity"] == "error" and f["file"] == name for f in result.findings if f["source"] == "swagger")


def test_swagger_20_is_checked_against_its_schema():
    result = run((FIXTURES / "petstore-20.yaml").read_text())
    assert swagger(result) == [("struct", "/paths/~1pets~1{petId}/get/parameters/0", 13)]


def test_openapi_31_schemas_are_checked_with_the_dialect():
    result = run((FIXTURES / "petstore-31.yaml").read_text())
    findings = [(f["pointer"], f["line"], f["message"]) for f in result.findings if f["source"] == "swagger"]
    assert findings == [
        ("/components/schemas/Pet/properties/id/minimum", 35, "Expected type `number` but got `string`."),
        ("/components/schemas/Pet/properties/tag/nullable", 38, "Property `nullable` is not expected here."),
    ]


def test_the_31_validator_follows_dynamic_refs_into_schema_objects():
    doc = {"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {}, "components": {"schemas": {
        "A": {"type": "object", "properties": {"b": {"items": {"minItems": "two"}}}}}}}
    errors = list(validator("3.1").iter_errors(doc))
    assert [list(map(str, e.instance_path)) for e in errors] == [
        ["components", "schemas", "A", "properties", "b", "items", "minItems"]]


def test_valid_documents_have_no_structural_findings():
    doc = json.loads((FIXTURES / "petstore-30.json").read_text())
    doc["paths"]["/pets/{petId}"]["get"]["parameters"] = [
        {"name": "petId", "in": "path", "required": True, "schema": {"type": "string"}}]
    doc["paths"]["/pets/{petId}"]["get"]["responses"]["200"]["description"] = "A pet"
    assert swagger(run(json.dumps(doc))) == []


def test_semantic_checks_beyond_the_schema():
    doc = {
        "openapi": "3.0.3", "info": {"title": "t", "version": "1"},
        "paths": {
            "/a/{id}": {"get": {"operationId": "same", "responses": {"200": {"description": "ok"}},
                                "parameters": [{"name": "other", "in": "path", "required": True,
                                                "schema": {"type": "string"}}]}},
            "/b": {"get": {"operationId": "same", "responses": {"200": {"description": "ok", "content": {
                "application/json": {"schema": {"$ref": "#/components/schemas/Missing"}}}}}}},
        },
        "components": {"schemas": {"S": {"type": "object", "required": ["x"], "properties": {"y": {"type": "string"}}}}},
    }
    found = {(f["pointer"], f["message"]) for f in run(json.dumps(doc, indent=1)).findings if f["rule"] == "spec"}
    assert found == {
        ("/paths/~1b/get/operationId", "Operation ID 'same' for 'get' in '/b' is not unique (first used at GET /a/{id})"),
        ("/paths/~1a~1{id}/get", "Path parameter 'id' for 'get' operation in '/a/{id}' was not resolved"),
        ("/paths/~1a~1{id}/get", "Path parameter 'other' for 'get' operation in '/a/{id}' is not in the path template"),
        ("/paths/~1b/get/responses/200/content/application~1json/schema/$ref",
         "Unresolvable reference: #/components/schemas/Missing"),
        ("/components/schemas/S/required/0", "Required list has not defined properties: ['x']"),
    }


def test_a_text_that_is_not_a_spec_raises_spec_error():
    with pytest.raises(SpecError, match="not an OpenAPI"):
        run((FIXTURES / "helm-values.yaml").read_text())
    with pytest.raises(SpecError) as exc:
        run("openapi: 3.0.0\ninfo: [unclosed\n")
    assert exc.value.line is not None
    with pytest.raises(SpecError):
        run("")
    with pytest.raises(SpecError, match="unsupported OpenAPI version"):
        run('{"openapi": "4.0.0", "info": {}}')


def test_redocly_struct_checks_the_schemas_cannot_express():
    doc = {"openapi": "3.0.3", "info": {"title": "t", "version": "1", "x-logo": "logo.png"},
           "paths": {"/a": {"get": {"responses": {"200": {"description": "ok"}},
                                    "x-codeSamples": [{"lang": "curl", "source": "curl /a", "code": "x"}]}}}}
    found = [(f["pointer"], f["message"]) for f in run(json.dumps(doc)).findings if f["rule"] == "struct"]
    assert found == [("/info/x-logo", "Expected type `Logo` (object) but got `string`"),
                     ("/paths/~1a/get/x-codeSamples/0/code", "Property `code` is not expected here.")]


def test_patterns_are_read_as_javascript_reads_them():
    doc = {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {}, "components": {"schemas": {
        "A": {"type": "string", "pattern": "^[\\p{L}\\d-_]+$"},
        "B": {"type": "string", "pattern": "^(unclosed$"}}}}
    found = [f["pointer"] for f in run(json.dumps(doc)).findings if f["rule"] == "struct"]
    assert found == ["/components/schemas/B/pattern"]


def test_a_callback_whose_ref_is_not_a_string_is_a_finding_not_a_crash():
    from docsvc.server.engines.validate import run

    text = ("openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths:\n  /a:\n    get:\n"
            "      callbacks: {c: {$ref: [a]}}\n      responses: {'200': {description: ok}}\n")
    scan = run(text, run_ai_fix=True, run_ai_content=True)
    assert any(f["severity"] == "error" for f in scan.findings)


_NO_CYCLES = """
import gc, sys
from pathlib import Path
from docsvc.server.engines.validate import run
path, fix = Path(sys.argv[1]), sys.argv[2] == "fix"
scan = lambda: run(path.read_text(), file=path.name, run_ai_fix=fix, run_ai_content=fix)
scan()
gc.collect()
gc.disable()
result = scan()
assert result.findings, "the stages found nothing: the fixture has problems to find"
del result
print(gc.collect())
"""


@pytest.mark.parametrize("name", ["petstore-30.json", "petstore-30.yaml", "petstore-20.yaml", "petstore-31.yaml"])
def test_a_scan_leaves_no_reference_cycles(name):
    """run() works with the cycle collector paused (docsvc.gcpause): everything it makes must go by
    reference counting, or it would wait for the next collection. In a process of its own, where no
    other thread makes garbage meanwhile; the first scan fills caches meant to last (compiled schema
    validators) and is not counted. Excepted: ruamel.yaml's round-trip writer, which writes a changed
    YAML spec (ai-fix, ai-content; 4 MB at most): its YAML object and its reader, parser and
    constructor refer to one another."""
    import subprocess
    import sys

    fix = "fix" if name.endswith(".json") else "checks only"
    done = subprocess.run([sys.executable, "-c", _NO_CYCLES, str(FIXTURES / name), fix], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "0"  # objects found only by the collector
