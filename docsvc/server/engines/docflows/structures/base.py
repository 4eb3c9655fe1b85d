"""The one interface every page structure the Writer edits stands behind.

A structure (table rows and list items, help blocks, reference entries, version marks,
requirement statements, removals) says which facts it carries (``takes``) and writes them on a
page (``write``); one that a new name can be shaped in says which page blocks it owns (``kinds``,
``structure.Block`` kinds) and shapes a new one like a sibling's (``shape``). The Writer hands each
fact of a planned page to every structure that takes it, in the registry's order
(``structures.STRUCTURES``): a new structure is one new module and its line in the registry.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Container, Mapping

from ..facts_model import Fact
from ..structure import Block

__all__ = ["Draft", "Page", "Structure"]


@dataclass
class Draft:
    files: dict[str, str] = field(default_factory=dict)  # path -> new text (only changed files)
    notes: list[str] = field(default_factory=list)  # what was done, per edit, with its rule
    open_points: list[str] = field(default_factory=list)  # what the rules could not do
    entries: set[tuple[str, str]] = field(default_factory=set)  # (path, name): an entry written for a new name

    def added_entry(self, path: str, name: str, note: str) -> None:
        """Note an entry of its own (a section, a row, an item) written for the new ``name`` on the
        page ``path``: ``contents`` links it from the page's table of contents."""
        self.entries.add((path, name))
        self.notes.append(note)


@dataclass
class Page:
    """One planned page while the Writer edits it: its lines (one line an element), the draft its
    notes and open points go to, the release the change ships in, when the code says, and the
    text before and after of the repository files the pull request changes that the page names
    (path -> (old, new)), and the dotted paths of the repository's Python modules, when known
    (``structure.python_modules``: what a name the page renders from the code is)."""

    path: str
    lines: list[str]
    draft: Draft
    release: str | None = None
    files: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    modules: Container[str] | None = None


class Structure:
    """One kind of page structure. ``entry``: it writes *the* entry of a fact on the page (a
    section, a row): once one such structure took a fact, the later ones leave it."""

    name = ""
    carries = ""  # in words: which facts it carries, and how it writes them
    kinds: tuple[str, ...] = ()
    entry = False
    describes = True  # it may describe a name in words not the code's (the pull request's title)

    def takes(self, fact: Fact) -> bool:
        """Whether the structure carries this fact at all (before looking at the page)."""
        return False

    def write(self, fact: Fact, page: Page) -> bool:
        """Write the fact on the page (``page.lines``, notes and open points in ``page.draft``);
        True when it took the fact."""
        return False

    def shape(self, block: Block, lines: list[str], sibling: str, name: str, description: str,
              default: str | None, short: str | None = None, shows: str | None = None) -> list[str] | None:
        """A new block for ``name`` shaped like ``block`` (a sibling's, of one of ``kinds``), or
        None when that shape needs what the code does not say; ``short``: the new option's short
        form, where it has one (the sibling's written beside its name is not the new one's);
        ``shows``: the value it takes as the framework names it (``Item.shows``: ``INTEGER``)."""
        return None
