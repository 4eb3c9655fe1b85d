"""OpenAPI (Swagger 2.0, OpenAPI 3.0 and 3.1) to a ``doc.Document``, rendered by reference.

``build(data) -> Built`` takes the already loaded (``specload``) document.

The one design rule: never inline the schema graph. Stripe's schemas inlined as a tree grow to
about 2×10^10 nodes, and tools that inline hang or write tens of megabytes. Here every component
schema is rendered once, in the models section, as a shallow properties table whose type column
links to other components; an operation shows a ``$ref`` schema as a link and an inline schema as
a shallow table (nested inline objects as dotted names two levels deep, deeper ones as
``object``). ``$ref``s are followed through a cache (refs to refs, JSON pointers with ``~0``/``~1``
and percent escapes), never copied; examples come from ``examples.Examples`` (bounded in depth and
breadth, memoised per component). So the cost is linear in the size of the document.

The page: title and version, contents, servers, authentication (security schemes and the global
requirement), one section per tag (operations under their first tag, linked from their other
tags; untagged ones under ``default``), webhooks (3.1), models (component schemas; 2.0
definitions), and the shared parameters, responses and request bodies that operations refer to.

Each operation: its method and path, summary, description, deprecation, parameters (path-level
and operation-level merged, the operation's winning by (name, in)), request body and responses per
status and media type with schemas and examples (given, or built from the schema), security
(the operation's, else the global one; ``security: []`` means none), callbacks and a curl sample.

A ``$ref`` to another file or a URL cannot be resolved from one string: it is shown as it is and
listed once in ``Built.warnings``. ``Built.names`` lists ``"METHOD /path"`` for each operation and
``"WEBHOOK name METHOD"`` for each webhook; ``Built.stats`` counts operations, schemas, webhooks
and tags.

The builder is one class made of three parts, each in its module: ``refs`` (loading and
references), ``schemas`` (the document model of schemas and examples) and ``operations`` (the
operation walk); this module assembles the page from them, and ``common`` holds the limits and
text helpers they share.
"""

from __future__ import annotations

from typing import Any

from .....gcpause import cycle_collector_paused
from ..doc import Anchors, Block, BulletList, Built, Code, Document, Heading, Inline, Link, Para, Strong, Table
from ..examples import Examples
from .common import MAX_ENUM_VALUES, MAX_TABLE_ROWS, METHODS, _SECURITY, _codes, _line, _text_blocks, _value_text
from .operations import Operations
from .refs import References
from .schemas import Schemas

__all__ = ["build", "METHODS", "MAX_TABLE_ROWS", "MAX_ENUM_VALUES"]


def build(data: dict) -> Built:
    """The document for an OpenAPI description (a dict loaded by ``specload``)."""
    # The walk makes millions of small lists and no reference cycles (gcpause).
    with cycle_collector_paused():
        builder = _Builder(data)
        try:
            return builder.build()
        finally:
            builder.close()  # its caches go now, by reference counting, not at some later collection


class _Builder(Operations, Schemas, References):
    """The whole page: the parts combined, with the state they share and the sections of the page."""

    def __init__(self, data: dict) -> None:
        self.root = data
        self.v2 = "openapi" not in data
        self.anchors = Anchors()
        self.warnings: list[str] = []
        self._warned: set[str] = set()
        self._resolved: dict[str, tuple[Any, str | None]] = {}
        self._ref_parts: dict[str, list[Inline]] = {}
        self._merged: dict[int, tuple[dict, set]] = {}
        self._param_rows: dict[tuple, list] = {}
        self._given: dict[int, tuple[Any, str]] = {}
        self._statuses: dict[str, Strong] = {}
        self._cells: dict[tuple, list[Inline]] = {}
        self._code_spans: dict[str, Code] = {}
        self._labels: dict[Inline, Para] = {}
        self.blocks: list[Block] = []
        self.examples = Examples(self.resolve)
        components = data.get("components") if isinstance(data.get("components"), dict) else {}
        self.components = components
        if self.v2:
            self.schemas = self._mapping(data.get("definitions"))
            prefixes = {"schema": "#/definitions/", "parameter": "#/parameters/", "response": "#/responses/"}
            self.security_schemes = self._mapping(data.get("securityDefinitions"))
        else:
            self.schemas = self._mapping(components.get("schemas"))
            prefixes = {"schema": "#/components/schemas/", "parameter": "#/components/parameters/",
                        "response": "#/components/responses/", "request-body": "#/components/requestBodies/"}
            self.security_schemes = self._mapping(components.get("securitySchemes"))
        self._prefixes = prefixes
        self._kind_of: dict[str, tuple[str, str] | None] = {}
        # Shared components an operation refers to, rendered once after the models: kind -> name -> object
        self.used: dict[str, dict[str, Any]] = {"parameter": {}, "response": {}, "request-body": {}}
        self.schema_anchor: dict[str, str] = {name: self.anchors.make("schema", name) for name in self.schemas}
        self.global_security = data.get("security") if isinstance(data.get("security"), list) else None
        self.names: list[str] = []

    # Most table cells repeat ("no", "string", a name, a link): MS Graph has a million cells and
    # 70,000 different ones. Identical cells and code spans are one object each (nothing changes them
    # once made), which saves a third of the document's memory and the collector's time over it.
    def row(self, *cells: list[Inline]) -> list[list[Inline]]:
        memo = self._cells
        out = []
        for cell in cells:
            key = tuple(cell)
            hit = memo.get(key)
            if hit is None:
                hit = memo[key] = cell
            out.append(hit)
        return out

    def label(self, part: Inline) -> Para:
        """A paragraph of one fixed part ("Responses", "Example:"): one object, wherever it stands."""
        hit = self._labels.get(part)
        if hit is None:
            hit = self._labels[part] = Para([part])
        return hit

    def code(self, text: str) -> Code:
        hit = self._code_spans.get(text)
        if hit is None:
            hit = self._code_spans[text] = Code(text)
        return hit

    def close(self) -> None:
        """Drop the caches (the examples' memo holds a bound method of this builder: a cycle)."""
        self.examples = None  # type: ignore[assignment]
        self._resolved, self._ref_parts, self._merged, self._param_rows, self._given = {}, {}, {}, {}, {}
        self._cells, self._code_spans = {}, {}

    def build(self) -> Built:
        info = self.root.get("info") if isinstance(self.root.get("info"), dict) else {}
        title = _line(info.get("title")) or "API"
        description = _line(info.get("summary")) or (_line(str(info.get("description") or "").strip().split("\n")[0]))
        doc = Document(title=title, description=description[:300])
        self.blocks = doc.blocks
        add = self.blocks.append
        add(Heading(1, title, self.anchors.make("top")))
        version = _line(info.get("version"))
        spec_version = str(self.root.get("openapi") or self.root.get("swagger"))
        head: list[Inline] = []
        if version:
            head += ["Version ", Code(version), ". "]
        head += [f"{'Swagger' if self.v2 else 'OpenAPI'} {spec_version}."]
        add(Para(head))
        if info.get("summary"):
            add(Para([_line(info["summary"])]))
        self.blocks.extend(_text_blocks(info.get("description")))
        self._info_extra(info)

        groups, order = self._groups()
        webhooks = self._webhooks()
        contents_at = len(self.blocks)
        sections: list[tuple[str, str]] = []

        servers = self._servers_section()
        if servers:
            sections.append(servers)
        auth = self._security_section()
        if auth:
            sections.append(auth)
        operation_count = 0
        for tag in order:
            group = groups[tag]
            sections.append((group["title"], group["anchor"]))
            operation_count += self._tag_section(group)
        if webhooks:
            sections.append(("Webhooks", self.anchors.make("section", "webhooks")))
            self._webhook_section(webhooks, sections[-1][1])
        if self.schemas:
            sections.append(("Models", self.anchors.make("section", "models")))
            self._models_section(sections[-1][1])
        sections.extend(self._shared_sections())
        if sections:
            contents = [Para([Strong("Contents")]), BulletList([[Link(text, anchor)] for text, anchor in sections])]
            self.blocks[contents_at:contents_at] = contents
        stats = {"operations": operation_count, "schemas": len(self.schemas), "webhooks": len(webhooks),
                 "tags": sum(1 for tag in order if groups[tag]["declared"])}
        return Built(document=doc, warnings=self.warnings, stats=stats, names=self.names)

    def _info_extra(self, info: dict) -> None:
        parts: list[Inline] = []
        contact = info.get("contact")
        if isinstance(contact, dict):
            who = [str(contact[k]) for k in ("name", "email", "url") if contact.get(k)]
            if who:
                parts += ["Contact: ", ", ".join(who), ". "]
        license_ = info.get("license")
        if isinstance(license_, dict) and (license_.get("name") or license_.get("identifier")):
            parts += ["License: ", str(license_.get("name") or license_.get("identifier"))]
            if license_.get("url"):
                parts += [" (", str(license_["url"]), ")"]
            parts.append(". ")
        if info.get("termsOfService"):
            parts += ["Terms of service: ", str(info["termsOfService"]), ". "]
        if parts:
            parts[-1] = parts[-1].rstrip()
            self.blocks.append(Para(parts))
        docs = self.root.get("externalDocs")
        if isinstance(docs, dict) and docs.get("url"):
            self.blocks.append(Para(["See also: ", _line(docs.get("description")) or "documentation", " (",
                                     str(docs["url"]), ")."]))

    def server_urls(self, *owners: Any) -> list[str]:
        """The base URLs that apply: the first of ``owners`` (operation, path item) with servers, else the root's."""
        if self.v2:
            return self._v2_urls()
        for owner in owners + (self.root,):
            servers = owner.get("servers") if isinstance(owner, dict) else None
            if isinstance(servers, list) and servers:
                return [self._server_url(s) for s in servers if isinstance(s, dict)] or ["/"]
        return ["/"]

    def _v2_urls(self) -> list[str]:
        host = self.root.get("host")
        base = str(self.root.get("basePath") or "")
        if not host:
            return [base or "/"]
        schemes = self.root.get("schemes")
        schemes = [s for s in schemes if isinstance(s, str)] if isinstance(schemes, list) else []
        return [f"{s}://{host}{base}" for s in schemes or ["https"]]

    @staticmethod
    def _server_url(server: dict) -> str:
        url = str(server.get("url") or "/")
        variables = server.get("variables")
        if isinstance(variables, dict):
            for name, var in variables.items():
                if isinstance(var, dict) and "default" in var:
                    url = url.replace("{" + str(name) + "}", str(var["default"]))
        return url

    def _servers_section(self) -> tuple[str, str] | None:
        if self.v2:
            urls = self._v2_urls()
            if urls == ["/"]:
                return None
            anchor = self.anchors.make("section", "servers")
            self.blocks.append(Heading(2, "Servers", anchor))
            self.blocks.append(Table(["URL", "Description"], [[[Code(u)], []] for u in urls]))
            return "Servers", anchor
        servers = self.root.get("servers")
        if not isinstance(servers, list) or not servers:
            return None
        anchor = self.anchors.make("section", "servers")
        add = self.blocks.append
        add(Heading(2, "Servers", anchor))
        add(Table(["URL", "Description"], [[[Code(str(s.get("url") or "/"))], [_line(s.get("description"))]
                                             if s.get("description") else []]
                                           for s in servers if isinstance(s, dict)]))
        for server in servers:
            if not isinstance(server, dict) or not isinstance(server.get("variables"), dict):
                continue
            add(Para(["Variables of ", Code(str(server.get("url") or "/")), ":"]))
            rows = []
            for name, var in server["variables"].items():
                var = var if isinstance(var, dict) else {}
                enum = var.get("enum")
                rows.append([[Code(str(name))], [Code(_value_text(var["default"]))] if "default" in var else [],
                             _codes(enum) if isinstance(enum, list) else [], [_line(var.get("description"))]
                             if var.get("description") else []])
            add(Table(["Variable", "Default", "Values", "Description"], rows))
        return "Servers", anchor

    def _security_section(self) -> tuple[str, str] | None:
        if not self.security_schemes and self.global_security is None:
            return None
        anchor = self.anchors.make("section", "authentication")
        add = self.blocks.append
        add(Heading(2, "Authentication", anchor))
        if self.global_security is not None:
            add(Para(["Unless an operation says otherwise, every operation requires:"]))
            self.blocks.extend(self.security_blocks(self.global_security, label=False))
        for name, scheme in self.security_schemes.items():
            scheme, ref = self.deref(scheme)
            add(Heading(3, str(name), self.anchors.make("security", str(name))))
            if not isinstance(scheme, dict):
                add(Para(["Defined in ", Code(ref or "?")]))
                continue
            self.blocks.extend(_text_blocks(scheme.get("description")))
            rows = [[["Type"], [Code(str(scheme.get("type")))]]]
            for key, label in (("scheme", "Scheme"), ("bearerFormat", "Bearer format"), ("in", "In"),
                               ("name", "Name"), ("flow", "Flow"), ("authorizationUrl", "Authorization URL"),
                               ("tokenUrl", "Token URL"), ("openIdConnectUrl", "OpenID Connect URL")):
                if scheme.get(key):
                    rows.append([[label], [Code(str(scheme[key]))]])
            add(Table(["Field", "Value"], rows))
            flows = scheme.get("flows")
            if isinstance(flows, dict):
                for flow_name, flow in flows.items():
                    if not isinstance(flow, dict):
                        continue
                    parts: list[Inline] = ["Flow ", Code(str(flow_name))]
                    for key, label in (("authorizationUrl", "authorization URL"), ("tokenUrl", "token URL"),
                                       ("refreshUrl", "refresh URL")):
                        if flow.get(key):
                            parts += [f", {label} ", Code(str(flow[key]))]
                    add(Para(parts + ["."]))
                    self._scopes(flow.get("scopes"))
            else:
                self._scopes(scheme.get("scopes"))
        return "Authentication", anchor

    def _scopes(self, scopes: Any) -> None:
        if isinstance(scopes, dict) and scopes:
            self.blocks.append(Table(["Scope", "Description"], [[[Code(str(k))], [_line(v)] if v else []]
                                                                for k, v in scopes.items()]))

    def security_blocks(self, requirements: list, label: bool = True) -> list[Block]:
        head: list[Inline] = [_SECURITY, ": "] if label else []
        if not requirements:
            return [Para(head + ["none (no authentication)."])]
        items = []
        for requirement in requirements:
            if not isinstance(requirement, dict):
                continue
            if not requirement:
                items.append(["no authentication (optional)"])
                continue
            parts: list[Inline] = []
            for i, (name, scopes) in enumerate(requirement.items()):
                if i:
                    parts.append(" and ")
                if name in self.security_schemes:
                    parts.append(Link(str(name), self.anchors.make("security", str(name))))
                else:
                    parts.append(Code(str(name)))
                if isinstance(scopes, list) and scopes:
                    parts.append(" (scopes: ")
                    parts.extend(_codes(scopes, 50))
                    parts.append(")")
            items.append(parts)
        if len(items) == 1:
            return [Para(head + items[0] + ["."])]
        blocks: list[Block] = []
        if label:
            blocks.append(Para(head + ["one of:"]))
        blocks.append(BulletList(items) if items else Para(head + ["none."]))
        return blocks

    _produces: list = []

    def _models_section(self, anchor: str) -> None:
        add = self.blocks.append
        add(Heading(2, "Models", anchor))
        for name, schema in self.schemas.items():
            add(Heading(3, str(name), self.schema_anchor[name]))
            self.model_blocks(schema)

    def _shared_sections(self) -> list[tuple[str, str]]:
        sections = []
        # Rendering a shared response may refer to more shared components: loop until none is new.
        done: dict[str, set] = {kind: set() for kind in self.used}
        titles = {"parameter": "Shared parameters", "response": "Shared responses",
                  "request-body": "Shared request bodies"}
        started: dict[str, bool] = {}
        changed = True
        while changed:
            changed = False
            for kind in ("parameter", "request-body", "response"):
                pending = [(n, o) for n, o in list(self.used[kind].items()) if n not in done[kind]]
                if not pending:
                    continue
                changed = True
                if not started.get(kind):
                    started[kind] = True
                    anchor = self.anchors.make("section", titles[kind])
                    self.blocks.append(Heading(2, titles[kind], anchor))
                    sections.append((titles[kind], anchor))
                for name, obj in pending:
                    done[kind].add(name)
                    self.blocks.append(Heading(3, name, self.anchors.make(kind, name)))
                    if kind == "parameter":
                        self.blocks.append(Table(["Name", "In", "Type", "Required", "Default", "Enum", "Description"],
                                                 [self.parameter_row(obj, None)]))
                    elif kind == "request-body":
                        if obj.get("required") is True:
                            self.blocks.append(Para(["Required."]))
                        self.blocks.extend(_text_blocks(obj.get("description")))
                        content = obj.get("content")
                        for media, mobj in (content.items() if isinstance(content, dict) else ()):
                            self.media_blocks(str(media), mobj, "request")
                    else:
                        self.blocks.extend(_text_blocks(obj.get("description")))
                        self.response_body(obj)
        return sections
