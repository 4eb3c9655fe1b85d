"""Code-name evidence for a named thing the pull request changes: the pages that speak of it as
code or option text, where its name is specific across the docs.

- renamed, removed or deprecated: the pages that speak of the old name (direct); a file the docs
  name by its path, however a page writes it (an include, a link), is named there too;
- default changed: the pages that speak of the name with its old value beside it (direct);
- help text reworded: the pages that quote the old words (direct), or a help screen that wraps
  them over its lines (for review).

A parameter counts only where the page also speaks of its function or class (``Docs.about``):
its bare name (``src``, ``default``) is everybody's word. A weaker match (a specific token in
prose, a default whose old value is not beside it) is worth a look; a common word is no match.
"""

from __future__ import annotations

import json
import re

from ..facts_model import MOVED, WARNS, Fact, token, written_as
from ..quoting import find_quote
from .docs import Docs, is_identifier, plain, prose
from .model import Add, Look
from .pages import is_release_page

__all__ = ["plan_gone", "plan_default", "plan_help", "quoted_line", "wrapped_quote_line"]


def plan_gone(fact: Fact, docs: Docs, add: Add, look: Look) -> int | None:
    """The pages that speak of a renamed, removed or deprecated name (direct when as code), and
    how many; None when only a module's dotted path moved, which leaves the bare name right."""
    named = fact.old if fact.change == "renamed" else fact.name
    # A file's path, however a page writes it (an include, a link), is a reference to it.
    path_of_file = fact.kind == "file"
    old = written_as(named, lambda form: bool(docs.pages(form))) if path_of_file else docs.term(named)
    if fact.rule == MOVED and old != named:
        return None  # only the old dotted path is gone; the bare name is as right as before
    action = {"renamed": f"renames it to {token(fact.name)}", "removed": "removes it",
              "deprecated": "makes it warn that it is deprecated" if fact.rule == WARNS
              else "removes or deprecates it"}[fact.change]
    strong = path_of_file or docs.specific(old)
    # A function or setting found warning by where the warning stands, named by a plain
    # word (goreleaser's `formula` key, beside Homebrew's formulas): worth a look only.
    sure = fact.rule != WARNS or is_identifier(old)
    hits = 0
    for path, ev in docs.about(fact, old).items():
        if is_release_page(path):
            continue
        reason = f"mentions {old} (line {ev.line}); the pull request {action} [{fact.rule}]"
        if not strong:
            continue  # a common word on a page is no sign, not even a weak one
        if (ev.as_code or path_of_file) and sure:
            add(path, "direct", 0.9, reason, fact)
            hits += 1
        else:
            look(path, reason + (" — in prose only" if sure else " — a plain word"))
    return hits


def plan_default(fact: Fact, docs: Docs, was: dict[str, str], add: Add, look: Look) -> int:
    """The pages that document a name whose default changes with its old value beside it (direct);
    ``was`` the old names of the names renamed in the same pull request, which the pages still say."""
    name, old = docs.term(was.get(fact.name, fact.name)), plain(fact.old)
    strong = docs.specific(name)
    hits = 0
    for path, ev in docs.about(fact, name).items():
        if is_release_page(path):
            continue
        lines = (docs.read(path) or "").split("\n")
        beside = [n for n in ev.lines if old and _value_near(lines, n, old)]
        where = beside[0] if beside else ev.line
        reason = (f"documents {name} (line {where}); its default changes {_short(old)} → "
                  f"{_short(plain(fact.new))} [{fact.rule}]")
        if not strong:
            continue
        if ev.as_code and beside:
            add(path, "direct", 0.8, reason, fact)
            hits += 1
        elif beside or not _structure(fact.old):
            look(path, reason + (" — the old value is not beside it" if not beside else " — in prose only"))
    return hits


def plan_help(fact: Fact, docs: Docs, add: Add) -> int:
    """The pages that quote a name's old help text (direct), or wrap it over a help screen's lines
    (for review: the Writer rewords the row when it can tell how the framework wrapped it)."""
    name = docs.term(fact.name)
    hits = 0
    for path, ev in docs.about(fact, name).items():
        where = quoted_line(docs.read(path) or "", prose(fact.old))
        if is_release_page(path):
            continue
        if where:
            add(path, "direct", 0.8, f"documents {name} (line {where}) in the words of its help text; the "
                                     f"pull request rewords it [{fact.rule}]", fact)
            hits += 1
        elif (where := wrapped_quote_line(docs.read(path) or "", prose(fact.old))) is not None:
            # A help screen wraps the text over its lines: for review, with the fact, so the Writer
            # rewords the row where wrapping the old text gives the row as it stands (help_columns).
            add(path, "related", 0.55, f"quotes {name}'s help text over the lines from {where}; the pull "
                                       f"request rewords it [{fact.rule}]", fact)
            hits += 1
    return hits


def _structure(value: str | None) -> bool:
    """Whether a value holds mappings (a workflow's ``steps``, a navigation tree): structure, not a
    default a page states beside its name, so a page naming the key without it has nothing to correct."""
    if not value or value[:1] not in "[{":
        return False
    try:
        data = json.loads(value)
    except ValueError:
        return False
    return isinstance(data, dict) or (isinstance(data, list) and any(isinstance(v, (dict, list)) for v in data))




def quoted_line(text: str, words: str) -> int | None:
    """The line (1-based) that quotes ``words`` (a help text), markup aside (``quoting``)."""
    return next((n for n, line in enumerate(text.split("\n"), 1) if find_quote(line, words)), None)


WRAPPED_LINES = 4  # a help text a help screen wraps, over this many lines at most


def wrapped_quote_line(text: str, words: str) -> int | None:
    """The line (1-based) where a quote of ``words`` starts that goes on over the next lines (a
    help screen's column of wrapped help text), read as one line, ``WRAPPED_LINES`` at most."""
    lines = text.split("\n")
    for n in range(len(lines)):
        joined = " ".join(line.strip() for line in lines[n:n + WRAPPED_LINES])
        span = find_quote(joined, words)
        if span and span[0] < len(lines[n].split()):
            return n + 1
    return None


def _value_near(lines: list[str], n: int, value: str) -> bool:
    """Whether the value stands on the line that mentions the name, or within the two after it."""
    pattern = re.compile(rf"(?<![\w.]){re.escape(value)}(?![\w.])")
    return any(pattern.search(lines[i]) for i in range(n - 1, min(len(lines), n + 2)))


def _short(value: str | None, limit: int = 60) -> str | None:
    if value is None or len(value) <= limit:
        return value
    return value[:limit - 1] + "…"
