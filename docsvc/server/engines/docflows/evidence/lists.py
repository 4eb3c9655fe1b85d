"""List evidence: the pages that list a family the pull request adds to or drops from, for review
(no fact says how the page words its entries) — a family of codes (an error code
``FST_ERR_X_Y`` beside three others of ``FST_ERR_X_``, a warning ``FSTDEP014``), the keys a new
setting joins in the code (the dict of defaults it stands in), the project's deprecations."""

from __future__ import annotations

from typing import Callable, Iterable, Mapping

from ..deprecations import is_deprecations_page
from ..facts_model import Fact
from .docs import Docs
from .model import MAX_CONCEPTUAL_PAGES, Add
from .pages import family_prefixes, is_release_page

__all__ = ["plan_by_family", "plan_family_losses", "plan_by_neighbours", "plan_deprecations_page"]

_DEPRECATION_WORDS = [w for stem in ("deprecation", "deprecations", "deprecated") for w in (stem, stem.capitalize())]


def plan_deprecations_page(fact: Fact, docs: Docs, add: Add) -> int:
    """A deprecation warning added (``deprecations``): the project's deprecations page, for review."""
    hits = 0
    for path in dict.fromkeys(p for word in _DEPRECATION_WORDS for p in docs.find(word)):
        if not is_release_page(path) and is_deprecations_page(path, docs.read(path) or ""):
            add(path, "related", 0.6, f"lists the project's deprecations; the pull request adds a "
                                      f"deprecation warning ({fact.path}, line {fact.line}) [{fact.rule}]", None)
            hits += 1
    return hits


MIN_FAMILY = 3  # documented members that make a page the list of a family of codes


def plan_by_family(gained: Iterable[str], docs: Docs, family: Callable[[str], dict[str, set[str]]], add: Add) -> None:
    """Plan for review the pages that list the family of a new code no page names yet: an error
    code ``FST_ERR_REP_BODY_CONSUMED`` beside ``FST_ERR_REP_ALREADY_SENT`` and two more, a
    warning ``FSTDEP014`` beside ``FSTDEP013``. The narrowest family that some page lists wins."""
    for name in sorted(gained):
        if docs.pages(name):
            continue  # documented already: the names on the changed lines cover it
        for prefix in family_prefixes(name):
            lists = {path: members for path, members in family(prefix).items()
                     if len(members) >= MIN_FAMILY and not is_release_page(path)}
            if not lists:
                continue
            for path, members in sorted(lists.items(), key=lambda kv: (-len(kv[1]), kv[0]))[:MAX_CONCEPTUAL_PAGES]:
                add(path, "related", 0.55, f"lists {len(members)} names of the {prefix} family (such as "
                                           f"{min(members)}); the pull request adds {name} [changed lines]", None)
            break


def plan_family_losses(lost: Iterable[str], family: Callable[[str], dict[str, set[str]]], add: Add) -> None:
    """Plan for review the pages that list a code the pull request drops (``NameChanges.dropped``:
    the warning ``FSTDEP010`` whose registration goes), among ``MIN_FAMILY`` names of its family at
    least: its entry there describes what is gone. The narrowest family that lists it wins."""
    for name in sorted(lost):
        for prefix in family_prefixes(name):
            lists = {path: members for path, members in family(prefix).items()
                     if name in members and len(members) >= MIN_FAMILY and not is_release_page(path)}
            for path, members in sorted(lists.items())[:MAX_CONCEPTUAL_PAGES]:
                add(path, "related", 0.55, f"lists {name} among {len(members)} names of the {prefix} family; the pull "
                                           f"request's code no longer holds it [changed lines]", None)
            if lists:
                break


MIN_NEIGHBOURS = 2  # of a new setting's neighbours in the code, a page documents this many at least


def plan_by_neighbours(beside: Mapping[str, frozenset[str]], docs: Docs, add: Add) -> None:
    """Plan for review the page that documents most of a new setting's neighbours in the code
    (``NameChanges.beside``: the keys around ``"PROVIDE_AUTOMATIC_OPTIONS": True`` in a dict of
    defaults), ``MIN_NEIGHBOURS`` of them at least, as code and specifically, when no page names it
    yet: the list it joins. For review: no fact says what it is or how the page lists it."""
    for name, near in sorted(beside.items()):
        if docs.pages(name):
            continue  # documented already: the names on the changed lines cover it
        by_page: dict[str, list[str]] = {}
        for other in sorted(near):
            if not docs.specific(other):
                continue
            for path, ev in docs.pages(other).items():
                if ev.as_code and not is_release_page(path):
                    by_page.setdefault(path, []).append(other)
        ranked = sorted(((len(found), path, found) for path, found in by_page.items() if len(found) >= MIN_NEIGHBOURS),
                        key=lambda t: (-t[0], t[1]))
        for _, path, found in ranked[:1]:
            add(path, "related", 0.55, f"documents {', '.join(found[:3])}, beside which the pull request's code adds "
                                       f"{name} [changed lines]", None)
