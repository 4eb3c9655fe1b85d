"""The machinery every rule shares: the ``Linter`` that walks one document and collects
``Problem``s, the ``rule`` registry, and helpers that read nodes the way Redocly's JavaScript does
(truthiness, value printing, OpenAPI types) or list the walk's paths, operations, parameters,
schemas and servers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable

from ..examples import CompileError, ExampleValidator, describe
from ..walker import HTTP_METHODS, Visit, Walk, esc, is_ref, listed


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


_RULES: dict[str, Callable[[Linter], None]] = {}


def rule(name: str):
    def register(fn):
        _RULES[name] = fn
        return fn
    return register


def _paths(lint: Linter) -> list[Visit]:
    # `paths` that is not a mapping (a list) is a structural finding, not a crash
    return [v for v in lint.walk.visits("Paths") if isinstance(v.node, dict)]


def _path_items(lint: Linter) -> list[Visit]:
    # a path item that is not a mapping (a callback's `$ref: [a]`) is a structural finding, not a crash
    return [v for v in lint.walk.visits("PathItem") if isinstance(v.key, str) and isinstance(v.node, dict)]


def _params(lint: Linter, owner: dict, owner_pointer: str) -> list[tuple[Any, str, str, int]]:
    """(parameter, its pointer, raw pointer, index) for ``owner["parameters"]``, $refs resolved."""
    out = []
    for i, raw in enumerate(listed(owner, "parameters")):
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


def _all_operations(lint: Linter) -> list[Visit]:
    return [v for v in lint.walk.visits("Operation") if isinstance(v.node, dict)]


def _schemas(lint: Linter) -> list[Visit]:
    return [v for v in lint.walk.visits("Schema") if isinstance(v.node, dict)]


def _servers(lint: Linter) -> list[Visit]:
    return [v for v in lint.walk.visits("Server") if isinstance(v.node, dict)]
