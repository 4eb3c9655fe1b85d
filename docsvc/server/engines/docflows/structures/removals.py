"""Removals: the block *about* a name that is gone.

Carries: removed and deprecated. The block about the name (a row or item that starts with it, its
option or envvar directive, a section titled by it alone, a line that sets it in a listing of
settings) is deleted only when the removal is certain (an option, setting or variable; for a
function or class gone from the code, only its API-reference directive, autodoc's or mkdocstrings',
and a list item of its name alone) and the block speaks of that name alone; any other mention is
listed as an open point, once a line (not where ``signatures`` points out a call that passes a
dropped parameter already); a table of contents' link to the entry that went goes with it, under
whatever heading it stands. A help screen's line that goes leaves its section re-aligned on the
column the framework prints for the options left (``help_columns``). A function that now warns
that it is deprecated is still there: the places it is documented are pointed out.
"""

from __future__ import annotations

import re

from ..evidence.docs import mentions, spoken
from ..facts_model import MARKED, WARNS, Fact, token, written_as
from ..structure import MKDOCSTRINGS, Block, blocks
from .base import Draft, Page, Structure
from .common import _about, _at_home, _home_depth, _noun, _said, _word, anchors, contents_link
from .help_columns import aligned_rows, realign


_CERTAIN_REMOVALS = ("flag", "argument", "env", "config", "enum", "route", "operation")


MAX_BLOCK_LINES = 12  # a longer row, item or directive may say more than the removed name: a person decides


MAX_SECTION_LINES = 40  # a section titled by the name alone is about it, however many lines it takes


MAX_MENTIONS_LISTED = 5  # mentions left listed one by one (path:line), the rest in one point


def _remove(fact: Fact, path: str, lines: list[str], draft: Draft) -> list[str]:
    name = written_as(fact.name, _said(lines)) if fact.kind == "file" else spoken(fact.name, _said(lines))
    # An option, setting or variable that is gone is gone; a function or class may have moved, but
    # its API-reference directive (autoclass, autofunction) cannot stand without it.
    kinds = () if fact.change == "deprecated" else ("row", "item", "directive", "option") \
        if fact.kind in _CERTAIN_REMOVALS else ("directive", "item") if fact.kind == "symbol" else ()
    went = 0  # how deep under headings naming the changed file the removals went
    if kinds:
        others = _word(name)
        found = blocks(path, "\n".join(lines))
        about = [b for b in found if b.kind in kinds and _about(lines[b.start], name)
                 and not (fact.kind == "symbol" and not _reference_of_symbol(b, lines, name))]
        if fact.change == "removed" and fact.kind in _CERTAIN_REMOVALS:
            going = [s for s in _sections_about(found, name) if _deletable(s, lines, others)]
            # a block inside a section that goes goes with it
            about = [b for b in about if not any(b.start in s for s in going)] + going
        depth = _home_depth(found, lines, fact.path)
        home = set(_at_home(depth, [b.start for b in about]))
        went = max(map(depth, home), default=0)
        before, went_blocks = anchors(lines), 0
        for block in sorted((b for b in about if b.start in home), key=lambda b: -b.start):
            if not _deletable(block, lines, others):
                continue  # a long block, or one that keeps returning to it: a person decides
            went_blocks += 1
            body = lines[block.start:block.end]
            ended = block.end == len(lines)
            code = None if block.kind == "section" else \
                next((b for b in blocks(path, "\n".join(lines)) if b.kind == "code" and block.start in b), None)
            columns = aligned_rows(lines, block.start, code.start, code.end) if code else None
            del lines[block.start:block.end]
            if columns is not None and columns.end - len(body) > columns.start:
                # a help screen's line gone: its section's column follows the widest option left
                at = block.start if block.start < columns.end - len(body) else block.start - 1
                lines[:] = realign(lines, code.start, at, code.end - len(body), columns)
            if ended:  # the page's last section: the blank lines before it end the page now
                while len(lines) > 1 and not lines[-1].strip() and not lines[-2].strip():
                    lines.pop()
                if lines and lines[-1].strip():
                    lines.append("")
            if block.kind != "row" and block.start < len(lines) and block.start > 0 and \
                    not lines[block.start].strip() and not lines[block.start - 1].strip():
                del lines[block.start]  # no double blank line where the block was
            draft.notes.append(f"{path}: removed the {_noun(block)} about {name} ({len(body)} line(s)) "
                               "[rule: removal of the block about it]")
        if went_blocks:
            _unlink(path, lines, name, before, draft)
        # by its whole name only: a nested key's bare one (``args``) may be another section's
        if fact.change == "removed" and fact.kind in _CERTAIN_REMOVALS and name == token(fact.name) and \
                (not fact.context or name.startswith(tuple(f"{c}." for c in fact.context))):
            listed = _listing_lines(blocks(path, "\n".join(lines)), lines, name)
            for at in reversed(listed):
                del lines[at]
            if listed:
                draft.notes.append(f"{path}: removed {name} from {len(listed)} settings listing(s) in code "
                                   "[rule: removal of the block about it]")
    # a line another structure pointed out already (a call passing a dropped parameter) is not listed twice
    pointed = {p.split(": ", 1)[0] for p in draft.open_points}
    left = [n - 1 for n in mentions("\n".join(lines), name) if f"{path}:{n}" not in pointed]
    home = _at_home(_home_depth(blocks(path, "\n".join(lines)), lines, fact.path), left, went) if left else []
    action = "removes it" if fact.change == "removed" else "removes or deprecates it"
    for at in home[:MAX_MENTIONS_LISTED]:
        draft.open_points.append(f"{path}:{at + 1}: {name} is still mentioned; the pull request {action}")
    if len(home) > MAX_MENTIONS_LISTED:  # a name on every other line: one point for the rest, not dozens
        more = home[MAX_MENTIONS_LISTED:]
        draft.open_points.append(f"{path}: {name} is still mentioned on {len(more)} more line(s) "
                                 f"({', '.join(str(at + 1) for at in more)}); the pull request {action}")
    if len(home) < len(left):
        elsewhere = ", ".join(str(at + 1) for at in left if at not in home)
        draft.open_points.append(f"{path}: {name} also stands under other headings (line(s) {elsewhere}), left as "
                                 f"it is: there it may be another command's or setting's own")
    return lines


def _unlink(path: str, lines: list[str], name: str, before: set[str], draft: Draft) -> None:
    """The table of contents' links to the name's entry that went (``- [X](#x)``), wherever they
    stand: the anchor they lead to was on the page (``before``) and is not now."""
    now = anchors(lines)
    gone = [b.start for b in blocks(path, "\n".join(lines)) if b.kind == "item" and contents_link(lines[b.start])
            and _about(lines[b.start], name) and (target := re.search(r"\]\(#([^)\s]+)\)", lines[b.start]))
            and target.group(1).lower() in before - now]
    for at in reversed(gone):
        del lines[at]
    if gone:
        draft.notes.append(f"{path}: removed the link to {name}'s entry from {len(gone)} table(s) of contents "
                           "[rule: removal of the block about it]")


def _reference_of_symbol(block: Block, lines: list[str], name: str) -> bool:
    """Whether a block cannot stand without the function or class it names: its API-reference
    directive (autodoc's, mkdocstrings' ``::: package.Name``), or a list item of its name alone
    with nothing under it (a class hierarchy's ``* RequestBodyUnavailable``)."""
    if block.kind == "directive":
        return block.name.startswith(("auto", "py:")) or block.name == MKDOCSTRINGS
    return block.end - block.start == 1 and re.fullmatch(rf"\s*(?:[-*+]|\d+[.)])\s+[`*_]*(?:[\w.]+\.)?"
                                                         rf"{re.escape(name)}[`*_]*(?:\(\))?\s*", lines[block.start])


def _warned(fact: Fact, path: str, lines: list[str], draft: Draft) -> list[str]:
    """A function that now warns is still there: the page is left as it is and the places it is
    documented are pointed out, for a person to say since when and what to use instead."""
    name = spoken(fact.name, _said(lines))
    left = mentions("\n".join(lines), name)
    if left:
        draft.open_points.append(f"{path}: {name} now warns that it is deprecated (line(s) "
                                 f"{', '.join(map(str, left))}): say so where it is documented, and what to use instead")
    return lines


def _deletable(block: Block, lines: list[str], others: re.Pattern) -> bool:
    """Whether the rule may delete a block about the name: short enough, and naming it (``others``)
    at most twice, a section three times (its title too); more, and it says more than that."""
    body = lines[block.start:block.end]
    section = block.kind == "section"
    return len(body) <= (MAX_SECTION_LINES if section else MAX_BLOCK_LINES) and \
        sum(len(others.findall(line)) for line in body) <= 2 + section


def _listing_lines(found: list[Block], lines: list[str], name: str) -> list[int]:
    """The lines of code blocks that set the name and nothing under it (``name = false`` in a
    listing of settings, ``name: 1`` in a YAML example): 0-based, in order."""
    setting = re.compile(rf"^(\s*)(?:[-*]\s+)?{re.escape(name)}\s*[=:](?!:)")
    out = []
    for block in (b for b in found if b.kind == "code"):
        content = [at for at in range(block.start, block.end)
                   if lines[at].strip() and not lines[at].lstrip().startswith(("```", "~~~"))]
        setting_lines = []
        for at in content:
            match = setting.match(lines[at])
            if not match:
                continue
            after = next((lines[n] for n in content if n > at), "")
            if len(after) - len(after.lstrip()) <= len(match.group(1)):
                setting_lines.append(at)  # nothing nested under it that would lose its key
        if len(setting_lines) < len(content):  # an example of nothing else is a person's to rework
            out += setting_lines
    return sorted(set(out))


def _sections_about(found: list[Block], name: str) -> list[Block]:
    """The sections whose title is the name alone (``### `no-setuptools```, ``--old-flag`` with its
    underline), holding no section of their own: the whole section is about it."""
    title = re.compile(rf"^[`*_]*{re.escape(name)}[`*_]*(?:\s*\{{[^}}]*\}})?$")
    sections = [b for b in found if b.kind == "section"]
    return [b for b in sections if title.match(b.name.strip())
            and not any(other.start in range(b.start + 1, b.end) for other in sections)]


class Removals(Structure):
    name = "removals"
    carries = "removed and deprecated names: the block about them goes when the removal is certain, else pointed out"

    def takes(self, fact: Fact) -> bool:
        # one its definition declares deprecated is still there: ``version_marks`` marks it
        return fact.change in ("removed", "deprecated") and not fact.rule.endswith(MARKED)

    def write(self, fact: Fact, page: Page) -> bool:
        edit = _warned if fact.change == "deprecated" and fact.rule == WARNS else _remove
        page.lines = edit(fact, page.path, page.lines, page.draft)
        return True
