"""Validating example values against their schemas the way Redocly's example rules do.

Redocly (``no-invalid-media-type-examples``, ``no-invalid-parameter-examples``,
``no-invalid-schema-examples``) validates with its fork of Ajv 8 (draft-04 for OAS 2.0/3.0, 2020-12
for 3.1) with ``allErrors``, ``discriminator``, ajv-formats and two OpenAPI twists:

* unevaluated properties are errors by default: an object schema with ``properties`` (or
  ``patternProperties``) and no ``additionalProperties``/``unevaluatedProperties`` rejects keys
  it does not evaluate — except in a direct ``allOf`` member and inside ``anyOf``/``oneOf``/``not``
  members written inline (a ``$ref``'d schema is checked at its top unless called from ``allOf``);
* ``readOnly`` properties must not appear in a request, ``writeOnly`` ones not in a response, and
  are not ``required`` there.

Schemas Ajv refuses to compile (``nullable`` without ``type``, a broken ``discriminator``, an
unknown ``type``) make the whole example "errored", once per example, as Redocly reports it.
The error list (one entry per failing keyword, branch errors kept when ``anyOf``/``oneOf`` fail)
and messages follow Ajv's, so counts compare with Redocly's.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any, Callable

from .formats import FORMATS, js_regex

_JSON_TYPES = {"string", "number", "integer", "boolean", "null", "object", "array"}
MAX_STEPS = 1_000_000  # schema applications per example: a bound for hostile documents


class CompileError(Exception):
    """Ajv would throw while compiling the schema."""


@dataclass(slots=True)
class AjvError:
    keyword: str
    path: tuple  # data path segments below the example
    message: str
    params: dict = field(default_factory=dict)


def esc(segment: Any) -> str:
    return str(segment).replace("~", "~0").replace("/", "~1")


def js_str(value: Any) -> str:
    """``String(value)`` as JavaScript prints it."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() and abs(value) < 1e21 else repr(value)
    if isinstance(value, dict):
        return "[object Object]"
    if isinstance(value, list):
        return ",".join("" if v is None else js_str(v) for v in value)
    return str(value)


def json_equal(a: Any, b: Any) -> bool:
    """Deep equality with JSON types (``true`` is not ``1``)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def json_key(value: Any) -> Any:
    """A hashable stand-in for ``value`` with ``json_equal``'s equality: two values have equal keys
    exactly when ``json_equal`` says they are equal. Lets a list of n values be checked for
    duplicates with a set (n look-ups) instead of n² comparisons (Stripe's 250-value enums)."""
    if isinstance(value, bool):
        return ("b", value)
    if isinstance(value, (int, float)):
        # 1 and 1.0 are equal and hash alike; NaN equals nothing, not even itself
        return ("n", value) if value == value else ("nan", object())
    if isinstance(value, str):
        return ("s", value)
    if value is None:
        return ("z",)
    if isinstance(value, dict):
        return ("d", frozenset((k, json_key(v)) for k, v in value.items()))
    if isinstance(value, list):
        return ("l", tuple(json_key(v) for v in value))
    return ("o", object())  # not a JSON value: equal to nothing else


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _type_ok(value: Any, t: str) -> bool:
    if t == "string":
        return isinstance(value, str)
    if t == "number":
        return _is_number(value)
    if t == "integer":
        return _is_number(value) and float(value).is_integer()
    if t == "boolean":
        return isinstance(value, bool)
    if t == "null":
        return value is None
    if t == "object":
        return isinstance(value, dict)
    if t == "array":
        return isinstance(value, list)
    return False


def _schema_types(schema: dict) -> list[str]:
    declared = schema.get("type")
    if declared is None:
        types: list[str] = []
    elif isinstance(declared, str):
        types = [declared]
    elif isinstance(declared, list) and all(isinstance(t, str) for t in declared):
        types = list(declared)
    else:
        raise CompileError(f"type must be JSONType or JSONType[]: {js_str(declared)}")
    for t in types:
        if t not in _JSON_TYPES:
            raise CompileError(f"type must be JSONType or JSONType[]: {js_str(declared)}")
    if "null" in types:
        if schema.get("nullable") is False:
            raise CompileError("type: null contradicts nullable: false")
    else:
        if not types and "nullable" in schema:
            raise CompileError('"nullable" cannot be used without "type"')
        if schema.get("nullable") is True:
            types.append("null")
    return types


# json-schema-traverse (what Ajv walks to collect ids)
_TRAVERSE_ARRAYS = frozenset(("items", "allOf", "anyOf", "oneOf", "prefixItems"))
_TRAVERSE_PROPS = frozenset(("$defs", "definitions", "properties", "patternProperties", "dependencies"))
_TRAVERSE_SKIP = frozenset(("default", "enum", "const", "required", "maximum", "minimum", "exclusiveMaximum",
                            "exclusiveMinimum", "multipleOf", "maxLength", "minLength", "pattern", "format",
                            "maxItems", "minItems", "uniqueItems", "maxProperties", "minProperties"))

_APPLICATORS_SINGLE = ("not", "if", "then", "else", "contains", "propertyNames", "additionalItems",
                       "unevaluatedItems", "unevaluatedProperties", "additionalProperties")
_APPLICATORS_LIST = ("allOf", "anyOf", "oneOf", "prefixItems")
_APPLICATORS_MAP = ("properties", "patternProperties", "dependentSchemas")


class ExampleValidator:
    """One per document and dialect; ``resolve(ref) -> node | None`` follows local ``$ref``s."""

    def __init__(self, resolve: Callable[[str], Any], dialect: str) -> None:
        self.resolve = resolve
        self.draft4 = dialect == "draft4"
        self._compile_cache: dict[int, str | None] = {}
        # schema nodes whose whole reach (children, $ref targets, theirs...) compiled without an
        # error: a later compile that meets one skips it instead of walking the same graph again
        self._clean: set[int] = set()
        self._unit_cache: dict[int, str | None] = {}
        self._patterns: dict[str, re.Pattern | None] = {}

    # -- compile-time checks -------------------------------------------------------------
    def compile_error(self, schema: Any) -> str | None:
        """The message Ajv would throw compiling ``schema`` (and all it references), or None."""
        key = id(schema)
        if key in self._compile_cache:
            return self._compile_cache[key]
        error = self._ambiguous_ids(schema)
        seen: set[int] = set()
        stack = [schema]
        while stack and error is None:
            node = stack.pop()
            if not isinstance(node, dict) or id(node) in seen:
                continue
            seen.add(id(node))
            if id(node) in self._clean:
                # error-free all the way down: skipping it cannot change which error comes first
                continue
            try:
                self._check_node(node)
            except CompileError as exc:
                error = str(exc)
                break
            ref = node.get("$ref")
            if isinstance(ref, str):
                target = self.resolve(ref)
                if target is not None:  # an unresolved $ref is no-unresolved-refs' to report
                    error = self._ambiguous_ids(target)
                    stack.append(target)
            for k in _APPLICATORS_SINGLE:
                if isinstance(node.get(k), dict):
                    stack.append(node[k])
            for k in _APPLICATORS_LIST:
                if isinstance(node.get(k), list):
                    stack.extend(node[k])
            for k in _APPLICATORS_MAP + ("$defs", "definitions"):
                sub = node.get(k)
                if isinstance(sub, dict) and k not in ("$defs", "definitions"):
                    stack.extend(sub.values())
            items = node.get("items")
            if isinstance(items, dict):
                stack.append(items)
            elif isinstance(items, list):
                stack.extend(items)
            deps = node.get("dependencies")
            if isinstance(deps, dict):
                stack.extend(v for v in deps.values() if isinstance(v, dict))
        self._compile_cache[key] = error
        if error is None:
            self._clean.update(seen)  # each reached node's own reach lies inside this clean one
        return error

    def _ambiguous_ids(self, unit: Any) -> str | None:
        """Ajv's ``getSchemaRefs``: each schema it compiles (the root, each ``$ref`` target) is
        traversed with ``allKeys`` — into every object value, ``example``s included — and an ``id``
        (``$id`` in 2020-12) string seen twice is "ambiguous"."""
        key = id(unit)
        if key in self._unit_cache:
            return self._unit_cache[key]
        id_key = "id" if self.draft4 else "$id"
        seen_ids: set[str] = set()
        error = None
        stack: list[tuple[Any, bool]] = [(unit, True)]
        steps = 0
        while stack and error is None and steps < 200_000:
            node, is_root = stack.pop()
            steps += 1
            if not isinstance(node, dict):
                continue
            ident = node.get(id_key)
            if not is_root and isinstance(ident, str):
                if ident in seen_ids:
                    error = f'reference "{ident}" resolves to more than one schema'
                    break
                seen_ids.add(ident)
            for k, v in node.items():
                if isinstance(v, list):
                    if k in _TRAVERSE_ARRAYS:
                        stack.extend((x, False) for x in v)
                elif k in _TRAVERSE_PROPS:
                    if isinstance(v, dict):
                        stack.extend((x, False) for x in v.values())
                elif k not in _TRAVERSE_SKIP:
                    stack.append((v, False))
        self._unit_cache[key] = error
        return error

    def _check_node(self, node: dict) -> None:
        _schema_types(node)
        disc = node.get("discriminator")
        if isinstance(disc, dict):
            self._discriminator_mapping(node, disc)

    def _discriminator_mapping(self, schema: dict, disc: dict) -> tuple[str, dict[str, int]]:
        keyword = "oneOf" if schema.get("oneOf") else "anyOf" if schema.get("anyOf") else None
        tag = disc.get("propertyName")
        if not isinstance(tag, str):
            raise CompileError("discriminator: requires propertyName")
        if keyword is None:
            raise CompileError("discriminator: requires oneOf or anyOf composite keyword")
        variants = schema[keyword]
        mapping: dict[str, int] = {}

        def add(value: Any, i: int) -> None:
            if not isinstance(value, str) or value in mapping:
                raise CompileError(f'discriminator: "{tag}" values must be unique strings')
            mapping[value] = i

        def has_required(sch: Any) -> bool:
            if not isinstance(sch, dict):
                return False
            if isinstance(sch.get("required"), list) and tag in sch["required"]:
                return True
            for sub in sch.get("allOf") or []:
                if isinstance(sub, dict) and isinstance(sub.get("required"), list) and tag in sub["required"]:
                    return True
            return False

        top_required = has_required(schema)
        tag_required = True
        explicit = disc.get("mapping") if isinstance(disc.get("mapping"), dict) else None
        for i, sch in enumerate(variants if isinstance(variants, list) else []):
            ref = sch.get("$ref") if isinstance(sch, dict) else None
            if ref and explicit:
                keys = [k for k, v in explicit.items() if v == ref]
                if keys:
                    for k in keys:
                        add(k, i)
                    continue
            if ref and len(sch) == 1:
                sch = self.resolve(ref)
                if sch is None:
                    raise CompileError(f"can't resolve reference {ref}")
            prop = None
            if isinstance(sch, dict):
                props = sch.get("properties")
                prop = props.get(tag) if isinstance(props, dict) else None
                if prop is None and isinstance(sch.get("allOf"), list):
                    for sub in sch["allOf"]:
                        if isinstance(sub, dict) and isinstance(sub.get("properties"), dict) and sub["properties"].get(tag):
                            prop = sub["properties"][tag]
                            break
            if not isinstance(prop, dict):
                raise CompileError(f'discriminator: {keyword} subschemas (or referenced schemas) must have '
                                   f'"properties/{tag}" or match mapping')
            tag_required = tag_required and (top_required or has_required(sch))
            if prop.get("const") is not None and prop.get("const") != "" and prop.get("const") is not False:
                add(prop["const"], i)
            elif prop.get("enum"):
                for value in prop["enum"]:
                    add(value, i)
            else:
                raise CompileError(f'discriminator: "properties/{tag}" must have "const" or "enum"')
        if not tag_required:
            raise CompileError(f'discriminator: "{tag}" must be required')
        return tag, mapping

    # -- validation ------------------------------------------------------------------------
    def validate(self, data: Any, schema: Any, api_context: str | None = None) -> list[AjvError]:
        """Errors of ``data`` against ``schema``; raises ``CompileError`` like Ajv's compile."""
        if not isinstance(schema, dict):
            return []
        if isinstance(schema.get("$ref"), str) and len(schema) == 1:
            target = self.resolve(schema["$ref"])
            if isinstance(target, dict):
                schema = target
        message = self.compile_error(schema)
        if message:
            raise CompileError(message)
        errors: list[AjvError] = []
        self._active: set[tuple[int, int]] = set()
        self._budget = MAX_STEPS
        self._v(schema, data, (), errors, _State(api_context, False, False, True, False), 0)
        return errors

    def _pattern(self, source: str) -> re.Pattern | None:
        if source not in self._patterns:
            self._patterns[source] = js_regex(source)
        return self._patterns[source]

    def _v(self, schema: Any, data: Any, path: tuple, errors: list, st: "_State", depth: int):
        """Validate; append errors; return the evaluated property names (a set, or True for all)."""
        if schema is True or not isinstance(schema, dict):
            if schema is False:
                errors.append(AjvError("false schema", path, "boolean schema is false"))
            return set()
        if depth > 200 or self._budget <= 0:
            return set()
        # a schema that reaches itself on the same value ({allOf: [{$ref: itself}]}) would recurse for
        # ever (and branch exponentially through anyOf): the second time, it adds nothing
        key = (id(schema), id(data))
        if key in self._active:
            return set()
        self._budget -= 1
        self._active.add(key)
        try:
            return self._v_inner(schema, data, path, errors, st, depth)
        finally:
            self._active.discard(key)

    def _v_inner(self, schema: dict, data: Any, path: tuple, errors: list, st: "_State", depth: int):
        evaluated: set | bool = set()

        def merge(other):
            nonlocal evaluated
            if evaluated is True:
                return
            if other is True:
                evaluated = True
            elif other:
                evaluated = evaluated | other

        # $ref (a separate compiled function: errorPath restarts, composite mode does not carry)
        ref = schema.get("$ref")
        if isinstance(ref, str):
            target = self.resolve(ref)
            if target is not None:
                sub = _State(st.api, False, False, True, st.allof_variant)
                merge(self._v(target, data, path, errors, sub, depth + 1))
        types = _schema_types(schema)
        if types and not any(_type_ok(data, t) for t in types):
            declared = schema.get("type")
            errors.append(AjvError("type", path, f"must be {js_str(declared)}", {"type": declared}))
        # generic keywords
        if "enum" in schema and isinstance(schema["enum"], list):
            if not any(json_equal(data, e) for e in schema["enum"]):
                errors.append(AjvError("enum", path, "must be equal to one of the allowed values",
                                       {"allowedValues": schema["enum"]}))
        if "const" in schema:
            if not json_equal(data, schema["const"]):
                errors.append(AjvError("const", path, "must be equal to constant",
                                       {"allowedValue": schema["const"]}))
        discriminated = isinstance(schema.get("discriminator"), dict)
        if isinstance(schema.get("allOf"), list):
            for member in schema["allOf"]:
                if member is True or member == {}:
                    continue
                merge(self._v(member, data, path, errors, st.child(allof=True, same_data=True), depth + 1))
        for keyword in ("anyOf", "oneOf"):
            members = schema.get(keyword)
            if not isinstance(members, list) or discriminated:
                continue
            branch_errors: list = []
            passing: list[int] = []
            passing_eval: list = []
            for i, member in enumerate(members):
                errs: list = []
                ev = self._v(member, data, path, errs, st.child(composite=True, same_data=True), depth + 1)
                if errs:
                    branch_errors.extend(errs)
                else:
                    passing.append(i)
                    passing_eval.append(ev)
                    if keyword == "anyOf":
                        pass
            if keyword == "anyOf":
                if passing:
                    for ev in passing_eval:
                        merge(ev)
                else:
                    errors.extend(branch_errors)
                    errors.append(AjvError("anyOf", path, "must match a schema in anyOf"))
            else:
                if len(passing) == 1:
                    merge(passing_eval[0])
                else:
                    errors.extend(branch_errors)
                    errors.append(AjvError("oneOf", path, "must match exactly one schema in oneOf",
                                           {"passingSchemas": passing or None}))
        if isinstance(schema.get("not"), (dict, bool)):
            errs: list = []
            self._v(schema["not"], data, path, errs, st.child(composite=True, same_data=True), depth + 1)
            if not errs:
                errors.append(AjvError("not", path, "must NOT be valid"))
        if isinstance(schema.get("if"), (dict, bool)):
            errs = []
            ev_if = self._v(schema["if"], data, path, errs, st.child(composite=True, same_data=True), depth + 1)
            branch = "then" if not errs else "else"
            if not errs:
                merge(ev_if)
            if isinstance(schema.get(branch), (dict, bool)):
                errs2: list = []
                merge(self._v(schema[branch], data, path, errs2, st.child(same_data=True), depth + 1))
                if errs2:
                    errors.extend(errs2)
                    errors.append(AjvError("if", path, f'must match "{branch}" schema', {"failingKeyword": branch}))
        if st.api == "request" and schema.get("readOnly") is True:
            errors.append(AjvError("readOnly", path, "must NOT be present in request context"))
        if st.api == "response" and schema.get("writeOnly") is True:
            errors.append(AjvError("writeOnly", path, "must NOT be present in response context"))

        if _is_number(data):
            self._number(schema, data, path, errors)
        elif isinstance(data, str):
            self._string(schema, data, path, errors)
        elif isinstance(data, list):
            self._array(schema, data, path, errors, st, depth)
        elif isinstance(data, dict):
            merge(self._object(schema, data, path, errors, st, depth, evaluated))
        fmt = schema.get("format")
        if isinstance(fmt, str) and fmt in FORMATS and _is_number(data) and FORMATS[fmt][0] == "number":
            if not FORMATS[fmt][1](data):
                errors.append(AjvError("format", path, f'must match format "{fmt}"', {"format": fmt}))
        return evaluated

    def _number(self, schema: dict, data: Any, path: tuple, errors: list) -> None:
        for kw, op in (("maximum", "<="), ("minimum", ">=")):
            limit = schema.get(kw)
            if not _is_number(limit):
                continue
            exclusive = schema.get("exclusiveMaximum" if kw == "maximum" else "exclusiveMinimum")
            if self.draft4 and exclusive is True:
                op = op[0]
            if not _compare(data, op, limit):
                errors.append(AjvError(kw, path, f"must be {op} {js_str(limit)}", {"comparison": op, "limit": limit}))
        if not self.draft4:
            for kw, op in (("exclusiveMaximum", "<"), ("exclusiveMinimum", ">")):
                limit = schema.get(kw)
                if _is_number(limit) and not _compare(data, op, limit):
                    errors.append(AjvError(kw, path, f"must be {op} {js_str(limit)}", {"comparison": op, "limit": limit}))
        m = schema.get("multipleOf")
        if _is_number(m) and m > 0:
            q = data / m
            if abs(q - round(q)) > 1e-9 * max(1, abs(q)):
                errors.append(AjvError("multipleOf", path, f"must be multiple of {js_str(m)}", {"multipleOf": m}))

    def _string(self, schema: dict, data: str, path: tuple, errors: list) -> None:
        n = len(data)
        for kw, bad, text in (("maxLength", lambda lim: n > lim, "more"), ("minLength", lambda lim: n < lim, "fewer")):
            lim = schema.get(kw)
            if _is_number(lim) and bad(lim):
                errors.append(AjvError(kw, path, f"must NOT have {text} than {js_str(lim)} characters", {"limit": lim}))
        pattern = schema.get("pattern")
        if isinstance(pattern, str):
            rx = self._pattern(pattern)
            if rx is not None and _search(rx, data) is False:
                errors.append(AjvError("pattern", path, f'must match pattern "{pattern}"', {"pattern": pattern}))
        fmt = schema.get("format")
        if isinstance(fmt, str) and fmt in FORMATS and FORMATS[fmt][0] == "string":
            if not FORMATS[fmt][1](data):
                errors.append(AjvError("format", path, f'must match format "{fmt}"', {"format": fmt}))

    def _array(self, schema: dict, data: list, path: tuple, errors: list, st: "_State", depth: int) -> None:
        for kw, bad, text in (("maxItems", lambda lim: len(data) > lim, "more"), ("minItems", lambda lim: len(data) < lim, "fewer")):
            lim = schema.get(kw)
            if _is_number(lim) and bad(lim):
                errors.append(AjvError(kw, path, f"must NOT have {text} than {js_str(lim)} items", {"limit": lim}))
        if schema.get("uniqueItems") is True:
            for i in range(len(data) - 1, 0, -1):
                for j in range(i - 1, -1, -1):
                    if json_equal(data[i], data[j]):
                        errors.append(AjvError("uniqueItems", path,
                                               f"must NOT have duplicate items (items ## {j} and {i} are identical)",
                                               {"i": i, "j": j}))
                        break
                else:
                    continue
                break
        items = schema.get("items")
        start = 0
        prefix = schema.get("prefixItems") if not self.draft4 else None
        if isinstance(prefix, list):
            for i, sub in enumerate(prefix[: len(data)]):
                self._v(sub, data[i], path + (i,), errors, st.child(), depth + 1)
            start = len(prefix)
        if isinstance(items, list):
            for i, sub in enumerate(items[: len(data)]):
                self._v(sub, data[i], path + (i,), errors, st.child(), depth + 1)
            extra = schema.get("additionalItems")
            if extra is False and len(data) > len(items):
                errors.append(AjvError("additionalItems", path, f"must NOT have more than {len(items)} items",
                                       {"limit": len(items)}))
            elif isinstance(extra, dict):
                for i in range(len(items), len(data)):
                    self._v(extra, data[i], path + (i,), errors, st.child(), depth + 1)
        elif isinstance(items, dict) or items is False:
            for i in range(start, len(data)):
                self._v(items, data[i], path + (i,), errors, st.child(), depth + 1)
        contains = schema.get("contains")
        if isinstance(contains, (dict, bool)):
            ok = sum(1 for x in data if not self._collect(contains, x, st, depth))
            low = schema.get("minContains", 1)
            if ok < low:
                errors.append(AjvError("contains", path, f"must contain at least {low} valid item(s)", {"minContains": low}))

    def _collect(self, schema: Any, data: Any, st: "_State", depth: int) -> list:
        errs: list = []
        self._v(schema, data, (), errs, st.child(composite=True), depth + 1)
        return errs

    def _object(self, schema: dict, data: dict, path: tuple, errors: list, st: "_State", depth: int,
                evaluated_before) -> set | bool:
        evaluated: set | bool = set()
        props = schema.get("properties") if isinstance(schema.get("properties"), dict) else None
        pattern_props = schema.get("patternProperties") if isinstance(schema.get("patternProperties"), dict) else None
        for kw, bad, text in (("maxProperties", lambda lim: len(data) > lim, "more"),
                              ("minProperties", lambda lim: len(data) < lim, "fewer")):
            lim = schema.get(kw)
            if _is_number(lim) and bad(lim):
                errors.append(AjvError(kw, path, f"must NOT have {text} than {js_str(lim)} properties", {"limit": lim}))
        required = schema.get("required")
        if isinstance(required, list):
            for name in required:
                if not isinstance(name, str) or name in data:
                    continue
                if props is not None and self._skip_by_context(props.get(name), st.api):
                    continue
                errors.append(AjvError("required", path, f"must have required property '{name}'",
                                       {"missingProperty": name}))
        deps = dict(schema.get("dependencies") or {}) if isinstance(schema.get("dependencies"), dict) else {}
        if not self.draft4 and isinstance(schema.get("dependentRequired"), dict):
            deps.update(schema["dependentRequired"])
        if deps:
            for name, dep in deps.items():
                if name not in data:
                    continue
                if isinstance(dep, list):
                    missing = [d for d in dep if d not in data]
                    for d in missing:
                        errors.append(AjvError("dependencies", path,
                                               f"must have {'property' if len(dep) == 1 else 'properties'} "
                                               f"{', '.join(dep)} when property {name} is present",
                                               {"property": name, "missingProperty": d}))
                elif isinstance(dep, dict):
                    self._v(dep, data, path, errors, st.child(same_data=True), depth + 1)
        if not self.draft4 and isinstance(schema.get("dependentSchemas"), dict):
            for name, dep in schema["dependentSchemas"].items():
                if name in data:
                    self._v(dep, data, path, errors, st.child(same_data=True), depth + 1)
        if props is not None:
            for name, sub in props.items():
                if name in data and sub is not True and sub != {}:
                    self._v(sub, data[name], path + (name,), errors, st.child(), depth + 1)
            evaluated = set(props)
        if pattern_props is not None:
            for source, sub in pattern_props.items():
                rx = self._pattern(source)
                if rx is None:
                    continue
                for name in data:
                    if _search(rx, name):
                        evaluated = evaluated | {name} if evaluated is not True else True
                        self._v(sub, data[name], path + (name,), errors, st.child(), depth + 1)
        if isinstance(schema.get("propertyNames"), (dict, bool)):
            for name in data:
                errs = self._collect(schema["propertyNames"], name, st, depth)
                if errs:
                    errors.append(AjvError("propertyNames", path, "property name must be valid", {"propertyName": name}))
        # discriminator (replaces oneOf/anyOf when present)
        disc = schema.get("discriminator")
        if isinstance(disc, dict):
            tag, mapping = self._discriminator_mapping(schema, disc)
            keyword = "oneOf" if schema.get("oneOf") else "anyOf"
            value = data.get(tag)
            if not isinstance(value, str):
                errors.append(AjvError("discriminator", path, f'tag "{tag}" must be string', {"tag": tag}))
            elif value not in mapping:
                errors.append(AjvError("discriminator", path, f'value of tag "{tag}" must be in oneOf or anyOf',
                                       {"tag": tag, "tagValue": value}))
            else:
                ev = self._v(schema[keyword][mapping[value]], data, path, errors, st.child(same_data=True), depth + 1)
                if ev is True or evaluated is True:
                    evaluated = True
                else:
                    evaluated = evaluated | ev
        if "additionalProperties" in schema:
            extra = schema["additionalProperties"]
            declared = set(props or ())
            for name in data:
                if name in declared:
                    continue
                if pattern_props and any((rx := self._pattern(p)) is not None and rx.search(name) for p in pattern_props):
                    continue
                if extra is False:
                    errors.append(AjvError("additionalProperties", path, "must NOT have additional properties",
                                           {"additionalProperty": name}))
                elif isinstance(extra, dict) and extra:
                    self._v(extra, data[name], path + (name,), errors, st.child(), depth + 1)
            return True
        explicit = schema.get("unevaluatedProperties", _MISSING)
        total = True if (evaluated is True or evaluated_before is True) else (evaluated | evaluated_before)
        if explicit is not _MISSING:
            if total is not True and explicit is not True:
                for name in data:
                    if name in total:
                        continue
                    if explicit is False:
                        errors.append(AjvError("unevaluatedProperties", path, "must NOT have unevaluated properties",
                                               {"unevaluatedProperty": name}))
                    elif isinstance(explicit, dict):
                        self._v(explicit, data[name], path + (name,), errors, st.child(), depth + 1)
            return True
        if (props is not None or pattern_props is not None) and not st.allof_variant and self._forced_applies(st):
            if total is not True:
                for name in data:
                    if name not in total:
                        errors.append(AjvError("unevaluatedProperties", path, "must NOT have unevaluated properties",
                                               {"unevaluatedProperty": name}))
        return evaluated

    @staticmethod
    def _forced_applies(st: "_State") -> bool:
        if st.fn_top and not st.composite:
            return not st.fn_allof
        return not st.composite

    @staticmethod
    def _skip_by_context(prop_schema: Any, api: str | None) -> bool:
        if not isinstance(prop_schema, dict) or api is None:
            return False
        return (api == "request" and prop_schema.get("readOnly") is True) or (
            api == "response" and prop_schema.get("writeOnly") is True)


_MISSING = object()


def _search(rx, text: str) -> bool | None:
    """Whether ``rx`` finds a match; None when it takes too long (a pattern that backtracks
    catastrophically — ``regex`` patterns accept a timeout, ``re`` ones cannot be stopped)."""
    try:
        if getattr(rx, "__module__", None) == "_regex" or type(rx).__module__.startswith("_regex"):
            return rx.search(text, timeout=0.5) is not None
        return rx.search(text) is not None
    except TimeoutError:
        return None


def _compare(a: float, op: str, b: float) -> bool:
    return {"<=": a <= b, ">=": a >= b, "<": a < b, ">": a > b}[op]


@dataclass(slots=True)
class _State:
    api: str | None
    composite: bool      # inside an inline anyOf/oneOf/not/if member (Ajv's compositeRule)
    allof_variant: bool  # this schema is a direct allOf member
    fn_top: bool         # at the data root of the current compiled function (Ajv's empty errorPath)
    fn_allof: bool       # the current function was called from an allOf member (isAllOfVariant)

    def child(self, *, composite: bool = False, allof: bool = False, same_data: bool = False) -> "_State":
        return _State(self.api, self.composite or composite, allof, self.fn_top and same_data, self.fn_allof)


def describe(errors: list[AjvError], base: str) -> list[tuple[str, str, bool]]:
    """Redocly's wording: ``(message, pointer, report_on_key)`` per error; ``base`` is the example's pointer."""
    out = []
    for error in errors:
        message = error.message
        allowed = error.params.get("allowedValues") if error.keyword == "enum" else None
        if allowed is not None:
            message += " " + ", ".join(f'"{js_str(v)}"' for v in allowed)
        if error.keyword == "type":
            message = f"type {message}"
        prop = esc(error.path[-1]) if error.path else ""
        if prop:
            message = f"`{prop}` property {message}"
        pointer = base + "".join("/" + esc(p) for p in error.path)
        on_key = error.keyword in ("additionalProperties", "unevaluatedProperties")
        if on_key:
            name = error.params.get("additionalProperty", error.params.get("unevaluatedProperty"))
            message = f"{message} `{name}`"
            pointer += "/" + esc(name)
        out.append((f"Example value must conform to the schema: {message}.", pointer, on_key))
    return out
