"""The Information Architect stage of Docflows: which docs pages change, why, and how surely.

Rule-based (a language model may replace it later), and planned on evidence only. A page is
planned when it speaks of a fact's own token as code or option text (a backticked name, a table
cell or list item that starts with it, an option directive, a code block) and that token is
specific across the docs (``evidence.docs``): a token on many pages, or a plain word mentioned as
prose, is no evidence. Each kind of evidence has its module in ``evidence/``, as each page
structure the Writer edits has its module in ``structures/``; this module only hands each its
part and gathers the plan:

- ``names``: a name renamed, removed, deprecated, re-defaulted or reworded — the pages that speak
  of it (direct);
- ``siblings``: a name added — the pages documenting its siblings (conceptual) or its namesake of
  another kind (related);
- ``statements``: the language's minimum version, the repository's address, the version the
  program prints — the pages stating the old one (direct);
- ``files``: the repository files the docs show or link, changed or joined by a new one (related);
- ``lists``: the pages listing a family of codes, a new setting's neighbours, the deprecations
  (related);
- ``changed_lines``: the names and links on the code's changed lines (related);
- ``output``: output the tests' expectations lose, shown in the pages' examples (related);
- ``pr_words``: the pull request's title and body (related, or worth a look).

Planned pages are direct and conceptual (the Writer edits them) or related (for review, not
edited: no fact says what to write). A weaker match is listed as "worth a look" with its reason,
one entry a page, and is not edited. Changelog, news, release-notes, history and upgrading pages
are never planned (``evidence.pages.is_release_page``): release notes have their own tool. When no
page is affected the plan says "no documentation change needed", with a reason per fact.
"""

from __future__ import annotations

from typing import Callable, Iterable

from .changed_names import NameChanges
from .evidence.changed_lines import plan_by_names, plan_links
from .evidence.docs import Docs
from .evidence.files import plan_changed_file, plan_new_files
from .evidence.lists import plan_by_family, plan_by_neighbours, plan_deprecations_page, plan_family_losses
from .evidence.model import Add, Look, Plan, PlannedPage
from .evidence.names import plan_default, plan_gone, plan_help
from .evidence.output import plan_by_output
from .evidence.pr_words import plan_by_words
from .evidence.siblings import CONCEPTUAL_KINDS, plan_addition, plan_namesakes
from .evidence.statements import plan_repository, plan_requirement, plan_version
from .expected_output import OutputChange
from .facts_model import Fact
from .linked_pages import Link
from .words import Bm25, Said

__all__ = ["plan"]


def _plan_fact(fact: Fact, docs: Docs, was: dict[str, str], add: Add, look: Look) -> int | None:
    """The pages one fact's own evidence plans, by the kind of change: how many; None when the fact
    says nothing of the docs (only a module's dotted path moved)."""
    if fact.kind == "repository":
        return plan_repository(fact, docs, add)
    if fact.change in ("renamed", "removed", "deprecated"):
        return plan_gone(fact, docs, add, look)
    if fact.change == "changed" and fact.kind == "file":
        return plan_changed_file(fact, docs, add)
    if fact.kind == "requirement" and fact.change == "default-changed":
        return plan_requirement(fact, docs, add, look)
    if fact.kind == "version":
        return plan_version(fact, docs, add)
    if fact.change == "default-changed":
        return plan_default(fact, docs, was, add, look)
    if fact.change == "help-changed":
        return plan_help(fact, docs, add)
    if fact.kind == "deprecation":
        return plan_deprecations_page(fact, docs, add)
    if fact.change == "added" and fact.kind in CONCEPTUAL_KINDS:
        return plan_addition(fact, docs, add, look) + plan_namesakes(fact, docs, add)
    return 0


def plan(facts: Iterable[Fact], find: Callable[[str], list[str]], read: Callable[[str], str | None],
         total_pages: int | None = None, names: NameChanges | None = None,
         family: Callable[[str], dict[str, set[str]]] | None = None, links: Iterable[Link] = (),
         outputs: Iterable[OutputChange] = (), said: Said | None = None, words: Bm25 | None = None,
         added: Iterable[str] = ()) -> Plan:
    """``find(term)`` gives candidate pages from the docs; ``read(path)`` their text;
    ``total_pages`` how many pages the docs hold (for how common a token is); ``names`` the
    identifiers on the code's changed lines (``changed_names``); ``family(prefix)`` the pages
    naming a family of codes (``PageIndex.family``); ``links`` the pages the changed code links
    to (``linked_pages``); ``outputs`` the output the tests' expectations lose (``expected_output``);
    ``said`` what the pull request's title and body say (``words.said_in``) and ``words`` the BM25
    statistics of the docs (``PageIndex.bm25``) to weigh its words with; ``added`` the files the
    pull request adds (``evidence.files.plan_new_files``)."""
    facts = list(facts)
    docs = Docs(find, read, total_pages or 0)
    if not total_pages:  # without a count, every page any term reaches stands for the docs
        docs.total = max(20, len({p for f in facts for p in docs.pages(docs.term(f.name))}))
    pages: dict[str, PlannedPage] = {}
    weak: dict[str, list[str]] = {}  # page -> why it is worth a look
    unaffected: list[str] = []

    def add(path: str, mode: str, confidence: float, reason: str, fact: Fact | None) -> None:
        page = pages.setdefault(path, PlannedPage(path, mode, confidence))
        if confidence > page.confidence:
            page.confidence, page.mode = confidence, mode
        if reason not in page.reasons:
            page.reasons.append(reason)
        if fact is not None and fact not in page.facts:
            page.facts.append(fact)

    def look(path: str, reason: str) -> None:
        reasons = weak.setdefault(path, [])
        if reason not in reasons:
            reasons.append(reason)

    # A name renamed and re-defaulted in one pull request: the pages still say the old name.
    was = {f.name: f.old for f in facts if f.change == "renamed" and f.old}

    for fact in facts:
        hits = _plan_fact(fact, docs, was, add, look)
        if hits is None:
            continue
        if not hits and fact.kind != "version":  # a new version is news only where the docs show it
            unaffected.append(f"{fact.describe()}: no docs page documents it"
                              + (" or its siblings" if fact.change == "added" else "") + " as specific code")
    if names is not None:
        plan_by_names(names.counts, docs, pages, add, look)
        if family is not None:
            plan_by_family(names.gained, docs, family, add)
            plan_family_losses(names.dropped, family, add)
        plan_by_neighbours(names.beside, docs, add)
    outputs = list(outputs)
    plan_by_output(outputs, docs, add)
    plan_new_files(added, docs, add)
    links = list(links)
    plan_links(links, add, look)
    # The author's words weigh only beside what the code says: a pull request whose code changes
    # nothing user-facing stays quiet however much its body tells.
    # A new version alone is no user-facing code: every release's pull request sets one.
    if said and words is not None and (any(f.kind != "version" for f in facts) or (names is not None and names.counts)
                                       or links or outputs):
        plan_by_words(said, words, docs, facts, names, pages, weak, add, look)
    ordered = sorted(pages.values(), key=lambda p: (-p.confidence, p.path))
    planned = {p.path for p in ordered}
    # One entry a page, however many weak signs point at it: a list to read, not a log.
    looks = [{"path": path, "reason": reasons[0] + (f" (and {len(reasons) - 1} more)" if len(reasons) > 1 else "")}
             for path, reasons in weak.items() if path not in planned]
    return Plan(ordered, unaffected, looks)
