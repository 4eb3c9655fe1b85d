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
"""

from __future__ import annotations

import gc
import json
import re
import sys
from typing import Any
from urllib.parse import quote, unquote

from .doc import (Admonition, Anchors, Block, BulletList, Built, Code, CodeBlock, Document, Heading,
                  Inline, Link, Para, Strong, Table)
from .examples import Examples, to_json

__all__ = ["build", "METHODS", "MAX_TABLE_ROWS", "MAX_ENUM_VALUES"]

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
_METHOD_SET = frozenset(METHODS)
MAX_TABLE_ROWS = 300  # rows of one properties table; the rest is counted in a last row
MAX_ENUM_VALUES = 10  # enum values shown in a table cell (a model's own enum shows up to 200)
MAX_ALTERNATIVES = 12  # oneOf/anyOf alternatives named in a type cell
MAX_NAMED_EXAMPLES = 10  # named examples shown per media type
NESTED_LEVELS = 2  # an operation's inline nested objects become dotted rows this many levels deep
MODEL_NESTED_LEVELS = 1  # the same in the models, where inline objects nest deepest (GitHub: 1/3 of all rows)
_MAX_MERGE_DEPTH = 64  # allOf members (and refs) followed when merging properties
_TYPE_DEPTH = 4  # how deep a type summary looks into arrays, combinations and local non-component refs

_MISSING = object()
# Inline parts are immutable: the same one may stand in many places (MS Graph makes 22,361 of each).
_SECURITY, _WEBHOOK, _PARAMETERS = Strong("Security"), Strong("Webhook"), Strong("Parameters")
_EXAMPLE_REQUEST, _REQUEST_BODY, _RESPONSES = Strong("Example request"), Strong("Request body"), Strong("Responses")
_CALLBACKS = Strong("Callbacks")
_FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def build(data: dict) -> Built:
    """The document for an OpenAPI description (a dict loaded by ``specload``)."""
    # The walk makes millions of small lists and no reference cycles; the cycle collector would
    # re-scan the whole (large) heap many times over for nothing: half of the time on MS Graph.
    was_enabled = gc.isenabled()
    gc.disable()
    builder = _Builder(data)
    try:
        return builder.build()
    finally:
        builder.close()  # its caches go now, by reference counting, not at some later collection
        if was_enabled:
            gc.enable()


# -- small text helpers ---------------------------------------------------------------------------

def _line(value: Any) -> str:
    """One line of plain text: descriptions in cells and short paragraphs (the document's own string
    when it is one already, so that it is not copied)."""
    if value is None:
        return ""
    text = value if isinstance(value, str) else str(value)
    joined = " ".join(text.split())
    return text if joined == text else joined


_FENCE = re.compile(r"^\s*(```|~~~)")
_BULLET = re.compile(r"^\s*[-*+]\s+")
_QUOTE = re.compile(r"^\s{0,3}>\s?")
_ALERT = re.compile(r"^\s*\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]\s*", re.I)


def _quote_block(lines: list[str]) -> Block:
    """A block quote; GitHub's alerts (``> [!NOTE]``, ``> [!WARNING]``) become admonitions."""
    alert = _ALERT.match(lines[0]) if lines else None
    kind = "note"
    if alert:
        kind = "warning" if alert.group(1).upper() in ("WARNING", "CAUTION") else "note"
        lines = [lines[0][alert.end():]] + lines[1:]
    paragraphs, current = [], []
    for line in lines:
        if line.strip():
            current.append(line.strip())
        elif current:
            paragraphs.append(" ".join(current))
            current = []
    if current:
        paragraphs.append(" ".join(current))
    text = "\n\n".join(" ".join(p.split()) for p in paragraphs)
    return Admonition(kind, [text]) if alert else Para([text])


def _text_blocks(text: Any) -> list[Block]:
    """A (CommonMark) description as paragraphs, bullet lists and code blocks of plain text."""
    if text is None:
        return []
    text = str(text).strip()
    if not text:
        return []
    if "\n" not in text:
        return [Para([text])]
    blocks: list[Block] = []
    lines = text.replace("\r\n", "\n").split("\n")
    i, n = 0, len(lines)
    paragraph: list[str] = []
    bullets: list[str] = []

    def flush() -> None:
        if paragraph:
            blocks.append(Para([" ".join(" ".join(paragraph).split())]))
            paragraph.clear()
        if bullets:
            blocks.append(BulletList([[b] for b in bullets]))
            bullets.clear()

    while i < n:
        line = lines[i]
        if _QUOTE.match(line):
            flush()
            quoted = []
            while i < n and _QUOTE.match(lines[i]):
                quoted.append(_QUOTE.sub("", lines[i], count=1))
                i += 1
            blocks.append(_quote_block(quoted))
            continue
        fence = _FENCE.match(line)
        if fence:
            flush()
            marker = fence.group(1)
            language = line.strip()[3:].strip().split(" ")[0] or "text"
            body = []
            i += 1
            while i < n and not lines[i].strip().startswith(marker):
                body.append(lines[i])
                i += 1
            i += 1
            blocks.append(CodeBlock(re.sub(r"[^a-z0-9+-]", "", language.lower()) or "text", "\n".join(body)))
            continue
        stripped = line.strip()
        if not stripped:
            flush()
        elif _BULLET.match(line):
            if paragraph:
                blocks.append(Para([" ".join(" ".join(paragraph).split())]))
                paragraph.clear()
            bullets.append(" ".join(_BULLET.sub("", line, count=1).split()))
        elif bullets and line[:1] in (" ", "\t"):
            bullets[-1] += " " + " ".join(stripped.split())
        else:
            if bullets:
                blocks.append(BulletList([[b] for b in bullets]))
                bullets.clear()
            paragraph.append(stripped)
        i += 1
    flush()
    return blocks


_TYPE_WORDS: dict[tuple[str, str], str] = {}


def _type_word(kind: str, fmt: str) -> str:
    """``string (date-time)``: one string object for each pair, however often it is shown."""
    word = _TYPE_WORDS.get((kind, fmt))
    if word is None:
        word = f"{kind} ({fmt})"
        if len(_TYPE_WORDS) < 10_000:
            _TYPE_WORDS[(kind, fmt)] = word
    return word


def _value_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, ensure_ascii=False, default=str)
    except (ValueError, TypeError):
        return str(value)


def _send(where: str | None, name: str, value: str, query: list[str], options: list[str]) -> None:
    """``name`` = ``value`` in a curl command, where an OpenAPI parameter or API key says: query
    (percent-encoded into ``query``), cookie, or else a header (options)."""
    if where == "query":
        query.append(f"{quote(name, safe='$')}={quote(value, safe='')}")
    elif where == "cookie":
        options.append(f"-b {_shell_quote(f'{name}={value}')}")
    else:
        options.append(f"-H {_shell_quote(f'{name}: {value}')}")


def _shell_quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def _is_json_media(media: str) -> bool:
    media = media.lower().split(";")[0].strip()
    return media.endswith("json") or "+json" in media or media in ("*/*", "application/*", "")


def _code_language(media: str) -> str:
    media = media.lower()
    if _is_json_media(media):
        return "json"
    if "xml" in media:
        return "xml"
    if "yaml" in media:
        return "yaml"
    return "text"


def _joined(items: list[list[Inline]], sep: str) -> list[Inline]:
    out: list[Inline] = []
    for i, item in enumerate(items):
        if i:
            out.append(sep)
        out.extend(item)
    return out


def _codes(values: list, limit: int = MAX_ENUM_VALUES, code=Code) -> list[Inline]:
    out: list[Inline] = []
    for i, value in enumerate(values[:limit]):
        if i:
            out.append(", ")
        out.append(code(_value_text(value) or '""'))
    if len(values) > limit:
        out.append(f", … and {len(values) - limit} more")
    return out


# -- the builder ----------------------------------------------------------------------------------

class _Builder:
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

    @staticmethod
    def _mapping(value: Any) -> dict:
        return value if isinstance(value, dict) else {}

    # -- references -------------------------------------------------------------------------------

    def warn(self, key: str, message: str) -> None:
        if key not in self._warned:
            self._warned.add(key)
            self.warnings.append(message)

    def resolve(self, ref: str) -> tuple[Any, str | None]:
        """Follow ``ref`` (and refs to refs) to its target: ``(target, last ref)``, or ``(None, None)``."""
        hit = self._resolved.get(ref)
        if hit is not None:
            return hit
        chain = [ref]
        current = ref
        result: tuple[Any, str | None] = (None, None)
        while True:
            if not current.startswith("#"):
                self.warn(current, f"unresolved external $ref {current!r}: another file or a URL is not "
                                   "loaded, so it is shown as a reference")
                break
            target = self._pointer(current)
            if target is _MISSING:
                self.warn(current, f"unresolved $ref {current!r}: nothing in the document is at that pointer")
                break
            nxt = target.get("$ref") if isinstance(target, dict) else None
            if isinstance(nxt, str):
                if nxt in chain:
                    self.warn(nxt, f"circular $ref chain {' -> '.join(chain + [nxt])!r}: shown as a reference")
                    break
                chain.append(nxt)
                current = nxt
                continue
            result = (target, current)
            break
        for link in chain:  # every ref of the chain ends at the same place
            self._resolved[link] = result
        return result

    def _pointer(self, ref: str) -> Any:
        fragment = ref[1:]
        if "%" in fragment:
            fragment = unquote(fragment)
        node: Any = self.root
        if not fragment:
            return node
        if not fragment.startswith("/"):
            return _MISSING  # a plain-name anchor ($anchor): not supported
        for part in fragment[1:].split("/"):
            if "~" in part:
                part = part.replace("~1", "/").replace("~0", "~")
            if isinstance(node, dict):
                if part not in node:
                    return _MISSING
                node = node[part]
            elif isinstance(node, list):
                try:
                    node = node[int(part)]
                except (ValueError, IndexError):
                    return _MISSING
            else:
                return _MISSING
        return node

    def kind_of(self, ref: str) -> tuple[str, str] | None:
        """``("schema", name)`` etc. when ``ref`` names a component directly."""
        if ref in self._kind_of:
            return self._kind_of[ref]
        found = None
        for kind, prefix in self._prefixes.items():
            if ref.startswith(prefix):
                rest = ref[len(prefix):]
                if "%" in rest:
                    rest = unquote(rest)
                if "/" in rest:
                    break
                name = rest.replace("~1", "/").replace("~0", "~")
                if kind == "schema":
                    found = (kind, name) if name in self.schemas else None
                else:
                    found = (kind, name)
                break
        self._kind_of[ref] = found
        return found

    def deref(self, node: Any) -> tuple[Any, str | None]:
        """A parameter/response/body/path item that may be a ``$ref``: ``(target or None, ref or None)``."""
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str):
                return self.resolve(ref)[0], ref
        return node, None

    def shared_link(self, ref: str, target: Any) -> Link | None:
        """A link to a shared parameter/response/request body, which the document then renders."""
        kind = self.kind_of(ref)
        if kind is None or kind[0] == "schema" or target is None:
            return None
        bucket = self.used[kind[0]]
        bucket.setdefault(kind[1], target)
        return Link(kind[1], self.anchors.make(kind[0], kind[1]))

    # -- schema summaries (never expanding the graph) ---------------------------------------------

    def ref_parts(self, ref: str, depth: int = 0) -> list[Inline]:
        hit = self._ref_parts.get(ref)
        if hit is not None:
            return hit
        kind = self.kind_of(ref)
        if kind is not None and kind[0] == "schema":
            parts: list[Inline] = [Link(kind[1], self.schema_anchor[kind[1]])]
        else:
            target, _ = self.resolve(ref)
            if target is None:
                parts = [Code(ref)]
            elif depth >= _TYPE_DEPTH:
                return [Code(ref)]
            else:
                parts = self.type_parts(target, depth + 1)
        self._ref_parts[ref] = parts
        return parts

    def type_parts(self, schema: Any, depth: int = 0) -> list[Inline]:
        """A short type: ``string (date-time)``, ``array of <link>``, ``one of: A | B``, ``map of X``."""
        if not isinstance(schema, dict):
            return ["never"] if schema is False else ["any"]
        ref = schema.get("$ref")
        if isinstance(ref, str):
            return list(self.ref_parts(ref, depth))
        if depth > _TYPE_DEPTH:
            return ["…"]
        kind = schema.get("type")
        if kind.__class__ is str and kind != "array" and kind != "object" and "oneOf" not in schema \
                and "anyOf" not in schema and "allOf" not in schema:  # the common case, quickly
            fmt = schema.get("format")
            parts = [_type_word(kind, fmt) if fmt.__class__ is str and fmt else kind]
            if schema.get("nullable") is True:
                parts.append(" | null")
            return parts
        nullable = schema.get("nullable") is True
        for key, word in (("oneOf", "one of: "), ("anyOf", "any of: ")):
            alternatives = schema.get(key)
            if isinstance(alternatives, list) and alternatives:
                named = []
                has_null = False
                for alt in alternatives:
                    if isinstance(alt, dict) and (alt.get("type") == "null" or (
                            alt.get("nullable") is True and "properties" not in alt and "$ref" not in alt
                            and alt.get("type") in (None, "object") and len(alternatives) > 1)):
                        has_null = True
                        continue
                    named.append(alt)
                if len(named) == 1:
                    parts = self.type_parts(named[0], depth + 1)
                else:
                    shown = [self.type_parts(a, depth + 1) for a in named[:MAX_ALTERNATIVES]]
                    parts = [word] + _joined(shown, " | ")
                    if len(named) > MAX_ALTERNATIVES:
                        parts.append(f" | … {len(named) - MAX_ALTERNATIVES} more")
                if has_null or nullable:
                    parts.append(" | null")
                return parts
        all_of = schema.get("allOf")
        if isinstance(all_of, list) and all_of:
            if len(all_of) == 1 and not schema.get("properties"):
                parts = self.type_parts(all_of[0], depth + 1)
            else:
                members = [self.type_parts(m, depth + 1) for m in all_of[:MAX_ALTERNATIVES]]
                if schema.get("properties"):
                    members.append(["object"])
                parts = ["all of: "] + _joined(members, " & ")
            if nullable:
                parts.append(" | null")
            return parts
        kind = schema.get("type")
        kinds = kind if isinstance(kind, list) else [kind] if isinstance(kind, str) else []
        if "null" in kinds:
            nullable = True
            kinds = [k for k in kinds if k != "null"]
        if not kinds:
            if "properties" in schema or "additionalProperties" in schema:
                kinds = ["object"]
            elif "items" in schema:
                kinds = ["array"]
            elif "const" in schema:
                return ["const ", Code(_value_text(schema["const"]))]
            elif "enum" in schema and isinstance(schema["enum"], list) and schema["enum"]:
                first = schema["enum"][0]
                kinds = ["string" if isinstance(first, str) else "number" if isinstance(first, (int, float))
                         and not isinstance(first, bool) else "boolean" if isinstance(first, bool) else "any"]
            else:
                kinds = ["null"] if nullable else ["any"]
                nullable = False
        pieces = []
        for k in kinds:
            k = str(k)
            if k == "array":
                items = schema.get("items")
                pieces.append(["array of "] + self.type_parts(items, depth + 1) if isinstance(items, dict)
                              else ["array"])
            elif k == "object":
                extra = schema.get("additionalProperties")
                if isinstance(extra, dict) and extra and not schema.get("properties"):
                    pieces.append(["map of "] + self.type_parts(extra, depth + 1))
                else:
                    pieces.append(["object"])
            else:
                fmt = schema.get("format")
                pieces.append([_type_word(k, fmt) if isinstance(fmt, str) and fmt else k])
        parts = _joined(pieces, " | ")
        if nullable:
            parts.append(" | null")
        return parts

    def merged(self, schema: dict) -> tuple[dict, set]:
        """Properties and required names of a schema with its ``allOf`` members (refs, nested) merged."""
        key = id(schema)
        hit = self._merged.get(key)
        if hit is not None:
            return hit
        props: dict[str, Any] = {}
        required: set[str] = set()

        def walk(node: Any, seen: frozenset, depth: int) -> None:
            if not isinstance(node, dict) or depth > _MAX_MERGE_DEPTH:
                return
            ref = node.get("$ref")
            if isinstance(ref, str):
                if ref in seen:
                    return
                target, _ = self.resolve(ref)
                walk(target, seen | {ref}, depth + 1)
                return
            members = node.get("allOf")
            if isinstance(members, list):
                for member in members:
                    walk(member, seen, depth + 1)
            own = node.get("properties")
            if isinstance(own, dict):
                props.update(own)
            names = node.get("required")
            if isinstance(names, list):
                required.update(n for n in names if isinstance(n, str))

        walk(schema, frozenset(), 0)
        result = (props, required)
        self._merged[key] = result
        return result

    def property_rows(self, schema: dict, rows: list, prefix: str = "", level: int = 0,
                      levels: int = NESTED_LEVELS) -> bool:
        """Appends the rows of ``schema``'s properties, inline nested objects as dotted names ``levels``
        deep; False when ``MAX_TABLE_ROWS`` cut them short."""
        props, required = self.merged(schema)
        for name, prop in props.items():
            if len(rows) >= MAX_TABLE_ROWS:
                return False
            rows.append(self.row([self.code(prefix + name)], self.type_parts(prop),
                                 ["yes" if name in required else "no"], self.describe(prop)))
            if level < levels and isinstance(prop, dict) and "$ref" not in prop:
                nested, sub = self._nested(prop)
                if nested is not None and not self.property_rows(nested, rows, f"{prefix}{name}{sub}.", level + 1,
                                                                 levels):
                    return False
        return True

    @staticmethod
    def _nested(prop: dict) -> tuple[dict | None, str]:
        """An inline object (or array of inline objects) worth expanding as dotted rows."""
        if prop.get("properties") or (isinstance(prop.get("allOf"), list) and any(
                isinstance(m, dict) and m.get("properties") for m in prop["allOf"])):
            return prop, ""
        items = prop.get("items")
        if isinstance(items, dict) and "$ref" not in items and items.get("properties"):
            return items, "[]"
        return None, ""

    def properties_table(self, schema: dict, prefix: str = "", levels: int = NESTED_LEVELS) -> Table | None:
        rows: list = []
        complete = self.property_rows(schema, rows, prefix, 0, levels)
        if not rows:
            return None
        if not complete:
            props, _ = self.merged(schema)
            rows.append([["…"], [], [], [f"{len(props)} properties in all (nested ones not counted); "
                                         f"the table shows the first {MAX_TABLE_ROWS} rows"]])
        return Table(["Name", "Type", "Required", "Description"], rows)

    def describe(self, schema: Any) -> list[Inline]:
        """The description cell of a property: text, then enum, default and flags."""
        if not isinstance(schema, dict):
            return []
        parts: list[Inline] = []
        text = schema.get("description") or schema.get("title")
        if text:
            parts.append(_line(text))
        flags = [word for key, word in (("deprecated", "Deprecated."), ("readOnly", "Read-only."),
                                        ("writeOnly", "Write-only.")) if schema.get(key) is True]
        if flags:
            parts.append((" " if parts else "") + " ".join(flags))
        enum = schema.get("enum")
        if not isinstance(enum, list):
            items = schema.get("items")
            enum = items.get("enum") if isinstance(items, dict) else None
        if isinstance(enum, list) and enum:
            parts.append((" " if parts else "") + "Values: ")
            parts.extend(_codes(enum, MAX_ENUM_VALUES, self.code))
            parts.append(".")
        if "default" in schema:
            parts.append((" " if parts else "") + "Default: ")
            parts.append(self.code(_value_text(schema["default"])))
            parts.append(".")
        return parts

    def schema_blocks(self, schema: Any, lead: list[Inline]) -> list[Block]:
        """How an operation shows a body's schema: a link, or a shallow table for an inline one.

        ``lead`` starts the paragraph (the media type); the schema follows it, after "schema: "."""
        if schema is None:
            return [Para(lead)] if lead else []
        label: list[Inline] = lead + [", schema: "] if lead else ["Schema: "]
        if not isinstance(schema, dict) or isinstance(schema.get("$ref"), str):
            return [Para(label + self.type_parts(schema))]
        blocks: list[Block] = []
        alternatives = schema.get("oneOf") or schema.get("anyOf")
        if isinstance(alternatives, list) and alternatives:
            word = "one of" if schema.get("oneOf") else "any of"
            blocks.append(Para(label + [f"{word}:"]))
            blocks.append(BulletList([self.type_parts(a) or ["any"] for a in alternatives]))
            blocks.extend(self.discriminator_blocks(schema))
            table = self.properties_table(schema)
            if table is not None:
                blocks.append(table)
            return blocks
        nested, sub = self._nested(schema)
        if nested is not None:
            blocks.append(Para(label + (["array of object"] if sub else self.type_parts(schema))))
            table = self.properties_table(nested, "[]." if sub else "")
            if table is not None:
                blocks.append(table)
            blocks.extend(self.discriminator_blocks(schema))
            return blocks
        blocks.append(Para(label + self.type_parts(schema)))
        enum = schema.get("enum")
        if isinstance(enum, list) and enum:
            blocks.append(Para(["Values: "] + _codes(enum)))
        return blocks

    def discriminator_blocks(self, schema: dict) -> list[Block]:
        disc = schema.get("discriminator")
        if isinstance(disc, str):  # Swagger 2.0: the property name
            return [Para(["Discriminator: ", Code(disc)])]
        if not isinstance(disc, dict):
            return []
        blocks: list[Block] = []
        name = disc.get("propertyName")
        blocks.append(Para(["Discriminator: ", Code(str(name))] if name else ["Discriminator"]))
        mapping = disc.get("mapping")
        if isinstance(mapping, dict) and mapping:
            rows = []
            for value, target in mapping.items():
                target = str(target)
                if "/" in target or target.startswith("#"):
                    cell = self.type_parts({"$ref": target})
                elif target in self.schemas:
                    cell = [Link(target, self.schema_anchor[target])]
                else:
                    cell = [Code(target)]
                rows.append([[Code(str(value))], cell])
            blocks.append(Table(["Value", "Schema"], rows))
        return blocks

    # -- examples ---------------------------------------------------------------------------------

    def example_blocks(self, media: str, obj: dict, schema: Any, direction: str) -> tuple[list[Block], Any]:
        """Example blocks for a media type, and the text of the first example (for curl)."""
        language = _code_language(media)
        blocks: list[Block] = []
        first: Any = None
        if "example" in obj:
            text = self.given_text(obj["example"], language)
            return [self.label("Example:"), CodeBlock(language, text)], text
        examples = obj.get("examples")
        if isinstance(examples, dict) and examples:
            for name, example in list(examples.items())[:MAX_NAMED_EXAMPLES]:
                example, ref = self.deref(example)
                if example is None:
                    blocks.append(Para([f"Example: {name}, in ", Code(ref or "?"), ", which is not loaded"]))
                    continue
                if not isinstance(example, dict):
                    continue
                title = _line(example.get("summary")) or str(name)
                if "value" in example:
                    text = self.given_text(example["value"], language)
                    blocks.append(Para(["Example:" if str(name) == "default" and title == "default"
                                        else f"Example: {title}"]))
                    blocks.append(CodeBlock(language, text))
                    first = text if first is None else first
                elif example.get("externalValue"):
                    blocks.append(Para([f"Example: {title}, at ", Code(str(example["externalValue"]))]))
                if example.get("description"):
                    blocks.extend(_text_blocks(example["description"]))
            if len(examples) > MAX_NAMED_EXAMPLES:
                blocks.append(Para([f"… and {len(examples) - MAX_NAMED_EXAMPLES} more examples"]))
            if blocks:
                return blocks, first
        if schema is None or self._unresolvable(schema):
            return [], None
        target = schema
        if isinstance(schema, dict) and isinstance(schema.get("$ref"), str) and not (
                "example" in schema or "examples" in schema):
            target = self.resolve(schema["$ref"])[0]
        given = isinstance(target, dict) and ("example" in target or isinstance(target.get("examples"), list))
        if language != "json" and media not in _FORM_TYPES:
            if not given:
                return [], None
            text = _example_text(self.examples.build(schema, direction), language)
            return [self.label("Example:"), CodeBlock(language, text)], text
        if language == "json" or media in _FORM_TYPES:
            text = self.examples.json_text(schema, direction)
            label = "Example:" if given else "Example (generated from the schema):"
            return [self.label(label), CodeBlock("json", text)], text
        return [], None

    def given_text(self, value: Any, language: str) -> str:
        """The text of an example given in the document; the same (shared) one is formatted once."""
        if not isinstance(value, (dict, list)):
            return _example_text(value, language)
        hit = self._given.get(id(value))
        if hit is None:
            hit = self._given[id(value)] = (value, _example_text(value, language))  # holds value: ids stay unique
        return hit[1]

    def _unresolvable(self, schema: Any) -> bool:
        ref = schema.get("$ref") if isinstance(schema, dict) else None
        return isinstance(ref, str) and self.resolve(ref)[0] is None

    # -- the document ------------------------------------------------------------------------------

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

    # -- servers and security ----------------------------------------------------------------------

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
        schemes = [s for s in schemes if isinstance(s, str)] if isinstance(schemes, list) and schemes else ["https"]
        return [f"{s}://{host}{base}" for s in schemes]

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

    # -- operations, grouped by tag ----------------------------------------------------------------

    def _groups(self) -> tuple[dict, list]:
        groups: dict[Any, dict] = {}
        order: list[Any] = []
        declared = self.root.get("tags")
        for tag in declared if isinstance(declared, list) else []:
            if isinstance(tag, dict) and tag.get("name") is not None:
                name = str(tag["name"])
                if name not in groups:
                    groups[name] = {"title": name, "tag": tag, "ops": [], "links": [], "declared": True,
                                    "unresolved": []}
                    order.append(name)
        paths = self.root.get("paths")
        for path, item in (paths.items() if isinstance(paths, dict) else ()):
            if path.startswith("x-"):
                continue
            item, ref = self.deref(item)
            if not isinstance(item, dict):
                if ref:
                    self._group("default", groups, order)["unresolved"].append((path, ref))
                continue
            for method, op in item.items():
                if method not in _METHOD_SET or not isinstance(op, dict):
                    continue
                tags = op.get("tags")
                tags = [str(t) for t in tags if t is not None] if isinstance(tags, list) else []
                tags = list(dict.fromkeys(tags))
                entry = (path, method, op, item)
                if not tags:
                    self._group("default", groups, order)["ops"].append(entry)
                    continue
                self._group(tags[0], groups, order, tagged=True)["ops"].append(entry)
                for other in tags[1:]:
                    self._group(other, groups, order, tagged=True)["links"].append(entry)
        for tag in order:
            group = groups[tag]
            group["anchor"] = self.anchors.make("tag", tag)
        # Operation anchors in document order, before any link to them is made.
        for tag in order:
            for path, method, _, _ in groups[tag]["ops"]:
                self.anchors.make(method, path)
        order = [t for t in order if groups[t]["ops"] or groups[t]["links"] or groups[t].get("unresolved")]
        return groups, order

    @staticmethod
    def _group(name: str, groups: dict, order: list, tagged: bool = False) -> dict:
        """The group of a tag; ``declared`` when a tag (not the default group of untagged ones) names it."""
        group = groups.get(name)
        if group is None:
            group = groups[name] = {"title": name, "tag": None, "ops": [], "links": [], "declared": False}
            order.append(name)
        group["declared"] = group["declared"] or tagged
        group.setdefault("unresolved", [])
        return group

    def _tag_section(self, group: dict) -> int:
        add = self.blocks.append
        add(Heading(2, group["title"], group["anchor"]))
        tag = group["tag"]
        if isinstance(tag, dict):
            self.blocks.extend(_text_blocks(tag.get("description")))
            docs = tag.get("externalDocs")
            if isinstance(docs, dict) and docs.get("url"):
                add(Para(["See also: ", _line(docs.get("description")) or "documentation", " (",
                          str(docs["url"]), ")."]))
        for path, ref in group.get("unresolved", []):
            add(Para(["The operations of ", Code(path), " are in ", Code(ref), ", which is not loaded."]))
        if group["links"]:
            add(Para(["Also in this group (described under their first tag):"]))
            add(BulletList([[Link(f"{method.upper()} {path}", self.anchors.make(method, path))]
                            + ([" — ", _line(op["summary"])] if op.get("summary") else [])
                            for path, method, op, _ in group["links"]]))
        for path, method, op, item in group["ops"]:
            self.names.append(f"{method.upper()} {path}")
            self.operation(path, method, op, item, level=3, anchor=self.anchors.make(method, path))
        return len(group["ops"])

    def operation(self, path: str, method: str, op: dict, item: dict, level: int, anchor: str,
                  webhook: str | None = None, sample: bool = True) -> None:
        """An operation; webhooks and callbacks (requests the API sends) have no curl sample and
        no inherited security requirement."""
        add = self.blocks.append
        upper = method.upper()
        title = _line(op.get("summary")) or _line(op.get("operationId")) or (
            f"{webhook} {upper}" if webhook else f"{upper} {path}")
        add(Heading(level, title, anchor))
        # The method and path (the name of a webhook) as code: every writer keeps code as it is.
        facts: list[Inline] = ([_WEBHOOK, " ", Code(f"{upper} {webhook}")] if webhook is not None
                               else [Code(f"{upper} {path}")])
        if op.get("operationId"):
            facts += [" — operation ID ", Code(str(op["operationId"]))]
        tags = op.get("tags")
        if isinstance(tags, list) and len(tags) > 1:
            facts += ["; tags: "] + _joined(
                [[Link(str(t), self.anchors.make("tag", str(t)))] for t in dict.fromkeys(tags) if t is not None],
                ", ")
        add(Para(facts))
        if op.get("deprecated") is True:
            add(Admonition("warning", ["Deprecated: this operation may be removed in a future version."]))
        self.blocks.extend(_text_blocks(op.get("description")))
        docs = op.get("externalDocs")
        if isinstance(docs, dict) and docs.get("url"):
            add(Para(["See also: ", _line(docs.get("description")) or "documentation", " (", str(docs["url"]), ")."]))
        own_servers = op.get("servers") or item.get("servers")
        if not self.v2 and isinstance(own_servers, list) and own_servers:
            add(Para(["Servers: "] + _joined([[Code(self._server_url(s))] for s in own_servers
                                              if isinstance(s, dict)], ", ")))

        params = self._parameters(item, op)
        body_param = form_params = None
        if self.v2:
            body_param = next((p for p, _ in params if p.get("in") == "body"), None)
            form_params = [p for p, _ in params if p.get("in") == "formData"]
            params = [(p, link) for p, link in params if p.get("in") not in ("body", "formData")]
        if params:
            add(self.label(_PARAMETERS))
            add(Table(["Name", "In", "Type", "Required", "Default", "Enum", "Description"],
                      [self.parameter_row(p, link) for p, link in params]))

        body = self._request_body(op, body_param, form_params)
        security = op.get("security") if isinstance(op.get("security"), list) else (
            self.global_security if sample else None)
        if security is not None:
            self.blocks.extend(self.security_blocks(security))
        if self.v2:
            produces = op.get("produces") or self.root.get("produces")
            self._produces = produces if isinstance(produces, list) else []
        self._responses(op)
        self._produces = self._global_produces()
        if sample:
            add(self.label(_EXAMPLE_REQUEST))
            add(CodeBlock("bash", self.curl(path, upper, op, item, params, body, security)))
        callbacks = op.get("callbacks")
        if isinstance(callbacks, dict) and callbacks:
            self._callbacks(callbacks, anchor, level)

    def _parameters(self, item: dict, op: dict) -> list[tuple[dict, Link | Code | None]]:
        merged: dict[tuple[str, str], tuple[dict, Any]] = {}
        for source in (item.get("parameters"), op.get("parameters")):
            if not isinstance(source, list):
                continue
            for raw in source:
                param, ref = self.deref(raw)
                if param is None and ref:
                    merged[("$ref", ref)] = ({"name": ref, "in": "?", "$unresolved": ref}, Code(ref))
                    continue
                if not isinstance(param, dict):
                    continue
                link = self.shared_link(ref, param) if ref else None
                merged[(str(param.get("name")), str(param.get("in")))] = (param, link)
        return list(merged.values())

    def parameter_row(self, param: dict, link: Any) -> list[list[Inline]]:
        """A row of a parameters table; the same (shared) parameter gives the same row object."""
        key = (id(param), id(link) if link is None else link.anchor)
        row = self._param_rows.get(key)
        if row is None:
            row = self._param_rows[key] = self._parameter_row(param, link)
        return row

    def _parameter_row(self, param: dict, link: Any) -> list[list[Inline]]:
        if "$unresolved" in param:
            return [[link], ["?"], [], [], [], [], ["defined in another file, which is not loaded"]]
        where = sys.intern(str(param.get("in") or ""))
        name_cell: list[Inline] = [link] if isinstance(link, Link) else [self.code(str(param.get("name")))]
        if self.v2:
            schema: Any = param
        else:
            schema = param.get("schema")
            content = param.get("content")
            if schema is None and isinstance(content, dict) and content:
                media, obj = next(iter(content.items()))
                schema = obj.get("schema") if isinstance(obj, dict) else None
        type_cell = self.type_parts(schema) if schema is not None else ["any"]
        if self.v2 and param.get("type") == "array" and param.get("collectionFormat"):
            type_cell.append(f" ({param['collectionFormat']})")
        required = param.get("required") is True or where == "path"
        target = schema if isinstance(schema, dict) else {}
        if isinstance(target.get("$ref"), str):
            target = self.resolve(target["$ref"])[0] or {}
        default = param.get("default", target.get("default", _MISSING)) if self.v2 else target.get("default", _MISSING)
        enum = target.get("enum")
        if not isinstance(enum, list):
            items = target.get("items")
            enum = items.get("enum") if isinstance(items, dict) else None
        description: list[Inline] = [_line(param.get("description"))] if param.get("description") else []
        if param.get("deprecated") is True:
            description.append((" " if description else "") + "Deprecated.")
        example = self._param_example(param, schema, generate=False)
        if example is not _MISSING:
            description += [(" " if description else "") + "Example: ", Code(_value_text(example)), "."]
        return self.row(name_cell, [where], type_cell, ["yes" if required else "no"],
                        [self.code(_value_text(default))] if default is not _MISSING else [],
                        _codes(enum, MAX_ENUM_VALUES, self.code) if isinstance(enum, list) and enum else [],
                        description)

    def _param_example(self, param: dict, schema: Any, generate: bool) -> Any:
        if "example" in param:
            return param["example"]
        if "x-example" in param:
            return param["x-example"]
        examples = param.get("examples")
        if isinstance(examples, dict) and examples:
            first, _ = self.deref(next(iter(examples.values())))
            if isinstance(first, dict) and "value" in first:
                return first["value"]
        if isinstance(schema, dict) and schema is not param:
            target = schema
            if isinstance(schema.get("$ref"), str):
                target = self.resolve(schema["$ref"])[0] or {}
            if isinstance(target, dict) and "example" in target:
                return target["example"]
        if not generate:
            return _MISSING
        return self.examples.build(schema, "request") if schema is not None else "value"

    # -- request bodies and responses --------------------------------------------------------------

    def _request_body(self, op: dict, body_param: dict | None, form_params: list | None) -> dict | None:
        """Renders the request body; returns what the curl sample needs: media type and example text."""
        add = self.blocks.append
        if self.v2:
            consumes = op.get("consumes") or self.root.get("consumes") or []
            consumes = [str(c) for c in consumes] if isinstance(consumes, list) else []
            if body_param is not None:
                head: list[Inline] = [_REQUEST_BODY]
                if body_param.get("required") is True:
                    head.append(" (required)")
                add(Para(head))
                self.blocks.extend(_text_blocks(body_param.get("description")))
                medias = consumes or ["application/json"]
                schema = body_param.get("schema")
                self.blocks.extend(self.schema_blocks(
                    schema, _media_lead(medias)))
                media = next((m for m in medias if _is_json_media(m)), medias[0])
                given = body_param.get("x-example", _MISSING)
                if given is not _MISSING:
                    text = self.given_text(given, _code_language(media))
                    blocks = [self.label("Example:"), CodeBlock(_code_language(media), text)]
                else:
                    blocks, text = self.example_blocks(media, {}, schema, "request")
                self.blocks.extend(blocks)
                return {"media": media, "example": text}
            if form_params:
                forms = [c for c in consumes if c in _FORM_TYPES]
                media = forms[0] if forms else ("multipart/form-data" if any(
                    p.get("type") == "file" for p in form_params) else "application/x-www-form-urlencoded")
                props = {str(p.get("name")): {k: v for k, v in p.items() if k not in ("name", "in", "required")}
                         for p in form_params}
                schema = {"type": "object", "properties": props,
                          "required": [str(p.get("name")) for p in form_params if p.get("required") is True]}
                add(Para([_REQUEST_BODY, " (form fields)"]))
                add(Para(["Media type ", Code(media), ", form fields:"]))
                table = self.properties_table(schema)
                if table is not None:
                    add(table)
                example = self.examples.build(schema, "request")
                return {"media": media, "example": to_json(example), "value": example}
            return None
        raw = op.get("requestBody")
        if raw is None:
            return None
        body, ref = self.deref(raw)
        head = [_REQUEST_BODY]
        if body is None:
            add(Para(head + [": defined in ", Code(ref or "?"), ", which is not loaded."]))
            return None
        if not isinstance(body, dict):
            return None
        if body.get("required") is True:
            head.append(" (required)")
        link = self.shared_link(ref, body) if ref else None
        if link is not None:
            add(Para(head + [": ", link, "."] + ([" ", _line(body["description"])] if body.get("description") else [])))
            return self._body_sample(body)
        add(Para(head))
        self.blocks.extend(_text_blocks(body.get("description")))
        sample = None  # for curl: the first JSON media type, else the first one
        content = body.get("content")
        for media, obj in (content.items() if isinstance(content, dict) else ()):
            text = self.media_blocks(str(media), obj, "request")
            if sample is None or (not _is_json_media(sample["media"]) and _is_json_media(str(media))):
                sample = {"media": str(media), "example": text}
        return sample

    def _body_sample(self, body: dict) -> dict | None:
        content = body.get("content")
        if not isinstance(content, dict) or not content:
            return None
        media = next((m for m in content if _is_json_media(m)), next(iter(content)))
        obj = content[media] if isinstance(content[media], dict) else {}
        blocks, text = self.example_blocks(str(media), obj, obj.get("schema"), "request")
        return {"media": str(media), "example": text}

    def media_blocks(self, media: str, obj: Any, direction: str) -> Any:
        """One media type of a body: its name, schema and examples; returns the first example's text."""
        add = self.blocks.append
        if not isinstance(obj, dict):
            add(Para(["Media type ", Code(media)]))
            return None
        schema = obj.get("schema")
        self.blocks.extend(self.schema_blocks(schema, ["Media type ", Code(media)]))
        blocks, text = self.example_blocks(media, obj, schema, direction)
        self.blocks.extend(blocks)
        return text

    def _responses(self, op: dict) -> None:
        responses = op.get("responses")
        if not isinstance(responses, dict) or not responses:
            return
        add = self.blocks.append
        add(self.label(_RESPONSES))
        last_ref = last = None  # statuses in a row that share one shared response share its line
        for status, raw in responses.items():
            status = str(status)
            if status.startswith("x-"):
                continue
            response, ref = self.deref(raw)
            head: list[Inline] = [self._status(status)]
            if response is None:
                add(Para(head + [": defined in ", Code(ref or "?"), ", which is not loaded."]))
                last_ref = None
                continue
            if not isinstance(response, dict):
                continue
            link = self.shared_link(ref, response) if ref else None
            if link is not None and ref == last_ref and last is not None:
                at = sum(1 for p in last.parts if isinstance(p, Strong)) * 2 - 1  # after the last status
                last.parts[at:at] = [", ", self._status(status)]
                continue
            description = _line(response.get("description"))
            if link is not None:
                last = Para(head + [f": {description} (see " if description else " (see ", link, ")"])
                last_ref = ref
                add(last)
                continue
            last_ref = None
            add(Para(head + [f": {description}"] if description else head))
            self.response_body(response)

    def _status(self, status: str) -> Strong:
        strong = self._statuses.get(status)
        if strong is None:
            strong = self._statuses[status] = Strong(status)
        return strong

    def response_body(self, response: dict) -> None:
        add = self.blocks.append
        headers = response.get("headers")
        if isinstance(headers, dict) and headers:
            rows = []
            for name, header in headers.items():
                header, ref = self.deref(header)
                if not isinstance(header, dict):
                    rows.append([[Code(str(name))], [Code(ref or "?")], []])
                    continue
                schema = header if self.v2 else header.get("schema")
                rows.append([[Code(str(name))], self.type_parts(schema) if schema is not None else ["any"],
                             self.describe(header) if self.v2 else [_line(header.get("description"))]
                             if header.get("description") else []])
            add(Para(["Headers:"]))
            add(Table(["Header", "Type", "Description"], rows))
        if self.v2:
            schema = response.get("schema")
            if schema is None:
                return
            produces = [str(p) for p in (self._produces or ["application/json"])]
            self.blocks.extend(self.schema_blocks(
                schema, _media_lead(produces)))
            examples = response.get("examples")
            if isinstance(examples, dict) and examples:
                for media, value in examples.items():
                    language = _code_language(str(media))
                    add(Para(["Example (", Code(str(media)), "):"]))
                    add(CodeBlock(language, self.given_text(value, language)))
            else:
                media = next((m for m in produces if _is_json_media(m)), produces[0])
                self.blocks.extend(self.example_blocks(media, {}, schema, "response")[0])
            return
        content = response.get("content")
        for media, obj in (content.items() if isinstance(content, dict) else ()):
            self.media_blocks(str(media), obj, "response")
        links = response.get("links")
        if isinstance(links, dict) and links:
            add(Para(["Links: "] + _joined([[Code(str(k))] for k in links], ", ")))

    _produces: list = []

    def _global_produces(self) -> list:
        produces = self.root.get("produces") if self.v2 else None
        return produces if isinstance(produces, list) else []

    def _callbacks(self, callbacks: dict, anchor: str, level: int) -> None:
        self.blocks.append(self.label(_CALLBACKS))
        for name, raw in callbacks.items():
            callback, ref = self.deref(raw)
            if not isinstance(callback, dict):
                self.blocks.append(Para(["Callback ", Code(str(name)), ": defined in ", Code(ref or "?"),
                                         ", which is not loaded."]))
                continue
            for expression, raw_item in callback.items():
                item, item_ref = self.deref(raw_item)
                if not isinstance(item, dict):
                    continue
                for method, cb_op in item.items():
                    if method in _METHOD_SET and isinstance(cb_op, dict):
                        self.operation(str(expression), method, cb_op, item, min(level + 1, 6),
                                       self.anchors.make(anchor, "callback", str(name), str(expression), method),
                                       sample=False)

    # -- curl --------------------------------------------------------------------------------------

    def curl(self, path: str, method: str, op: dict, item: dict, params: list, body: dict | None,
             security: list | None) -> str:
        base = self.server_urls(op, item)[0]
        url = path if base in ("", "/") else base.rstrip("/") + path
        query: list[str] = []
        options: list[str] = []
        for param, _ in params:
            if param.get("required") is not True or "$unresolved" in param:
                continue
            where = param.get("in")
            if where not in ("query", "header", "cookie"):
                continue
            schema = param if self.v2 else param.get("schema")
            value = self._param_example(param, schema, generate=True)
            if isinstance(value, list):
                value = ",".join(_value_text(v) for v in value)
            text = _value_text(value)
            _send(where, str(param.get("name")), text, query, options)
        for requirement in security or []:
            if isinstance(requirement, dict):
                for name in requirement:
                    self._auth_options(str(name), query, options)
                break
        accept = self._accept(op)
        if accept:
            options.append(f"-H {_shell_quote('Accept: ' + accept)}")
        if body is not None:
            media = body["media"]
            example = body.get("example")
            if media in _FORM_TYPES:
                value = body.get("value")
                if value is None and isinstance(example, str):
                    try:
                        value = json.loads(example)
                    except ValueError:
                        value = None
                flag = "-F" if media == "multipart/form-data" else "--data-urlencode"
                if isinstance(value, dict):
                    for key, val in list(value.items())[:8]:
                        if val == "<binary>" and flag == "-F":
                            options.append(f"-F {_shell_quote(f'{key}=@{key}.bin')}")
                        elif not isinstance(val, (dict, list)):
                            options.append(f"{flag} {_shell_quote(f'{key}={_value_text(val)}')}")
                else:
                    options.append(f"-H {_shell_quote('Content-Type: ' + media)}")
            else:
                options.append(f"-H {_shell_quote('Content-Type: ' + media)}")
                if example is not None and _is_json_media(media):
                    options.append(f"-d {_shell_quote(str(example))}")
                elif example is not None:
                    options.append(f"--data-binary {_shell_quote(str(example))}")
                else:
                    options.append("--data-binary @body")
        if query:
            url += ("&" if "?" in url else "?") + "&".join(query)
        lines = [f"curl -X {method} {_shell_quote(url)}"] + options
        return " \\\n  ".join(lines)

    def _auth_options(self, name: str, query: list, options: list) -> None:
        scheme, _ = self.deref(self.security_schemes.get(name))
        if not isinstance(scheme, dict):
            return
        kind = str(scheme.get("type") or "").lower()
        if kind == "apikey":
            _send(scheme.get("in"), str(scheme.get("name") or name), "API_KEY", query, options)
        elif kind == "basic" or (kind == "http" and str(scheme.get("scheme")).lower() == "basic"):
            options.append("-u 'USERNAME:PASSWORD'")
        elif kind == "http" and str(scheme.get("scheme")).lower() != "bearer":
            options.append(f"-H {_shell_quote('Authorization: ' + str(scheme.get('scheme')).title() + ' CREDENTIALS')}")
        elif kind in ("http", "oauth2", "openidconnect"):
            options.append("-H 'Authorization: Bearer TOKEN'")
        elif kind == "mutualtls":
            options.append("--cert client.pem --key client-key.pem")

    def _accept(self, op: dict) -> str | None:
        if self.v2:
            produces = op.get("produces") or self.root.get("produces")
            if isinstance(produces, list) and produces:
                return next((str(p) for p in produces if _is_json_media(str(p))), str(produces[0]))
            return None
        responses = op.get("responses")
        if not isinstance(responses, dict):
            return None
        for status, raw in responses.items():
            if str(status).startswith("2"):
                response, _ = self.deref(raw)
                content = response.get("content") if isinstance(response, dict) else None
                if isinstance(content, dict) and content:
                    return next((m for m in content if _is_json_media(m) and m != "*/*"), next(iter(content)))
                return None
        return None

    # -- webhooks ----------------------------------------------------------------------------------

    def _webhooks(self) -> list[tuple[str, str, dict, dict]]:
        hooks = self.root.get("webhooks")
        out = []
        for name, raw in (hooks.items() if isinstance(hooks, dict) else ()):
            item, _ = self.deref(raw)
            if not isinstance(item, dict):
                continue
            for method, op in item.items():
                if method in _METHOD_SET and isinstance(op, dict):
                    out.append((str(name), method, op, item))
        return out

    def _webhook_section(self, hooks: list, anchor: str) -> None:
        self.blocks.append(Heading(2, "Webhooks", anchor))
        self.blocks.append(Para(["Requests that the API sends to your endpoints."]))
        for name, method, op, item in hooks:
            self.names.append(f"WEBHOOK {name} {method.upper()}")
            self.operation(name, method, op, item, level=3, anchor=self.anchors.make("webhook", name, method),
                           webhook=name, sample=False)

    # -- models and shared components --------------------------------------------------------------

    def _models_section(self, anchor: str) -> None:
        add = self.blocks.append
        add(Heading(2, "Models", anchor))
        for name, schema in self.schemas.items():
            add(Heading(3, str(name), self.schema_anchor[name]))
            self.model_blocks(schema)

    def model_blocks(self, schema: Any) -> None:
        add = self.blocks.append
        if not isinstance(schema, dict):
            add(Para(["Any value." if schema is not False else "No value is valid."]))
            return
        ref = schema.get("$ref")
        if isinstance(ref, str):
            add(Para(["Same as "] + self.type_parts({"$ref": ref}) + ["."]))
            if schema.get("description"):
                self.blocks.extend(_text_blocks(schema["description"]))
            return
        if schema.get("title") and schema.get("title") != schema.get("description"):
            add(Para([Strong(_line(schema["title"]))]))
        self.blocks.extend(_text_blocks(schema.get("description")))
        if schema.get("deprecated") is True:
            add(Admonition("warning", ["Deprecated."]))
        all_of = schema.get("allOf")
        if isinstance(all_of, list):
            bases = [self.type_parts(m) for m in all_of if isinstance(m, dict) and isinstance(m.get("$ref"), str)]
            if bases:
                add(Para(["Extends: "] + _joined(bases, ", ") + ["."]))
        composed = False
        for key, word in (("oneOf", "One of:"), ("anyOf", "Any of:")):
            alternatives = schema.get(key)
            if isinstance(alternatives, list) and alternatives:
                composed = True
                add(Para([word]))
                add(BulletList([self.type_parts(a) or ["any"] for a in alternatives]))
        props, _ = self.merged(schema)
        kind = schema.get("type")
        if props:
            add(Para(["Type: "] + (self.type_parts({k: v for k, v in schema.items() if k != "allOf"})
                                   if kind not in (None, "object") else ["object"])))
            table = self.properties_table(schema, "", MODEL_NESTED_LEVELS)
            if table is not None:
                add(table)
        elif not composed:
            add(Para(["Type: "] + self.type_parts(schema)))
            items = schema.get("items")
            if isinstance(items, dict) and "$ref" not in items and items.get("properties"):
                table = self.properties_table(items, "[].", MODEL_NESTED_LEVELS)
                if table is not None:
                    add(table)
        enum = schema.get("enum")
        if isinstance(enum, list) and enum:
            add(Para(["Values: "] + _codes(enum, 200)))
        extra = schema.get("additionalProperties")
        if props and isinstance(extra, dict) and extra:
            add(Para(["Other properties: "] + self.type_parts(extra) + ["."]))
        self.blocks.extend(self.discriminator_blocks(schema))
        if "example" in schema or isinstance(schema.get("examples"), list):
            value = schema["example"] if "example" in schema else schema["examples"][0]
            add(self.label("Example:"))
            add(CodeBlock("json", to_json(value)))

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


def _media_lead(medias: list[str]) -> list[Inline]:
    return ["Media type" + ("s " if len(medias) > 1 else " ")] + _joined([[Code(m)] for m in medias], ", ")


def _example_text(value: Any, language: str) -> str:
    if isinstance(value, str):
        return value
    return to_json(value)
