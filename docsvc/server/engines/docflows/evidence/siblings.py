"""Sibling evidence for an added name: the pages that document the most of its siblings (other
options of the same command, other settings of the same class or file), as code and specifically
(conceptual: the Writer adds its entry beside theirs), or one sibling it renders from the code by
its import path, of the same file (``::: pkg.mod.sibling``); for a new method of a type, the one page
documenting most of its methods, for review. A new setting named as an option or variable the
docs already document (``strict_markers`` beside ``--strict-markers``): the pages documenting that
namesake, for review."""

from __future__ import annotations

import re

from ..facts_model import Fact, member_of, token
from ..structure import rendered_line
from .docs import Docs, Evidence, is_identifier
from .model import MAX_CONCEPTUAL_PAGES, Add, Look
from .pages import is_release_page

__all__ = ["plan_addition", "plan_namesakes", "namesakes", "spellings", "CONCEPTUAL_KINDS"]

# Kinds whose siblings are documented together (a command's options, a class's settings, a
# module's public API in a reference page).
CONCEPTUAL_KINDS = ("flag", "argument", "env", "config", "enum", "route", "operation", "parameter", "symbol",
                    "extra")
MAX_LOOKS = 3  # an added name is worth a look on the next few pages at most, those naming most of its siblings
FAMILY_LISTED = 3  # names of a registry's family a page lists, at least, to be its list
SIBLING_PAGES = 3  # pages a code-shaped sibling may stand on and still be evidence, in docs of any size


def _renders_one(fact: Fact, docs: Docs, path: str, found: list) -> bool:
    """Whether the page renders one of the siblings ``found`` on it by its import path, of the fact's file."""
    if fact.kind != "symbol":
        return False
    lines = (docs.read(path) or "").split("\n")
    return any(rendered_line(lines, sibling, fact.path) for sibling, _ in found)


def plan_addition(fact: Fact, docs: Docs, add: Add, look: Look) -> int:
    """Plan the pages that document the most siblings of an added name, as code and specifically;
    where none does, the one page that lists most of the names its registry call adds in other
    files (pytest's ini options: one reference, whatever plugin adds them)."""
    siblings = [docs.term(s) for s in fact.siblings]
    by_page = _documenting(fact, siblings, docs)
    # A lone documented sibling is enough only for a small family of options; a module's API is
    # documented as a reference, where several of its names stand.
    need = 2 if fact.kind == "symbol" or len(set(siblings)) >= 3 else 1
    first, looks = MAX_CONCEPTUAL_PAGES, MAX_LOOKS
    another = f"another {fact.kind} of {fact.path}"
    if not by_page and fact.family:
        siblings = [docs.term(s) for s in fact.family]
        by_page, need, first, looks = _documenting(fact, siblings, docs), FAMILY_LISTED, 1, 0
        another = f"another {fact.kind} its registry call adds elsewhere"
    if not by_page:
        return 0
    ranked = sorted(by_page.items(), key=lambda kv: (-sum(docs.weight(s) for s, _ in kv[1]), kv[0]))
    # A new method of a type (Go's ``Command.Path``, a member of what ``fastify()`` returns) goes into
    # the type's reference: the one page that documents most of its siblings, for review (no fact
    # says how the page lists methods). The pages after it are guides that call a few of them in
    # passing (all of them planned, on fastify's pull requests: 2 right pages of 7; the first only,
    # on the held-out projects' 2026-12-06: 2 of 2).
    method = member_of(fact) is not None
    hits = ranked_first = looked = 0
    name = docs.term(fact.name)
    for path, found in ranked:
        sibling, ev = found[0]
        reason = f"documents {sibling} (line {ev.line}), {another}; {name} is new beside it [{fact.rule}]"
        # a page rendering a sibling of the same file by its import path renders that module's names
        # one by one (read only for a page that would otherwise not do)
        if ranked_first < (1 if method else first) and (len(found) >= need or _renders_one(fact, docs, path, found)):
            ranked_first += 1
            if method:
                add(path, "related", 0.5, reason + "; of the pages, it documents most of the type's methods: "
                                                   "for review", None)
                hits += 1
                continue
            # The old keys a page about deprecations lists are siblings too, yet a new name is
            # deprecated nowhere. Its place among the first still counts: the pages after it
            # document fewer siblings than it does (promoted, they were wrong 4 times in 4).
            if docs.of_deprecations(path):
                look(path, reason + " — a page about deprecations: no place for a new name")
                continue
            add(path, "conceptual", 0.6, reason, fact)
            hits += 1
        elif looked < looks:  # the pages further down name fewer siblings: a long list is read by no one
            looked += 1
            look(path, reason + (" — a new method: another page documents more of its type's methods" if method
                                 else " — too few of its siblings documented here" if len(found) < need
                                 else " — other pages document more of its siblings"))
    return hits


def _sibling_evidence(name: str, docs: Docs) -> bool:
    """Whether a documented sibling tells pages apart: a specific name (``Docs.specific``), or a
    code-shaped one on ``SIBLING_PAGES`` pages at most, however few pages the docs hold. In docs of
    a dozen pages, an option's reference entry and the two help screens that show it are a quarter
    of them already, and the reference is where the new option goes."""
    return docs.specific(name) or (is_identifier(name) and len(docs.pages(name)) <= SIBLING_PAGES)


def _documenting(fact: Fact, names: list[str], docs: Docs) -> dict[str, list[tuple[str, Evidence]]]:
    """The pages (release pages aside) that document these names as code themselves (a
    cross-reference to a name's documentation elsewhere is not its documentation), with the
    evidence."""
    by_page: dict[str, list[tuple[str, Evidence]]] = {}
    for name in dict.fromkeys(names):
        if not _sibling_evidence(name, docs):
            continue
        for path, ev in docs.about(fact, name).items():
            if ev.as_code and not is_release_page(path) and (line := docs.documented_at(path, name)) is not None:
                by_page.setdefault(path, []).append((name, Evidence(line, True, ev.lines)))
    return by_page


_SETTING_KINDS = ("flag", "config", "env")


def spellings(name: str) -> list[str]:
    """A name's words spelled as each kind of setting, in one order for every name: the option
    (``--strict-markers``), snake and kebab case, the variable (``STRICT_MARKERS``); none for a
    one-word name."""
    words = [w.lower() for w in re.split(r"[-_.]+", name.lstrip("-")) if w]
    if len(words) < 2:
        return []
    return ["--" + "-".join(words), "_".join(words), "-".join(words), "_".join(words).upper()]


def namesakes(name: str) -> list[str]:
    """The same words spelled as the other kinds of setting: ``strict_markers`` as the option
    ``--strict-markers`` and the variable ``STRICT_MARKERS``; nothing for a one-word name."""
    return [form for form in dict.fromkeys(spellings(name)) if form != name]


def plan_namesakes(fact: Fact, docs: Docs, add: Add) -> int:
    """A new setting named as an option or variable the docs document already (a configuration
    option ``strict_markers`` beside the documented ``--strict-markers``): the pages documenting
    that one may say it can now be set this way too. For review: what to say is a person's call."""
    if fact.kind not in _SETTING_KINDS:
        return 0
    name = token(fact.name)
    hits = 0
    for form in namesakes(name):
        if not docs.specific(form):
            continue
        for path, ev in docs.pages(form).items():
            if ev.as_code and not is_release_page(path) and not docs.of_deprecations(path) and \
                    path not in docs.pages(name):
                add(path, "related", 0.55, f"documents {form} (line {ev.line}), the same words as the new {fact.kind} "
                                           f"{name} [{fact.rule}]", None)
                hits += 1
    return hits
