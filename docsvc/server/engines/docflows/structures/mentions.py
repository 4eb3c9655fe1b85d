"""Mentions: a name wherever the page speaks of it, in whatever structure (a row, an item, a
directive, a line of prose), edited in place.

Carries: renamed (the old name becomes the new one wherever the page speaks of it), default
changed (the old value becomes the new one inside the block that documents the name: the row, the
item, the directive; else the line and the two after it), help text reworded (the words that
changed, on the line that quotes the old help text, written as the page writes the rest; in a help
screen, over the row that wraps it, the row wrapped as the framework wraps it).

A page that speaks of the name under several headings may document several things of that name
(``--sync`` of ``install`` and of ``update``): a default or a reworded help text is edited only
under the heading that names the deepest part of the changed file's path, if any does.
"""

from __future__ import annotations

import re

from ..evidence.docs import as_code, mentions, plain, prose, spoken
from ..facts_model import Fact, file_forms, token, written_as
from ..quoting import requote
from ..structure import Block, blocks, enclosing
from .base import Draft, Page, Structure
from .common import _at_home, _home_depth, _said, _word
from .help_columns import keep_aligned, rewrapped_rows


def _reword_help(fact: Fact, path: str, lines: list[str], draft: Draft) -> list[str]:
    """The page quotes the option's old help text: the words that changed change on that line,
    written as the page writes the rest (``quoting``)."""
    old, new = prose(fact.old), prose(fact.new)
    reworded = {i: quoted for i, line in enumerate(lines)
                if (quoted := requote(line, old, new)) is not None and quoted != line}
    changed, before = 0, list(lines)
    if reworded:  # the page's blocks only where it quotes the help text
        for i in _at_home(_home_depth(blocks(path, "\n".join(lines)), lines, fact.path), list(reworded)):
            lines[i], changed = reworded[i], changed + 1
    # a help screen's row wraps its longer text as the framework does, at the screen's width
    lines[:] = keep_aligned(path, before, lines)
    # a help text a help screen wraps over several lines: reworded over its row, wrapped anew
    rows = rewrapped_rows(path, lines, old, new)
    home = _at_home(_home_depth(blocks(path, "\n".join(lines)), lines, fact.path), list(rows)) if rows else []
    for first in sorted(home, reverse=True):  # from the last up: a row that grows leaves those above in place
        last, row = rows[first]
        lines[first:last], changed = row, changed + 1
    if changed:
        draft.notes.append(f"{path}: the help text of {token(fact.name)} in its new words ({changed} line(s)) "
                           "[rule: quoted help text]")
    return lines


def _redefault(fact: Fact, path: str, lines: list[str], draft: Draft) -> list[str]:
    name, old, new = spoken(fact.name, _said(lines)), plain(fact.old), plain(fact.new)
    found = blocks(path, "\n".join(lines))
    value = re.compile(rf"(?<![\w.]){re.escape(old)}(?![\w.])") if old and new is not None else None
    saying: list[int] = []  # per mention, the line that says its default
    for n in mentions("\n".join(lines), name) if value else ():
        span = _default_span(found, lines, n - 1, name)
        # the line that says the default, else one that does not list the allowed values (Type: a | b)
        fitting = [i for i in span if value.search(lines[i])]
        fitting = [i for i in fitting if _SAYS_DEFAULT.search(lines[i])] or \
            [i for i in fitting if not _SAYS_TYPE.search(lines[i])]
        if fitting and fitting[0] not in saying:
            saying.append(fitting[0])
    changed = 0
    for i in _at_home(_home_depth(found, lines, fact.path), saying):
        lines[i], changed = value.sub(new, lines[i]), changed + 1  # one value per mention
    if changed:
        draft.notes.append(f"{path}: default of {name} changed {old} → {new} ({changed} line(s)) "
                           "[rule: changed default, in the block that documents it]")
    else:
        draft.open_points.append(f"{path}: mentions {name}, but not its old default {old}: check whether "
                                 f"the page should say the new default {new}")
    return lines


_SAYS_DEFAULT = re.compile(r"(?i)\bdefaults?\b")


_SAYS_TYPE = re.compile(r"(?i)(^|[\s*_|:])types?\b[*_]*\s*:")


# A heading's title that names one option as code: `build.minify`, ``--port``, ``retries`` in backticks
_CODE_TITLE = re.compile(r"^\s*(?:#{1,6}\s+)?(?:`([\w.$-]+)`|([\w$-]*[._$][\w.$-]*|[a-z]+[A-Z][\w$]*|"
                         r"--?[A-Za-z][\w-]*))\s*#*\s*$")


SECTION_LINES = 10  # how far below a heading that names an option its default is looked for


def _default_span(found: list[Block], lines: list[str], at: int, name: str) -> range:
    """Where a mention's default is said: the row, item or directive holding it; under a heading
    that names the option, the top of its section; a definition that starts with the name, and
    the two lines after it; a sentence that gives it its default. Nothing for a mention in
    prose, amid a paragraph, or in a section a heading gives to another option
    (``build.cssMinify`` saying it defaults to what ``build.minify`` does)."""
    section = max((b for b in found if b.kind == "section" and at in b), key=lambda b: b.start, default=None)
    subject = _CODE_TITLE.match(lines[section.start]) if section else None
    title = subject and (subject.group(1) or subject.group(2))
    if section and section.start == at:  # the mention is the heading
        return range(at + 1, min(section.end, at + 1 + SECTION_LINES)) if title and _names(title, name) else range(0)
    if not as_code(lines[at], name) or title and not _names(title, name):
        return range(0)
    block = enclosing(found, at)
    if block:
        return range(block.start, block.end)
    # outside a row, item or directive: a line that starts with the name (a definition's term,
    # ``key: value``) and the two after it; amid a paragraph, only a line that gives the name its
    # default in the same clause ("`--max-conns` (default `100`)")
    term = rf"^\s*[`*_]*(?:[\w$-]+\.)*{re.escape(name)}(?![\w-])"
    if re.match(term, lines[at]):
        return range(at, min(len(lines), at + 3))
    beside = rf"(?<![\w-]){re.escape(name)}(?![\w-])[^.;]{{0,40}}?\bdefault"
    return range(at, at + 1) if re.search(beside, lines[at], re.IGNORECASE) else range(0)


def _names(title: str, name: str) -> bool:
    """Whether a heading's code-like title is the option: ``build.minify`` names ``minify``."""
    return title == name or title.endswith("." + name) or name.endswith("." + title)


def _rename(fact: Fact, path: str, lines: list[str], draft: Draft) -> list[str]:
    if fact.kind == "file":
        old = written_as(fact.old, _said(lines))  # a workflow's runs address renamed as its file is
        form, forms = file_forms(fact.old).index(old), file_forms(fact.name)
        if form >= len(forms):  # a workflow moved out of the workflows: its runs are nowhere now
            draft.open_points.append(f"{path}: {old} leads nowhere now; the pull request moves it to {fact.name}")
            return lines
        new = forms[form]
    else:
        old = spoken(fact.old, _said(lines))
        new = token(fact.name) if old == token(fact.old) else token(fact.name).rsplit(".", 1)[-1]
    pattern, count, before = _word(old), 0, list(lines)
    for i, line in enumerate(lines):
        lines[i], n = pattern.subn(new, line)
        count += n
    lines[:] = keep_aligned(path, before, lines)  # a help screen's column follows the new name's width
    if count:
        draft.notes.append(f"{path}: renamed {old} to {new} ({count} place(s)) [rule: rename in place]")
    return lines


class Mentions(Structure):
    name = "mentions"
    carries = "renamed, default changed, help text reworded: edited where the page speaks of the name"

    def takes(self, fact: Fact) -> bool:
        # a requirement's new minimum is stated in words, not beside its name (``requirements``),
        # nor a new version: its program's output shows it (``version_output``); nor a repository's
        # address: the links to it lead to the new one (``repository_links``)
        return fact.change in ("renamed", "default-changed", "help-changed") and \
            fact.kind not in ("requirement", "version", "repository")

    def write(self, fact: Fact, page: Page) -> bool:
        edit = {"renamed": _rename, "default-changed": _redefault, "help-changed": _reword_help}[fact.change]
        page.lines = edit(fact, page.path, page.lines, page.draft)
        return True
