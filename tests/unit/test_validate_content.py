"""Generated content (``run_ai_content``) and the pre-processed text."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from docsvc.server.engines.validate import run
from docsvc.server.engines.validate.content import MARK, summary_for
from tests.unit.test_validate_rules import base

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "validate"


def test_prepped_is_the_input_reserialised_in_its_own_syntax():
    text = (FIXTURES / "petstore-30.yaml").read_text()
    result = run(text)
    assert result.generated == []
    assert yaml.safe_load(result.prepped) == yaml.safe_load(text)
    assert list(yaml.safe_load(result.prepped)) == ["openapi", "info", "servers", "paths", "components"]
    assert "- url: https://petstore.test/v1/" in result.prepped  # block style
    text = (FIXTURES / "petstore-30.json").read_text()
    assert run(text).prepped == json.dumps(json.loads(text), indent=2) + "\n"


def test_unicode_and_long_lines_survive_yaml():
    doc = base("3.0")
    doc["info"]["description"] = "Tiere 🐾 " + "x" * 300
    text = yaml.safe_dump(doc, sort_keys=False)
    prepped = run(text).prepped
    assert "Tiere 🐾 " + "x" * 300 in prepped


def test_summaries_follow_method_and_path():
    assert summary_for("get", "/pets/{petId}") == "Get pet by ID"
    assert summary_for("get", "/pets") == "List pets"
    assert summary_for("post", "/pets") == "Create pet"
    assert summary_for("delete", "/users/{username}") == "Delete user by username"
    assert summary_for("get", "/repos/{owner}/{repo}/pulls/{pull_number}") == "Get pull by number"
    assert summary_for("get", "/") == "Get root"


def test_missing_texts_are_generated_marked_and_recorded():
    doc = base("3.0")
    op = doc["paths"]["/pets/{petId}"]["get"]
    del op["summary"]
    op["parameters"].append({"name": "limit", "in": "query", "schema": {"type": "integer"}})
    result = run(json.dumps(doc), run_ai_content=True)
    prepped = json.loads(result.prepped)
    pop = prepped["paths"]["/pets/{petId}"]["get"]
    assert pop["summary"] == "Get pet by ID"
    assert pop[MARK] == ["summary", "description"]
    assert pop["parameters"][1]["description"] == "The limit (integer)."
    assert pop["parameters"][1][MARK] == ["description"]
    assert prepped["components"]["schemas"]["Pet"]["properties"]["id"]["description"] == "The ID (integer)."
    by_place = {(g["pointer"], g["field"]): g for g in result.generated}
    assert by_place[("/paths/~1pets~1{petId}/get", "summary")] == {
        "pointer": "/paths/~1pets~1{petId}/get", "field": "summary", "text": "Get pet by ID",
        "rule": "generated from the method and path (GET /pets/{petId})"}
    assert by_place[("/paths/~1pets~1{petId}/get/parameters/1", "description")]["rule"] == \
        "generated from the parameter name and its schema type"
    assert all(g["rule"].startswith("generated from ") for g in result.generated)
    notices = [f for f in result.findings if f["source"] == "content"]
    assert {f["severity"] for f in notices} == {"notice"} and len(notices) == 2


def test_existing_texts_are_kept_and_generation_is_deterministic():
    doc = base("3.0")
    doc["components"]["schemas"]["Pet"]["properties"]["id"]["description"] = "Written by a person."
    a = run(json.dumps(doc), run_ai_content=True)
    b = run(json.dumps(doc), run_ai_content=True)
    assert a.prepped == b.prepped and a.generated == b.generated
    prepped = json.loads(a.prepped)
    assert prepped["components"]["schemas"]["Pet"]["properties"]["id"] == {
        "type": "integer", "description": "Written by a person."}
    assert prepped["paths"]["/pets/{petId}"]["get"]["summary"] == "Get a pet"


def test_generated_content_keeps_the_spec_valid_and_feeds_the_corrected_spec():
    text = (FIXTURES / "petstore-31.yaml").read_text()
    result = run(text, run_ai_content=True, run_ai_fix=True)
    assert result.generated
    corrected = yaml.safe_load(result.corrected)
    assert corrected["paths"]["/pets/{petId}"]["get"]["description"].startswith("Get a pet.")
    original = {(f["rule"], f["pointer"]) for f in run(text).findings}
    assert {(f["rule"], f["pointer"]) for f in run(result.prepped).findings if f["source"] == "swagger"} <= original
