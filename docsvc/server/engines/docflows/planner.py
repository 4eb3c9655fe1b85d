"""The Information Architect stage of Docflows: which docs pages change, why, and how surely.

Rule-based (a language model may replace it later). Direct: a page mentions a name the pull
request removes or renames, or a setting whose default it changes. Conceptual: a page documents
siblings of an added name (other flags of the same command, other keys of the same file). When no
page is affected the plan says "no documentation change needed", with a reason per fact.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable, Iterable

from .facts import Fact

__all__ = ["PlannedPage", "Plan", "plan", "mentions"]

NO_CHANGE = "no documentation change needed"
# Kinds whose siblings are documented together (a command's flags, a file's settings); a
# module's other functions say nothing about where a new function belongs.
CONCEPTUAL_KINDS = ("flag", "env", "config", "route", "operation", "parameter")


@dataclass
class PlannedPage:
    path: str
    mode: str  # direct | conceptual
    confidence: float
    reasons: list[str] = field(default_factory=list)
    facts: list[Fact] = field(default_factory=list)


@dataclass
class Plan:
    pages: list[PlannedPage]
    unaffected: list[str]  # per fact with no page: why

    @property
    def verdict(self) -> str:
        return "documentation change planned" if self.pages else NO_CHANGE


def _term(name: str) -> str:
    """What a page would say: a route's path, a parameter's name, else the name itself."""
    if " " in name:
        last = name.split(" ")[-1]
        return last.split(":", 1)[-1] if ":" in last else last
    return name


def mentions(text: str, term: str) -> list[int]:
    """Lines (1-based) where ``term`` stands as a whole word (``--force`` but not ``--forced``)."""
    pattern = re.compile(rf"(?<![\w-]){re.escape(term)}(?![\w-])")
    return [n for n, line in enumerate(text.split("\n"), 1) if pattern.search(line)]


def _plain(value: str | None) -> str | None:
    return value.strip().strip("'\"`") if value else value


def plan(facts: Iterable[Fact], find: Callable[[str], list[str]], read: Callable[[str], str | None]) -> Plan:
    """``find(term)`` gives candidate pages from the docs index; ``read(path)`` their text."""
    pages: dict[str, PlannedPage] = {}
    unaffected: list[str] = []

    def add(path: str, mode: str, confidence: float, reason: str, fact: Fact) -> None:
        page = pages.setdefault(path, PlannedPage(path, mode, confidence))
        if confidence > page.confidence:
            page.confidence, page.mode = confidence, mode
        page.reasons.append(reason)
        if fact not in page.facts:
            page.facts.append(fact)

    def pages_mentioning(term: str) -> list[tuple[str, list[int]]]:
        found = []
        for path in dict.fromkeys(find(term)):
            text = read(path)
            lines = mentions(text, term) if text else []
            if lines:
                found.append((path, lines))
        return found

    for fact in facts:
        hits = 0
        if fact.change in ("renamed", "removed"):
            old = _term(fact.old if fact.change == "renamed" else fact.name)
            action = f"renames it to {_term(fact.name)}" if fact.change == "renamed" else "removes it"
            for path, lines in pages_mentioning(old):
                add(path, "direct", 0.9, f"mentions {old} (line {lines[0]}); the pull request {action} "
                                         f"[{fact.rule}]", fact)
                hits += 1
        elif fact.change == "default-changed":
            name, old = _term(fact.name), _plain(fact.old)
            for path, lines in pages_mentioning(name):
                text = read(path) or ""
                with_value = [n for n in lines if old and old in text.split("\n")[n - 1]]
                confidence = 0.8 if with_value else 0.5
                where = with_value[0] if with_value else lines[0]
                add(path, "direct", confidence, f"documents {name} (line {where}); its default changes "
                                                f"{old} → {_plain(fact.new)} [{fact.rule}]", fact)
                hits += 1
        elif fact.change == "added" and fact.kind in CONCEPTUAL_KINDS:
            for sibling in fact.siblings:
                for path, lines in pages_mentioning(_term(sibling)):
                    add(path, "conceptual", 0.6, f"documents {_term(sibling)} (line {lines[0]}), another "
                                                 f"{fact.kind} of {fact.path}; {_term(fact.name)} is new beside it "
                                                 f"[{fact.rule}]", fact)
                    hits += 1
        if not hits:
            unaffected.append(f"{fact.describe()}: no docs page mentions it"
                              + (" or its siblings" if fact.change == "added" else ""))
    ordered = sorted(pages.values(), key=lambda p: (-p.confidence, p.path))
    return Plan(ordered, unaffected)
