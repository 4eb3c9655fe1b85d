"""A new name's description from the pull request's title, where the code gives none.

A pull request that adds one name of a kind (a preview feature, an option, a setting) and whose
title says most of that name's words is about that name: its title is what the author would have
written as its help text (black's ``remove_redundant_generator_parentheses``, titled "Remove
redundant generator parentheses"). The title is cleaned of what only a pull request's title
carries (a ``fix:`` or ``feat(x):`` prefix, an emoji, a ``[tag]``, the ``(#123)`` of its number).
A title that says half of the name's words or fewer describes something else: no description then.
"""

from __future__ import annotations

import re
from typing import Iterable

from .facts_model import Fact, token

__all__ = ["described_by_title"]

_PREFIX = re.compile(r"^(?:\s*(?:\[[^\]]*\]|:[a-z_]+:|[^\w\s`\"'(\[]+|(?:feat|fix|chore|docs|refactor|perf|"
                     r"style|test|build|ci|revert)(?:\([^)]*\))?!?:))+\s*", re.IGNORECASE)
_NUMBER = re.compile(r"\s*\((?:#|GH-)\d+\)\s*$", re.IGNORECASE)
_WORD = re.compile(r"[A-Za-z]+")
STEM = 5  # words compared by their first letters: "parens" and "parentheses", "item" and "items"


def _words(text: str) -> set[str]:
    """Lower-cased words of a name or a title, camelCase and snake_case split, each by its stem."""
    split = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", text)
    return {w.lower()[:STEM] for w in _WORD.findall(split) if len(w) > 2}


def cleaned(title: str) -> str:
    """The title without what only a pull request's title carries, as a sentence."""
    text = _NUMBER.sub("", _PREFIX.sub("", title.strip())).strip()
    if not text:
        return ""
    text = text[:1].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


def described_by_title(fact: Fact, title: str | None, facts: Iterable[Fact]) -> str | None:
    """The title as ``fact``'s description (``cleaned``), when the fact is a name the pull request
    adds without help text, the only one of its kind it adds, and the title says most of its words."""
    if not title or fact.note or fact.change != "added":
        return None
    if len({token(f.name) for f in facts if f.change == "added" and f.kind == fact.kind}) != 1:
        return None
    name = _words(token(fact.name))
    # more than half of them: "Deprecate google_analytics" says one word of two of ``analytics.gtag``
    if not name or 2 * len(name & _words(title)) <= len(name):
        return None
    return cleaned(title) or None
