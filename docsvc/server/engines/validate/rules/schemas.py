"""Rules on schemas: ``no-enum-type-mismatch``, ``no-duplicated-enum-values``,
``no-schema-type-mismatch``, ``no-mixed-number-range-constraints``, ``nullable-type-sibling``,
``no-required-schema-properties-undefined``.
"""

from __future__ import annotations

import json
from typing import Any

from ..examples import json_key
from ..walker import is_ref
from ._linter import Linter, rule, _js_value, _matches_type, _oas_type_of, _schemas, _truthy


@rule("no-enum-type-mismatch")
def _no_enum_type_mismatch(lint: Linter) -> None:
    for v in _schemas(lint):
        schema = v.node
        if not _truthy(schema.get("type")):
            continue
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]

        def ok(value: Any) -> bool:
            return any(_matches_type(value, t, schema.get("nullable")) for t in types)

        if isinstance(schema.get("enum"), list):
            for i, value in enumerate(schema["enum"]):
                if ok(value):
                    continue
                if isinstance(schema["type"], list):
                    msg = f"Enum value `{_js_value(value)}` must be of allowed types: `{_js_value(schema['type'])}`."
                else:
                    msg = ("All values of `enum` field must be of the same type as the `type` field: expected "
                           f"\"{_js_value(schema['type'])}\" but received \"{_oas_type_of(value)}\".")
                lint.report("no-enum-type-mismatch", msg, f"{v.pointer}/enum/{i}")
        if "const" in schema and not ok(schema["const"]):
            expected = '" or "'.join(_js_value(t) for t in types)
            lint.report("no-enum-type-mismatch", "The `const` value must be of the same type as the `type` field: "
                        f"expected \"{expected}\" but received \"{_oas_type_of(schema['const'])}\".", f"{v.pointer}/const")


@rule("no-duplicated-enum-values")
def _no_duplicated_enum_values(lint: Linter) -> None:
    for v in _schemas(lint):
        enum = v.node.get("enum")
        if not isinstance(enum, list):
            continue
        seen: set = set()  # json_key()s of the earlier values: one look-up per value, not a scan
        for i, value in enumerate(enum):
            key = json_key(value)
            if key in seen:
                shown = json.dumps(value, separators=(",", ":")) if isinstance(value, (dict, list)) else _js_value(value)
                lint.report("no-duplicated-enum-values", f"Duplicated enum value found: '{shown}'.",
                            f"{v.pointer}/enum/{i}")
            seen.add(key)


@rule("no-schema-type-mismatch")
def _no_schema_type_mismatch(lint: Linter) -> None:
    # @redocly/cli 2.77: any single type but array with `items`, any but object with `properties`
    for v in _schemas(lint):
        s = v.node
        t = s.get("type")
        if not isinstance(t, str):
            continue
        if t != "array" and _truthy(s.get("items")):
            lint.report("no-schema-type-mismatch",
                        f"Schema type mismatch: '{t}' type should not contain 'items' field.", f"{v.pointer}/items")
        if t != "object" and _truthy(s.get("properties")):
            lint.report("no-schema-type-mismatch", f"Schema type mismatch: '{t}' type should not contain "
                        "'properties' field.", f"{v.pointer}/properties")


@rule("no-mixed-number-range-constraints")
def _no_mixed_number_range(lint: Linter) -> None:
    def num(x: Any) -> bool:
        return isinstance(x, (int, float)) and not isinstance(x, bool)

    for v in _schemas(lint):
        s = v.node
        if num(s.get("maximum")) and num(s.get("exclusiveMaximum")):
            lint.report("no-mixed-number-range-constraints", "Schema should not have both `maximum` and "
                        "`exclusiveMaximum`. Use one or the other.", f"{v.pointer}/exclusiveMaximum")
        if num(s.get("minimum")) and num(s.get("exclusiveMinimum")):
            lint.report("no-mixed-number-range-constraints", "Schema should not have both `minimum` and "
                        "`exclusiveMinimum`. Use one or the other.", f"{v.pointer}/exclusiveMinimum")


@rule("nullable-type-sibling")
def _nullable_type_sibling(lint: Linter) -> None:
    for v in _schemas(lint):
        if "nullable" in v.node and "type" not in v.node:
            lint.report("nullable-type-sibling",
                        "The `type` field must be defined when the `nullable` field is used.", f"{v.pointer}/nullable")


def _schema_has_property(lint: Linter, schema: Any, name: str, visited: set | None = None) -> bool:
    visited = set() if visited is None else visited
    if is_ref(schema) and _defines_property(lint, schema, name, visited):
        return True
    node, _ = lint.resolve(schema)
    if not isinstance(node, dict):
        return False
    if id(node) in visited:
        return False
    visited.add(id(node))
    return _defines_property(lint, node, name, visited)


def _defines_property(lint: Linter, schema: dict, name: str, visited: set) -> bool:
    props = schema.get("properties")
    if isinstance(props, dict) and name in props:
        return True
    if isinstance(schema.get("allOf"), list) and any(_schema_has_property(lint, b, name, visited) for b in schema["allOf"]):
        return True
    for kw in ("anyOf", "oneOf"):
        branches = schema.get(kw)
        if isinstance(branches, list) and branches and all(
                _schema_has_property(lint, b, name, set(visited)) for b in branches):
            return True
    return False


@rule("no-required-schema-properties-undefined")
def _no_required_undefined(lint: Linter) -> None:
    for v in _schemas(lint):
        required = v.node.get("required")
        if not isinstance(required, list) or not required:
            continue
        # the outermost schema this one is a composition member of (through allOf/anyOf/oneOf chains)
        root = None
        child, parent_visit = v.node, v.ancestors.get("Schema")
        while parent_visit is not None and isinstance(parent_visit.node, dict):
            parent = parent_visit.node
            members = [m for kw in ("allOf", "anyOf", "oneOf") for m in (parent.get(kw) or [])
                       if isinstance(parent.get(kw), list)]
            if not any(lint.resolve(m)[0] is child for m in members):
                break
            root = parent
            child, parent_visit = parent, parent_visit.ancestors.get("Schema")
        for i, name in enumerate(required):
            if not isinstance(name, str):
                continue
            if not _schema_has_property(lint, v.node, name) and not (
                    root is not None and _schema_has_property(lint, root, name)):
                lint.report("no-required-schema-properties-undefined", f"Required property '{name}' is not defined.",
                            f"{v.pointer}/required/{i}")
