"""Siblings: a new name joins the group of blocks (a table's rows, a list's items, a run of
directives or option entries) that documents its nearest siblings, in their order: alphabetical
when they are listed so, else after the whole block of the name above it in the code. The block
itself is shaped by the structure that owns its kind (``TableRows``, ``ReferenceEntries``), from
what the code says only (its help text, its default, a boolean as the page writes booleans); never
inside another block, never invented prose. Where two sections document its siblings alike, the one
whose heading names the changed file's folder gets it. Where its siblings mark the release they
came in, it gets that mark with the release the change ships in (``version_marks``). A page that
documents only some of a new symbol's siblings chose them: it gets an open point, not the new one.
"""

from __future__ import annotations

from typing import Sequence

from ..evidence.docs import spoken
from ..facts_model import Fact, token
from ..structure import MKDOCSTRINGS, Block, is_rst
from .base import Draft, Page, Structure
from .common import (NEAREST_SIBLINGS, _about_blocks, _chosen_few, _group_of, _home_depth, _loose, _noun, _place,
                     _plainly_named, _said, addition, apart, contents_link)
from .reference_entries import _autodoc_names
from .version_marks import _directive_mark, _unmarked, _with_mark


def _add(fact: Fact, path: str, lines: list[str], draft: Draft, release: str | None,
         shapers: dict[str, Structure]) -> list[str]:
    start = addition(fact, path, lines)
    if start is None:
        return lines  # already documented here
    name, description, default, found = start
    said = _said(lines)
    # Sibling blocks by the group they stand in (a list's items, a table's rows, a run of
    # directives), keyed by the group's last block: the new name joins the group of its nearest
    # siblings in the code (then the one with most of them), after that last block; never a group
    # of far ones only.
    def documented(names: list[tuple[int, str]]) -> dict[Block, list[tuple[Block, str, int]]]:
        """The groups holding blocks about these names, each with its members (block, term, rank)."""
        groups: dict[Block, list[tuple[Block, str, int]]] = {}
        for rank, sibling in names:
            term = spoken(sibling, said)
            for block in _about_blocks(found, lines, term):
                groups.setdefault(_group_of(found, block, lines)[-1], []).append((block, term, rank))
        return groups

    # Where none of its own file's siblings is documented, the names its registry call adds
    # elsewhere are (pytest's ini options, one list whatever plugin adds them): all as near. Names
    # the pull request adds just above it count once written in, as its nearest (two new options
    # keep their order in an alphabetical list).
    groups = documented(list(enumerate(fact.siblings))) or documented([(0, n) for n in fact.family])
    # a table of contents links to the entries: no entry itself (``contents`` adds its link)
    groups = {key: members for key, members in groups.items() if not contents_link(lines[key.start])}
    if groups:
        for key, members in documented([(0, n) for n in fact.follows if n not in fact.siblings]).items():
            groups.setdefault(key, []).extend(members)
    if not groups:
        draft.open_points.append(f"{path}: {name} is new; its siblings are not documented here in a table, "
                                 "list, directive or section of their own, so no place for it was found")
        return lines

    def nearest(members: list[tuple[Block, str, int]]) -> int:
        return min(rank for *_, rank in members)

    home = _home_depth(found, lines, fact.path)
    block, best = min(groups.items(), key=lambda g: (nearest(g[1]), -len({t for _, t, _ in g[1]}),
                                                     -home(g[0].start), g[1][0][0].start))
    if nearest(best) >= NEAREST_SIBLINGS:
        near = ", ".join(spoken(s, said) for s in fact.siblings[:NEAREST_SIBLINGS])
        draft.open_points.append(f"{path}: {name} is new; its nearest siblings in the code ({near}) are not "
                                 f"documented here in a table, list or directive, so it is not added beside "
                                 f"{best[0][1]}: describe it where they are")
        return lines
    if _chosen_few(fact, path, name, best[0][1], said, draft):
        return lines
    model_block, sibling = min(((b, t) for b, t, _ in best),
                               key=lambda m: (not _plainly_named(lines[m[0].start], m[1]), m[0].start))
    if "." not in sibling:  # the page names its siblings by their last part: so this one too
        name = name.rsplit(".", 1)[-1]
    if block.kind == "directive" and block.name.startswith(("auto", "py:")) and fact.importable:
        sibling, name = _autodoc_names(fact.importable, lines, model_block, sibling, name)
        if not name:
            draft.open_points.append(f"{path}: {token(fact.name)} is new; the page names its siblings by a "
                                     f"package ({sibling}) that does not import it: add it under the name "
                                     "users import it by")
            return lines
    if model_block.name == MKDOCSTRINGS:
        # '::: a.b.Sibling' renders an object from the code by its import path, which a sibling's
        # path does not give for a new name (a setting is no attribute of the sibling's class)
        draft.open_points.append(f"{path}: {name} is new; its siblings are rendered from the code here "
                                 f"({lines[model_block.start].strip()}): add its own '::: ' line if it belongs on this page")
        return lines
    shaper = shapers.get(model_block.kind)
    new = shaper.shape(model_block, lines, sibling, name, description, default, fact.short, fact.shows) \
        if shaper else None
    if new is None:
        draft.open_points.append(f"{path}: describe {name} beside {sibling}; the code gives no help text for it")
        return lines
    group = _group_of(found, block, lines)
    marked = _directive_mark(lines, [b for b, _, _ in sorted(best, key=lambda m: m[2])] + group) \
        if block.kind == "directive" else None
    if marked and release:
        new = _with_mark(new, marked[0].for_release(release), marked[1])
    at, beside = _place(fact, name, group, best, lines, said)
    # Blocks that stand apart (directives, option entries, reST items, a loose list's items) keep a
    # blank line on each side; a table's rows and a tight list's items stand together.
    if block.kind in ("directive", "option") or (block.kind == "item" and is_rst(path)) or \
            (block.kind == "item" and _loose(found, lines, group)):
        new = apart(lines, at, new)
    draft.added_entry(path, name, f"{path}: added {_noun(block)} for {name} {beside} "
                                  "[rule: addition in the format of its neighbours, in their order]")
    _unmarked(marked and marked[0], release, path, name, draft)
    return lines[:at] + new + lines[at:]


class Siblings(Structure):
    name = "sibling groups"
    carries = "a new name: a block in the group that documents its nearest siblings"
    entry = True

    def __init__(self, shapers: Sequence[Structure]) -> None:
        self.shapers = {kind: s for s in shapers for kind in s.kinds}

    def takes(self, fact: Fact) -> bool:
        return fact.change == "added"

    def write(self, fact: Fact, page: Page) -> bool:
        page.lines = _add(fact, page.path, page.lines, page.draft, page.release, self.shapers)
        return True
