"""Rendered entries: a page that renders each name of a module one by one from the code, by its
import path (mkdocstrings' ``::: mkdocs.plugins.event_priority``, alone or as a heading's title,
``#### ::: ...``). A new name of the same file as its nearest sibling rendered so gets the same line
with its own path after the sibling's (and the rendering options indented under it): the module's
path is the one the sibling's line gives, when it names the sibling's file (``mkdocs/plugins.py``,
``src/mkdocs/plugins.py``). Its description is the code's docstring, which the build renders: no
words written by hand.
"""

from __future__ import annotations

from ..facts_model import Fact
from ..structure import rendered_line
from .base import Page, Structure
from .common import NEAREST_SIBLINGS, addition, apart

__all__ = ["RenderedEntries"]

RULE = "a name rendered from the code by its import path, as its nearest sibling is"


class RenderedEntries(Structure):
    name = "rendered entries"
    carries = "a new name of a module whose names the page renders one by one: its own rendering line"
    entry = True
    describes = False  # the build renders the docstring

    def takes(self, fact: Fact) -> bool:
        return fact.change == "added" and fact.kind == "symbol" and fact.path.endswith(".py")

    def write(self, fact: Fact, page: Page) -> bool:
        if addition(fact, page.path, page.lines) is None:
            return False
        for sibling in fact.siblings[:NEAREST_SIBLINGS]:
            found = rendered_line(page.lines, sibling, fact.path)
            if found is None:
                continue
            at, markup, module = found
            end = at + 1  # after the rendering options indented under the sibling's line
            while end < len(page.lines) and page.lines[end].startswith((" ", "\t")) and page.lines[end].strip():
                end += 1
            new = [f"{markup}{module}.{fact.name}"]
            page.lines = page.lines[:end] + apart(page.lines, end, new) + page.lines[end:]
            page.draft.added_entry(page.path, fact.name, f"{page.path}: rendered {fact.name} from the code after "
                                                        f"{sibling} (line {at + 1}) [rule: {RULE}]")
            return True
        return False
