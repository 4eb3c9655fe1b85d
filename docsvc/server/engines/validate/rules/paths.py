"""Rules on path templates: ``no-ambiguous-paths``, ``no-identical-paths``,
``no-path-trailing-slash``, ``path-declaration-must-exist``, ``path-not-include-query``,
``path-parameters-defined``.
"""

from __future__ import annotations

import re

from ..walker import esc
from ._linter import Linter, rule, _operations, _params, _path_items, _paths, _truthy


def _parse_path(path: str):
    segments = path.split("/")
    variables = [bool(re.match(r"^{.+?}$", s)) for s in segments]
    return path, segments, variables, sum(variables)


@rule("no-ambiguous-paths")
def _no_ambiguous_paths(lint: Linter) -> None:
    for v in _paths(lint):
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
    for v in _paths(lint):
        seen: dict[str, str] = {}
        for name in v.node:
            key = re.sub(r"{.+?}", "{VARIABLE}", name)
            if key in seen:
                lint.report("no-identical-paths", "The path already exists which differs only by path parameter "
                            f"name(s): `{seen[key]}` and `{name}`.", f"{v.pointer}/{esc(name)}")
            else:
                seen[key] = name


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


def _path_param(param: dict) -> bool:
    """A path parameter with a name (JavaScript-truthy, as Redocly tests it). A name that is a list or
    a mapping is struct's finding, and names nothing here."""
    name = param.get("name")
    return param.get("in") == "path" and _truthy(name) and not isinstance(name, (list, dict))


@rule("path-parameters-defined")
def _path_parameters_defined(lint: Linter) -> None:
    rx = re.compile(r"\{([a-zA-Z0-9_.-]+)\}+")
    for v in _path_items(lint):
        template = {m.group(1) for m in rx.finditer(v.key)}
        path_defined: set[str] = set()

        def check(param: dict, pointer: str) -> None:
            if _path_param(param):
                if param["name"] not in template:
                    lint.report("path-parameters-defined", f"Path parameter `{param['name']}` is not used in the "
                                f"path `{v.key}`.", f"{pointer}/name")

        for param, pointer, _, _ in _params(lint, v.node, v.pointer):
            if _path_param(param):
                path_defined.add(param["name"])
            check(param, pointer)
        for _, op, op_pointer in _operations(v):
            op_defined: set[str] = set()
            for param, pointer, _, _ in _params(lint, op, op_pointer):
                if _path_param(param):
                    op_defined.add(param["name"])
                check(param, pointer)
            for name in sorted(template - op_defined - path_defined, key=list(template).index):
                lint.report("path-parameters-defined", f"The operation does not define the path parameter "
                            f"`{{{name}}}` expected by path `{v.key}`.", f"{op_pointer}/parameters")
