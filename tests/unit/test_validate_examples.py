"""The Ajv-compatible example validator behind Redocly's example rules, and the batch line finder."""

from __future__ import annotations

import json

import pytest

from docsvc.server.engines.specload import Locator
from docsvc.server.engines.validate.examples import CompileError, ExampleValidator, describe
from docsvc.server.engines.validate.lines import lines_for

COMPONENTS = {
    "Named": {"type": "object", "properties": {"name": {"type": "string"}}},
    "Cat": {"type": "object", "required": ["kind"], "properties": {"kind": {"type": "string", "enum": ["cat"]},
                                                                     "meow": {"type": "boolean"}}},
    "Dog": {"type": "object", "required": ["kind"], "properties": {"kind": {"type": "string", "enum": ["dog"]},
                                                                     "bark": {"type": "boolean"}}},
}


def validator(dialect="draft4"):
    return ExampleValidator(lambda ref: COMPONENTS.get(ref.rsplit("/", 1)[-1]), dialect)


def messages(data, schema, dialect="draft4", api=None):
    return [m for m, _, _ in describe(validator(dialect).validate(data, schema, api), "/x")]


def test_types_nullable_and_formats():
    assert messages(1, {"type": "string"}) == ["Example value must conform to the schema: type must be string."]
    assert messages(None, {"type": "string", "nullable": True}) == []
    assert messages(1.0, {"type": "integer"}) == []
    assert messages(True, {"type": "integer"}) != []
    assert messages("2024-01-01T10:00:00Z", {"type": "string", "format": "date-time"}) == []
    assert messages("yesterday", {"type": "string", "format": "date-time"}) == [
        'Example value must conform to the schema: must match format "date-time".']
    assert messages("x", {"type": "string", "format": "made-up"}) == []  # unknown formats are ignored
    with pytest.raises(CompileError, match='"nullable" cannot be used without "type"'):
        validator().validate(1, {"nullable": True})


def test_enum_messages_list_the_allowed_values_and_nested_errors_name_the_property():
    assert messages({"a": "z"}, {"type": "object", "properties": {"a": {"enum": ["x", "y"]}}}) == [
        'Example value must conform to the schema: `a` property must be equal to one of the allowed values "x", "y".']


def test_draft4_and_2020_limits():
    assert messages(5, {"type": "number", "minimum": 5, "exclusiveMinimum": True}) == [
        "Example value must conform to the schema: must be > 5."]
    assert messages(5, {"type": "number", "exclusiveMinimum": 5}, "2020") == [
        "Example value must conform to the schema: must be > 5."]
    assert messages([1, "a"], {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "integer"}]}, "2020") \
        == ["Example value must conform to the schema: `1` property type must be integer."]


def test_one_of_keeps_branch_errors_when_it_fails_and_any_of_drops_them_when_it_passes():
    schema = {"oneOf": [{"type": "string"}, {"type": "integer"}]}
    assert messages(1.5, schema) == ["Example value must conform to the schema: type must be string.",
                                     "Example value must conform to the schema: type must be integer.",
                                     "Example value must conform to the schema: must match exactly one schema in oneOf."]
    assert messages(1, {"anyOf": [{"type": "string"}, {"type": "integer"}]}) == []


def test_unevaluated_properties_are_rejected_by_default_except_in_composition_members():
    schema = {"type": "object", "properties": {"a": {"type": "string"}}}
    assert messages({"a": "x", "b": 1}, schema) == [
        "Example value must conform to the schema: must NOT have unevaluated properties `b`."]
    assert messages({"a": "x", "b": 1}, dict(schema, additionalProperties=True)) == []
    composed = {"allOf": [{"$ref": "#/Named"}, schema]}
    assert messages({"a": "x", "name": "n"}, composed) == []
    inline_branch = {"oneOf": [schema, {"type": "string"}]}
    assert messages({"a": "x", "b": 1}, inline_branch) == []
    referenced_branch = {"oneOf": [{"$ref": "#/Named"}, {"type": "string"}]}
    assert messages({"name": "x", "b": 1}, referenced_branch) == [
        "Example value must conform to the schema: must NOT have unevaluated properties `b`.",
        "Example value must conform to the schema: type must be string.",
        "Example value must conform to the schema: must match exactly one schema in oneOf."]


def test_discriminator_picks_the_branch():
    schema = {"oneOf": [{"$ref": "#/Cat"}, {"$ref": "#/Dog"}], "discriminator": {"propertyName": "kind"}}
    assert messages({"kind": "dog", "bark": True}, schema) == []
    assert messages({"kind": "dog", "bark": "loud"}, schema) == [
        "Example value must conform to the schema: `bark` property type must be boolean."]
    assert messages({"kind": "cow"}, schema) == [
        'Example value must conform to the schema: value of tag "kind" must be in oneOf or anyOf.']


def test_read_only_and_write_only_depend_on_the_context():
    schema = {"type": "object", "required": ["id"], "properties": {"id": {"type": "integer", "readOnly": True}}}
    assert messages({}, schema, api="request") == []
    assert messages({}, schema, api="response") == [
        "Example value must conform to the schema: must have required property 'id'."]
    assert messages({"id": 1}, schema, api="request") == [
        "Example value must conform to the schema: `id` property must NOT be present in request context."]


def test_batch_lines_agree_with_the_locator():
    doc = {"a": {"b": [1, {"c": "x/y", "d~e": 2}], "f": None}, "g": {"h": {}}}
    text = json.dumps(doc, indent=2)
    pointers = ["", "/a", "/a/b/1/c", "/a/b/1/d~0e", "/a/f", "/g/h", "/a/b/0"]
    found = lines_for(text, "json", pointers)
    locator = Locator(text)
    assert found == {p: locator.line(p) for p in pointers}
    assert lines_for(text, "json", ["/a/missing/deeper"]) == {"/a/missing/deeper": locator.line("/a")}
