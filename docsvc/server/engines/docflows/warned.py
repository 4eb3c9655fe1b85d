"""The functions a change makes warn that they are deprecated: the pages naming them need review.

A deprecation often comes as one new line inside the function it deprecates (Python's
``warnings.warn(..., DeprecationWarning)``, fastify's ``warning.emit('FSTDEP014')`` in
``getDefaultRoute``) or on its declaration (``@deprecated``, Go's ``// Deprecated:`` comment). The
function keeps its name and signature, so no other fact shows it; the pages documenting it should
say it is deprecated.

A line counts when the change inserted it and it is a deprecation marker (``deprecations``) or
names a code a new marker defines (``warning.create('FastifyDeprecation', 'FSTDEP014', ...)``
defines ``FSTDEP014``, emitted elsewhere). Its function is the innermost one around it in the new
syntax tree, and only when nothing conditional stands between them: a warning under an ``if``
is about one argument or one value, not about the function. Private names (``_x``, dunders) are
nobody's documentation.
"""

from __future__ import annotations

import ast
import difflib
import re
from pathlib import PurePosixPath
from typing import Iterable, Iterator

from . import syntax
from .facts_go import setting_key
from .syntax import Node

__all__ = ["codes_of", "inserted_lines", "warned_definitions"]

MAX_LINES = 20_000  # longer files are not compared line by line (generated code)
_CODE = re.compile(r"""['"`]([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*\d+|[A-Z][A-Z0-9]*_[A-Z0-9_]+)['"`]""")
_JS_FUNCTIONS = {"function_declaration", "generator_function_declaration", "method_definition",
                 "function_expression", "function", "arrow_function", "generator_function"}
_JS_CONDITIONS = {"if_statement", "ternary_expression", "switch_case", "catch_clause", "binary_expression"}
_GO_DECLARATIONS = {"function_declaration", "method_declaration", "type_spec", "field_declaration",
                    "const_spec", "var_spec"}


def codes_of(marker_lines: Iterable[str]) -> set[str]:
    """The codes new deprecation markers define: quoted upper-case names with a digit or an
    underscore (``'FSTDEP014'``, ``"RemovedIn9"`` is no code)."""
    return {m.group(1) for line in marker_lines for m in _CODE.finditer(line)}


def inserted_lines(old: str | None, new: str) -> list[int]:
    """The 1-based numbers of the lines of ``new`` that the change inserted (all of them for a new
    file; none for a file too long to compare)."""
    after = new.split("\n")
    if old is None:
        return list(range(1, len(after) + 1))
    before = old.split("\n")
    if max(len(before), len(after)) > MAX_LINES:
        return []
    matcher = difflib.SequenceMatcher(None, [x.strip() for x in before], [x.strip() for x in after], autojunk=False)
    return [j + 1 for tag, _, _, j1, j2 in matcher.get_opcodes() if tag in ("insert", "replace") for j in range(j1, j2)]


def warned_definitions(path: str, new: str, lines: list[int]) -> list[tuple[str, str, int]]:
    """(kind, name, line) of each public function, method or Go declaration that a warning on one
    of ``lines`` of ``new`` deprecates as a whole; each name once, in the order found. A Go field
    read from a configuration file is the setting its tag names (kind ``config``)."""
    suffix = PurePosixPath(path).suffix.lower()
    if suffix in (".py", ".pyi"):
        found = _python(new, lines)
    elif suffix in syntax.LANGUAGES:
        root = syntax.parse(syntax.LANGUAGES[suffix], new)
        found = [] if root is None else (_go(root, lines) if suffix == ".go" else _javascript(root, lines))
    else:
        return []
    out: dict[tuple[str, str], int] = {}
    for kind, name, line in found:
        if name and not name.startswith(("_", "-")):
            out.setdefault((kind, name), line)
    return [(kind, name, line) for (kind, name), line in out.items()]


# -- Python ------------------------------------------------------------------------------------

def _python(text: str, lines: list[int]) -> list[tuple[str, str, int]]:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return []
    out = []
    for line in lines:
        chain = _python_chain(tree, line)
        functions = [i for i, n in enumerate(chain) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
        if not functions:
            continue
        inner = functions[-1]
        if any(isinstance(n, (ast.If, ast.IfExp, ast.Try, ast.ExceptHandler, ast.Match, ast.BoolOp))
               for n in chain[inner + 1:]):
            continue
        out.append(("symbol", chain[inner].name, chain[inner].lineno))
    return out


def _python_chain(tree: ast.AST, line: int) -> list[ast.AST]:
    """The nodes from the module down to the innermost one spanning ``line`` (a function's
    decorators count as its own lines)."""
    chain, node = [], tree
    while True:
        inside = None
        for child in ast.iter_child_nodes(node):
            start = min([getattr(child, "lineno", 0) or 0]
                        + [d.lineno for d in getattr(child, "decorator_list", ())])
            if start and start <= line <= (getattr(child, "end_lineno", None) or start):
                inside = child
                break
        if inside is None:
            return chain
        chain.append(inside)
        node = inside


# -- JavaScript and TypeScript ------------------------------------------------------------------

def _javascript(root: Node, lines: list[int]) -> list[tuple[str, str, int]]:
    out = []
    for line in lines:
        chain = list(_chain(root, line - 1))
        functions = [i for i, n in enumerate(chain) if n.type in _JS_FUNCTIONS]
        if not functions:
            continue
        inner = functions[-1]
        if any(n.type in _JS_CONDITIONS for n in chain[inner + 1:]):
            continue
        name = _javascript_name(chain[inner])
        if name:
            out.append(("symbol", name, syntax.line(chain[inner])))
    return out


def _javascript_name(function: Node) -> str:
    """A function's own name, or the name it is given: the key of ``{ name: function () {} }``,
    the variable of ``const name = () => {}``, the property of ``obj.name = function () {}``."""
    named = function.child_by_field_name("name")
    if named is not None:
        return syntax.text(named)
    parent = function.parent
    if parent is None:
        return ""
    if parent.type == "pair":
        return syntax.text(parent.child_by_field_name("key")).strip("'\"`")
    if parent.type == "variable_declarator":
        return syntax.text(parent.child_by_field_name("name"))
    if parent.type == "assignment_expression":
        left = parent.child_by_field_name("left")
        if left is not None and left.type == "member_expression":
            return syntax.text(left.child_by_field_name("property"))
    return ""


def _chain(root: Node, row: int) -> Iterator[Node]:
    """The named nodes from the root down to the innermost one spanning ``row`` (0-based)."""
    node = root
    for _ in range(syntax.MAX_DEPTH):
        inside = next((c for c in node.named_children if c.start_point[0] <= row <= c.end_point[0]), None)
        if inside is None:
            return
        yield inside
        node = inside


# -- Go: a "// Deprecated:" paragraph belongs to the declaration right below its comment ----------

def _go(root: Node, lines: list[int]) -> list[tuple[str, str, int]]:
    out = []
    for line in lines:
        chain = list(_chain(root, line - 1))
        if not chain or chain[-1].type != "comment":
            continue
        last, below = chain[-1], chain[-1].next_named_sibling
        while below is not None and below.type == "comment" and below.start_point[0] - last.end_point[0] <= 1:
            last, below = below, below.next_named_sibling
        if below is None or below.type == "comment" or below.start_point[0] - last.end_point[0] > 1:
            continue  # a comment of its own, not a declaration's doc
        declared = below
        # type X struct {...} / const ( ... ) wrap the spec that carries the name
        while declared.type not in _GO_DECLARATIONS and declared.named_child_count:
            declared = declared.named_children[0]
        if declared.type not in _GO_DECLARATIONS:
            continue
        key = setting_key(declared) if declared.type == "field_declaration" else None
        name = syntax.text(declared.child_by_field_name("name"))
        if key:
            out.append(("config", key, syntax.line(declared)))
        elif name[:1].isupper():  # exported: users reach it
            out.append(("symbol", name, syntax.line(declared)))
    return out
