"""Rules on servers: ``no-server-example.com``, ``no-server-trailing-slash``,
``no-undefined-server-variable``, ``no-server-variables-empty-enum``, ``no-empty-servers``.
"""

from __future__ import annotations

import re

from ..walker import esc
from ._linter import Linter, rule, _servers, _truthy


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
