"""Table of contents: a page that lists its entries as links to their anchors (``- [FST_ERR_X](#fst_err_x)``,
``- [`bodyLimit`](#bodylimit)``) gets a link to the entry the draft just wrote for a new name.

Carries: a new name whose entry (a section, a table's row, a list's item) another structure wrote on
this page. Where a list of such links holds its nearest siblings (the page's contents, a section's
own list), the new link joins each, shaped like a
sibling's: the same marker and markup, the anchor spelled from the new name as the sibling's is from
its own (as written, lower case, slugged; none when the sibling's anchor is made otherwise), in the
siblings' order (``common._place``). A page whose entry was not written by this draft is left alone.
"""

from __future__ import annotations

import re

from ..evidence.docs import spoken
from ..facts_model import Fact, token
from ..structure import blocks
from .base import Page, Structure
from .common import NEAREST_SIBLINGS, _about, _group_of, _loose, _place, _said, anchored_as, apart, contents_link

__all__ = ["Contents"]

_MARKER = re.compile(r"^(\s*(?:[-*+]|\d+[.)])\s+)")


class Contents(Structure):
    name = "table of contents links"
    carries = "a new name given an entry on the page: its link beside its siblings' in the page's table of contents"
    describes = False  # a link says the name only

    def takes(self, fact: Fact) -> bool:
        return fact.change == "added"

    def write(self, fact: Fact, page: Page) -> bool:
        lines, name = page.lines, token(fact.name)
        found = blocks(page.path, "\n".join(lines))
        links = [b for b in found if b.kind == "item" and contents_link(lines[b.start])]
        said = _said(lines)
        members = [(block, term, rank) for rank, sibling in enumerate(fact.siblings[:NEAREST_SIBLINGS])
                   for term in [spoken(sibling, said)] for block in links if _about(lines[block.start], term)]
        if not members:
            return False
        if "." not in members[0][1]:  # the page names its siblings by their last part: so this one too
            name = name.rsplit(".", 1)[-1]
        if (page.path, name) not in page.draft.entries or any(_about(lines[b.start], name) for b in links):
            return False
        groups: dict[int, list] = {}
        for member in members:  # every list of links that holds a near sibling: the page's contents, a section's
            groups.setdefault(_group_of(found, member[0], lines)[0].start, []).append(member)
        wrote = False
        for start in sorted(groups, reverse=True):  # from the last up: an insertion leaves the lines above
            wrote = self._link(fact, page, found, groups[start], name, said) or wrote
        return wrote

    def _link(self, fact: Fact, page: Page, found, members, name: str, said) -> bool:
        """The new name's link in the list of links that holds ``members`` (its siblings' links)."""
        lines = page.lines
        model, sibling, _ = min(members, key=lambda m: m[2])
        prefix = _MARKER.match(lines[model.start]).group(1)
        linked = anchored_as(lines[model.start][len(prefix):].rstrip(), sibling, name)
        if linked is None:
            page.draft.open_points.append(f"{page.path}: link {name} from the table of contents beside {sibling}; "
                                          "its anchor is not made from its name")
            return False
        group = _group_of(found, model, lines)
        at, beside = _place(fact, name, group, members, lines, said)
        new = [prefix + linked]
        page.lines = lines[:at] + (apart(lines, at, new) if _loose(found, lines, group) else new) + lines[at:]
        page.draft.notes.append(f"{page.path}: linked {name} from the list of links at line {group[0].start + 1} "
                                f"{beside} [rule: addition in the format of its neighbours, in their order]")
        return True
