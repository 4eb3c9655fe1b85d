"""Help columns: a help screen's description column, re-aligned after an option line changed.

A CLI framework prints its two-column help with the descriptions in one column: the longest
option's width plus a gap, capped (click: the option part at 30 columns, then 2 spaces; argparse:
help at column 24 at most); an option longer than the cap gets its description on the next line.
When the Writer renames, adds or removes an option line of a block that was aligned so, the
block's rows follow the new column as the framework would print them, their wrapped lines
included; a row whose help text grew past the screen's width is wrapped as the framework wraps it.
A help text reworded where a row wraps it over several lines is reworded over the whole row
(``rewrapped_rows``), and the row wrapped anew, where the framework's wrapping of the old text
gives the row's lines as they stand (so the new wrapping is the framework's, not a guess). A block
whose rows were not aligned on one column is left as it is, and so is every line
outside the rows of the changed option's section.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass

from ..quoting import find_quote, requote
from ..structure import blocks

__all__ = ["Rows", "aligned_rows", "keep_aligned", "realign", "rewrapped_rows"]

_ROW = re.compile(r"^(?P<indent>[ \t]+)(?P<term>-\S.*?)(?:(?P<gap>\s{2,})(?P<text>\S.*))?$")
WIDTH = 78  # click's and argparse's text width on an 80-column terminal
CLICK_TERM_MAX = 30  # click's HelpFormatter.write_dl col_max: the option part's widest
ARGPARSE_HELP_MAX = 24  # argparse's max_help_position
FRAMEWORK_GAP = 2  # the spaces click and argparse leave after the option part, at least


@dataclass
class Rows:
    """The aligned option rows of one section of a help block: its lines [start, end), the column
    the descriptions start at, the gap after the widest option part, and the column it is capped
    at (None: no cap seen or known)."""

    start: int
    end: int
    column: int
    gap: int
    cap: int | None
    width: int  # the text width the section was printed at: 78, or its widest line


def _depth(line: str) -> int:
    return len(line) - len(line.lstrip())


def _section(lines: list[str], at: int, start: int, end: int) -> tuple[int, int]:
    """The run of non-blank lines around ``at`` inside [start, end) that are option lines or
    indented as deep as it or deeper: one help section's rows (its title, ``Options:``, stands
    out of them, in a reST code block indented as a whole too; cobra indents a flag without a
    short form deeper than one with)."""
    depth = _depth(lines[at])

    def inside(i: int) -> bool:
        return start <= i < end and lines[i].strip() != "" and (_depth(lines[i]) >= depth or bool(_ROW.match(lines[i])))
    top, bottom = at, at
    while inside(top - 1):
        top -= 1
    while inside(bottom + 1):
        bottom += 1
    return top, bottom + 1


def _rows(lines: list[str], start: int, end: int) -> list[tuple[int, int]] | None:
    """The section's rows as (first line, end line): an option line and its wrapped description
    under it: the lines at its description's column or deeper, and those indented deeper than
    the option that start no option line (below an option too wide for the column; left of a
    renamed option's shifted text). None when a line belongs to no option row."""
    rows: list[tuple[int, int]] = []
    column = None  # where the current row's description stands
    for i in range(start, end):
        line, depth = lines[i], _depth(lines[i])
        match = _ROW.match(line)
        if rows and (column is not None and depth >= column or
                     not match and depth > _depth(lines[rows[-1][0]])):
            rows[-1] = (rows[-1][0], i + 1)
            column = depth if column is None else column
        elif match:
            rows.append((i, i + 1))
            column = len(line) - len(match.group("text")) if match.group("text") else None
        else:
            return None
    return rows or None


def aligned_rows(lines: list[str], at: int, start: int, end: int) -> Rows | None:
    """The aligned section holding line ``at`` of the block [start, end), or None when its rows do
    not share one description column (nothing to keep aligned)."""
    top, bottom = _section(lines, at, start, end)
    rows = _rows(lines, top, bottom)
    if not rows:
        return None
    columns, fitting, overflowing = set(), [], []
    for first, last in rows:
        match = _ROW.match(lines[first])
        term_end = len(match.group("indent")) + len(match.group("term"))
        if match.group("text"):
            columns.add(term_end + len(match.group("gap")))
            fitting.append(term_end)
        elif last > first + 1:  # its description on the lines below, at the column
            columns.add(_depth(lines[first + 1]))
            overflowing.append(term_end)
    if len(columns) != 1 or len(rows) < 2 or not fitting:
        return None
    column = columns.pop()
    # an option part that overflows the column shows the cap the framework put on it; the gap is
    # then the framework's two spaces (click's, argparse's), else the one after the widest option
    cap = column if overflowing else None
    gap = FRAMEWORK_GAP if overflowing else column - max(fitting)
    if gap < FRAMEWORK_GAP:
        return None
    width = max([WIDTH] + [len(lines[i]) for i in range(top, bottom)])
    return Rows(top, bottom, column, gap, cap, width)


def _framework_cap(lines: list[str], start: int, top: int, indent: int, gap: int) -> int | None:
    """The column a framework caps the help at, told by the block's usage line or its section's
    title above the rows (``top``)."""
    said = [lines[i].strip() for i in range(start, top)]
    if any(x.startswith("Usage:") for x in said):  # click and typer's plain help
        return indent + CLICK_TERM_MAX + gap
    if any(x.startswith("usage:") for x in said) or said[-1:] in (["options:"], ["optional arguments:"]):
        return ARGPARSE_HELP_MAX  # argparse
    return None


def realign(lines: list[str], block_start: int, at: int, end: int, before: Rows) -> list[str]:
    """The block's lines with the section holding line ``at`` re-flowed to the column the framework
    prints for its options now; ``before``: the section's alignment before the edit."""
    top, bottom = _section(lines, at, block_start, end)
    rows = _rows(lines, top, bottom)
    if not rows:
        return lines
    parsed = []
    for first, last in rows:
        match = _ROW.match(lines[first])
        head = match.group("indent") + match.group("term")
        text = [match.group("text")] if match.group("text") else []
        parsed.append((head, text + [lines[i].strip() for i in range(first + 1, last)], last - first))
    indent = len(parsed[0][0]) - len(parsed[0][0].lstrip())
    cap = before.cap or _framework_cap(lines, block_start, top, indent, before.gap)
    column = max(len(head) for head, _, _ in parsed) + before.gap
    column = min(column, cap) if cap else column
    width = before.width
    if column == before.column and _unchanged(lines, rows, parsed, column, before.gap) and \
            all(len(lines[i]) <= width for i in range(top, bottom)):
        return lines
    out: list[str] = []
    for (first, last), (head, text, _) in zip(rows, parsed):
        old = lines[first:last]
        if not text or column == before.column and all(len(x) <= width for x in old) and \
                _unchanged(lines, [(first, last)], [(head, text, 0)], column, before.gap):
            out.extend(old if text or len(old) == 1 else [head])
            continue
        # the row's own wrapping where it still fits; else wrapped as the framework wraps it
        fits = len(head) + before.gap <= column
        body = ([head.ljust(column) + text[0]] if fits else [head, " " * column + text[0]]) + \
            [" " * column + t for t in text[1:]]
        # click and argparse wrap the help text at the width left of the column: a moved column
        # re-wraps a wrapped description, and one too long for the line now
        if any(len(x) > width for x in body) or column != before.column and len(text) > 1:
            wrapped = textwrap.wrap(" ".join(text), max(20, width - column)) or text
            body = ([head.ljust(column) + wrapped[0]] if fits else [head, " " * column + wrapped[0]]) + \
                [" " * column + w for w in wrapped[1:]]
        out.extend(body)
    return lines[:top] + out + lines[bottom:]


def _unchanged(lines, rows, parsed, column, gap) -> bool:
    """Whether every row already stands as it would at ``column`` (nothing to re-flow)."""
    for (first, last), (head, text, _) in zip(rows, parsed):
        if not text:
            continue
        fits = len(head) + gap <= column
        on_line = _ROW.match(lines[first]).group("text") is not None
        if fits != on_line:
            return False
        if on_line and len(head) + len(_ROW.match(lines[first]).group("gap")) != column:
            return False
    return True


def code_blocks(path: str, lines: list[str]) -> list[tuple[int, int]]:
    """The page's code blocks as (start, end)."""
    return [(b.start, b.end) for b in blocks(path, "\n".join(lines)) if b.kind == "code"]


def keep_aligned(path: str, before: list[str], after: list[str]) -> list[str]:
    """``after`` (``before`` edited line for line, as a rename edits it) with each aligned help
    section whose option lines changed re-flowed to its new column."""
    if len(before) != len(after):
        return after
    lines = list(after)
    # from the last block up: a re-flow that adds a line leaves the blocks above where they were
    for start, end in reversed(code_blocks(path, before)):
        changed = [i for i in range(start, end) if before[i] != after[i] and _ROW.match(after[i])]
        done: set[int] = set()
        for at in reversed(changed):
            rows = aligned_rows(before, at, start, end)
            if rows is None or rows.start in done:
                continue
            done.add(rows.start)
            grown = len(lines)
            lines = realign(lines, start, at, end, rows)
            end += len(lines) - grown
    return lines


def _wrapped(head: str, text: str, column: int, width: int, fits: bool) -> list[str]:
    """A row as the framework prints it: the option part, its help text wrapped at the width left
    of the column, beside the option where it fits, else from the next line."""
    wrapped = textwrap.wrap(text, max(20, width - column)) or [text]
    first = [head.ljust(column) + wrapped[0]] if fits else [head, " " * column + wrapped[0]]
    return first + [" " * column + more for more in wrapped[1:]]


def rewrapped_rows(path: str, lines: list[str], old: str, new: str) -> dict[int, tuple[int, list[str]]]:
    """The rows of the page's aligned help sections whose wrapped lines quote the help text
    ``old``: first line -> (end line, the row with the words ``new`` wrapped as the framework
    wraps them). Only the rows over several lines (one line is ``quoting.requote``'s), and only
    where wrapping the old text gives the row's lines as they are."""
    out: dict[int, tuple[int, list[str]]] = {}
    for start, end in code_blocks(path, lines):
        seen: set[int] = set()
        for at in range(start, end):
            if at in seen or not _ROW.match(lines[at]) or (rows := aligned_rows(lines, at, start, end)) is None:
                continue
            seen.update(range(rows.start, rows.end))
            for first, last in _rows(lines, rows.start, rows.end) or []:
                match = _ROW.match(lines[first])
                head, fits = match.group("indent") + match.group("term"), match.group("text") is not None
                text = ([match.group("text")] if fits else []) + [lines[i].strip() for i in range(first + 1, last)]
                if len(text) < 2:
                    continue
                joined = " ".join(text)
                quoted = requote(joined, old, new)
                if quoted is None or quoted == joined or find_quote(joined, new) is not None or \
                        _wrapped(head, joined, rows.column, rows.width, fits) != lines[first:last]:
                    continue
                out[first] = (last, _wrapped(head, quoted, rows.column, rows.width, fits))
    return out
