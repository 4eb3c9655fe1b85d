"""Mechanical fixes (``run_ai_fix``): each listed with its rule, announced as a notice finding, and the
corrected spec re-validates with fewer findings and no new structural errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from docsvc.server.engines.validate import run
from docsvc.server.engines.validate.fixes import as_read, operation_id_for
from docsvc.specload import Locator
from tests.unit.test_validate_rules import base, case

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "validate"


def rules_of(findings, source=None):
    return sorted(f["rule"] for f in findings if source is None or f["source"] == source)


def fixed(rule: str, version: str = "3.0"):
    doc = case(rule, version)
    result = run(json.dumps(doc, indent=2), run_ai_fix=True)
    again = run(result.corrected)
    return result, again, json.loads(result.corrected)


def test_without_the_flag_there_is_nothing_corrected():
    result = run(json.dumps(base("3.0")))
    assert result.corrected is None and result.fixes == []


@pytest.mark.parametrize("version", ["2.0", "3.0", "3.1"])
def test_missing_operation_id_is_derived_from_method_and_path(version):
    result, again, doc = fixed("operation-operationId", version)
    assert doc["paths"]["/pets/{petId}"]["get"]["operationId"] == "getPetsByPetId"
    assert result.fixes == [{"rule": "operation-operationId", "pointer": "/paths/~1pets~1{petId}/get/operationId",
                             "description": "Set operationId 'getPetsByPetId', derived from GET /pets/{petId}."}]
    assert "operation-operationId" not in rules_of(again.findings)
    assert again.findings == []


def test_operation_ids_are_camel_case_and_unique():
    assert operation_id_for("get", "/pets/{petId}/vaccination-records") == "getPetsByPetIdVaccinationRecords"
    assert operation_id_for("post", "/") == "post"
    doc = base("3.0")
    get = doc["paths"]["/pets/{petId}"]["get"]
    del get["operationId"]
    doc["paths"]["/pets/{petId}"]["put"] = dict(get, operationId="getPetsByPetId")
    result = run(json.dumps(doc), run_ai_fix=True)
    assert json.loads(result.corrected)["paths"]["/pets/{petId}"]["get"]["operationId"] == "getPetsByPetId2"


def test_trailing_slashes_are_removed_from_paths_and_servers():
    result, again, doc = fixed("no-path-trailing-slash")
    assert "/pets" in doc["paths"] and "/pets/" not in doc["paths"]
    assert list(doc["paths"]) == ["/pets/{petId}", "/pets"]  # order kept
    assert "no-path-trailing-slash" not in rules_of(again.findings)
    result, again, doc = fixed("no-server-trailing-slash")
    assert doc["servers"][0]["url"] == "https://api.pets.test/v1"
    assert again.findings == []


def test_two_paths_that_would_become_one_are_not_both_renamed():
    doc = base("3.0")
    get = doc["paths"].pop("/pets/{petId}")["get"]
    doc["paths"] = {"/pets/": {"get": get}, "/pets//": {"put": dict(get, operationId="putPet")}}
    result = run(json.dumps(doc, indent=2), run_ai_fix=True)
    # before, both became /pets and the second replaced the first: the GET was lost from the corrected spec
    put = dict(get, operationId="putPet")
    assert json.loads(result.corrected)["paths"] == {"/pets": {"get": get}, "/pets//": {"put": put}}
    assert [(f["rule"], f["pointer"]) for f in result.fixes] == [("no-path-trailing-slash", "/paths/~1pets")]
@pytest.mark.parametrize("version", ["2.0", "3.0", "3.1"])
def test_an_undeclared_path_parameter_is_declared_at_path_level(version):
    result, again, doc = fixed("path-parameters-defined", version)
    expected = {"name": "petId", "in": "path", "required": True}
    expected.update({"type": "string"} if version == "2.0" else {"schema": {"type": "string"}})
    assert doc["paths"]["/pets/{petId}"]["parameters"] == [expected]
    assert [f["rule"] for f in result.fixes] == ["path-parameters-defined"]
    assert again.findings == []


def test_a_missing_4xx_response_gets_a_400_with_a_description():
    result, again, doc = fixed("operation-4xx-response")
    assert doc["paths"]["/pets/{petId}"]["get"]["responses"]["400"] == {
        "description": "Bad request: the request was not valid."}
    assert again.findings == []


def test_tags_get_descriptions_and_undeclared_tags_are_declared():
    result, again, doc = fixed("tag-description")
    assert doc["tags"] == [{"name": "pets", "description": "Operations about pets."}]
    assert again.findings == []
    d = base("3.0")
    d["paths"]["/pets/{petId}"]["get"]["tags"] = ["pets", "vet-visits"]
    result = run(json.dumps(d), run_ai_fix=True)
    assert json.loads(result.corrected)["tags"][1] == {"name": "vet-visits", "description": "Operations about vet visits."}


def test_path_parameters_are_made_required():
    d = base("3.0")
    del d["paths"]["/pets/{petId}"]["get"]["parameters"][0]["required"]
    result = run(json.dumps(d), run_ai_fix=True)
    assert rules_of(result.findings, "swagger") == ["struct"]
    assert result.fixes[0]["rule"] == "struct"
    assert json.loads(result.corrected)["paths"]["/pets/{petId}"]["get"]["parameters"][0]["required"] is True
    assert run(result.corrected).findings == []


def test_license_and_unused_components_are_left_with_a_notice():
    result, again, _ = fixed("info-license")
    assert result.fixes == []
    notices = [f for f in result.findings if f["source"] == "fix"]
    assert [(f["rule"], f["severity"]) for f in notices] == [("info-license", "notice")]
    assert "cannot be invented" in notices[0]["message"]
    assert rules_of(again.findings) == ["info-license"]
    result, again, _ = fixed("no-unused-components")
    notices = [f for f in result.findings if f["source"] == "fix"]
    assert [f["rule"] for f in notices] == ["no-unused-components"]
    assert "not mechanical-safe" in notices[0]["message"]
    assert rules_of(again.findings) == ["no-unused-components"]


def test_every_fix_is_announced_and_the_fixture_revalidates_with_fewer_findings():
    text = (FIXTURES / "petstore-30.yaml").read_text()
    result = run(text, run_ai_fix=True)
    assert result.syntax == "yaml"
    assert yaml.safe_load(result.corrected)["openapi"] == "3.0.3"
    notices = [f for f in result.findings if f["source"] == "fix" and f["message"].startswith("Fixed: ")]
    assert len(notices) == len(result.fixes) > 5
    assert {(n["rule"], n["pointer"]) for n in notices} == {(f["rule"], f["pointer"]) for f in result.fixes}
    assert all(n["severity"] == "notice" for n in notices)
    before = [f for f in result.findings if f["source"] != "fix"]
    after = run(result.corrected).findings
    assert len(after) < len(before)
    structural_before = {f["pointer"] for f in before if f["source"] == "swagger"}
    structural_after = {f["pointer"] for f in after if f["source"] == "swagger"}
    assert structural_after <= structural_before
    fixed_rules = {"no-path-trailing-slash", "no-server-trailing-slash", "operation-operationId",
                   "operation-4xx-response", "path-parameters-defined"}
    assert fixed_rules <= set(rules_of(before)) and not fixed_rules & set(rules_of(after))


def test_json_input_gives_json_output():
    result = run((FIXTURES / "petstore-30.json").read_text(), run_ai_fix=True)
    assert result.syntax == "json"
    assert json.loads(result.corrected)["paths"]["/pets"]["get"]["operationId"] == "getPets"
    assert result.corrected.startswith('{\n  "openapi"')


# Two paths renamed (trailing slashes) and many fixes under them, in the form a user writes. Each fix's
# line counts in this text, the file the user has: where the fix changes it (a member it adds: the
# object it goes into), or for a tag declared at the top level, where an operation uses the tag.
RENAMED = """\
openapi: 3.0.3
info:
  title: Pets
  version: "1.0"
paths:
  /pets/:
    get:
      tags: [pets]
      responses:
        "200":
          description: Pets
  /pets/{petId}/:
    servers:
      - url: https://pets.test/v2/
    get:
      tags: [pets, vet-visits]
      parameters:
        - name: petId
          in: path
          schema: {type: string}
      responses:
        "200":
          description: A pet
    delete:
      operationId: deletePet
      responses:
        "204":
          description: Gone
"""
# (rule, pointer in the corrected spec, the place in RENAMED it is located at, that place's line)
RENAMED_FIXES = [
    ("no-path-trailing-slash", "/paths/~1pets", "/paths/~1pets~1", 6),
    ("no-path-trailing-slash", "/paths/~1pets~1{petId}", "/paths/~1pets~1{petId}~1", 12),
    ("operation-operationId", "/paths/~1pets/get/operationId", "/paths/~1pets~1/get", 7),
    ("operation-4xx-response", "/paths/~1pets/get/responses/400", "/paths/~1pets~1/get/responses", 9),
    ("no-server-trailing-slash", "/paths/~1pets~1{petId}/servers/0/url",
     "/paths/~1pets~1{petId}~1/servers/0/url", 14),
    ("struct", "/paths/~1pets~1{petId}/get/parameters/0/required", "/paths/~1pets~1{petId}~1/get/parameters/0", 18),
    ("path-parameters-defined", "/paths/~1pets~1{petId}/parameters/0", "/paths/~1pets~1{petId}~1", 12),
    ("operation-operationId", "/paths/~1pets~1{petId}/get/operationId", "/paths/~1pets~1{petId}~1/get", 15),
    ("operation-4xx-response", "/paths/~1pets~1{petId}/get/responses/400",
     "/paths/~1pets~1{petId}~1/get/responses", 21),
    ("operation-4xx-response", "/paths/~1pets~1{petId}/delete/responses/400",
     "/paths/~1pets~1{petId}~1/delete/responses", 26),
    ("tag-description", "/tags/0", "/paths/~1pets~1/get/tags/0", 8),
    ("tag-description", "/tags/1", "/paths/~1pets~1{petId}~1/get/tags/1", 16),
]


@pytest.mark.parametrize("syntax", ["yaml", "json"])
def test_fix_lines_count_in_the_file_read_when_fixes_renamed_its_paths(syntax):
    text = RENAMED if syntax == "yaml" else json.dumps(yaml.safe_load(RENAMED), indent=2)
    result = run(text, file="openapi." + syntax, run_ai_fix=True)
    assert sorted((f["rule"], f["pointer"]) for f in result.fixes) == sorted((r, p) for r, p, _, _ in RENAMED_FIXES)
    fixed = {(f["rule"], f["pointer"]): f["line"] for f in result.findings if f["message"].startswith("Fixed: ")}
    locator = Locator(text)
    expected = {(rule, pointer): line if syntax == "yaml" else locator.line(place)
                for rule, pointer, place, line in RENAMED_FIXES}
    assert fixed == expected
    # and on the line of the finding it answers (a path parameter is declared at path level, not where missed)
    found = {(f["rule"], f["line"]) for f in result.findings if f["source"] != "fix"}
    answered = [(rule, pointer) for rule, pointer, _, _ in RENAMED_FIXES
                if rule not in ("path-parameters-defined", "tag-description")]
    answers = {(rule, fixed[rule, pointer]) for rule, pointer in answered}
    assert answers <= found


def test_renames_are_undone_newest_first_and_only_on_whole_segments():
    renamed = [("/paths/~1a", "/paths/~1a~1"), ("/paths/~1a/x2", "/paths/~1a/x1")]  # a rename inside a renamed one
    assert as_read("/paths/~1a/x2/y", renamed) == "/paths/~1a~1/x1/y"
    assert as_read("/paths/~1a", renamed) == "/paths/~1a~1"
    assert as_read("/paths/~1ab/x2", renamed) == "/paths/~1ab/x2"  # not a segment of the renamed path
    assert as_read("/info", renamed) == "/info" and as_read("/info", []) == "/info"
