"""A typed walk of an OpenAPI document, shaped like Redocly's ``walkDocument``.

Each node is reached through its type (``Operation``, ``Schema``, ``MediaType``...), local ``$ref``s
are followed and each (type, node) pair is visited once — where a ``$ref`` leads, the visit is at
the target's own location, as Redocly reports. A ``$ref`` itself is a ``RefVisit`` each time the
walk meets it. Visits come out in Redocly's order (the type tree's property order), so rules that
report "the second one" pick the same node.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
_RESPONSE_CODE = re.compile(r"^[0-9][0-9Xx]{2}$")


def esc(segment: Any) -> str:
    return str(segment).replace("~", "~0").replace("/", "~1")


def is_ref(node: Any) -> bool:
    return isinstance(node, dict) and isinstance(node.get("$ref"), str)


def listed(node: Any, key: str) -> list:
    """``node[key]`` when it is a list, else ``[]``: a spec being checked may hold anything anywhere
    (``parameters: true``), which is a finding of the structural checks, not a reason to fail."""
    value = node.get(key) if isinstance(node, dict) else None
    return value if isinstance(value, list) else []


@dataclass(slots=True)
class Visit:
    type: str
    node: Any             # the resolved node
    pointer: str          # where the node is (after $ref), e.g. "/components/schemas/Pet"
    raw_pointer: str      # where the walk reached it (the $ref's place when it came through one)
    key: Any              # its key in the parent (str or int)
    parent: Any           # the parent node (resolved)
    ancestors: dict       # type name -> the nearest enclosing Visit of that type
    raw: Any              # the node as written there (maybe a {"$ref"} object)
    parent_type: str | None = None  # the type of the node holding it (e.g. "NamedSchemas")


@dataclass(slots=True)
class RefVisit:
    type: str             # the type the target is expected to be
    ref: dict             # the {"$ref": ...} object (with any siblings)
    pointer: str          # where the $ref object is
    key: Any
    target: Any           # resolved node, or None
    target_pointer: str | None
    error: str | None


class Resolver:
    """Local JSON-pointer ``$ref``s in one document; external references are not followed."""

    def __init__(self, root: Any) -> None:
        self.root = root
        self._cache: dict[str, tuple[Any, str | None, str | None]] = {}

    def lookup(self, ref: str) -> tuple[Any, str | None, str | None]:
        """(node, pointer, error) following chains of ``$ref``."""
        if ref in self._cache:
            return self._cache[ref]
        seen: set[str] = set()
        current = ref
        result: tuple[Any, str | None, str | None]
        while True:
            if not current.startswith("#"):
                result = (None, None, f"external reference {current} is not followed (only references "
                                      "inside the document are)")
                break
            if current in seen:
                result = (None, None, f"circular $ref chain at {current}")
                break
            seen.add(current)
            pointer = unquote(current[1:])
            node = self.root
            ok = True
            if pointer:
                if not pointer.startswith("/"):
                    result = (None, None, f"invalid JSON pointer {current}")
                    break
                for part in pointer.split("/")[1:]:
                    part = part.replace("~1", "/").replace("~0", "~")
                    if isinstance(node, dict) and part in node:
                        node = node[part]
                    elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
                        node = node[int(part)]
                    else:
                        ok = False
                        break
            if not ok:
                result = (None, None, f"Can't resolve $ref {ref}" if current == ref else
                          f"Can't resolve $ref {current} (via {ref})")
                break
            norm = "" if not pointer else "/" + "/".join(
                esc(p.replace("~1", "/").replace("~0", "~")) for p in pointer.split("/")[1:])
            if is_ref(node):
                current = node["$ref"]
                continue
            result = (node, norm, None)
            break
        self._cache[ref] = result
        return result

    def node(self, ref: str) -> Any:
        return self.lookup(ref)[0]


# -- type trees ------------------------------------------------------------------------------
# A type: {"props": [(name, child-type or callable(value) -> type|None)], "extra": child-type for
# other keys (or callable(key, value)), "items": child-type for list elements}.

def _map(of: str) -> dict:
    return {"props": [], "extra": of}


def _list(of: str) -> dict:
    return {"props": [], "items": of}


def _schema_items(value: Any) -> str | None:
    if isinstance(value, list):
        return "SchemaList"
    return "Schema" if isinstance(value, dict) else None


def _schema_or_none(value: Any) -> str | None:
    return "Schema" if isinstance(value, dict) else None


def _types(version: str) -> dict[str, dict]:
    oas2 = version == "2.0"
    oas31 = version.startswith("3.1")
    t: dict[str, dict] = {}
    if oas2:
        t["Root"] = {"props": [("info", "Info"), ("paths", "Paths"), ("definitions", "NamedSchemas"),
                               ("parameters", "NamedParameters"), ("responses", "NamedResponses"),
                               ("securityDefinitions", "NamedSecuritySchemes"),
                               ("security", "SecurityRequirementList"), ("tags", "TagList")]}
        t["PathItem"] = {"props": [("parameters", "ParameterList")] + [(m, "Operation") for m in HTTP_METHODS[:-1]]}
        t["Operation"] = {"props": [("parameters", "ParameterList"), ("responses", "Responses"),
                                    ("security", "SecurityRequirementList")]}
        t["Parameter"] = {"props": [("schema", "Schema")]}
        t["Response"] = {"props": [("schema", "Schema"), ("headers", "HeadersMap")]}
        t["Header"] = {"props": []}
        t["Schema"] = {"props": [("allOf", "AllOf"), ("properties", "SchemaProperties"),
                                 ("items", _schema_items), ("additionalProperties", _schema_or_none)]}
    else:
        root = [("info", "Info"), ("servers", "ServerList"), ("security", "SecurityRequirementList"),
                ("tags", "TagList"), ("paths", "Paths")]
        root += [("webhooks", "WebhooksMap"), ("components", "Components")] if oas31 else \
            [("components", "Components"), ("x-webhooks", "WebhooksMap")]
        t["Root"] = {"props": root}
        t["ServerList"] = _list("Server")
        t["Server"] = {"props": [("variables", "ServerVariablesMap")]}
        t["ServerVariablesMap"] = _map("ServerVariable")
        t["ServerVariable"] = {"props": []}
        t["WebhooksMap"] = _map("PathItem")
        t["PathItem"] = {"props": [("servers", "ServerList"), ("parameters", "ParameterList")]
                         + [(m, "Operation") for m in HTTP_METHODS]}
        t["Operation"] = {"props": [("parameters", "ParameterList"), ("security", "SecurityRequirementList"),
                                    ("servers", "ServerList"), ("requestBody", "RequestBody"),
                                    ("responses", "Responses"), ("callbacks", "CallbacksMap")]}
        t["Parameter"] = {"props": [("schema", "Schema"), ("examples", "ExamplesMap"), ("content", "MediaTypesMap")]}
        t["RequestBody"] = {"props": [("content", "MediaTypesMap")]}
        t["MediaTypesMap"] = _map("MediaType")
        t["MediaType"] = {"props": [("schema", "Schema"), ("examples", "ExamplesMap"), ("encoding", "EncodingMap")]}
        t["ExamplesMap"] = _map("Example")
        t["Example"] = {"props": []}
        t["EncodingMap"] = _map("Encoding")
        t["Encoding"] = {"props": [("headers", "HeadersMap")]}
        t["Header"] = {"props": [("schema", "Schema"), ("examples", "ExamplesMap"), ("content", "MediaTypesMap")]}
        t["Response"] = {"props": [("headers", "HeadersMap"), ("content", "MediaTypesMap"), ("links", "LinksMap")]}
        t["LinksMap"] = _map("Link")
        t["Link"] = {"props": []}
        t["CallbacksMap"] = _map("Callback")
        t["Callback"] = _map("PathItem")
        comps = [("parameters", "NamedParameters"), ("schemas", "NamedSchemas"), ("responses", "NamedResponses"),
                 ("examples", "NamedExamples"), ("requestBodies", "NamedRequestBodies"),
                 ("headers", "NamedHeaders"), ("securitySchemes", "NamedSecuritySchemes"),
                 ("links", "NamedLinks"), ("callbacks", "NamedCallbacks")]
        if oas31:
            comps.append(("pathItems", "NamedPathItems"))
        t["Components"] = {"props": comps}
        t["NamedExamples"] = _map("Example")
        t["NamedRequestBodies"] = _map("RequestBody")
        t["NamedLinks"] = _map("Link")
        t["NamedCallbacks"] = _map("Callback")
        t["NamedPathItems"] = _map("PathItem")
        schema = [("discriminator", "Discriminator"), ("allOf", "AllOf"), ("anyOf", "AnyOf"), ("oneOf", "OneOf"),
                  ("not", _schema_or_none)]
        if oas31:
            schema = [("$defs", "NamedSchemas"), ("definitions", "NamedSchemas")] + schema + [
                ("if", _schema_or_none), ("then", _schema_or_none), ("else", _schema_or_none),
                ("dependentSchemas", "SchemaMap"), ("prefixItems", "SchemaList"), ("contains", _schema_or_none),
                ("patternProperties", "SchemaMap"), ("propertyNames", _schema_or_none),
                ("unevaluatedItems", _schema_or_none), ("unevaluatedProperties", _schema_or_none)]
        schema += [("properties", "SchemaProperties"), ("items", _schema_items),
                   ("additionalProperties", _schema_or_none)]
        if oas31:
            schema.append(("contentSchema", _schema_or_none))
        t["Schema"] = {"props": schema}
        t["Discriminator"] = {"props": [("mapping", "DiscriminatorMapping")]}
        t["AnyOf"] = _list("Schema")
        t["OneOf"] = _list("Schema")
        t["SchemaMap"] = _map("Schema")
    t["Info"] = {"props": [("license", "License")]}
    t["License"] = {"props": []}
    t["TagList"] = _list("Tag")
    t["Tag"] = {"props": []}
    t["SecurityRequirementList"] = _list("SecurityRequirement")
    t["SecurityRequirement"] = {"props": []}
    t["Paths"] = {"props": [], "extra": lambda key, value: "PathItem" if str(key).startswith("/") else None}
    t["ParameterList"] = _list("Parameter")
    t["Responses"] = {"props": [("default", "Response")],
                      "extra": lambda key, value: "Response" if _RESPONSE_CODE.match(str(key)) else None}
    t["HeadersMap"] = _map("Header")
    t["AllOf"] = _list("Schema")
    t["SchemaList"] = _list("Schema")
    t["SchemaProperties"] = _map("Schema")
    t["NamedSchemas"] = _map("Schema")
    t["NamedParameters"] = _map("Parameter")
    t["NamedResponses"] = _map("Response")
    t["NamedHeaders"] = _map("Header")
    t["NamedSecuritySchemes"] = _map("SecurityScheme")
    t["SecurityScheme"] = {"props": []}
    return t


_TYPE_CACHE: dict[str, dict] = {}
_CONTEXT_TYPES = ("PathItem", "Operation", "Parameter", "RequestBody", "Response", "MediaType", "Schema",
                  "NamedSchemas", "NamedParameters", "NamedResponses", "NamedExamples", "NamedRequestBodies",
                  "NamedHeaders", "NamedSecuritySchemes", "NamedLinks", "NamedCallbacks", "NamedPathItems",
                  "Paths", "WebhooksMap", "Callback", "Header", "Components", "Root")


def version_family(data: dict) -> str:
    if "swagger" in data:
        return "2.0"
    return "3.1" if str(data.get("openapi", "")).startswith("3.1") else "3.0"


class Walk:
    """The visits of one document: ``by_type[name]`` in walk order, and ``refs``."""

    def __init__(self, data: dict, resolver: Resolver | None = None) -> None:
        self.data = data
        self.version = version_family(data)
        self.resolver = resolver or Resolver(data)
        key = self.version
        if key not in _TYPE_CACHE:
            _TYPE_CACHE[key] = _types(key)
        self.types = _TYPE_CACHE[key]
        self.by_type: dict[str, list[Visit]] = {}
        self.refs: list[RefVisit] = []
        self.order: list[Visit] = []
        # every time the walk reaches a PathItem, also again through a second $ref: Redocly's nested
        # visitors (Root > PathItem > Operation, Paths > Responses) run on each reach
        self.path_item_reaches: list[Visit] = []
        self._walk()

    def visits(self, type_name: str) -> list[Visit]:
        return self.by_type.get(type_name, [])

    def _walk(self) -> None:
        types = self.types
        seen: dict[str, set[int]] = {}
        resolver = self.resolver
        # stack entries: (raw node, type, pointer, key, parent, ancestors, parent type)
        stack: list[tuple] = [(self.data, "Root", "", None, None, {}, None)]
        while stack:
            raw, type_name, pointer, key, parent, ancestors, parent_type = stack.pop()
            node, node_pointer = raw, pointer
            if is_ref(raw):
                target, target_pointer, error = resolver.lookup(raw["$ref"])
                self.refs.append(RefVisit(type_name, raw, pointer, key, target, target_pointer, error))
                if target is None:
                    continue
                node, node_pointer = target, target_pointer or ""
            spec = types.get(type_name)
            if spec is None or not isinstance(node, (dict, list)):
                continue
            type_seen = seen.setdefault(type_name, set())
            if type_name == "PathItem":
                self.path_item_reaches.append(
                    Visit(type_name, node, node_pointer, pointer, key, parent, ancestors, raw, parent_type))
            if id(node) in type_seen:
                continue
            type_seen.add(id(node))
            visit = Visit(type_name, node, node_pointer, pointer, key, parent, ancestors, raw, parent_type)
            self.by_type.setdefault(type_name, []).append(visit)
            self.order.append(visit)
            child_ancestors = ancestors
            if type_name in _CONTEXT_TYPES:
                child_ancestors = dict(ancestors)
                child_ancestors[type_name] = visit
            children: list[tuple] = []
            if isinstance(node, list):
                item_type = spec.get("items")
                if item_type:
                    for i, item in enumerate(node):
                        children.append((item, item_type, f"{node_pointer}/{i}", i, node, child_ancestors, type_name))
            else:
                done = set()
                for prop, child_type in spec["props"]:
                    if prop not in node:
                        continue
                    done.add(prop)
                    value = node[prop]
                    if callable(child_type):
                        child_type = child_type(value)
                    if child_type:
                        children.append((value, child_type, f"{node_pointer}/{esc(prop)}", prop, node, child_ancestors,
                                         type_name))
                extra = spec.get("extra")
                if extra:
                    for prop, value in node.items():
                        if prop in done:
                            continue
                        child_type = extra(prop, value) if callable(extra) else extra
                        if child_type:
                            children.append((value, child_type, f"{node_pointer}/{esc(prop)}", prop, node,
                                             child_ancestors, type_name))
                if type_name == "Discriminator" and isinstance(node.get("mapping"), dict):
                    # mapping values are $refs to schemas (Redocly walks them as such)
                    for name, target in node["mapping"].items():
                        if isinstance(target, str):
                            ref_pointer = f"{node_pointer}/mapping/{esc(name)}"
                            children.append(({"$ref": target if target.startswith("#") or "/" in target
                                              else f"#/components/schemas/{target}"},
                                             "Schema", ref_pointer, name, node["mapping"], child_ancestors,
                                             "DiscriminatorMapping"))
            stack.extend(reversed(children))
