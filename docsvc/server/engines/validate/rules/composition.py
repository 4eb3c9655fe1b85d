"""``no-illogical-composition-keywords``: ``allOf``/``anyOf``/``oneOf`` members that cannot all
hold, or that cannot be told apart, with the reason Redocly gives.
"""

from __future__ import annotations

import json
from typing import Any

from ..examples import json_equal
from ..walker import is_ref
from ._linter import Linter, rule, _js_value, _truthy


_UNDERSTOOD = {"type", "format", "enum", "const", "nullable", "properties", "required", "additionalProperties",
               "discriminator", "$ref", "$id", "$schema", "$anchor", "$comment", "title", "description", "default",
               "example", "examples", "deprecated", "readOnly", "writeOnly", "externalDocs", "xml"}


def _unsupported(schema: dict) -> bool:
    return any(k not in _UNDERSTOOD and not k.startswith("x-") for k in schema)


def _type_set(schema: dict) -> set | None:
    return None if schema.get("type") is None else set(_ordered(schema))  # nullable: "null" among them


def _allowed_values(schema: dict) -> list | None:
    if _truthy(schema.get("enum")):
        return schema["enum"] if isinstance(schema["enum"], list) else None
    if "const" in schema and schema["const"] is not None:
        return [schema["const"]]
    return None


def _allows_null(schema: dict) -> bool:
    return schema.get("nullable") is True or bool((_type_set(schema) or set()) & {"null"})


def _shared_types(left: dict, right: dict) -> list | None:
    lt, rt = _type_set(left), _type_set(right)
    if lt is None or rt is None:
        return None
    shared = [t for t in _ordered(left) if t in rt]
    if not shared and _integer_meets_number(left, right):
        return ["integer"]
    return shared


def _ordered(schema: dict) -> list:
    declared = schema.get("type")
    # A mapping or a list in `type` is struct's finding, and no type here.
    types = [t for t in (declared if isinstance(declared, list) else [declared]) if not isinstance(t, (list, dict))]
    if schema.get("nullable") is True and "null" not in types:
        types.append("null")
    return types


def _integer_meets_number(left: dict, right: dict) -> bool:
    lt, rt = _type_set(left) or set(), _type_set(right) or set()

    def allows_int(s: dict) -> bool:
        values = _allowed_values(s)
        return values is None or any(isinstance(x, (int, float)) and not isinstance(x, bool) and float(x).is_integer()
                                     for x in values)
    if "integer" in lt and "number" in rt:
        return allows_int(right)
    if "number" in lt and "integer" in rt:
        return allows_int(left)
    return False


def _exclusive(left: dict, right: dict) -> bool:
    lv, rv = _allowed_values(left), _allowed_values(right)
    if lv is not None and rv is not None:
        return not any(json_equal(a, b) for a in lv for b in rv)
    shared = _shared_types(left, right)
    return shared is not None and len(shared) == 0


def _js_json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


@rule("no-illogical-composition-keywords")
def _no_illogical_composition(lint: Linter) -> None:
    R = "no-illogical-composition-keywords"

    def resolve_schema(member: Any) -> dict | None:
        node, _ = lint.resolve(member)
        return node if isinstance(node, dict) else None

    for kind, keyword in (("AllOf", "allOf"), ("AnyOf", "anyOf"), ("OneOf", "oneOf")):
        for v in lint.walk.visits(kind):
            members, parent = v.node, v.parent
            if not isinstance(members, list) or not isinstance(parent, dict):
                continue
            disc = parent.get("discriminator") if isinstance(parent.get("discriminator"), dict) else None
            if keyword == "allOf":
                single = not members or (len(members) == 1 and len(parent) == 1 and not (
                    isinstance(resolve_schema(members[0]), dict)
                    and isinstance(resolve_schema(members[0]).get("discriminator"), dict)))
            else:
                single = len(members) < 2 and disc is None
            if single:
                suggestion = " Use the schema directly instead." if len(members) == 1 else ""
                lint.report(R, f"`{keyword}` should have at least two schemas.{suggestion}", v.pointer)
            for i, m in enumerate(members):
                if isinstance(m, dict) and not m:
                    lint.report(R, f"Schema in `{keyword}` is empty, so it matches any value.", f"{v.pointer}/{i}")
            for i in range(1, len(members)):
                first = next(j for j, o in enumerate(members) if json_equal(o, members[i]))
                if first < i:
                    lint.report(R, f"Schema in `{keyword}` duplicates the schema at position {first + 1}.",
                                f"{v.pointer}/{i}")
            if keyword != "allOf" and disc is not None:
                for i, m in enumerate(members):
                    if is_ref(m) or (isinstance(m, dict) and "$id" in m):
                        continue
                    lint.report(R, f"Schema in `{keyword}` is inline, so the `discriminator` cannot select it. Use a "
                                "`$ref` to a named schema.", f"{v.pointer}/{i}")
            if keyword != "oneOf":
                continue
            if _allows_null(parent) and any(_allows_null(s) for s in map(resolve_schema, members) if s):
                lint.report(R, "The schema and a schema in `oneOf` both accept `null`, so nothing decides which one "
                            "applies to a null value.", v.pointer)
            resolved = [resolve_schema(m) for m in members]
            for li in range(len(members) - 1):
                left = resolved[li]
                if left is None:
                    continue
                for ri in range(li + 1, len(members)):
                    right = resolved[ri]
                    if right is None or json_equal(members[li], members[ri]):
                        continue
                    reason = _overlap_reason(lint, left, right, disc)
                    if reason:
                        lint.report(R, "Schemas in `oneOf` must be mutually exclusive. Found overlapping schemas: "
                                    f"{_describe(members[li], li)} and {_describe(members[ri], ri)}. {reason}", v.pointer)


def _describe(member: Any, index: int) -> str:
    if is_ref(member):
        return f"`{member['$ref']}`"
    if isinstance(member, dict) and _truthy(member.get("title")):
        return f"`{_js_value(member['title'])}`"
    return f"schema at position {index + 1}"


def _quote_all(names: list) -> str:
    return ", ".join(f"`{n}`" for n in names)


def _overlap_reason(lint: Linter, left: dict, right: dict, disc: dict | None) -> str | None:
    if _unsupported(left) or _unsupported(right) or _exclusive(left, right):
        return None
    if _allows_null(left) and _allows_null(right):
        return "Both schemas accept `null`."
    lv, rv = _allowed_values(left), _allowed_values(right)
    if lv is not None and rv is not None:
        shared = [x for x in lv if any(json_equal(x, y) for y in rv)]
        return f"Both schemas allow the values {_js_json(shared)}."
    if disc is not None:
        name = disc.get("propertyName")
        if not isinstance(name, str):
            return None
        lreq = isinstance(left.get("required"), list) and name in left["required"]
        rreq = isinstance(right.get("required"), list) and name in right["required"]
        if lreq and rreq:
            return None
        declared = name in (left.get("properties") or {}) and name in (right.get("properties") or {})
        if not declared:
            return (f"Declare `{name}` in every schema and add it to `required`; the `discriminator` cannot read a "
                    "property a value may omit.")
        return f"Add `{name}` to `required` in every schema; the `discriminator` cannot read a property a value may omit."
    overlap = _property_overlap(lint, left, right)
    if overlap:
        return overlap
    if not _truthy(left.get("properties")) and not _truthy(right.get("properties")):
        shared = _shared_types(left, right)
        if shared:
            return f"Both schemas accept {', '.join(f'`{_js_value(t)}`' for t in shared)}."
    return None


def _property_overlap(lint: Linter, left: dict, right: dict) -> str | None:
    lp, rp = left.get("properties"), right.get("properties")
    if not _truthy(lp) or not _truthy(rp) or not isinstance(lp, dict) or not isinstance(rp, dict):
        return None
    lreq = [x for x in (left.get("required") or []) if isinstance(x, str)] if isinstance(left.get("required"), list) else []
    rreq = [x for x in (right.get("required") or []) if isinstance(x, str)] if isinstance(right.get("required"), list) else []
    shared = [n for n in lp if n in rp and _truthy(rp[n])]

    def forbids(schema: dict, declared: dict, required: list) -> bool:
        return schema.get("additionalProperties") is False and any(n not in declared for n in required)

    if forbids(left, lp, rreq) or forbids(right, rp, lreq):
        return None
    left_unknown = any(n not in rp and n not in rreq for n in lreq)
    right_unknown = any(n not in lp and n not in lreq for n in rreq)
    if left_unknown and right_unknown:
        return None
    if not shared:
        return None
    optional: list[str] = []
    ambiguous: list[str] = []
    for name in shared:
        both = name in lreq and name in rreq
        lprop, _ = lint.resolve(lp[name])
        rprop, _ = lint.resolve(rp[name])
        if not isinstance(lprop, dict) or not isinstance(rprop, dict):
            continue
        if _unsupported(lprop) or _unsupported(rprop):
            continue
        if _exclusive(lprop, rprop):
            if both:
                return None
            optional.append(name)
            continue
        ambiguous.append(name)
    if optional:
        also = f" Other shared properties: {_quote_all(ambiguous)}." if ambiguous else ""
        return (f"Add {_quote_all(optional)} to `required` in every schema; an optional property cannot distinguish "
                f"the schemas.{also}")
    if ambiguous:
        return (f"Both schemas define {_quote_all(ambiguous)} without constraints that exclude each other. Add a "
                "discriminator, or constrain the shared properties to different values.")
    return None
