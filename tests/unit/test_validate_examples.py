"""The Ajv-compatible example validator behind Redocly's example rules, and the batch line finder."""

from __future__ import annotations

import json

import pytest

from docsvc.specload import Locator
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


def test_json_key_agrees_with_json_equal():
    """json_key (the duplicate check's set key) says "equal" exactly when json_equal does."""
    import itertools

    from docsvc.server.engines.validate.examples import json_equal, json_key

    values = [0, 1, 1.0, -0.0, 2.5, True, False, None, "1", "", "a", float("nan"), float("inf"),
              [], {}, [1], [1.0], [True], ["1"], [1, 2], [2, 1], {"a": 1}, {"a": 1.0}, {"a": True},
              {"a": 1, "b": 2}, {"b": 2, "a": 1}, {"a": [1, {"b": None}]}, {"a": [1.0, {"b": None}]},
              [[]], [{}], {"a": {}}, {"a": []}]
    for a, b in itertools.product(values, repeat=2):
        assert (json_key(a) == json_key(b)) == json_equal(a, b), (a, b)


@pytest.mark.parametrize("original", [None, "same", "same-no-newline", "differs", "prefix-only", "unrelated"])
def test_dumps_indented_is_json_dumps(original):
    """The pre-processed JSON is json.dumps(indent=2) + newline, whatever text it is compared with."""
    from docsvc.server.engines.validate.jsontext import dumps_indented

    data = {"openapi": "3.0.3", "info": {"title": "Café ☕ 🚀", "version": "1"}, "n": [1, 2.5, None, True, {}],
            "paths": {f"/p{i}": {"get": {"responses": {"200": {"description": "x" * i}}}} for i in range(3000)}}
    want = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    text = {None: None, "same": want, "same-no-newline": want[:-1], "differs": want[:20000] + "!" + want[20001:],
            "prefix-only": want[:-40], "unrelated": json.dumps(data)}[original]
    got = dumps_indented(data, text)
    assert got == want
    if original == "same":
        assert got is text  # no second copy


def _layouts(doc):
    """The same document written four ways: indented, indented by tabs, one line, and ragged."""
    yield json.dumps(doc, indent=2)
    yield json.dumps(doc, indent="\t")
    yield json.dumps(doc) + "\n"
    ragged = json.dumps(doc, indent=1).replace(",\n", "\n,").replace("{\n", "{\n\n   ")
    yield ragged


@pytest.mark.parametrize("layout", range(4))
def test_lines_for_agrees_with_locator_on_any_layout(layout):
    """Lines found in one descent (skipping large siblings bracket by bracket) are Locator's lines."""
    big = {f"k{i}": {"s": "x]}{[\"\\\n    }" * 3, "n": [i, {"a": [1, 2, {}]}], "e": {}, "l": []} for i in range(3000)}
    doc = {"openapi": "3.0.3", "info": {"title": "t"}, "big": big, "skipped": [big, 1], "after": {"a": [1, {"b": "]"}], "z": {"y": 1}},
           "paths": {"/a": {"get": {"responses": {"200": {"description": "ok"}}}}}}
    text = list(_layouts(doc))[layout]
    assert len(text) > 1 << 17  # "big" is skipped as a large sibling
    pointers = ["/after/a/1/b", "/after/z/y", "/paths/~1a/get/responses/200", "/big/k2999/n/1/a/2", "/info/title",
                "/after/missing/deeper", "/big/k5/e", "/big/k7/l", "/after/a/9"]
    locator = Locator(text)
    got = lines_for(text, "json", pointers)
    if layout == 0:  # json.dumps(indent=2)'s own layout: values skipped by a string search
        assert lines_for(text, "json", pointers, indented=True) == got
    for p in pointers:
        want, parts = None, p.split("/")
        while want is None and parts:
            want = locator.line("/".join(parts))
            parts.pop()
        assert got[p] == want, p


@pytest.mark.parametrize("data", [
    {"f": [1.5, 1e-07, 1e22, -0.0, float("nan"), float("inf"), -float("inf"), 10 ** 30, True, None]},
    {"s": "a\"b\\c\n\t\u2028\x00\x7f é 🚀", "": [], "e": {}, "t": (1, [2])},
    {"a": {1: 2, True: 3, None: 4}},  # keys json converts: its own encoder writes them
    [[[[[[[[[[[]]]]]]]]]]],
])
def test_dumps_indented_edge_values(data):
    from docsvc.server.engines.validate.jsontext import dumps_indented

    want = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    assert dumps_indented(data) == want
    assert dumps_indented(data, want[:-1]) == want


def _nearest_line(locator, pointer):
    parts = pointer.split("/")
    while True:
        line = locator.line("/".join(parts))
        if line is not None or len(parts) <= 1:
            return line
        parts.pop()


def test_run_reuses_a_text_already_in_the_prepped_layout():
    """A JSON text written as json.dumps(indent=2) is the prepped text itself, and its lines are Locator's."""
    from docsvc.server.engines.validate import run

    doc = {"openapi": "3.0.3", "info": {"title": "t", "version": "1"},
           "paths": {f"/p{i}/": {"get": {"responses": {"200": {"description": "ok"}}}} for i in range(50)}}
    text = json.dumps(doc, indent=2, ensure_ascii=False)
    with_newline = text + "\n"
    result = run(with_newline)
    assert result.prepped is with_newline
    assert run(text).prepped == with_newline
    locator = Locator(with_newline)
    assert result.findings and all(f["line"] == _nearest_line(locator, f["pointer"])
                                   for f in result.findings if f["pointer"])
    ragged = with_newline.replace(",\n", "\n,")  # not that layout: serialized from the data, same lines found
    again = run(ragged)
    assert again.prepped == with_newline
    assert [f["line"] for f in again.findings] == [_nearest_line(Locator(ragged), f["pointer"]) if f["pointer"]
                                                   else None for f in again.findings]
