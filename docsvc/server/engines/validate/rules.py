"""Redocly CLI's ``recommended`` ruleset (@redocly/cli 2.x), rule by rule, for OAS 2.0/3.0/3.1.

Rule names, severities, messages and report locations follow Redocly's rule sources
(``@redocly/openapi-core`` ``lib/rules``) and ``lib/config/recommended.js``; see ``RECOMMENDED``.
``struct`` is produced by :mod:`.structure` (the official JSON Schemas) instead of Redocly's type
tree. Each function takes the :class:`~.walker.Walk` and returns ``Problem`` tuples.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from .examples import CompileError, ExampleValidator, describe, json_equal
from .walker import HTTP_METHODS, Visit, Walk, esc, is_ref

# rule -> severity per version family ("2.0", "3.0", "3.1"); "off" rules are omitted.
_COMMON = {
    "struct": "error", "no-unresolved-refs": "error",
    "info-license": "warn", "info-license-strict": "warn", "no-ambiguous-paths": "warn",
    "no-duplicated-enum-values": "warn", "no-duplicated-tag-names": "warn", "no-enum-type-mismatch": "error",
    "no-identical-paths": "error", "no-invalid-parameter-examples": "warn", "no-invalid-schema-examples": "warn",
    "no-path-trailing-slash": "error", "no-required-schema-properties-undefined": "warn",
    "no-schema-type-mismatch": "error", "no-unsafe-markdown": "warn", "operation-2xx-response": "warn",
    "operation-4xx-response": "warn", "operation-operationId": "warn", "operation-operationId-unique": "error",
    "operation-operationId-url-safe": "error", "operation-parameters-unique": "error",
    "operation-summary": "error", "path-declaration-must-exist": "error", "path-not-include-query": "error",
    "path-parameters-defined": "error", "security-defined": "error", "security-scopes-defined": "warn",
    "spec-ref-siblings": "warn", "tag-description": "warn",
}
_OAS3 = {
    "no-empty-servers": "error", "no-example-value-and-externalValue": "error",
    "no-illogical-composition-keywords": "warn", "no-invalid-media-type-examples": "warn",
    "no-server-example.com": "warn", "no-server-trailing-slash": "error", "no-server-variables-empty-enum": "error",
    "no-undefined-server-variable": "error", "no-unused-components": "warn",
    "spec-components-invalid-map-name": "error",
}
RECOMMENDED = {
    "2.0": dict(_COMMON),
    "3.0": {**_COMMON, **_OAS3, "nullable-type-sibling": "error"},
    "3.1": {**_COMMON, **_OAS3, "no-mixed-number-range-constraints": "warn"},
}


@dataclass(slots=True)
class Problem:
    rule: str
    message: str
    pointer: str


def _truthy(value: Any) -> bool:
    """JavaScript truthiness (``[]`` and ``{}`` are true)."""
    if value is None or value is False:
        return False
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value != 0
    if isinstance(value, str):
        return value != ""
    return True


def _defined_and_non_empty(type_name: str, field: str, node: Any, pointer: str) -> Problem | None:
    if not isinstance(node, dict):
        return None
    if field not in node:
        return Problem("", f"{type_name} object should contain `{field}` field.", f"{pointer}/{esc(field)}")
    if not _truthy(node[field]):
        return Problem("", f"{type_name} object `{field}` must be non-empty string.", f"{pointer}/{esc(field)}")
    return None


def _js_value(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, (dict, list)):
        return "[object Object]" if isinstance(value, dict) else ",".join(_js_value(v) for v in value)
    return str(value)


def _oas_type_of(value: Any) -> str:
    if isinstance(value, list):
        return "array"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "integer" if float(value).is_integer() else "number"
    if isinstance(value, str):
        return "string"
    return "object"


def _matches_type(value: Any, t: Any, nullable: Any) -> bool:
    if nullable and value is None:
        return True
    if t == "array":
        return isinstance(value, list)
    if t == "object":
        return isinstance(value, dict)
    if t == "null":
        return value is None
    if t == "integer":
        return isinstance(value, (int, float)) and not isinstance(value, bool) and float(value).is_integer()
    if t == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if t == "string":
        return isinstance(value, str)
    if t == "boolean":
        return isinstance(value, bool)
    return False


class Linter:
    def __init__(self, walk: Walk) -> None:
        self.walk = walk
        self.data = walk.data
        self.version = walk.version
        self.resolver = walk.resolver
        self.problems: list[Problem] = []
        self._validator: ExampleValidator | None = None

    def report(self, rule: str, message: str, pointer: str) -> None:
        self.problems.append(Problem(rule, message, pointer))

    def resolve(self, node: Any) -> tuple[Any, str | None]:
        """(resolved node, its pointer or None when not a $ref)."""
        if is_ref(node):
            target, pointer, _ = self.resolver.lookup(node["$ref"])
            return target, pointer
        return node, None

    @property
    def validator(self) -> ExampleValidator:
        if self._validator is None:
            self._validator = ExampleValidator(self.resolver.node, "2020" if self.version == "3.1" else "draft4")
        return self._validator

    def run(self, enabled: Iterable[str]) -> list[Problem]:
        for rule in enabled:
            fn = _RULES.get(rule)
            if fn is not None:
                fn(self)
        return self.problems

    # -- example validation shared by three rules ------------------------------------------
    def check_example(self, rule: str, example: Any, schema: Any, example_pointer: str, schema_pointer: str,
                      api: str | None) -> None:
        try:
            errors = self.validator.validate(example, schema, api)
        except CompileError as exc:
            message = str(exc)
            if message == "discriminator: requires oneOf or anyOf composite keyword":
                return
            self.report(rule, f"Example validation errored: {message}.", schema_pointer)
            return
        except RecursionError:
            return
        for message, pointer, _ in describe(errors, example_pointer):
            self.report(rule, message, pointer)


# -- the rules -----------------------------------------------------------------------------------
_RULES: dict[str, Callable[[Linter], None]] = {}


def rule(name: str):
    def register(fn):
        _RULES[name] = fn
        return fn
    return register


@rule("info-license")
def _info_license(lint: Linter) -> None:
    for v in lint.walk.visits("Info"):
        if not _truthy(v.node.get("license")):
            lint.report("info-license", "Info object should contain `license` field.", v.pointer)


@rule("info-license-strict")
def _info_license_strict(lint: Linter) -> None:
    for v in lint.walk.visits("License"):
        lic = v.node
        if not isinstance(lic, dict):
            continue
        if lint.version == "3.1":
            if "url" not in lic and "identifier" not in lic:
                lint.report("info-license-strict",
                            "License object should contain one of the fields: `url`, `identifier`.", v.pointer)
            for f in ("url", "identifier"):
                if f in lic and not _truthy(lic[f]):
                    lint.report("info-license-strict", f"License object `{f}` must be non-empty string.",
                                f"{v.pointer}/{f}")
        else:
            p = _defined_and_non_empty("License", "url", lic, v.pointer)
            if p:
                lint.report("info-license-strict", p.message, p.pointer)


def _parse_path(path: str):
    segments = path.split("/")
    variables = [bool(re.match(r"^{.+?}$", s)) for s in segments]
    return path, segments, variables, sum(variables)


@rule("no-ambiguous-paths")
def _no_ambiguous_paths(lint: Linter) -> None:
    for v in lint.walk.visits("Paths"):
        groups: dict[str, list] = {}
        for current in v.node:
            parsed = _parse_path(current)
            seen = groups.setdefault(f"{len(parsed[1])}:{parsed[3]}", [])
            for other in seen:
                if all(other[2][i] or parsed[2][i] or other[1][i] == parsed[1][i] for i in range(len(other[1]))):
                    lint.report("no-ambiguous-paths",
                                f"Paths should resolve unambiguously. Found two ambiguous paths: `{other[0]}` and "
                                f"`{current}`.", f"{v.pointer}/{esc(current)}")
                    break
            seen.append(parsed)


@rule("no-identical-paths")
def _no_identical_paths(lint: Linter) -> None:
    for v in lint.walk.visits("Paths"):
        seen: dict[str, str] = {}
        for name in v.node:
            key = re.sub(r"{.+?}", "{VARIABLE}", name)
            if key in seen:
                lint.report("no-identical-paths", "The path already exists which differs only by path parameter "
                            f"name(s): `{seen[key]}` and `{name}`.", f"{v.pointer}/{esc(name)}")
            else:
                seen[key] = name


def _path_items(lint: Linter) -> list[Visit]:
    return [v for v in lint.walk.visits("PathItem") if isinstance(v.key, str)]


@rule("no-path-trailing-slash")
def _no_path_trailing_slash(lint: Linter) -> None:
    for v in _path_items(lint):
        if v.key.endswith("/") and v.key != "/":
            lint.report("no-path-trailing-slash", f"`{v.key}` should not have a trailing slash.", v.raw_pointer)


@rule("path-declaration-must-exist")
def _path_declaration(lint: Linter) -> None:
    for v in _path_items(lint):
        if "{}" in v.key:
            lint.report("path-declaration-must-exist",
                        "Path parameter declarations must be non-empty. `{}` is invalid.", v.pointer)


@rule("path-not-include-query")
def _path_not_include_query(lint: Linter) -> None:
    for v in lint.walk.path_item_reaches:  # Paths > PathItem: every reach
        if "Paths" in v.ancestors and isinstance(v.key, str) and "?" in v.key:
            lint.report("path-not-include-query", "Don't put query string items in the path, they belong in "
                        "parameters with `in: query`.", v.pointer)


def _params(lint: Linter, owner: dict, owner_pointer: str) -> list[tuple[Any, str, str, int]]:
    """(parameter, its pointer, raw pointer, index) for ``owner["parameters"]``, $refs resolved."""
    out = []
    params = owner.get("parameters")
    if not isinstance(params, list):
        return out
    for i, raw in enumerate(params):
        node, target = lint.resolve(raw)
        raw_pointer = f"{owner_pointer}/parameters/{i}"
        if isinstance(node, dict):
            out.append((node, target or raw_pointer, raw_pointer, i))
    return out


def _operations(path_item: Visit) -> list[tuple[str, dict, str]]:
    out = []
    for method in HTTP_METHODS + ("x-query",):
        op = path_item.node.get(method)
        if isinstance(op, dict):
            out.append((method, op, f"{path_item.pointer}/{method}"))
    return out


@rule("path-parameters-defined")
def _path_parameters_defined(lint: Linter) -> None:
    rx = re.compile(r"\{([a-zA-Z0-9_.-]+)\}+")
    for v in _path_items(lint):
        template = {m.group(1) for m in rx.finditer(v.key)}
        path_defined: set[str] = set()

        def check(param: dict, pointer: str) -> None:
            if param.get("in") == "path" and _truthy(param.get("name")):
                if param["name"] not in template:
                    lint.report("path-parameters-defined", f"Path parameter `{param['name']}` is not used in the "
                                f"path `{v.key}`.", f"{pointer}/name")

        for param, pointer, _, _ in _params(lint, v.node, v.pointer):
            if param.get("in") == "path" and _truthy(param.get("name")):
                path_defined.add(param["name"])
            check(param, pointer)
        for _, op, op_pointer in _operations(v):
            op_defined: set[str] = set()
            for param, pointer, _, _ in _params(lint, op, op_pointer):
                if param.get("in") == "path" and _truthy(param.get("name")):
                    op_defined.add(param["name"])
                check(param, pointer)
            for name in sorted(template - op_defined - path_defined, key=list(template).index):
                lint.report("path-parameters-defined", f"The operation does not define the path parameter "
                            f"`{{{name}}}` expected by path `{v.key}`.", f"{op_pointer}/parameters")


@rule("operation-parameters-unique")
def _operation_parameters_unique(lint: Linter) -> None:
    for v in _path_items(lint):
        seen: set[str] = set()
        for param, _, _, i in _params(lint, v.node, v.pointer):
            pid = f"{_js_value(param.get('in'))}___{_js_value(param.get('name'))}"
            if pid in seen:
                lint.report("operation-parameters-unique", "Paths must have unique `name` + `in` parameters.\n"
                            f"Repeats of `in:{_js_value(param.get('in'))}` + `name:{_js_value(param.get('name'))}`.",
                            f"{v.pointer}/parameters/{i}")
            seen.add(pid)
        for _, op, op_pointer in _operations(v):
            seen_op: set[str] = set()
            for param, _, _, i in _params(lint, op, op_pointer):
                pid = f"{_js_value(param.get('in'))}___{_js_value(param.get('name'))}"
                if pid in seen_op:
                    lint.report("operation-parameters-unique", "Operations must have unique `name` + `in` parameters."
                                f" Repeats of `in:{_js_value(param.get('in'))}` + "
                                f"`name:{_js_value(param.get('name'))}`.", f"{op_pointer}/parameters/{i}")
                seen_op.add(pid)


def _all_operations(lint: Linter) -> list[Visit]:
    return [v for v in lint.walk.visits("Operation") if isinstance(v.node, dict)]


@rule("operation-operationId")
def _operation_operation_id(lint: Linter) -> None:
    # Redocly's visitor is Root > PathItem > Operation: it runs on every reach of a PathItem (twice for
    # one $ref'd from two paths), but a PathItem inside another (a callback's) does not activate it.
    for reach in lint.walk.path_item_reaches:
        if "Callback" in reach.ancestors or not isinstance(reach.node, dict):
            continue
        for _, op, op_pointer in _operations(reach):
            p = _defined_and_non_empty("Operation", "operationId", op, op_pointer)
            if p:
                lint.report("operation-operationId", p.message, p.pointer)


@rule("operation-operationId-unique")
def _operation_id_unique(lint: Linter) -> None:
    seen: set = set()
    for v in _all_operations(lint):
        op_id = v.node.get("operationId")
        if not _truthy(op_id) or isinstance(op_id, (dict, list)):
            continue
        if op_id in seen:
            # Redocly's location: the operation's child named by the id (lines fall back to the operation)
            lint.report("operation-operationId-unique", "Every operation must have a unique `operationId`.",
                        f"{v.pointer}/{esc(_js_value(op_id))}")
        seen.add(op_id)


_URL_SAFE = re.compile(r"^[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=]*$")


@rule("operation-operationId-url-safe")
def _operation_id_url_safe(lint: Linter) -> None:
    for v in _all_operations(lint):
        op_id = v.node.get("operationId")
        if _truthy(op_id) and not _URL_SAFE.match(_js_value(op_id)):
            lint.report("operation-operationId-url-safe",
                        "Operation `operationId` should not have URL invalid characters.", f"{v.pointer}/operationId")


@rule("operation-summary")
def _operation_summary(lint: Linter) -> None:
    for v in _all_operations(lint):
        p = _defined_and_non_empty("Operation", "summary", v.node, v.pointer)
        if p:
            lint.report("operation-summary", p.message, p.pointer)


def _response_codes(lint: Linter, rule_name: str, code_range: str) -> None:
    rx = re.compile(rf"^{code_range[0]}[0-9Xx]{{2}}$")
    # Redocly: Paths > Responses, on every reach of a PathItem under `paths` (callbacks included)
    for reach in lint.walk.path_item_reaches:
        if "Paths" not in reach.ancestors or not isinstance(reach.node, dict):
            continue
        for _, op, op_pointer in _operations(reach):
            responses = op.get("responses")
            if not isinstance(responses, dict):
                continue
            if not any((code_range == "2XX" and c == "default") or rx.match(c) for c in responses):
                lint.report(rule_name, f"Operation must have at least one `{code_range}` response.",
                            f"{op_pointer}/responses")


@rule("operation-2xx-response")
def _operation_2xx(lint: Linter) -> None:
    _response_codes(lint, "operation-2xx-response", "2XX")


@rule("operation-4xx-response")
def _operation_4xx(lint: Linter) -> None:
    _response_codes(lint, "operation-4xx-response", "4XX")


@rule("security-defined")
def _security_defined(lint: Linter) -> None:
    defined = {str(v.key) for v in lint.walk.visits("SecurityScheme")}
    undefined: dict[str, list[str]] = {}
    for v in lint.walk.visits("SecurityRequirement"):
        if isinstance(v.node, dict):
            for name in v.node:
                if name not in defined:
                    undefined.setdefault(name, []).append(f"{v.pointer}/{esc(name)}")
    for name, pointers in undefined.items():
        for pointer in pointers:
            lint.report("security-defined", f"There is no `{name}` security scheme defined.", pointer)
    without = [v for v in _all_operations(lint) if "PathItem" in v.ancestors and not _truthy(v.node.get("security"))]
    if _truthy(lint.data.get("security")) or not without:
        return
    for v in without:
        lint.report("security-defined", "Every operation should have security defined on it or on the root level.",
                    v.pointer)


@rule("security-scopes-defined")
def _security_scopes_defined(lint: Linter) -> None:
    schemes: dict[str, tuple[Any, list[str]]] = {}
    for v in lint.walk.visits("SecurityScheme"):
        scheme = v.node if isinstance(v.node, dict) else {}
        scopes: list[str] = []
        if scheme.get("type") == "oauth2":
            flows = scheme.get("flows")
            if isinstance(flows, dict):
                flows, _ = lint.resolve(flows)
                for flow in (flows or {}).values():
                    flow, _ = lint.resolve(flow)
                    if isinstance(flow, dict) and isinstance(flow.get("scopes"), dict):
                        scopes += [s for s in flow["scopes"] if s not in scopes]
            elif isinstance(scheme.get("scopes"), dict):
                scopes = list(scheme["scopes"])
        schemes[str(v.key)] = (scheme.get("type"), scopes)
    for v in lint.walk.visits("SecurityRequirement"):
        if not isinstance(v.node, dict):
            continue
        for name, used in v.node.items():
            scheme = schemes.get(name)
            if not scheme or scheme[0] != "oauth2" or not isinstance(used, list):
                continue
            for i, scope in enumerate(used):
                if scope not in scheme[1]:
                    lint.report("security-scopes-defined", f'The "{_js_value(scope)}" scope is not defined in the '
                                f'"{name}" security scheme.', f"{v.pointer}/{esc(name)}/{i}")


@rule("tag-description")
def _tag_description(lint: Linter) -> None:
    for v in lint.walk.visits("Tag"):
        p = _defined_and_non_empty("Tag", "description", v.node, v.pointer)
        if p:
            lint.report("tag-description", p.message, p.pointer)


@rule("no-duplicated-tag-names")
def _no_duplicated_tag_names(lint: Linter) -> None:
    seen: set = set()
    for v in lint.walk.visits("Tag"):
        if not isinstance(v.node, dict):
            continue
        name = v.node.get("name")
        key = json.dumps(name, sort_keys=True)
        if key in seen:
            lint.report("no-duplicated-tag-names", f"Duplicate tag name found: '{_js_value(name)}'.", v.pointer)
        else:
            seen.add(key)


def _schemas(lint: Linter) -> list[Visit]:
    return [v for v in lint.walk.visits("Schema") if isinstance(v.node, dict)]


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
        seen: list = []
        for i, value in enumerate(enum):
            if any(json_equal(value, s) for s in seen):
                shown = json.dumps(value, separators=(",", ":")) if isinstance(value, (dict, list)) else _js_value(value)
                lint.report("no-duplicated-enum-values", f"Duplicated enum value found: '{shown}'.",
                            f"{v.pointer}/enum/{i}")
            seen.append(value)


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


@rule("no-invalid-schema-examples")
def _no_invalid_schema_examples(lint: Linter) -> None:
    for v in _schemas(lint):
        s = v.node
        examples = s.get("examples")
        if isinstance(examples, list):
            for i, example in enumerate(examples):
                first = next(j for j, e in enumerate(examples) if e is example)
                lint.check_example("no-invalid-schema-examples", example, s, f"{v.pointer}/examples/{first}",
                                   f"{v.pointer}/schema", None)
        if "example" in s:
            if s.get("nullable") is True and s["example"] is None and "type" in s:
                continue
            lint.check_example("no-invalid-schema-examples", s["example"], s, f"{v.pointer}/example",
                               f"{v.pointer}/schema", None)


def _example_value(example: Any) -> tuple[Any, str] | None:
    if not isinstance(example, dict):
        return None
    if "dataValue" in example:
        return example["dataValue"], "dataValue"
    if "value" in example:
        return example["value"], "value"
    return None


@rule("no-invalid-parameter-examples")
def _no_invalid_parameter_examples(lint: Linter) -> None:
    for v in lint.walk.visits("Parameter"):
        p = v.node
        if not isinstance(p, dict):
            continue
        if "example" in p:
            lint.check_example("no-invalid-parameter-examples", p["example"], p.get("schema"), f"{v.pointer}/example",
                               f"{v.pointer}/schema", "request")
        if isinstance(p.get("examples"), dict):
            for key, example in p["examples"].items():
                selected = _example_value(example)
                if selected:
                    lint.check_example("no-invalid-parameter-examples", selected[0], p.get("schema"),
                                       f"{v.pointer}/examples/{esc(key)}/{selected[1]}", f"{v.pointer}/schema",
                                       "request")


@rule("no-invalid-media-type-examples")
def _no_invalid_media_type_examples(lint: Linter) -> None:
    for v in lint.walk.visits("MediaType"):
        mt = v.node
        if not isinstance(mt, dict) or "schema" not in mt:
            continue
        owner = None
        depth = -1
        for kind in ("Parameter", "RequestBody", "Response"):
            a = v.ancestors.get(kind)
            if a is not None and len(a.ancestors) > depth:
                owner, depth = kind, len(a.ancestors)
        if owner is None:
            continue
        api = "response" if owner == "Response" else "request"
        if "example" in mt:
            example, pointer = mt["example"], f"{v.pointer}/example"
            if is_ref(example):  # Redocly follows a $ref written as the example
                example, target = lint.resolve(example)
                if target is None:
                    continue
                pointer = target
            lint.check_example("no-invalid-media-type-examples", example, mt["schema"], pointer,
                               f"{v.pointer}/schema", api)
        elif isinstance(mt.get("examples"), dict):
            for name, example in mt["examples"].items():
                pointer = f"{v.pointer}/examples/{esc(name)}"
                if is_ref(example):
                    example, target = lint.resolve(example)
                    if example is None:
                        continue
                    pointer = target or pointer
                selected = _example_value(example)
                if not selected:
                    continue
                lint.check_example("no-invalid-media-type-examples", selected[0], mt["schema"],
                                   f"{pointer}/{selected[1]}", f"{v.pointer}/schema", api)


@rule("no-example-value-and-externalValue")
def _no_example_value_and_external(lint: Linter) -> None:
    for v in lint.walk.visits("Example"):
        if isinstance(v.node, dict) and _truthy(v.node.get("value")) and _truthy(v.node.get("externalValue")):
            lint.report("no-example-value-and-externalValue",
                        "Example object can have either `value` or `externalValue` fields.", f"{v.pointer}/value")


def _servers(lint: Linter) -> list[Visit]:
    return [v for v in lint.walk.visits("Server") if isinstance(v.node, dict)]


@rule("no-server-example.com")
def _no_server_example(lint: Linter) -> None:
    rx = re.compile(r"^(.*[/.])?(example\.com|localhost)([/:?].*|$)")
    for v in _servers(lint):
        url = v.node.get("url")
        if isinstance(url, str) and url and rx.match(url):
            lint.report("no-server-example.com", "Server `url` should not point to example.com or localhost.",
                        f"{v.pointer}/url")


@rule("no-server-trailing-slash")
def _no_server_trailing_slash(lint: Linter) -> None:
    for v in _servers(lint):
        url = v.node.get("url")
        if isinstance(url, str) and url.endswith("/") and url != "/":
            lint.report("no-server-trailing-slash", "Server `url` should not have a trailing slash.", f"{v.pointer}/url")


@rule("no-undefined-server-variable")
def _no_undefined_server_variable(lint: Linter) -> None:
    for v in _servers(lint):
        url = v.node.get("url")
        if not isinstance(url, str) or not url:
            continue
        used = [m[1:-1] for m in re.findall(r"{[^}]+}", url)]
        variables = v.node.get("variables")
        defined = list(variables) if isinstance(variables, dict) else []
        for name in used:
            if name not in defined:
                lint.report("no-undefined-server-variable",
                            f"The `{name}` variable is not defined in the `variables` objects.", f"{v.pointer}/url")
        for name in defined:
            if name not in used:
                lint.report("no-undefined-server-variable",
                            f"The `{name}` variable is not used in the server's `url` field.",
                            f"{v.pointer}/variables/{esc(name)}")


@rule("no-server-variables-empty-enum")
def _no_server_variables_empty_enum(lint: Linter) -> None:
    servers = lint.data.get("servers")
    if not servers:
        return
    problems: list[str] = []
    for server in servers if isinstance(servers, list) else [servers]:
        variables = server.get("variables") if isinstance(server, dict) else None
        if not isinstance(variables, dict) or not variables:
            continue
        for var in variables.values():
            if not isinstance(var, dict) or not _truthy(var.get("enum")):
                continue
            if isinstance(var["enum"], list) and not var["enum"]:
                problems.append("empty")
            if not _truthy(var.get("default")):
                continue
            if isinstance(var["enum"], list) and var["default"] not in var["enum"]:
                problems.append("invalidDefaultValue")
    for problem in problems:
        if problem == "empty":
            lint.report("no-server-variables-empty-enum", "Server variable with `enum` must be a non-empty array.",
                        "/servers")
        else:
            lint.report("no-server-variables-empty-enum", "Server variable define `enum` and `default`. `enum` must "
                        "include default value", "/servers")


@rule("no-empty-servers")
def _no_empty_servers(lint: Linter) -> None:
    if "servers" not in lint.data:
        lint.report("no-empty-servers", "Servers must be present.", "/openapi")
    elif not isinstance(lint.data["servers"], list) or not lint.data["servers"]:
        lint.report("no-empty-servers", "Servers must be a non-empty array.", "/servers")


_USED_TYPES = {"Schema", "Header", "Parameter", "Response", "Example", "RequestBody", "MediaTypesMap"}
_NAMED = {"NamedSchemas": "schemas", "NamedParameters": "parameters", "NamedResponses": "responses",
          "NamedExamples": "examples", "NamedRequestBodies": "requestBodies", "NamedHeaders": "headers",
          "NamedSecuritySchemes": "securitySchemes", "NamedLinks": "links", "NamedCallbacks": "callbacks"}


def _named_entries(lint: Linter, kinds: Iterable[str]) -> list[tuple[str, str, Any, str, str]]:
    """(container type, name, resolved node, resolved pointer, raw pointer) of component maps."""
    out = []
    for kind in kinds:
        for v in lint.walk.visits(kind):
            if not isinstance(v.node, dict):
                continue
            for name, raw in v.node.items():
                if isinstance(name, str) and name.startswith("x-") and kind != "NamedSchemas":
                    continue
                raw_pointer = f"{v.pointer}/{esc(name)}"
                node, target = lint.resolve(raw)
                out.append((kind, name, node, target or raw_pointer, raw_pointer))
    return out


@rule("no-unused-components")
def _no_unused_components(lint: Linter) -> None:
    components: dict[str, dict] = {}
    for ref in lint.walk.refs:
        if ref.type in _USED_TYPES and ref.target is not None and ref.target_pointer is not None:
            components[ref.target_pointer] = {"used": True, "name": str(ref.key), "pointer": ref.pointer}
    kinds = ["NamedSchemas", "NamedParameters", "NamedResponses", "NamedExamples", "NamedRequestBodies",
             "NamedHeaders"]
    for kind, name, node, pointer, _ in _named_entries(lint, kinds):
        disc = False
        if kind == "NamedSchemas" and isinstance(node, dict) and isinstance(node.get("allOf"), list):
            disc = any(is_ref(m) and isinstance(lint.resolve(m)[0], dict) and "discriminator" in lint.resolve(m)[0]
                       for m in node["allOf"])
        previous = components.get(pointer)
        components[pointer] = {"used": bool(previous and previous["used"]), "disc": disc, "name": name,
                               "pointer": pointer}
    for info in components.values():
        if not info["used"] and not info.get("disc"):
            lint.report("no-unused-components", f'Component: "{info["name"]}" is never used.', info["pointer"])
    used_schemes = {name for v in lint.walk.visits("SecurityRequirement") if isinstance(v.node, dict) for name in v.node}
    for _, name, _, _, raw_pointer in _named_entries(lint, ["NamedSecuritySchemes"]):
        if name not in used_schemes:
            lint.report("no-unused-components", f'Security scheme: "{name}" is never used.', raw_pointer)


@rule("spec-components-invalid-map-name")
def _spec_components_invalid_map_name(lint: Linter) -> None:
    rx = re.compile(r"^[a-zA-Z0-9\.\-_]+$")
    for kind, name, _, pointer, _ in _named_entries(lint, list(_NAMED)):
        if not rx.match(name):
            lint.report("spec-components-invalid-map-name", f'The map key in {_NAMED[kind]} "{name}" does not match '
                        f'the regular expression "^[a-zA-Z0-9\\.\\-_]+$"', pointer)


@rule("no-unresolved-refs")
def _no_unresolved_refs(lint: Linter) -> None:
    for ref in lint.walk.refs:
        if ref.target is None:
            detail = ref.error or ""
            message = "Can't resolve $ref" if detail.startswith("Can't resolve") else f"Can't resolve $ref: {detail}"
            lint.report("no-unresolved-refs", message, ref.pointer)


@rule("spec-ref-siblings")
def _spec_ref_siblings(lint: Linter) -> None:
    oas3 = lint.version != "2.0"
    allows = lint.version == "3.1"
    for ref in lint.walk.refs:
        if ref.type == "PathItem" or (allows and ref.type == "Schema"):
            continue
        for key in ref.ref:
            if key == "$ref" or (oas3 and allows and key in ("summary", "description")):
                continue
            lint.report("spec-ref-siblings",
                        f"Property `{key}` is not expected here because it is defined alongside `$ref`.",
                        f"{ref.pointer}/{esc(key)}")


@rule("no-unsafe-markdown")
def _no_unsafe_markdown(lint: Linter) -> None:
    for v in lint.walk.order:
        node = v.node
        if not isinstance(node, dict) or not isinstance(node.get("description"), str):
            continue
        d = node["description"]
        where = f"{v.pointer}/description"
        if re.search(r"<script\b", d, re.IGNORECASE):
            lint.report("no-unsafe-markdown", "Markdown descriptions must not contain '<script>' tags.", where)
        if re.search(r"<[a-z][^>]*\bon[a-z]+\s*=", d, re.IGNORECASE):
            lint.report("no-unsafe-markdown", "Markdown descriptions must not contain HTML event handler attributes.",
                        where)
        if re.search(r"(?:\]\(\s*|\b(?:href|src)\s*=\s*[\"']?\s*)javascript:", d, re.IGNORECASE):
            lint.report("no-unsafe-markdown", "Markdown descriptions must not contain 'javascript:' URLs.", where)


# -- no-illogical-composition-keywords ------------------------------------------------------------
_UNDERSTOOD = {"type", "format", "enum", "const", "nullable", "properties", "required", "additionalProperties",
               "discriminator", "$ref", "$id", "$schema", "$anchor", "$comment", "title", "description", "default",
               "example", "examples", "deprecated", "readOnly", "writeOnly", "externalDocs", "xml"}


def _unsupported(schema: dict) -> bool:
    return any(k not in _UNDERSTOOD and not k.startswith("x-") for k in schema)


def _type_set(schema: dict) -> set | None:
    declared = schema.get("type")
    if declared is None:
        return None
    types = set(declared) if isinstance(declared, list) else {declared}
    if schema.get("nullable") is True:
        types.add("null")
    return types


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
    types = list(declared) if isinstance(declared, list) else [declared]
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


def lint(walk: Walk, rules: Iterable[str] | None = None) -> list[tuple[str, str, str, str]]:
    """(rule, severity, message, pointer) for the recommended rules of the walk's version."""
    table = RECOMMENDED[walk.version]
    chosen = [r for r in table if r != "struct"] if rules is None else [r for r in rules if r in table]
    problems = Linter(walk).run(chosen)
    return [(p.rule, table[p.rule], p.message, p.pointer) for p in problems]
