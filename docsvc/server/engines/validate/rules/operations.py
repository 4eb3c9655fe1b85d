"""Rules on operations: ``operation-parameters-unique``, ``operation-operationId``,
``operation-operationId-unique``, ``operation-operationId-url-safe``, ``operation-summary``,
``operation-2xx-response``, ``operation-4xx-response``, ``security-defined``,
``security-scopes-defined``.
"""

from __future__ import annotations

import re
from typing import Any

from ..walker import esc
from ._linter import Linter, rule, _all_operations, _defined_and_non_empty, _js_value, _operations, _params, _path_items, _truthy


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
