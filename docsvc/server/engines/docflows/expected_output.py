"""What the tests expect the program to print, changed by the pull request: a docs page that shows
the old output in an example shows what the program no longer prints.

A test that checks what users see (a help screen's ``[OPTIONS] [NAME]``, an error message, a
summary line) changes with that output: the expected text loses a span and gains another
(``[NAME]`` → ``name``), the rest of the line kept. The lost span, with a token of context on each
side, is what to look for in the pages' example output (their code blocks; ``planner``). Only what
a test expects counts: a span inside a string literal of a test's code (not one a field, keyword or
variable named for an input holds: ``Name: "bin.tar.gz"`` is a fixture), or anywhere in a test's
data file (an expected output kept as a file), never its calls and asserts; and only a span of
four characters at least that holds a word (``TEXT``, ``spam``), not a quote or a comma, and not
in a URL or a ``git@host:`` address (a test's fake host or link: on the five corpora such spans
planned two right pages and four wrong ones). A line counts only when it and its replacement are
mostly alike: a rewritten test line changes no output.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Iterable, Iterator

from .facts import CODE_SUFFIXES, is_test_file
from .structure import blocks

__all__ = ["OutputChange", "output_changes", "outputs_between", "example_lines", "shown_at"]

_TOKEN = re.compile(r"\w+|[^\w\s]")
_WORD = re.compile(r"[A-Za-z]\w+")
_STRING = re.compile(r"""(['"`])(?:\\.|(?!\1).)*\1""")  # one line's string literals, as most languages write them
# What a string is the value of, written just before it: a field, a keyword argument, an assignment
_KEY = re.compile(r"""(\w+)['"]?\s*(?::=|[:=])\s*$""")
# ... and the keys that hold what a test expects rather than what it feeds the program
_EXPECTING = re.compile(r"(?i)expect|want|output|stdout|stderr|result|message|msg|err|golden|snapshot|match")
_QUOTES = ("'", '"', "`")
_ADDRESS = re.compile(r"""(?:[A-Za-z][\w+.-]*://|[\w.-]+@[\w.-]+:)[^\s'"`<>]*""")  # a URL, a git@host: address
MIN_SPAN = 4  # characters of the lost span, at least
ALIKE = 0.5  # how alike (difflib's ratio of their tokens) a lost line and its replacement are, at least
MAX_LINE = 1000  # characters: a longer line (a minified fixture) is no output a page shows, and costly to compare


@dataclass(frozen=True)
class OutputChange:
    old: str  # the lost span with a token of context on each side, as the old expectation has it
    new: str  # the same place in the new expectation
    path: str  # the test file


def outputs_between(diff: Iterable[tuple[str, list[str]]], code_changed: bool) -> list[OutputChange]:
    """The output spans the tests of a change (its ``changed_names.diff_of``) expect otherwise; none
    when the change touches no user-facing code (``code_changed``): what users see is the code's
    doing, and a change to tests alone changes none of it."""
    return output_changes(diff) if code_changed else []


def output_changes(diff: Iterable[tuple[str, list[str]]]) -> list[OutputChange]:
    """The output spans the tests' expectations lose, each once, in the order met, from a diff's
    hunks (``Mirror.file_hunks``: path and lines, with or without context); other files' are passed over."""
    found: dict[str, OutputChange] = {}
    for path, hunk in diff:
        if not is_test_file(path):
            continue
        code = PurePosixPath(path).suffix.lower() in CODE_SUFFIXES
        for old, new in _replaced(hunk):
            for change in _spans(old, new, path, code):
                found.setdefault(change.old, change)
    return list(found.values())


def _replaced(hunk: list[str]) -> Iterator[tuple[str, str]]:
    """The lines a hunk replaces one for one: a run of lost lines followed by as many gained ones."""
    i = 0
    while i < len(hunk):
        if not hunk[i].startswith("-"):
            i += 1
            continue
        j = i
        while j < len(hunk) and hunk[j].startswith("-"):
            j += 1
        k = j
        while k < len(hunk) and hunk[k].startswith("+"):
            k += 1
        if k - j == j - i:
            pairs = zip((line[1:] for line in hunk[i:j]), (line[1:] for line in hunk[j:k]))
            yield from ((old, new) for old, new in pairs if len(old) <= MAX_LINE and len(new) <= MAX_LINE)
        i = k


def _spans(old: str, new: str, path: str, code: bool) -> Iterator[OutputChange]:
    a, b = list(_TOKEN.finditer(old)), list(_TOKEN.finditer(new))
    matcher = difflib.SequenceMatcher(None, [t.group() for t in a], [t.group() for t in b], autojunk=False)
    if matcher.ratio() < ALIKE:
        return
    strings = [m.span() for m in _STRING.finditer(old) if _expected(old[:m.start()])] if code else None
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal" or i1 == i2 or not any(_WORD.fullmatch(t.group()) for t in a[i1:i2]):
            continue
        lost = (a[i1].start(), a[i2 - 1].end())
        if lost[1] - lost[0] < MIN_SPAN:
            continue
        if strings is not None and not any(x < lost[0] and lost[1] < y for x, y in strings):
            continue  # the test's code, not what it expects
        if any(x <= lost[0] and lost[1] <= y for x, y in (m.span() for m in _ADDRESS.finditer(old))):
            continue  # a test's host or link: its fixture, as often as not
        before, after = _context(a, i1, i2)
        new_before, new_after = _context(b, j1, j2) if j1 < j2 else (1, 1)
        yield OutputChange(_between(old, a, i1 - before, i2 + after), _between(new, b, j1 - new_before, j2 + new_after),
                           path)


def _context(tokens: list[re.Match], first: int, end: int) -> tuple[int, int]:
    """How many tokens of context to keep before and after ``tokens[first:end]``: one on each
    side, but for a quote mark, which closes or opens the test's string or a data file's inline
    code rather than stands in the output (``] USERNAME"`` is shown as ``[OPTIONS] USERNAME``,
    ``name TEXT`` `` ` `` as ``--name TEXT``); a span between two quote marks keeps both, for a bare
    ``NAME`` tells no example apart."""
    before = int(first > 0 and tokens[first - 1].group() not in _QUOTES)
    after = int(end < len(tokens) and tokens[end].group() not in _QUOTES)
    return (before, after) if before or after else (1, 1)


def _expected(before: str) -> bool:
    """Whether a string literal preceded by ``before`` on its line may be what a test expects: not
    the value of a field, keyword or variable named for what the test feeds the program (Go's
    table-driven ``Name: "bin.tar.gz",``, ``format="zip"``), unless the name says it is expected
    (``want:``, ``expected_output =``)."""
    key = _KEY.search(before)
    return key is None or bool(_EXPECTING.search(key.group(1)))


def _between(text: str, tokens: list[re.Match], first: int, end: int) -> str:
    """The text from token ``first`` to the one before ``end``, as written, within the line."""
    first, end = max(0, first), min(len(tokens), end)
    return text[tokens[first].start():tokens[end - 1].end()] if first < end else ""


def example_lines(path: str, text: str) -> dict[int, str]:
    """A page's example lines (its code blocks'), by their line number (1-based)."""
    lines = text.split("\n")
    return {i + 1: lines[i] for b in blocks(path, text) if b.kind == "code" for i in range(b.start, b.end)}


def shown_at(examples: dict[int, str], span: str) -> int | None:
    """The first example line (1-based) that shows ``span``."""
    return next((n for n, line in examples.items() if span in line), None)
