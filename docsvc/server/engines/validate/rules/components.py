"""Rules on components and references: ``no-unused-components``,
``spec-components-invalid-map-name``, ``no-unresolved-refs``, ``spec-ref-siblings``, and
``no-unsafe-markdown`` on descriptions.
"""

from __future__ import annotations

import re
from typing import Any, Iterable

from ..walker import esc, is_ref
from ._linter import Linter, rule


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


# compiled once, not looked up in re's cache for each of the ~25,000 descriptions
_SCRIPT = re.compile(r"<script\b", re.IGNORECASE)
_EVENT_HANDLER = re.compile(r"<[a-z][^>]*\bon[a-z]+\s*=", re.IGNORECASE)
_JAVASCRIPT_URL = re.compile(r"(?:\]\(\s*|\b(?:href|src)\s*=\s*[\"']?\s*)javascript:", re.IGNORECASE)


@rule("no-unsafe-markdown")
def _no_unsafe_markdown(lint: Linter) -> None:
    for v in lint.walk.order:
        node = v.node
        if not isinstance(node, dict) or not isinstance(node.get("description"), str):
            continue
        d = node["description"]
        where = f"{v.pointer}/description"
        if _SCRIPT.search(d):
            lint.report("no-unsafe-markdown", "Markdown descriptions must not contain '<script>' tags.", where)
        if _EVENT_HANDLER.search(d):
            lint.report("no-unsafe-markdown", "Markdown descriptions must not contain HTML event handler attributes.",
                        where)
        if _JAVASCRIPT_URL.search(d):
            lint.report("no-unsafe-markdown", "Markdown descriptions must not contain 'javascript:' URLs.", where)
