"""Syntax trees of JavaScript, TypeScript and Go from tree-sitter grammars (the PyPI wheels
``tree-sitter-javascript``, ``tree-sitter-typescript``, ``tree-sitter-go``), for the facts readers
of those languages: what a string, a call or an export *is* comes from the grammar, so a comment,
a string that merely contains ``.option(`` or a reformatted call reads the same as the code means.

A grammar lags the language now and then (``export type * as X from``, Go's ``new(expr)``): a
tree whose errors cover a sliver of the file is read around them (the same construct stands in
both versions, and what surrounds it reads the same). A file mostly in error is not read at all
(``parse`` gives None): half a tree would make every item after the error look removed.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from typing import Iterator

from tree_sitter import Language, Node, Parser

from .facts_model import Item

__all__ = ["Node", "Reader", "LANGUAGES", "arguments", "doc_comment", "parse", "text", "string", "walk", "line",
           "value"]

# The grammar each file suffix is read with.
LANGUAGES = {**dict.fromkeys((".js", ".mjs", ".cjs", ".jsx"), "javascript"),
             **dict.fromkeys((".ts", ".mts", ".cts"), "typescript"), ".tsx": "tsx", ".go": "go"}

MAX_DEPTH = 400  # deeper trees (generated or hostile code) are not walked
MAX_ERROR_SHARE = 0.02  # of a file's bytes in syntax errors, beyond which it is not read


@cache
def _parser(language: str) -> Parser:
    if language == "go":
        import tree_sitter_go as grammar
        return Parser(Language(grammar.language()))
    if language in ("typescript", "tsx"):
        import tree_sitter_typescript as grammar
        return Parser(Language(grammar.language_tsx() if language == "tsx" else grammar.language_typescript()))
    import tree_sitter_javascript as grammar  # also JSX
    return Parser(Language(grammar.language()))


def parse(language: str, source: str) -> Node | None:
    """The root of ``source``'s tree in ``language`` (``javascript``, ``typescript``, ``tsx``,
    ``go``); None when syntax errors cover more than ``MAX_ERROR_SHARE`` of it."""
    data = source.encode("utf-8", "surrogatepass")
    root = _parser(language).parse(data).root_node
    if not root.has_error:
        return root
    wrong = sum(max(n.end_byte - n.start_byte, 1) for n in _errors(root))
    return root if wrong <= len(data) * MAX_ERROR_SHARE else None


def _errors(root: Node) -> Iterator[Node]:
    """The outermost error and missing nodes."""
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "ERROR" or node.is_missing:
            yield node
        elif node.has_error:
            stack.extend(node.children)


def arguments(call: Node) -> list[Node]:
    """A call's arguments, comments between them left out (JavaScript and Go alike)."""
    args = call.child_by_field_name("arguments")
    return [a for a in args.named_children if a.type != "comment"] if args is not None else []


def text(node: Node | None) -> str:
    return node.text.decode("utf-8", "replace") if node is not None and node.text is not None else ""


def line(node: Node) -> int:
    return node.start_point[0] + 1


def string(node: Node | None) -> str | None:
    """The value of a string literal without interpolation (JS ``'x'``, ``"x"``, a template with
    no ``${}``; Go ``"x"`` or a raw string); None for anything else."""
    if node is None:
        return None
    if node.type in ("string", "template_string", "raw_string_literal", "interpreted_string_literal"):
        if any(child.type in ("template_substitution", "substitution") for child in node.named_children):
            return None
        body = text(node)[1:-1]
        if node.type == "raw_string_literal" or "\\" not in body:
            return body
        return "".join(text(c) if c.type != "escape_sequence" else _unescape(text(c)) for c in _string_parts(node))
    return None


def _string_parts(node: Node) -> list[Node]:
    return [c for c in node.children if c.type not in ('"', "'", "`")]


def _unescape(sequence: str) -> str:
    """One escape sequence's character (``\\n``, ``\\x62``, ``\\u00e9``); one Python does not know
    (``\\u{1F600}``) stays as written."""
    if len(sequence) == 2 and sequence[1] in "'\"`":
        return sequence[1]
    try:
        return ast.literal_eval(f'"{sequence}"')
    except (ValueError, SyntaxError):
        return sequence


def value(node: Node | None) -> tuple[str | None, str]:
    """(what a person reads, what is compared) for a default: the compared form is the tree's
    leaves with each string literal as its value, so a quote style or line break is no change."""
    if node is None:
        return None, ""
    parts: list[str] = []
    for leaf in _leaves(node):
        literal = string(leaf)
        parts.append(repr(literal) if literal is not None else text(leaf))
    return " ".join(text(node).split()), " ".join(parts)


_BLOCK_TAG = re.compile(r"(?:^|(?<=\s))@(\w+)\b[ \t]*(.*)")  # not {@link x}: inline, part of the words


def doc_comment(node: Node) -> tuple[str, str | None]:
    """(the description, the ``@default`` value) of the comments right above ``node`` (JSDoc
    ``/** ... */``, ``//`` lines; nothing when a blank line stands between)."""
    comments: list[str] = []
    below = node
    current = node.prev_sibling
    while current is not None and current.type == "comment" and below.start_point[0] - current.end_point[0] <= 1:
        comments.insert(0, text(current))
        below, current = current, current.prev_sibling
    description: list[str] = []
    default, described = None, True
    for raw in "\n".join(comments).split("\n"):
        line = re.sub(r"^\s*(/\*\*?|//+|\*/|\*)?\s?", "", raw).removesuffix("*/").strip()
        tag = _BLOCK_TAG.search(line)
        words = line[:tag.start()].strip() if tag else line
        if words and described:
            description.append(words)
        if tag:
            described = False  # after a block tag (@see, @example), no more description
            if tag.group(1) in ("default", "defaultValue"):
                default = tag.group(2).strip().strip("`") or default
    return " ".join(description), default


def _leaves(node: Node) -> Iterator[Node]:
    stack = [node]
    while stack:
        current = stack.pop()
        if current.child_count == 0 or string(current) is not None:
            if current.type not in (",", ";") and not current.type.endswith("comment"):
                yield current
            continue
        stack.extend(reversed(current.children))


def walk(root: Node) -> Iterator[Node]:
    """Every named node, parents before children, up to ``MAX_DEPTH`` deep; nothing inside a
    syntax error."""
    stack = [(root, 0)]
    while stack:
        node, depth = stack.pop()
        if node.type == "ERROR":
            continue
        yield node
        if depth < MAX_DEPTH:
            stack.extend((child, depth + 1) for child in reversed(node.named_children))


class Reader:
    """What a language's reader collects: items, each at its node's line, with a default read by
    ``value`` (or given as text, as a Go struct tag gives it)."""

    def __init__(self, public: bool) -> None:
        self.items: list[Item] = []
        self.public = public  # a module users may import: what it exports is API

    def add(self, kind: str, name: str, rule: str, default: Node | str | None, node: Node, help_text: str = "",
            owner: str = "", context: tuple[str, ...] = (), shows: str | None = None, deprecated: bool = False
            ) -> None:
        # a default written as text (a struct tag, a doc comment's @default) compares without its quotes
        shown, key = (default, repr(default.strip("\"'`"))) if isinstance(default, str) else value(default)
        self.items.append(Item(kind, name, rule, shown, line(node), help_text, key, owner, context, shows,
                               deprecated))
