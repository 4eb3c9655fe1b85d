"""A Helm chart's values file to a parameters document: one table (Key, Type, Default, Description)
per section, from the comments the chart's authors wrote.

``build(text, data) -> Built``: ``data`` is the values file already loaded by ``specload`` (the
values, types and defaults come from it); ``text`` is the same file as written, for its comments.
Three comment conventions are in use and one is detected per file:

- helm-docs (norwoodj/helm-docs v1.15), when a comment starts with ``# --`` or names a key
  (``# controller.name -- text``). Rows match what helm-docs writes: every leaf (scalars, empty
  maps and lists) of an undocumented parent, and every documented key, map or list; a documented
  map or list is one row with its JSON as the default, and below it only documented keys get rows.
  Lists are walked into (``hosts[0].host``) unless documented. ``# -- (type) text`` sets the type,
  ``# @default -- text`` the default shown, ``# @section -- Name`` the section, ``# @raw`` keeps
  the lines of the description, ``# @notationType -- tpl|yaml|...`` shows the value as written;
  ``@ignore`` (or ``@ignored``) in a key's comment drops it and everything below it. Defaults are
  helm-docs' compact JSON (keys sorted), ``nil`` for null; rows sorted by key, unsectioned rows
  last under "Other values". As an extension, a ``# --`` comment beside a key on its line counts
  when there is none above it.
- Bitnami readme-generator-for-helm 2.7, when there is a ``## @param``, ``## @section``,
  ``## @skip`` or ``## @extra`` line. Rows are the ``@param`` and ``@extra`` lines in their order
  under the ``@section`` before them (``@descriptionStart``…``@descriptionEnd`` is the section's
  text); modifiers ``array``, ``object``, ``string``, ``nullable`` and ``default: X`` change the
  default shown as Bitnami's do; ``@skip`` leaves a key and its children out. Defaults are shown
  as Bitnami shows them: strings as they are (``""`` when empty), numbers, ``true``, ``nil``, JSON.
  A ``@param`` for a key the values do not have, and a values key no comment covers (Bitnami's
  tool refuses both), are warnings; the uncovered keys are listed under "Other values".
- Otherwise plain comments: the ``#`` lines directly above a key (or beside it) are its
  description; every leaf gets a row, a commented map or list one more, in file order.

Comments belong to a key when they sit directly above its line (no blank line between, as
helm-docs' YAML parser attaches them), at its indentation or less; lines inside multi-line
strings are not comments. Where keys and comments are comes from PyYAML's composed node tree,
walked once without following aliases, so the cost is linear in the size of the text.

``Built.names`` lists the key of every row; ``Built.stats`` counts ``keys`` (rows) and
``sections`` (headings, "Other values" included).
"""

from __future__ import annotations

import json
import math
import re
import textwrap
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import yaml

from ....specload import SpecError
from .doc import Anchors, Block, Built, Code, CodeBlock, Document, Heading, Inline, Link, Para, Strong, Table

__all__ = ["build", "HEADER"]

HEADER = ["Key", "Type", "Default", "Description"]


class _Composer(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """Node tree only: values are not resolved (``specload`` did that), keys are on demand."""

    yaml_implicit_resolvers: dict = {}


_KEY_RESOLVER = yaml.resolver.Resolver()
_SCALAR_CONSTRUCTOR = yaml.constructor.SafeConstructor()
_TYPED_KEYS = {f"tag:yaml.org,2002:{name}" for name in ("int", "float", "bool", "null")}

# helm-docs' own expressions (pkg/helm/chart_info.go), so that comments are read as it reads them.
# (``^\s*#\s*(.*)\s+--\s*(.*)$`` names a key: see _named_line, which reads it without backtracking.)
_HD_RAW = re.compile(r"^\s*#\s+@raw")
_HD_CONTINUATION = re.compile(r"^\s*#(\s?)(.*)$")
_HD_DEFAULT = re.compile(r"^\s*# @default -- (.*)$")
_HD_TYPE = re.compile(r"^\((.*?)\)\s*(.*)$")
_HD_NOTATION = re.compile(r"^\s*#\s+@notationType\s+--\s+(.*)$")
_HD_SECTION = re.compile(r"^\s*# @section -- (.*)$")
_HD_PATH_LIKE = re.compile(r'(?:[^\s"]|"[^"]*")+')  # "# a.b -- text" names a key; "# Use x -- or y" does not
_HD_DASHES = re.compile(r"\s--")
_HD_AUTO = re.compile(r"\s*# --(?:\s|$)")  # a "# --" comment; a "# -----" rule does not make a file helm-docs'

# Bitnami's (lib/parser.js).
_BN_ANY = re.compile(r"^\s*##\s*@(?:param|section|skip|extra)\s")
_BN_PARAM = re.compile(r"^\s*##\s*@param\s*(\S+)\s*(\[.*?\])?\s*(.*)$")
_BN_EXTRA = re.compile(r"^\s*##\s*@extra\s*(\S+)\s*(\[.*?\])?\s*(.*)$")
_BN_SECTION = re.compile(r"^\s*##\s*@section\s*(.*)$")
_BN_SKIP = re.compile(r"^\s*##\s*@skip\s*(\S+)")
_BN_DESCRIPTION_START = re.compile(r"^\s*##\s*@descriptionStart\s*(.*)")
_BN_DESCRIPTION_END = re.compile(r"^\s*##\s*@descriptionEnd")
_BN_DESCRIPTION_LINE = re.compile(r"^\s*##\s?(.*)")

_PLAIN_COMMENT = re.compile(r"^\s*#+\s?")
_WORDS = re.compile(r"[^\W_]")
_CHART_NAME = re.compile(r"^#+\s*Default values for\s+([\w./-]+?)\.?(?:\s|$)")


def build(text: str, data: Any) -> Built:
    """The parameters document of a values file: ``text`` as written, ``data`` as ``specload`` loaded it.

    An empty file (``data`` None) gives a document without parameters; anything but a mapping is a
    ``SpecError``."""
    if data is None:
        data = {}
    if not isinstance(data, dict):
        kind = {list: "list", str: "string", bool: "boolean", int: "number", float: "number"}.get(
            type(data), type(data).__name__)
        raise SpecError(f"a Helm values file must be a mapping of keys to values, not a {kind}")
    source = _Source(text)
    try:
        if source.convention == "bitnami":
            return _Bitnami(source, data).build()
        return _CommentedValues(source, data).build()
    except RecursionError:
        raise SpecError("the values nest too deeply") from None


# -- the text: where each key is and which comments are its -----------------------------------------

@dataclass
class _At:
    """Where a key (or list item) is written and the comments around it."""

    head: list[str]  # the comment lines directly above it, stripped
    beside: str  # a comment after it on its line, or ""
    value: yaml.Node  # its value, for the text as written (``@notationType -- yaml``)

    @property
    def ignored(self) -> bool:
        """helm-docs drops a key whose comment says ``@ignore`` (``@ignored`` too)."""
        return any("@ignore" in line for line in self.head)


class _Source:
    """The values text: its lines, which are comments, and ``at[path]`` for each key path.

    A path is a tuple of mapping keys (as ``specload`` makes them: strings) and list indexes."""

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()  # the same line breaks as PyYAML's, in any text it accepts
        inside, entries = self._compose(text)
        self.comment = [i not in inside and line.lstrip().startswith("#") for i, line in enumerate(self.lines)]
        self.at = self._attach(entries)
        self.convention = self._convention()

    @staticmethod
    def _compose(text: str) -> tuple[set[int], list[tuple[tuple, yaml.Mark, yaml.Mark, yaml.Node]]]:
        """The lines inside multi-line strings, and (path, where written, where its own text ends,
        value node) for each key and list item, parents before children."""
        try:
            root = yaml.compose(text, Loader=_Composer)
        except (yaml.YAMLError, RecursionError):
            root = None  # specload read it; without the node tree there are just no comments
        inside: set[int] = set()
        entries = []
        seen: set[int] = set()
        stack: list[tuple[yaml.Node, tuple]] = [(root, ())] if root is not None else []
        while stack:
            node, path = stack.pop()
            if id(node) in seen:  # an alias: its comments are at the anchor, walked once
                continue
            seen.add(id(node))
            children: list[tuple[tuple, yaml.Node, yaml.Node]] = []  # path, what is written first, value
            if isinstance(node, yaml.MappingNode):
                children = [(path + (_key_name(key),), key, value) for key, value in node.value
                            if not (key.value == "<<" and isinstance(key, yaml.ScalarNode) and key.style is None)]
            elif isinstance(node, yaml.SequenceNode):
                children = [(path + (i,), item, item) for i, item in enumerate(node.value)]
            elif node.end_mark.line > node.start_mark.line:
                last = node.end_mark.line - (node.end_mark.column == 0)
                inside.update(range(node.start_mark.line + 1, last + 1))
            for child_path, written, value in children:
                # A comment beside: after the value when it ends on the key's line, else after the key.
                one_line = value.start_mark.line == value.end_mark.line == written.start_mark.line
                entries.append((child_path, written.start_mark, value.end_mark if one_line else written.end_mark,
                                value))
            stack.extend((value, child_path) for child_path, _, value in reversed(children))
        return inside, entries

    def _attach(self, entries) -> dict[tuple, _At]:
        """Each line's comment block goes to the first key listed on that line: the outermost."""
        at: dict[tuple, _At] = {}
        claimed: set[int] = set()
        for path, start, after, value in entries:
            head: list[str] = []
            if start.line not in claimed:
                claimed.add(start.line)
                i = start.line - 1
                while i >= 0 and self.comment[i] and _indent(self.lines[i]) <= start.column:
                    head.append(self.lines[i].strip())
                    i -= 1
                head.reverse()
            beside = _beside(self.lines[after.line], after.column) if after.line < len(self.lines) else ""
            at[path] = _At(head, beside, value)
        return at

    def comments(self):
        """``(index, line)`` of every comment line."""
        return ((i, line) for i, line in enumerate(self.lines) if self.comment[i])

    def _convention(self) -> str:
        helm_docs = False
        for _, line in self.comments():
            if _BN_ANY.match(line):
                return "bitnami"
            if _HD_AUTO.match(line):
                helm_docs = True
            elif not helm_docs and (named := _named_line(line)) and _HD_PATH_LIKE.fullmatch(named[0]):
                helm_docs = True
        return "helm-docs" if helm_docs else "plain"

    def written(self, node: yaml.Node) -> str:
        """The text of a value as written, dedented, without trailing blank and comment lines."""
        start, end = node.start_mark, node.end_mark
        lines = self.lines[start.line:end.line + 1]
        if not lines:
            return ""
        if end.line < len(self.lines):
            lines[-1] = lines[-1][:end.column]
        lines[0] = " " * start.column + lines[0][start.column:]
        while lines and (not lines[-1].strip() or lines[-1].lstrip().startswith("#")):
            lines.pop()
        return textwrap.dedent("\n".join(lines))


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _beside(line: str, column: int) -> str:
    """The comment after a key (``: # c``) or a value (``  # c``) that ends at ``column``, or ""."""
    rest = line[column:]
    if (after_colon := rest.lstrip()).startswith(":"):
        rest = after_colon[1:]
    comment = rest.lstrip()
    return comment if comment.startswith("#") and len(comment) < len(rest) else ""  # "#" needs a space before


def _key_name(node: yaml.Node) -> str:
    """A mapping key as ``specload`` turns it into a string (``200`` → "200", ``true`` → "true")."""
    if not isinstance(node, yaml.ScalarNode):
        return str(node.value)
    tag = _KEY_RESOLVER.resolve(yaml.ScalarNode, node.value, (True, False)) if node.style is None else node.tag
    if tag not in _TYPED_KEYS:
        return node.value
    value = _SCALAR_CONSTRUCTOR.yaml_constructors[tag](_SCALAR_CONSTRUCTOR, node)
    return "null" if value is None else str(value).lower() if isinstance(value, bool) else str(value)


# -- the values as a tree of keys, with their comments ------------------------------------------------

@dataclass
class _Node:
    path: tuple  # keys and list indexes as written: where its comments are
    key: str  # helm-docs' spelling: a.b."c.d"[0] (indexes counted without ignored items)
    flat: str  # Bitnami's spelling: a.b.c.d[0]
    value: Any  # the value, ignored entries left out
    at: _At | None
    children: list[_Node] = field(default_factory=list)

    @property
    def head(self) -> list[str]:
        return self.at.head if self.at else []

    @property
    def beside(self) -> str:
        return self.at.beside if self.at else ""


def _tree(source: _Source, data: dict, ignore: bool) -> tuple[_Node, list[_Node]]:
    """The root node and every node in file order; with ``ignore``, ``@ignore`` comments drop keys."""
    nodes: list[_Node] = []

    def grow(path: tuple, key: str, flat: str, value: Any) -> _Node:
        node = _Node(path, key, flat, value, source.at.get(path))
        nodes.append(node)
        if isinstance(value, dict):
            kept = {}
            for name, child in value.items():
                child_path = path + (name,)
                if ignore and (at := source.at.get(child_path)) and at.ignored:
                    continue
                shown = f'"{name}"' if "." in name or " " in name else name
                node.children.append(grow(child_path, f"{key}.{shown}" if key else shown,
                                           f"{flat}.{name}" if flat else name, child))
                kept[name] = node.children[-1].value
            node.value = kept
        elif isinstance(value, list):
            kept_items = []
            for i, child in enumerate(value):
                if ignore and (at := source.at.get(path + (i,))) and at.ignored:
                    continue
                n = len(kept_items)  # helm-docs numbers the items that are left
                node.children.append(grow(path + (i,), f"{key}[{n}]", f"{flat}[{n}]", child))
                kept_items.append(node.children[-1].value)
            node.value = kept_items
        return node

    return grow((), "", "", data), nodes


# -- rows and the document ------------------------------------------------------------------------------

@dataclass
class _Row:
    key: str
    type: str
    default: str
    default_is_code: bool  # else Markdown written by the chart's authors (helm-docs' ``@default``)
    description: str  # Markdown
    raw: bool = False  # keep the description's lines as they are
    section: str = ""


@dataclass
class _Section:
    name: str  # "" for the rows of no section
    text: str = ""  # Markdown
    rows: list[_Row] = field(default_factory=list)


def _document(title: str, intro: str, sections: list[_Section], warnings: list[str]) -> Built:
    """The page: an introduction, then a heading (and text) and a table per section; the rows of
    no section last, under "Other values" (or "Parameters" when there are no sections)."""
    groups = [section for section in sections if section.name]
    rest = [row for section in sections if not section.name for row in section.rows]
    if rest:
        groups.append(_Section("Other values" if groups else "Parameters", rows=rest))
    anchors = Anchors()
    for section in groups:  # every anchor first: a section's text may link to a later one
        anchors.make(section.name)
    made = {anchors.get(section.name) for section in groups}
    keys = sum(len(section.rows) for section in groups)
    doc = Document(title, f"{title}: {keys} parameter{'' if keys == 1 else 's'}")
    doc.add(Para(_inline(intro, made) if keys else ["The values file sets no values."]))
    for section in groups:
        doc.add(Heading(2, section.name, anchors.get(section.name)), *_blocks(section.text, made))
        if section.rows:
            doc.add(Table(list(HEADER), [_cells(row, made) for row in section.rows]))
    names = [row.key for section in groups for row in section.rows]
    return Built(doc, warnings, {"keys": keys, "sections": len(groups)}, names)


def _title(source: _Source, values: dict) -> str:
    """ "NAME Helm values", the name from ``helm create``'s first line ("# Default values for NAME.")
    or a top-level ``nameOverride``; else "Helm values"."""
    match = _CHART_NAME.match(source.lines[0]) if source.lines and source.comment[0] else None
    name = match[1] if match else ""
    for key in ("nameOverride", "fullnameOverride"):
        value = values.get(key)
        if not name and isinstance(value, str) and "{{" not in value:
            name = value.strip()
    return f"{name} Helm values" if name else "Helm values"


def _cells(row: _Row, anchors: set[str]) -> list[list[Inline]]:
    if row.default_is_code:
        default: list[Inline] = [Code(row.default)] if row.default else []
    else:
        default = _inline(row.default, anchors)
    description = [row.description.rstrip()] if row.raw else _inline(" ".join(row.description.split()), anchors)
    return [[Code(row.key)], [row.type] if row.type else [], default, [p for p in description if p]]


_INLINE = re.compile(r"(?<!`)(`{1,3})(?!`)(.+?)(?<!`)\1(?!`)|\*\*(.+?)\*\*|\[([^\]\n]+)\]\(([^)\s]+)\)")
_INLINE_LIMIT = 4000  # longer text stays plain: the expression above may take quadratic time


def _inline(text: str, anchors: set[str]) -> list[Inline]:
    """Markdown in a comment as inline parts: code spans, strong text, links (to this page's
    sections as links, to elsewhere as "text (address)"); the rest as plain text."""
    parts: list[Inline] = []
    at = 0
    for match in _INLINE.finditer(text) if len(text) <= _INLINE_LIMIT else ():
        parts.append(text[at:match.start()])
        at = match.end()
        if match[1]:
            code = match[2]
            if code.startswith(" ") and code.endswith(" ") and code.strip():
                code = code[1:-1]  # as CommonMark does: `` `x` `` is `x`
            parts.append(Code(code))
        elif match[3]:
            parts.append(Strong(match[3]))
        elif match[5].startswith("#"):
            parts.append(Link(match[4], match[5][1:]) if match[5][1:] in anchors else match[4])
        else:
            parts.append(f"{match[4]} ({match[5]})")
    parts.append(text[at:])
    return [part for part in parts if part]


_FENCE = re.compile(r"^\s*(```+|~~~+)\s*([\w+#.-]*)")


def _blocks(text: str, anchors: set[str]) -> list[Block]:
    """A section's Markdown text: paragraphs and fenced code blocks."""
    blocks: list[Block] = []
    lines = text.split("\n")
    paragraph: list[str] = []
    i = 0
    while i < len(lines):
        fence = _FENCE.match(lines[i])
        if fence or not lines[i].strip():
            if paragraph:
                blocks.append(Para(_inline(" ".join(" ".join(paragraph).split()), anchors)))
                paragraph = []
        if fence:
            end = next((j for j in range(i + 1, len(lines)) if lines[j].strip().startswith(fence[1])), len(lines))
            blocks.append(CodeBlock(fence[2] or "text", "\n".join(lines[i + 1:end])))
            i = end
        elif lines[i].strip():
            paragraph.append(lines[i])
        i += 1
    if paragraph:
        blocks.append(Para(_inline(" ".join(" ".join(paragraph).split()), anchors)))
    return blocks


# -- values as helm-docs and Bitnami show them -------------------------------------------------------

def _type(value: Any) -> str:
    """helm-docs' type names; null is "string", as helm-docs has it, unless a comment gives one."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, list):
        return "list"
    if isinstance(value, dict):
        return "object"
    return "string"


def _number(value: float) -> str:
    """A float as Go's encoding/json and JavaScript write it: 1 not 1.0, 1e+21, 1e-7."""
    if not math.isfinite(value):
        return json.dumps(value)
    if value != 0 and not 1e-6 <= abs(value) < 1e21:
        mantissa, exponent = repr(value).split("e")
        return f"{mantissa.removesuffix('.0')}e{exponent[0]}{exponent[1:].lstrip('0')}"
    text = format(Decimal(repr(value)), "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def _default(value: Any) -> str:
    """A default as helm-docs shows it: ``nil``, or compact JSON with sorted keys."""
    return "nil" if value is None else _json(value, True)


def _json(value: Any, sort_keys: bool) -> str:
    """Compact JSON, HTML characters unescaped: helm-docs' (Go, keys sorted) or Bitnami's
    (JavaScript, keys in file order)."""
    if isinstance(value, float):
        return _number(value)
    if isinstance(value, dict):
        items = sorted(value.items()) if sort_keys else value.items()
        return "{" + ",".join(f"{_json(k, sort_keys)}:{_json(v, sort_keys)}" for k, v in items) + "}"
    if isinstance(value, list):
        return "[" + ",".join(_json(v, sort_keys) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False).replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


# -- helm-docs and plain comments --------------------------------------------------------------------

@dataclass
class _Doc:
    """What a helm-docs comment says about a key (helm.ChartValueDescription)."""

    description: str = ""
    default: str = ""
    section: str = ""
    type: str = ""
    notation: str = ""
    raw: bool = False


def _named_line(line: str) -> tuple[str, str] | None:
    """helm-docs' ``^\\s*#\\s*(.*)\\s+--\\s*(.*)$``, (key, text), read without backtracking (a long
    comment line must not take quadratic time): the greedy ``(.*)`` ends at the last " --"."""
    stripped = line.lstrip()
    if not stripped.startswith("#"):
        return None
    body = stripped[1:]
    dashes = None
    for dashes in _HD_DASHES.finditer(body):
        pass
    if dashes is None:
        return None
    start = min(len(body) - len(body.lstrip()), dashes.start())
    return body[start:dashes.start()], body[dashes.end():].lstrip()


def _parse_comment(lines: list[str]) -> tuple[str, _Doc]:
    """helm-docs' ParseComment: the key a comment names ("" for ``# --``) and what it says."""
    starts = [i for i, line in enumerate(lines) if line.startswith("# --")]
    lines = lines[starts[-1]:] if starts else lines  # only the last "# --" group counts (helm-docs #96)
    key, doc, first = "", _Doc(), 0
    for i, line in enumerate(lines):
        if named := _named_line(line):
            (key, doc.description), first = named, i
            break
    if (match := _HD_TYPE.match(doc.description)) and match[1]:
        doc.type, doc.description = match[1], match[2]
    text = [doc.description]
    for line in lines[first + 1:]:
        if not doc.raw and _HD_RAW.match(line):
            doc.raw = True
        elif match := _HD_DEFAULT.match(line):
            doc.default = match[1]
        elif match := _HD_NOTATION.match(line):
            doc.notation = match[1]
        elif match := _HD_SECTION.match(line):
            doc.section = match[1]
        elif match := _HD_CONTINUATION.match(line):
            text.append(("\n" if doc.raw else " ") + match[2])
    doc.description = "".join(text)
    return key, doc


class _CommentedValues:
    """helm-docs' ``# --`` comments, or plain ones."""

    def __init__(self, source: _Source, data: dict) -> None:
        self.source = source
        self.helm_docs = source.convention == "helm-docs"
        self.root, self.nodes = _tree(source, data, ignore=True)
        self.rows: list[_Row] = []
        self.warnings: list[str] = []
        self.named: dict[str, _Doc] = {}  # helm-docs comments that name their key

    def build(self) -> Built:
        if self.helm_docs:
            self.named = self._named_comments()
            self._helm_docs_rows(self.root, leaves=True)
            self.rows.sort(key=lambda row: row.key)  # helm-docs' default order (alphanum)
            intro = "Documented with helm-docs comments (`# --`) in the values file."
        else:
            self._plain_rows(self.root)
            intro = "Descriptions are the comments above each key in the values file."
        sections: dict[str, _Section] = {}
        for row in self.rows:  # sections in the order their first rows come
            sections.setdefault(row.section, _Section(row.section)).rows.append(row)
        return _document(_title(self.source, self.root.value), intro, list(sections.values()), self.warnings)

    def _named_comments(self) -> dict[str, _Doc]:
        """Comments that name their key (``# controller.name -- text``), read line by line as
        helm-docs reads them: the naming line and every comment line after it."""
        lines, comment = self.source.lines, self.source.comment
        named: dict[str, _Doc] = {}
        block: list[str] = []
        for i in range(len(lines) + 1):
            is_comment = i < len(lines) and comment[i]
            if block and is_comment:
                block.append(lines[i].strip())
                continue
            if block:
                key, doc = _parse_comment(block)
                if key:
                    named[key] = doc
                block = []
            if is_comment and (named_line := _named_line(lines[i])) and named_line[0]:
                block = [lines[i].strip()]
        known = {node.key for node in self.nodes}
        self.warnings.extend(f"a helm-docs comment names {key}, which the values do not have" for key in named
                             if key not in known and ("." in key or "[" in key) and _HD_PATH_LIKE.fullmatch(key))
        return named

    def _auto(self, node: _Node) -> _Doc | None:
        """The ``# --`` comment above the key (or, failing that, beside it)."""
        for lines in (node.head, [node.beside.strip()]):
            if any(line.startswith("# --") for line in lines):
                key, doc = _parse_comment(lines)
                return None if key else doc
        return None

    def _helm_docs_rows(self, node: _Node, leaves: bool) -> None:
        """helm-docs' walk (pkg/document/values.go): under a documented map or list, only
        documented keys get rows."""
        named = self.named.get(node.key) if node.path else None
        auto = self._auto(node) if node.path else None
        documented = named is not None or bool(auto and auto.description)
        if node.children:
            if documented:
                self.rows.append(self._helm_docs_row(node, named, auto))
            for child in node.children:
                self._helm_docs_rows(child, leaves and not documented)
        elif node.path and (leaves or documented):
            self.rows.append(self._helm_docs_row(node, named, auto))

    def _helm_docs_row(self, node: _Node, named: _Doc | None, auto: _Doc | None) -> _Row:
        named, auto = named or _Doc(), auto or _Doc()
        notation = auto.notation  # helm-docs reads it from the comment above only
        # helm-docs types a null by the comment only (parseNilValueType), anything else by the
        # comment, the notation or the value.
        kind = named.type or auto.type or ("string" if node.value is None else notation or _type(node.value))
        if override := named.default or auto.default:
            default, is_code = override, False
        elif notation and node.value is not None:
            default, is_code = self._notated(node, notation), True
        else:
            default, is_code = _default(node.value), True
        return _Row(node.key, kind, default, is_code, named.description or auto.description,
                    named.raw if named.description else auto.raw, named.section or auto.section)

    def _notated(self, node: _Node, notation: str) -> str:
        """The default of an ``@notationType`` key: the YAML as written for ``yaml``, else the string
        itself (helm-docs leaves maps and lists of other notations empty)."""
        if notation == "yaml" and node.at is not None:
            return self.source.written(node.at.value)
        if isinstance(node.value, str):
            return node.value
        return "" if isinstance(node.value, (dict, list)) else _json(node.value, True)

    def _plain_rows(self, node: _Node) -> None:
        """Every leaf in file order; a commented map or list gets a row of its own too."""
        for child in node.children:
            lines = child.head or ([child.beside] if child.beside else [])
            # Lines without a letter or digit are rules ("# -----"), not words.
            description = " ".join(text for line in lines if _WORDS.search(text := _PLAIN_COMMENT.sub("", line)))
            if description or not child.children:
                self.rows.append(_Row(child.key, _type(child.value), _default(child.value), True, description))
            self._plain_rows(child)


# -- Bitnami's readme-generator ----------------------------------------------------------------------

_BN_MODIFIERS = {"array": ("list", "[]"), "object": ("object", "{}"), "string": ("string", '""')}


def _modifiers(written: str | None) -> list[str]:
    """ "[a, default: x]" → ["a", "default: x"]."""
    return [m.strip() for m in (written or "[]")[1:-1].split(",") if m.strip()]


@dataclass
class _Param:
    name: str
    modifiers: list[str]
    description: str
    extra: bool = False


class _Bitnami:
    def __init__(self, source: _Source, data: dict) -> None:
        self.source = source
        self.root, nodes = _tree(source, data, ignore=False)
        self.by_name = {node.flat: node for node in nodes if node.path}
        self.leaves = [node for node in nodes if node.path and not node.children]
        self.warnings: list[str] = []

    def build(self) -> Built:
        described, skipped = self._comments()
        covered = {param.name for _, params in described for param in params}
        sections = [_Section(section.name, section.text, [self._row(param) for param in params])
                    for section, params in described]
        # Keys no comment covers: Bitnami's tool stops at them ("missing metadata"); here they are
        # listed, without a description.
        other = []
        for leaf in self.leaves:
            name = self._bitnami_name(leaf)
            if name not in covered and not self._under(name, skipped):
                covered.add(name)  # the items of a list of strings are one key, the list
                self.warnings.append(f"{name} has no ## @param comment")
                value = self.by_name[name].value
                other.append(_Row(name, _type(value), self._shown(value), True, ""))
        sections.append(_Section("", rows=other))
        intro = "Documented with Bitnami readme-generator comments (`## @param`) in the values file."
        return _document(_title(self.source, self.root.value), intro, sections, self.warnings)

    def _comments(self) -> tuple[list[tuple[_Section, list[_Param]]], set[str]]:
        """Each section (name and text) with its ``@param`` and ``@extra`` lines in order, and the
        key paths whose children need no comment; read as Bitnami's parser reads them (lib/parser.js)."""
        sections: list[tuple[str, list[str], list[_Param]]] = [("", [], [])]  # before the first @section
        skipped: set[str] = set()
        describing = False
        for _, line in self.source.comments():
            name, text, params = sections[-1]
            if match := _BN_PARAM.match(line):
                params.append(_Param(match[1], _modifiers(match[2]), match[3]))
            elif match := _BN_EXTRA.match(line):
                params.append(_Param(match[1], _modifiers(match[2]), match[3], extra=True))
            elif match := _BN_SECTION.match(line):
                sections.append((match[1].strip(), [], []))
            elif match := _BN_SKIP.match(line):
                skipped.add(match[1])
            if describing and _BN_DESCRIPTION_END.match(line):
                describing = False
            elif describing and (match := _BN_DESCRIPTION_LINE.match(line)):
                text.append(match[1])
            elif not describing and name and (match := _BN_DESCRIPTION_START.match(line)):
                describing = True
                text.extend([match[1]] if match[1] else [])
        # A parameter with modifiers stands for what is below it too (lib/checker.js).
        skipped.update(re.sub(r"\[\d+\]$", "", param.name) for _, _, params in sections for param in params
                       if param.modifiers and not param.extra)
        return [(_Section(name, "\n".join(text)), params) for name, text, params in sections], skipped

    @staticmethod
    def _under(name: str, skipped: set[str]) -> bool:
        """Is ``name`` a skipped key or below one (``a.b`` is below ``a``, ``a[0]`` below ``a``)?"""
        return name in skipped or any(name[:i] in skipped for i, char in enumerate(name) if char in ".[")

    def _bitnami_name(self, leaf: _Node) -> str:
        """A leaf's name as Bitnami lists values: an item of a list of strings is the list."""
        parent = leaf.flat.rsplit("[", 1)[0] if leaf.flat.endswith("]") else None
        if parent is not None and parent in self.by_name:
            items = self.by_name[parent].value
            if isinstance(items, list) and all(isinstance(item, str) for item in items):
                return parent
        return leaf.flat

    def _row(self, param: _Param) -> _Row:
        node = None if param.extra else self.by_name.get(param.name)
        if node is None and not param.extra:
            self.warnings.append(f"## @param {param.name}: the values have no such key")
        kind = "" if node is None else _type(node.value)
        shown = "" if node is None else self._shown(node.value)
        # lib/builder.js applyModifiers: each modifier in turn may set the value shown, except that
        # when "nullable" is the last one the others change the type only.
        modifiers = param.modifiers
        types_only = "nullable" in modifiers and modifiers.index("nullable") == len(modifiers) - 1
        for modifier in modifiers:
            if modifier in _BN_MODIFIERS:
                kind, value = _BN_MODIFIERS[modifier]
                shown = shown if types_only else value
            elif modifier == "nullable":
                shown = shown if node is not None else "nil"
            elif modifier.startswith("default:"):
                shown = modifier.removeprefix("default:").strip()
            else:
                self.warnings.append(f"## @param {param.name}: unknown modifier {modifier!r}")
        return _Row(param.name, kind, "" if param.extra else shown, True, param.description)

    @staticmethod
    def _shown(value: Any) -> str:
        """A value as Bitnami's table shows it (lib/render.js)."""
        if value is None:
            return "nil"
        if value == "":
            return '""'
        if isinstance(value, bool):
            return str(value).lower()
        if isinstance(value, str):
            return value
        return _json(value, False)
