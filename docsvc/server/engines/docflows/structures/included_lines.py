"""Included lines: the line numbers with which a page includes part of a repository file, or marks
lines of it, where the pull request changes that file.

Carries: a ``file`` fact of a changed file (``Page.files``: its text before and after). Where the
page includes the file by line numbers, the numbers follow the lines they named: FastAPI/Typer's
``{* path hl[16:18,24:26] *}`` (``hl[...]``, ``ln[...]``), pymdownx snippets' ``--8<-- "path:10:20"``
and Sphinx's ``literalinclude`` with ``:lines:`` (and ``:emphasize-lines:`` when no ``:lines:``
selects, as both count in the file then). A line the change keeps keeps its mark at its new
number; a range grows by lines inserted just after its last line that stand deeper than its first
(a highlighted function's new last line). A range whose lines the change removed or rewrote is
not guessed at: the include is pointed out.
"""

from __future__ import annotations

import difflib
import re
from typing import Callable

from ..facts_model import Fact
from ..structure import blocks
from .base import Page, Structure

__all__ = ["IncludedLines", "line_map"]

# {* docs_src/app.py hl[16:18,24:26] *}: the file, then the ranges inside hl[...] or ln[...]
_BRACES = re.compile(r"\{\*\s*(\S+)(.*?)\*\}")
_BRACKETS = re.compile(r"\b(hl|ln)\[([\d:,\s-]+)\]")
# --8<-- "docs_src/app.py:10:20"
_SNIPPET = re.compile(r"""(--8<--\s*["'])([^"':]+):(\d+):(\d+)(["'])""")
_LITERALINCLUDE = re.compile(r"^\s*\.\.\s+literalinclude::\s*(\S+)")
_OPTION = re.compile(r"^(\s*:(lines|emphasize-lines):\s*)([\d,\s-]+?)\s*$")
_RANGE = re.compile(r"(\d+)(?:\s*([:-])\s*(\d+))?")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def line_map(old: str, new: str) -> Callable[[int, int], tuple[int, int] | None]:
    """How a range of the old text's lines (1-based, inclusive) stands in the new text: the same
    lines at their new numbers, grown by inserted lines just after its end that stand deeper than
    its first line; None when the change removed or rewrote a line at either end."""
    a, b = old.split("\n"), new.split("\n")
    ops = difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()

    def moved(n: int) -> int | None:
        return next((j1 + n - 1 - i1 + 1 for op, i1, i2, j1, _ in ops if op == "equal" and i1 < n <= i2), None)

    def span(first: int, last: int) -> tuple[int, int] | None:
        start, end = moved(first), moved(last)
        if start is None or end is None:
            return None
        inserted = next((b[j1:j2] for op, i1, i2, j1, j2 in ops if op == "insert" and i1 == last), [])
        depth = _indent(a[first - 1]) if first <= len(a) else 0
        grown = 0
        for line in inserted:
            if not line.strip() or _indent(line) <= depth:
                break
            grown += 1
        return start, end + grown
    return span


def _restate(ranges: str, span: Callable[[int, int], tuple[int, int] | None]) -> str | None:
    """The ranges (``16:18,24``, ``1-5, 8``) at their new numbers, written as they were; None when one
    cannot be told."""
    out, at = [], 0
    for match in _RANGE.finditer(ranges):
        first = int(match.group(1))
        last = int(match.group(3)) if match.group(3) else first
        new = span(first, last)
        if new is None:
            return None
        text = str(new[0]) if not match.group(3) and new[0] == new[1] else f"{new[0]}{match.group(2) or '-'}{new[1]}"
        out.append(ranges[at:match.start()] + text)
        at = match.end()
    return "".join(out) + ranges[at:]


def _names(reference: str, path: str) -> bool:
    """Whether an include's reference (relative or from the root) names the repository file."""
    reference = re.sub(r"^(\.\./|\./|/)+", "", reference.strip())
    return bool(reference) and (path == reference or path.endswith("/" + reference) or reference.endswith(path))


class IncludedLines(Structure):
    name = "included lines"
    carries = "a changed file the page includes by line numbers: the numbers follow the lines they named"
    describes = False

    def takes(self, fact: Fact) -> bool:
        return fact.kind == "file" and fact.change == "changed"

    def write(self, fact: Fact, page: Page) -> bool:
        texts = page.files.get(fact.name)
        if texts is None:
            return False
        span = line_map(*texts)
        lines, changed, stuck = page.lines, 0, []
        for i, line in enumerate(lines):
            edits: list[tuple[int, int, str | None]] = []  # (start, end, new text) within the line
            for include in _BRACES.finditer(line):
                if _names(include.group(1), fact.name):
                    edits += [(m.start(2), m.end(2), _restate(m.group(2), span))
                              for m in _BRACKETS.finditer(line, include.start(2), include.end(2))]
            for match in _SNIPPET.finditer(line):
                if _names(match.group(2), fact.name):
                    new = span(int(match.group(3)), int(match.group(4)))
                    edits.append((match.start(3), match.end(4), f"{new[0]}:{new[1]}" if new else None))
            if any(new is None for *_, new in edits):
                stuck.append(i)
                continue
            for start, end, new in reversed(edits):
                line = line[:start] + new + line[end:]
            if line != lines[i]:
                lines[i], changed = line, changed + 1
        for block in blocks(page.path, "\n".join(lines)):
            include = _LITERALINCLUDE.match(lines[block.start]) if block.kind == "code" else None
            if not include or not _names(include.group(1), fact.name):
                continue
            options = {m.group(2): (at, m) for at in range(block.start + 1, block.end)
                       if (m := _OPTION.match(lines[at]))}
            for key in ("lines",) if "lines" in options else ("emphasize-lines",):
                if key not in options:
                    continue
                at, match = options[key]
                new = _restate(match.group(3), span)
                if new is None:
                    stuck.append(at)
                elif new != match.group(3):
                    lines[at], changed = match.group(1) + new, changed + 1
        if changed:
            page.draft.notes.append(f"{page.path}: the line numbers it includes {fact.name} by follow its change "
                                    f"({changed} line(s)) [rule: included lines]")
        for at in stuck:
            page.draft.open_points.append(f"{page.path}:{at + 1}: includes lines of {fact.name} that the pull request "
                                          "removes or rewrites: check which lines to show")
        return bool(changed or stuck)
