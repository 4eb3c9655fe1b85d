"""Structural validation: the official OpenAPI JSON Schemas, plus what a schema cannot say.

Schemas (the official files, read from the installed openapi-spec-validator and
openapi-schema-validator packages): Swagger 2.0 (draft-04), OAS 3.0 2021-09-28 (draft-04), OAS 3.1 2022-10-07 with its Schema Object dialect (draft 2020-12, ``$dynamicRef`` —
the "schema-base" composition, so schema objects are validated too). ``jsonschema_rs`` validates
and lists every error with its instance path.

The semantic checks openapi-spec-validator adds (rule ``spec``): duplicate ``operationId``s, path
template parameters without a declaration and declared path parameters not in the template,
local ``$ref``s that do not resolve, and ``required`` names a schema does not define.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import jsonschema_rs

from .formats import js_regex_valid
from .walker import HTTP_METHODS, Resolver, Walk, esc, is_ref

OAS31_SCHEMA_ID = "https://spec.openapis.org/oas/3.1/schema/2022-10-07"
OAS31_SCHEMA_BASE = {
    "$id": "https://spec.openapis.org/oas/3.1/schema-base/2022-10-07",
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "description": "The description of OpenAPI v3.1.x documents using the OpenAPI JSON Schema dialect",
    "$ref": OAS31_SCHEMA_ID,
    "$defs": {"schema": {"$dynamicAnchor": "meta", "$ref": "https://spec.openapis.org/oas/3.1/dialect/base"}},
}


# The official schemas of the OpenAPI Initiative, as the PyPI packages openapi-spec-validator
# (Apache-2.0) and openapi-schema-validator (BSD-3-Clause) ship them: read from the installed
# packages rather than copied here, so they stay the published files.
_SCHEMA_FILES = {
    "oas20": ("openapi_spec_validator", "resources/schemas/v2.0/schema.json"),
    "oas30": ("openapi_spec_validator", "resources/schemas/v3.0/schema.json"),
    "oas31": ("openapi_spec_validator", "resources/schemas/v3.1/schema.json"),
    "oas31_dialect": ("openapi_schema_validator", "schemas/oas3.1/metaschema.json"),  # dialect/base
    "oas31_meta": ("openapi_schema_validator", "schemas/oas3.1/vocabularies/base"),  # meta/base
}


def _load(name: str) -> dict:
    """One schema file, read from where its package is installed *without importing the package*:
    importing openapi_spec_validator pulls in jsonschema, referencing and friends (~0.3 s and
    ~35 MiB of RSS per process) only to read a JSON file."""
    from importlib.util import find_spec

    package, path = _SCHEMA_FILES[name]
    spec = find_spec(package)  # a top-level package: found on sys.path, not executed
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError(f"{package} is not installed (the server extra ships it)")
    folder = Path(next(iter(spec.submodule_search_locations)))
    return json.loads((folder / path).read_text(encoding="utf-8"))


def _regex(value: str) -> bool:
    """Patterns as browsers and Node read them (no ``u`` flag: ``[\\d-_]`` and a lone ``{`` are
    literals), rather than the strict ECMA-262 check jsonschema_rs would apply."""
    return js_regex_valid(value)


_FORMATS = {"regex": _regex}


@lru_cache(maxsize=None)
def validator(version: str):
    """The compiled validator for "2.0", "3.0" or "3.1"."""
    if version == "2.0":
        return jsonschema_rs.Draft4Validator(_load("oas20"), formats=_FORMATS)
    if version == "3.0":
        return jsonschema_rs.Draft4Validator(_load("oas30"), formats=_FORMATS)
    registry = jsonschema_rs.Registry([
        (OAS31_SCHEMA_ID, _load("oas31")),
        ("https://spec.openapis.org/oas/3.1/dialect/base", _load("oas31_dialect")),
        ("https://spec.openapis.org/oas/3.1/meta/base", _load("oas31_meta")),
    ])
    return jsonschema_rs.Draft202012Validator(OAS31_SCHEMA_BASE, registry=registry, formats=_FORMATS)


def _pointer(path: Any) -> str:
    return "".join("/" + esc(p) for p in path)


def _short(value: Any, limit: int = 80) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _message(error) -> str:
    """jsonschema_rs's message, with the (possibly huge) instance shortened."""
    message = error.message
    if len(message) > 300:
        kind = type(error.kind).__name__
        message = f"{message[:200]}… ({kind})"
    return message


def _is_reference_branch(branch: list) -> bool:
    """The "or a Reference Object" alternative: its only complaint is a missing ``$ref``."""
    return bool(branch) and all("\"$ref\" is a required property" in e.message
                                or any(str(p) in ("Reference", "jsonReference") for p in e.schema_path)
                                for e in branch)


def _explain(error, depth: int = 0) -> list[tuple[str, Any]]:
    """(message, instance path) pairs for an error, looking inside ``oneOf``/``anyOf`` failures.

    The OpenAPI schemas say "X or a Reference Object" with ``oneOf``, so a wrong parameter is reported
    as "not valid under any of the schemas". When one alternative is clearly the intended one (the
    other is the Reference), its own errors are the useful ones; otherwise the alternatives' first
    complaints are listed.
    """
    kind = error.kind
    context = getattr(kind, "context", None)
    if depth > 8 or not context or type(kind).__name__ not in ("OneOfNotValid", "AnyOf"):
        return _worded(error)
    branches = [b for b in context if not _is_reference_branch(b)] or list(context)
    if len(branches) == 1:
        out: list[tuple[str, Any]] = []
        for sub in branches[0]:
            out.extend(_explain(sub, depth + 1))
        return out or [(_message(error), error.instance_path)]
    firsts: list[str] = []
    for branch in branches:
        if branch:
            text = _message(branch[0])
            where = _pointer(branch[0].instance_path[len(error.instance_path):])
            text = f"{where}: {text}" if where else text
            if text not in firsts:
                firsts.append(text)
    shown = "; ".join(firsts[:4]) + ("; …" if len(firsts) > 4 else "")
    instance = _short(error.instance, 60) if hasattr(error, "instance") else "the value"
    return [(f"{instance} matches none of the {len(branches)} allowed forms ({shown})", error.instance_path)]


def _oas_type_of(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int) or (isinstance(value, float) and value.is_integer()):
        return "integer"
    if isinstance(value, float):
        return "number"
    if value is None:
        return "null"
    return {dict: "object", list: "array", str: "string"}.get(type(value), type(value).__name__)


def _worded(error) -> list[tuple[str, Any]]:
    """Redocly's ``struct`` wording for the common cases; jsonschema_rs's message otherwise."""
    kind = error.kind
    name = type(kind).__name__
    path = list(error.instance_path)
    try:
        if name == "Type" and len(kind.types) == 1:
            return [(f"Expected type `{kind.types[0]}` but got `{_oas_type_of(error.instance)}`.", path)]
        if name == "Required":
            return [(f"The field `{kind.property}` must be present on this level.", path)]
        if name == "AdditionalProperties":
            return [(f"Property `{prop}` is not expected here.", path + [prop]) for prop in kind.unexpected]
        if name == "Enum" and path and len(kind.options) <= 10:
            options = ", ".join(json.dumps(o, ensure_ascii=False) for o in kind.options)
            return [(f"`{path[-1]}` can be one of the following only: {options}.", path)]
    except (AttributeError, TypeError):
        pass
    return [(_message(error), error.instance_path)]


def schema_findings(data: Any, version: str) -> list[tuple[str, str, str]]:
    """(rule, message, pointer) for the JSON Schema errors, one per distinct problem."""
    out = []
    seen: set[tuple[str, str]] = set()
    for error in validator(version).iter_errors(data):
        for message, path in _explain(error):
            pointer = _pointer(path)
            if (pointer, message) in seen:
                continue
            seen.add((pointer, message))
            out.append(("struct", message, pointer))
    return out


def semantic_findings(walk: Walk) -> list[tuple[str, str, str]]:
    """The openapi-spec-validator checks beyond the schema: (rule "spec", message, pointer)."""
    out: list[tuple[str, str, str]] = []
    data = walk.data
    resolver: Resolver = walk.resolver
    op_ids: dict[str, str] = {}
    rx = re.compile(r"\{([^{}/]+)\}")

    def resolved(node):
        return resolver.lookup(node["$ref"])[0] if is_ref(node) else node

    containers = [("paths", data.get("paths"))]
    if isinstance(data.get("webhooks"), dict):
        containers.append(("webhooks", data["webhooks"]))
    for root_key, paths in containers:
        if not isinstance(paths, dict):
            continue
        for path, item in paths.items():
            item_pointer = f"/{root_key}/{esc(path)}"
            item = resolved(item)
            if not isinstance(item, dict):
                continue
            template = rx.findall(path) if root_key == "paths" else []
            path_level = _path_param_names(item.get("parameters"), resolved)
            for method in HTTP_METHODS:
                op = item.get(method)
                if not isinstance(op, dict):
                    continue
                op_pointer = f"{item_pointer}/{method}"
                op_id = op.get("operationId")
                if isinstance(op_id, str):
                    if op_id in op_ids:
                        out.append(("spec", f"Operation ID '{op_id}' for '{method}' in '{path}' is not unique "
                                    f"(first used at {op_ids[op_id]})", f"{op_pointer}/operationId"))
                    else:
                        op_ids[op_id] = f"{method.upper()} {path}"
                if root_key != "paths":
                    continue
                declared = path_level | _path_param_names(op.get("parameters"), resolved)
                for name in template:
                    if name not in declared:
                        out.append(("spec", f"Path parameter '{name}' for '{method}' operation in '{path}' was not "
                                    "resolved", f"{op_pointer}"))
                for name in sorted(declared - set(template)):
                    out.append(("spec", f"Path parameter '{name}' for '{method}' operation in '{path}' is not in "
                                "the path template", f"{op_pointer}"))
    for ref in walk.refs:
        if ref.target is None and str(ref.ref.get("$ref", "")).startswith("#"):
            out.append(("spec", f"Unresolvable reference: {ref.ref['$ref']}", f"{ref.pointer}/$ref"))
    for v in walk.visits("Schema"):
        schema = v.node
        if not isinstance(schema, dict) or not isinstance(schema.get("required"), list):
            continue
        if schema.get("additionalProperties") not in (None, False) and "properties" not in schema:
            continue
        props = schema.get("properties")
        if not isinstance(props, dict) or any(k in schema for k in ("allOf", "anyOf", "oneOf", "$ref")):
            continue
        if schema.get("additionalProperties") not in (None, False) or "patternProperties" in schema:
            continue
        for i, name in enumerate(schema["required"]):
            if isinstance(name, str) and name not in props:
                out.append(("spec", f"Required list has not defined properties: ['{name}']",
                            f"{v.pointer}/required/{i}"))
    return out


def _path_param_names(params: Any, resolved) -> set[str]:
    names = set()
    if isinstance(params, list):
        for p in params:
            p = resolved(p)
            if isinstance(p, dict) and p.get("in") == "path" and isinstance(p.get("name"), str):
                names.add(p["name"])
    return names


# Schema Object keywords Redocly's type tree knows for OAS 3.1 (types/oas3_1.js ``Schema``): the 3.1
# dialect lets any keyword through, Redocly's ``struct`` reports the unknown ones (``nullable``...).
_OAS31_SCHEMA_KEYWORDS = frozenset((
    "$id", "$anchor", "id", "$schema", "definitions", "$defs", "$vocabulary", "externalDocs", "discriminator",
    "title", "multipleOf", "maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum", "maxLength", "minLength",
    "pattern", "maxItems", "minItems", "uniqueItems", "maxProperties", "minProperties", "required", "enum", "type",
    "allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas", "dependentRequired", "prefixItems",
    "contains", "minContains", "maxContains", "patternProperties", "propertyNames", "unevaluatedItems",
    "unevaluatedProperties", "summary", "properties", "items", "additionalProperties", "description", "format",
    "contentEncoding", "contentMediaType", "contentSchema", "default", "readOnly", "writeOnly", "xml", "examples",
    "example", "deprecated", "const", "$comment", "x-tags", "$dynamicAnchor", "$dynamicRef", "$ref"))
_JSON_TYPES = ("object", "array", "string", "number", "integer", "boolean", "null")


def redocly_struct_findings(walk: Walk) -> list[tuple[str, str, str]]:
    """Redocly-style ``struct`` problems the JSON Schemas let through: unknown keywords in 3.1 Schema
    Objects (the 3.1 dialect allows any), and malformed ``x-codeSamples`` (Redocly types them)."""
    out = []
    for v in walk.visits("Info"):
        logo = v.node.get("x-logo") if isinstance(v.node, dict) else None
        if "x-logo" in (v.node or {}) and not isinstance(logo, dict):
            out.append(("struct", f"Expected type `Logo` (object) but got `{_oas_type_of(logo)}`",
                        f"{v.pointer}/x-logo"))
    for v in walk.visits("Operation"):
        if not isinstance(v.node, dict):
            continue
        for ext in ("x-codeSamples", "x-code-samples"):
            samples = v.node.get(ext)
            if not isinstance(samples, list):
                continue
            for i, sample in enumerate(samples):
                if not isinstance(sample, dict):
                    continue
                for key, value in sample.items():
                    where = f"{v.pointer}/{ext}/{i}/{esc(key)}"
                    if key not in ("lang", "label", "source"):
                        out.append(("struct", f"Property `{key}` is not expected here.", where))
                    elif not isinstance(value, str):
                        out.append(("struct", f"Expected type `string` but got `{_oas_type_of(value)}`.", where))
    if walk.version != "3.1":
        return out
    allowed = '"' + '", "'.join(_JSON_TYPES) + '"'
    for v in walk.visits("Schema"):
        schema = v.node
        if not isinstance(schema, dict):
            continue
        for key in schema:
            if key not in _OAS31_SCHEMA_KEYWORDS and not key.startswith("x-"):
                out.append(("struct", f"Property `{key}` is not expected here.", f"{v.pointer}/{esc(key)}"))
        t = schema.get("type")
        if "type" in schema and not (t in _JSON_TYPES or (isinstance(t, list) and all(x in _JSON_TYPES for x in t))):
            out.append(("struct", f"`type` can be one of the following only: {allowed}.", f"{v.pointer}/type"))
    return out
