"""Parameter lists: the item or row of a parameter its function no longer takes.

Carries: a Python parameter dropped from a function's signature, certainly (its function neither
takes nor uses it any more: ``facts``; the fact's siblings are the parameters it still takes). A
list or table that documents that function's parameters (its item or row about the dropped one
sits among items or rows about every parameter left, at least ``MIN_KEPT`` of them) loses that
item or row, when short and about that name alone. A list that misses one of the parameters left
(the dropped one's new name, when it was renamed) is left as it is. Elsewhere ``removals`` and ``signatures`` point the
mentions out.
"""

from __future__ import annotations

from ..facts_model import Fact, owner_of, token
from ..structure import Block, blocks
from .base import Page, Structure
from .common import _about, _word
from .removals import MAX_BLOCK_LINES

__all__ = ["ParameterItems"]

MIN_KEPT = 2  # the parameters left that the same list documents: fewer, and it may list other things


def _runs(found: list[Block], kind: str) -> list[list[Block]]:
    """The lists (tables) of a page: its items (rows) in runs, one blank line between them at most."""
    runs: list[list[Block]] = []
    for block in sorted((b for b in found if b.kind == kind), key=lambda b: b.start):
        if runs and block.start - runs[-1][-1].end <= 1:
            runs[-1].append(block)
        else:
            runs.append([block])
    return runs


class ParameterItems(Structure):
    name = "parameter lists"
    carries = "a parameter its function no longer takes: its item in a list of that function's parameters goes"

    def takes(self, fact: Fact) -> bool:
        return fact.kind == "parameter" and fact.change == "removed" and bool(fact.siblings) and \
            owner_of(fact.name) is not None

    def write(self, fact: Fact, page: Page) -> bool:
        name, lines = token(fact.name), page.lines
        found = blocks(page.path, "\n".join(lines))
        going = []
        for run in _runs(found, "item") + _runs(found, "row"):
            about = [b for b in run if _about(lines[b.start], name)]
            kept = {s for s in fact.siblings for b in run if _about(lines[b.start], s)}
            if len(about) == 1 and len(kept) >= MIN_KEPT and kept == set(fact.siblings):
                block = about[0]
                body = lines[block.start:block.end]
                if len(body) <= MAX_BLOCK_LINES and sum(len(_word(name).findall(line)) for line in body) <= 2:
                    going.append(block)
        for block in sorted(going, key=lambda b: -b.start):
            del lines[block.start:block.end]
            page.draft.notes.append(f"{page.path}: removed the item about {name}, a parameter "
                                    f"{owner_of(fact.name)} no longer takes ({block.end - block.start} line(s)) "
                                    "[rule: a dropped parameter's item in its function's parameter list]")
        return bool(going)
