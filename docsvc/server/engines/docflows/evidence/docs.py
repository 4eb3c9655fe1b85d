"""How a docs page speaks of a term, as the planner reads it: where a name stands (``mentions``),
whether as code or option text (``as_code``), and how specific it is across the docs (``Docs``).
The Writer's structures read pages with the same rules."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Callable

from ..deprecations import speaks_of_deprecations
from ..facts_model import Fact, member_of, owner_of, token
from ..structure import FENCE

__all__ = ["Docs", "Evidence", "as_code", "code_lines", "is_identifier", "mentions", "plain", "prose", "spoken",
           "MAX_SHARE"]

MAX_SHARE = 0.25  # a token on more than this share of the pages is common: no evidence
_IDENTIFIER = re.compile(r"^(--?[A-Za-z]|[A-Z][A-Z0-9]*_[A-Z0-9_]+$|.*[_.:/]|.*[a-z][A-Z]|.*\(\)$|[A-Z]\w*[A-Z])")
_RST_CODE_START = re.compile(r"(::\s*$|^\s*\.\.\s+(code-block|code|sourcecode|option|envvar|confval|"
                             r"auto\w+|py:\w+|function|class|data|attribute|method)::)")


def is_identifier(term: str) -> bool:
    """Whether a name looks like code (``--x``, ``ENV_VAR``, ``snake_case``, ``camelCase``, dotted),
    not like a word of prose (``nav``, ``page``)."""
    return _IDENTIFIER.match(term) is not None


def spoken(name: str, said: Callable[[str], bool]) -> str:
    """The token the docs use for a name: a dotted setting (``theme.palette.primary``) as written
    when ``said`` finds it so, else its last part."""
    full = token(name)
    if "." in full and not full.startswith(".") and not said(full):
        return full.rsplit(".", 1)[-1]
    return full


def _pattern(term: str) -> re.Pattern:
    return re.compile(rf"(?<![\w-]){re.escape(term)}(?![\w-])")


def mentions(text: str, term: str) -> list[int]:
    """Lines (1-based) where ``term`` stands as a whole word (``--force`` but not ``--forced``)."""
    pattern = _pattern(term)
    return [n for n, line in enumerate(text.split("\n"), 1) if pattern.search(line)]


def plain(value: str | None) -> str | None:
    """A value as the docs write it: without the quotes code puts around a string."""
    if value is None:
        return None
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"`":
        value = value[1:-1]
    return value


_CONSOLE_TAG = re.compile(r"<([a-z][\w-]*)(?:=[^<>]*)?>(.*?)</(?:\1)?>")


def prose(help_text: str | None) -> str:
    """A help text as the docs would say it: on one line, without the console markup some CLI
    frameworks style it with (cleo's ``<warning>Deprecated</warning>``, ``<c1>x</>``); a lone
    placeholder such as ``<key>=<value>`` stays."""
    text = " ".join((help_text or "").split())
    while (stripped := _CONSOLE_TAG.sub(r"\2", text)) != text:
        text = stripped
    return text


def code_lines(lines: list[str]) -> set[int]:
    """0-based lines inside fenced (Markdown) or literal (reStructuredText) code blocks, fences
    included. A fence closes at one of its character at least as long: a page that shows Markdown
    wraps a ``` block in a ```` one."""
    inside, fence, indent_block, out = False, "", None, set()
    for i, line in enumerate(lines):
        opened = FENCE.match(line)
        if opened:
            mark = opened["fence"]
            if not inside:
                inside, fence = True, mark
            elif mark[0] == fence[0] and len(mark) >= len(fence):
                inside = False
            out.add(i)
            continue
        if inside:
            out.add(i)
            continue
        if indent_block is not None:
            if line.strip() == "" or len(line) - len(line.lstrip()) > indent_block:
                out.add(i)
                continue
            indent_block = None
        if _RST_CODE_START.search(line):
            indent_block = len(line) - len(line.lstrip())
            out.add(i)
    return out


def as_code(line: str, term: str) -> bool:
    """Whether the line speaks of ``term`` as code or option text."""
    escaped = re.escape(term)
    return bool(
        re.search(rf"`[^`\n]*(?<![\w-]){escaped}(?![\w-])[^`\n]*`", line)  # `term`, ``term``, :role:`term`
        or re.match(rf"^\s*\|\s*[`*_]*{escaped}(?![\w-])", line)  # a table row about it
        or re.match(rf"^\s*\|\s*<a\s+(?:id|name)=\"[^\"]*\">[`*_]*{escaped}[`*_]*</a>", line)  # its anchored cell
        or re.match(rf"^\s*(?:[-*+]|\d+[.)])\s+\[[`*_]*{escaped}[`*_]*\]\(#", line)  # a contents' link to its entry
        or re.match(rf"^\s*(?:[-*+]|\d+[.)])\s+[`*_]*{escaped}(?![\w-])", line)  # a list item about it
        or re.match(rf"^\s*\.\.\s+[\w:]+::\s+.*(?<![\w-]){escaped}(?![\w-])", line)  # .. option:: --x
        or re.match(rf"^\s*{escaped}(?![\w-])\s*(?:[:=]|,|\s{{2,}}|$)", line)  # key: value, an option list
        or re.match(rf"^#{{1,6}}\s+[`*_]*{escaped}(?![\w-])", line)  # a reference entry's heading: ### dev_addr
        or re.match(rf"^\s*(?:#{{1,6}}\s+)?:::\s+(?:[\w.]*\.)?{escaped}\s*$", line)  # rendered: ::: pkg.mod.term
    )


@dataclass
class Evidence:
    line: int  # 1-based, the first mention as code (else the first mention)
    as_code: bool  # spoken of as code somewhere on the page
    lines: list[int]  # every mention


def _without_references(line: str, term: str) -> str:
    """The line without its cross-references to ``term``'s documentation elsewhere: a Sphinx or
    MyST role (:func:`make_pass_decorator`, {class}`~click.Result`) and a Markdown link whose text
    names it ([`exclude_docs` config](configuration.md#exclude_docs))."""
    name = rf"[~.!]?(?:[\w.]*\.)?{re.escape(term)}(?:\(\))?"
    line = re.sub(rf"(?::[\w:-]+:|\{{[\w:-]+\}})`{name}`", "", line)
    return re.sub(rf"\[[^\]`]*`{name}`[^\]]*\]\([^)\s]+\)", "", line)


def _evidence(text: str, term: str) -> Evidence | None:
    lines = text.split("\n")
    found = mentions(text, term)
    if not found:
        return None
    code = code_lines(lines)
    coded = [n for n in found if n - 1 in code or as_code(lines[n - 1], term)]
    return Evidence(coded[0] if coded else found[0], bool(coded), found)


class Docs:
    """The docs as the planner sees them: pages found for a term, their evidence, and how common
    each term is."""

    def __init__(self, find: Callable[[str], list[str]], read: Callable[[str], str | None], total: int) -> None:
        self.find, self.read, self.total = find, read, total
        self._cache: dict[str, dict[str, Evidence]] = {}

    def term(self, name: str) -> str:
        return spoken(name, lambda t: bool(self.pages(t)))

    def pages(self, term: str) -> dict[str, Evidence]:
        if term not in self._cache:
            found = {}
            for path in dict.fromkeys(self.find(term)):
                text = self.read(path)
                evidence = _evidence(text, term) if text else None
                if evidence is not None:
                    found[path] = evidence
            self._cache[term] = found
        return self._cache[term]

    def about(self, fact: Fact, term: str) -> dict[str, Evidence]:
        """The pages that speak of ``term`` for this fact: a parameter's bare name (``src``,
        ``default``), or a method's when it is a plain word (``main``, ``signal``: any page's
        example may call one so), only where the page also speaks of its function or class as code
        itself (``documented_at``: a page that only refers to ``Result`` has a ``runner`` of its own);
        a nested setting's (``args``, ``signing``: keys of many sections) only where the page also
        speaks of a key its section stands under."""
        found = self.pages(term)
        if fact.kind == "parameter":
            owner = owner_of(fact.name)
        else:
            owner = member_of(fact) if "." not in term and not is_identifier(term) else None
        if owner:
            holders = [owner.rsplit(".", 1)[-1]]
        else:
            holders = list(fact.context) if fact.kind == "config" else []
        if not holders:
            return found
        # the page documents the holder itself: a cross-reference to it is no context for a bare name
        documented = {path for holder in holders for path in self.pages(holder)
                      if self.documented_at(path, holder) is not None}
        return {path: ev for path, ev in found.items() if path in documented}

    def documented_at(self, path: str, term: str) -> int | None:
        """The first line (1-based) where the page documents ``term`` as code itself, not by a
        cross-reference to its documentation elsewhere (a page that only links ``exclude_docs``
        to the configuration's reference is no list of its siblings); None when it nowhere does."""
        ev = self.pages(term).get(path)
        lines = (self.read(path) or "").split("\n")
        code = code_lines(lines)
        return next((n for n in (ev.lines if ev else ()) if n - 1 in code or
                     as_code(_without_references(lines[n - 1], term), term)), None)

    def of_deprecations(self, path: str) -> bool:
        """A page about deprecated things (``speaks_of_deprecations``): no place for a new name."""
        return speaks_of_deprecations(path, self.read(path) or "")

    def specific(self, term: str) -> bool:
        """A token rare enough to be evidence: on few pages, and not a bare common word."""
        if len(term) < 3 or len(term) < 4 and term.isupper():  # GET, NOT: words, not names
            return False
        count = len(self.pages(term))
        share = count / max(self.total, 1)
        if is_identifier(term):
            return share <= MAX_SHARE or count <= 2
        return share <= MAX_SHARE / 2 or count <= 1

    def weight(self, term: str) -> float:
        """Inverse document frequency: how much one mention says."""
        return math.log((self.total + 1) / (len(self.pages(term)) + 0.5))
