"""The blocks of a docs page that the Writer edits whole: table rows, list items, directives
(mkdocstrings' ``::: package.Name`` among them) and option-list entries, code blocks and sections,
each as a range of lines.

Markdown (and MyST) through markdown-it-py's block parser, whose tokens carry their lines;
reStructuredText by its own rule, indentation: a directive, a list item or an option-list entry
is its first line and every line after it that is blank or indented deeper. (docutils cannot do
this for Sphinx pages: it drops the bodies of directives it does not know, such as ``option``.)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Container, Iterable

__all__ = ["Block", "FENCE", "MKDOCSTRINGS", "RENDERED", "blocks", "enclosing", "is_rst", "is_underline",
           "python_modules", "renders_module", "rendered_line"]

_RST_DIRECTIVE = re.compile(r"^(\s*)\.\.\s+([\w:-]+)::")
_RST_ITEM = re.compile(r"^(\s*)(?:[-*+•]|\d+[.)]|#\.)\s+\S")
_RST_OPTION = re.compile(r"^(\s*)--?[A-Za-z][\w-]*(?:[ =][^ ]+)?(?:,\s*--?[A-Za-z][\w-]*(?:[ =][^ ]+)?)*(\s{2,}|$)")
# mkdocstrings' rendering of one name by its import path, ``::: package.Name`` (its rendering options
# indented under it), alone or as a heading's title (``#### ::: a.b``): Markdown's autodoc. ``markup``
# is all before the name; each reader says which forms it takes (``indent``, ``heading``).
RENDERED = re.compile(r"^(?P<markup>(?P<indent>\s*)(?P<heading>#{1,6}\s+)?:::\s+)(?P<name>[\w.]+)\s*$")
MKDOCSTRINGS = "mkdocstrings"
# A Markdown code fence's opening or closing line (``indent``: CommonMark allows 3 spaces; an
# admonition's or a list item's body indents its fences deeper)
FENCE = re.compile(r"^(?P<indent>\s*)(?P<fence>`{3,}|~{3,})")
_RST_HEADING_UNDERLINE = re.compile(r"^([=\-~^\"'`#*+<>:.])\1{2,}\s*$")


@dataclass(frozen=True)
class Block:
    kind: str  # row | item | directive | option | code | section | table
    start: int  # 0-based first line
    end: int  # 0-based line after the last
    name: str = ""  # directive name (option, envvar, autofunction, ...); a section's title
    mark: str = ""  # a section's heading markup, which sets its level: "##", an underline's "-", "==" over and under

    def __contains__(self, line: int) -> bool:
        return self.start <= line < self.end


def is_rst(path: str) -> bool:
    return PurePosixPath(path).suffix.lower() in (".rst", ".rest", ".txt")


def is_underline(line: str) -> bool:
    """Whether the line is a reST section adornment (``-----``, ``=====``)."""
    return _RST_HEADING_UNDERLINE.match(line) is not None


def blocks(path: str, text: str) -> list[Block]:
    return _rst_blocks(text.split("\n")) if is_rst(path) else _markdown_blocks(text)


def enclosing(found: list[Block], line: int, kinds: tuple[str, ...] = ("row", "item", "directive", "option")
              ) -> Block | None:
    """The innermost block of those kinds that holds the 0-based ``line``."""
    holding = [b for b in found if b.kind in kinds and line in b]
    return min(holding, key=lambda b: b.end - b.start) if holding else None


def _markdown_blocks(text: str) -> list[Block]:
    from markdown_it import MarkdownIt

    parser = MarkdownIt("commonmark").enable("table")
    out: list[Block] = []
    lines = text.split("\n")
    headings: list[tuple[int, int, str, str]] = []  # (line, level, title, mark)
    # Lines are counted at "\n" here and wherever an edit is made; markdown-it also ends one at a lone
    # "\r", which would shift every line after it. Without the CRs, both count the same lines.
    tokens = parser.parse(text.replace("\r", ""))
    for i, token in enumerate(tokens):
        if not token.map:
            continue
        start, end = token.map
        if token.type == "tr_open":
            out.append(Block("row", start, end))
        elif token.type == "table_open":
            out.append(Block("table", start, end))
        elif token.type == "list_item_open":
            out.append(Block("item", start, _trim(lines, start, end)))
        elif token.type in ("fence", "code_block"):
            out.append(Block("code", start, end))
        elif token.type == "paragraph_open" and (rendered := RENDERED.match(lines[start])) and \
                not rendered["indent"] and not rendered["heading"]:
            out.append(Block("directive", start, _trim(lines, start, end), MKDOCSTRINGS))
        elif token.type == "heading_open":
            headings.append((start, int(token.tag[1]), tokens[i + 1].content.strip(), token.markup))
    out += _sections(headings, len(lines))
    return out


def _trim(lines: list[str], start: int, end: int) -> int:
    """A block's end without the blank lines that trail it."""
    while end > start + 1 and not lines[end - 1].strip():
        end -= 1
    return end


def _sections(headings: list[tuple[int, int, str, str]], total: int) -> list[Block]:
    out = []
    for i, (line, level, title, mark) in enumerate(headings):
        end = next((other for other, lvl, *_ in headings[i + 1:] if lvl <= level), total)
        out.append(Block("section", line, end, title, mark))
    return out


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _rst_blocks(lines: list[str]) -> list[Block]:
    out: list[Block] = []
    for i, line in enumerate(lines):
        directive = _RST_DIRECTIVE.match(line)
        if directive:
            kind = "code" if directive.group(2) in ("code-block", "code", "sourcecode", "literalinclude") else \
                "directive"
            out.append(Block(kind, i, _body_end(lines, i, _indent(line)), directive.group(2)))
        elif _RST_ITEM.match(line):
            out.append(Block("item", i, _body_end(lines, i, _indent(line))))
        elif _RST_OPTION.match(line):
            out.append(Block("option", i, _body_end(lines, i, _indent(line))))
        elif line.rstrip().endswith("::") and not line.strip().startswith(".."):
            end = _body_end(lines, i, _indent(line))
            if end > i + 1:
                out.append(Block("code", i + 1, end))
        if line.lstrip().startswith("|") or (line.lstrip().startswith("+-") and line.rstrip().endswith("+")):
            out.append(Block("row", i, i + 1))
    out += _rst_sections(lines)
    return out


def _body_end(lines: list[str], start: int, indent: int) -> int:
    """The line after a block that starts at ``start`` with ``indent``: its body is every later
    line that is blank or indented deeper (trailing blanks not included)."""
    end = start + 1
    while end < len(lines) and (not lines[end].strip() or _indent(lines[end]) > indent):
        end += 1
    return _trim(lines, start, end)


def _rst_sections(lines: list[str]) -> list[Block]:
    marks: list[str] = []
    headings = []
    for i in range(1, len(lines)):
        underline = _RST_HEADING_UNDERLINE.match(lines[i])
        if underline and lines[i - 1].strip() and not is_underline(lines[i - 1]) and \
                len(lines[i].rstrip()) >= len(lines[i - 1].rstrip()) - 1:
            # A title over- and underlined is of another level than one underlined alike.
            mark = underline.group(1) * (2 if i > 1 and lines[i - 2].rstrip() == lines[i].rstrip() else 1)
            if mark not in marks:
                marks.append(mark)
            headings.append((i - 1, marks.index(mark) + 1, lines[i - 1].strip(), mark))
    return _sections(headings, len(lines))


def _module_of(path: str) -> str:
    """A Python file's dotted path, as written in the repository (``src/pkg/mod.py`` → ``src.pkg.mod``)."""
    parts = PurePosixPath(path).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def python_modules(paths: Iterable[str]) -> frozenset[str]:
    """The dotted paths of a repository's Python modules and packages (a folder that holds Python
    files, namespace packages too), each with every tail of it, since a page imports from below
    ``src/`` (``src/pkg/mod.py`` → ``src.pkg.mod``, ``pkg.mod``, ``mod``, ``src.pkg``, ``pkg``, ``src``)."""
    out: set[str] = set()
    for path in paths:
        if PurePosixPath(path).suffix in (".py", ".pyi"):
            parts = _module_of(path).split(".")
            out.update(".".join(parts[i:j]) for j in range(1, len(parts) + 1) for i in range(j))
    return frozenset(out)


def renders_module(name: str, path: str, modules: Container[str] | None = None) -> bool | None:
    """Whether mkdocstrings' ``::: name`` renders a module or package (its members) rather than one
    object (a function, a class): by the repository's ``python_modules`` when known; else by the
    changed file ``path`` alone (its own module or package, or a name in it); None when nothing tells."""
    if modules:  # (none: a repository without Python files, whose renderer is another language's)
        return name in modules
    if PurePosixPath(path).suffix not in (".py", ".pyi"):
        return None
    here = "." + _module_of(path)
    if f"{here}.".find(f".{name}.") >= 0:  # the file's module, or a package it stands in
        return True
    parent = name.rpartition(".")[0]
    # a name of a module file is no module; a package's (__init__) may be a submodule's
    if parent and here.endswith("." + parent) and PurePosixPath(path).stem != "__init__":
        return False
    return None


def rendered_line(lines: list[str], sibling: str, path: str) -> tuple[int, str, str] | None:
    """The line (0-based) rendering ``sibling`` of the file ``path`` by its import path, with the
    line's markup and the module's path as it gives it."""
    for i, line in enumerate(lines):
        match = RENDERED.match(line)
        target = match["name"] if match else ""
        if not target.endswith("." + sibling):
            continue
        module = target[:-len(sibling) - 1]
        if (_module_of(path) + ".").endswith("." + module + ".") or _module_of(path) == module:
            return i, match["markup"], module
    return None
