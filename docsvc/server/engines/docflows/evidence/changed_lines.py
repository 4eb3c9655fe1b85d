"""Changed-lines evidence: the names on the code's changed lines (``changed_names``) and the links
there (``linked_pages``). A page that speaks of at least ``MIN_NAMES`` of the names as code, each
specific, is planned for review (no fact says what to write); with one fewer it is worth a look. A
link to a section of a page (a warning's "see https://…/deprecations.html#x") plans that page for
review; a link to a whole page is worth a look."""

from __future__ import annotations

from typing import Iterable, Mapping

from ..linked_pages import Link
from .docs import Docs, Evidence
from .model import Add, Look, PlannedPage
from .pages import is_release_page

__all__ = ["plan_by_names", "plan_links", "MIN_NAMES"]

MIN_NAMES = 4  # specific changed names a page must speak of to be planned on them alone


def plan_by_names(names: Mapping[str, int], docs: Docs, planned: dict[str, PlannedPage], add: Add, look: Look) -> None:
    """Plan for review the pages not planned yet that speak, as code, of several specific names
    the change touches: one shared name is chance, several are the page's subject."""
    by_page: dict[str, list[tuple[str, Evidence]]] = {}
    for name in names:
        if not docs.specific(name):
            continue
        for path, ev in docs.pages(name).items():
            if ev.as_code and path not in planned and not is_release_page(path):
                by_page.setdefault(path, []).append((name, ev))
    for path, found in sorted(by_page.items()):
        if len(found) < MIN_NAMES - 1:
            continue
        found.sort(key=lambda f: (-docs.weight(f[0]), f[0]))
        listed = ", ".join(f"{name} (line {ev.line})" for name, ev in found[:5]) + (", …" if len(found) > 5 else "")
        reason = f"speaks of {len(found)} names the pull request's code changes, as code: {listed} [changed lines]"
        if len(found) >= MIN_NAMES:
            add(path, "related", 0.5, reason, None)
        else:
            look(path, reason + " — too few to plan it")


def plan_links(links: Iterable[Link], add: Add, look: Look) -> None:
    """Plan for review the pages the changed code links to a section of; a link to the whole page
    is worth a look."""
    for link in links:
        if is_release_page(link.page):
            continue
        reason = f"the changed code links to it: {link.url}"
        # To a section the page holds: that section is the change's own; to the whole page (a
        # guide on fixtures), a pointer for the reader, as often as not left as it is.
        if link.line:
            add(link.page, "related", 0.55, f"{reason} (the section at line {link.line}) [changed lines]", None)
        else:
            look(link.page, f"{reason} [changed lines] — to the page, not to a section of it")
