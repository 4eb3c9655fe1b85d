"""Expected output: what the program prints, shown in a page's example (a code block), where the
tests now expect it otherwise (``expected_output``: ``[NAME]`` → ``[name]`` in a usage line).

Carries: an ``output`` fact (old: the span the tests' expectations lose, with a token of context on
each side; new: the same place in the new expectation; path: the test). Each line of the page's
examples that shows the old span shows the new one instead, the rest of the line as it is; in a
box or column a framework draws (a line that goes on after the span), a span of another width
shifts what follows it, so the spaces after the span give or take the difference to keep the
line's width. Only where the program's output may stand: not in a block of a programming or
configuration language (``python``, ``yaml``: code the reader writes, where a span the tests lose
is their fixture's, ``'my_template.html'``), and only a span standing whole there, no word
character on either side (``'mkdocs.`` in ``'mkdocs.yml'`` is part of a file's name). Prose is
left alone: the tests say what the program prints, not how a sentence speaks of it.
"""

from __future__ import annotations

import re

from ..expected_output import OutputChange
from ..facts_model import Fact
from ..structure import blocks
from .base import Page, Structure
from .common import restate

__all__ = ["ExpectedOutput", "OUTPUT_REASON", "output_fact", "reprinted"]

RULE = "tests' expected output"
OUTPUT_REASON = f"[{RULE}]"  # how the planner's reason for such a page ends


def output_fact(change: OutputChange) -> Fact:
    """The Writer's fact of one span the tests expect otherwise."""
    return Fact(kind="output", change="changed", name=change.old, path=change.path, rule=RULE,
                old=change.old, new=change.new)


# A code block's language, on its opening line: a Markdown fence's info string (```` ```python ````,
# ```` ``` { .yaml } ````) or a reST code directive's argument
_LANGUAGE = re.compile(r"^\s*(?:>\s*)*(?:[`~]{3,}\s*\{?\s*\.?|\.\.\s+(?:code-block|code|sourcecode)::\s*)([\w+#-]+)")
# Languages a reader writes code or configuration in, not what a program prints
CODE_LANGUAGES = frozenset(
    "python py py3 python3 ipython javascript js jsx mjs ts tsx typescript go golang rust rs java kotlin kt c cpp "
    "c++ csharp cs ruby rb php perl lua swift scala yaml yml toml json json5 jsonc ini cfg conf xml html htm jinja "
    "jinja2 django j2 css scss sql dockerfile makefile make hcl groovy vue svelte".split())


def _output_lines(path: str, lines: list[str]) -> list[int]:
    """The lines (0-based) of the page's code blocks in no programming or configuration language."""
    out = []
    for block in blocks(path, "\n".join(lines)):
        if block.kind != "code":
            continue
        language = _LANGUAGE.match(lines[block.start])
        if language is None or language.group(1).lower() not in CODE_LANGUAGES:
            out.extend(range(block.start, block.end))
    return out


# A span's edge that joins a name to what is beside it: a word, a dot or dash of a dotted or dashed
# name (``mkdocs.`` in ``mkdocs.yml``), a path's slash
_JOINS = re.compile(r"[\w.\-/:@]")


def _spans(line: str, old: str) -> list[re.Match]:
    """Where ``old`` stands whole on the line: no word character just before or after it (``NAME``
    not in ``USERNAME``, ``mkdocs.`` not in ``mkdocs.yml``), but for an edge that is a bracket or
    a quote, which closes or opens whatever is beside it (``] USERNAME`` in ``[OPTIONS] USERNAME``)."""
    word = re.compile(r"\w")
    before = bool(_JOINS.match(old[:1]))
    after = bool(_JOINS.match(old[-1:]))
    return [m for m in re.finditer(re.escape(old), line)
            if not (before and word.match(line[m.start() - 1:m.start()]))
            and not (after and word.match(line[m.end():m.end() + 1]))]


def reprinted(line: str, old: str, new: str) -> str:
    """The line with each ``old`` span standing whole printed as ``new``; where text follows a span
    after two spaces or more (a column, a box's edge), those spaces take up the difference in
    width, as far as one space is left."""
    out, at = [], 0
    for match in _spans(line, old):
        out.append(line[at:match.start()] + new)
        at = match.end()
        gap = re.match(r" {2,}(?=\S)", line[at:])
        if gap and len(new) != len(old):
            out.append(" " * max(1, len(gap.group()) + len(old) - len(new)))
            at += len(gap.group())
    return "".join(out) + line[at:]


class ExpectedOutput(Structure):
    name = "expected output"
    carries = "output the tests now expect otherwise: the span it loses, in the page's examples, printed anew"
    describes = False

    def takes(self, fact: Fact) -> bool:
        return fact.kind == "output" and fact.change == "changed" and bool(fact.old) and fact.new is not None

    def write(self, fact: Fact, page: Page) -> bool:
        at = [i for i in _output_lines(page.path, page.lines) if _spans(page.lines[i], fact.old)]
        return restate(page, at, lambda line: reprinted(line, fact.old, fact.new),
                       f"shows {fact.old!r} as {fact.new!r}, as the tests now expect it ({fact.path}) "
                       "[rule: tests' expected output]")
