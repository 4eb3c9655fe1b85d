"""Requirement statements: the sentences that say which versions of the language a project
supports ("Python 3.8+", "requires Python 3.8 or later", "Python >= 3.8").

Carries: the manifest's supported-version requirement changed (``requires-python``: a ``requirement``
fact's default). Every statement of the old minimum becomes the new one, in the same words
(``requirements.restated``); the rest of the line stays as it is. A statement of a lower minimum was
stale before the pull request: it is pointed out, not rewritten (``requirements.stale``).
"""

from __future__ import annotations

import re

from ..facts_model import Fact
from ..requirements import minimum, restated, stale, statements
from .base import Page, Structure
from .common import restate

__all__ = ["Requirements"]


class Requirements(Structure):
    name = "requirement statements"
    carries = "the supported language version raised or lowered: its statements restated"

    def takes(self, fact: Fact) -> bool:
        return fact.kind == "requirement" and fact.change == "default-changed"

    def write(self, fact: Fact, page: Page) -> bool:
        old, new = minimum(fact.old), minimum(fact.new)
        if not old or not new or old == new:
            return False
        # A line that names the new version already lists versions ("3.8, 3.9 and 3.10"): a person's
        # list to reword, not a minimum to restate.
        text = "\n".join(page.lines)
        at = [i for i in statements(text, fact.name, old)
              if not re.search(rf"(?<![\d.]){re.escape(new)}(?!\.?\d)", page.lines[i])]
        for i, version in stale(text, fact.name, old):
            page.draft.open_points.append(
                f"{page.path}: line {i + 1} states {fact.name} {version} as the minimum, not {old}, the one before "
                f"the pull request: stale before it, so not rewritten; check whether it should say {new}")
        return restate(page, at, lambda line: restated(line, fact.name, old, new),
                       f"the supported {fact.name} version now starts at {new} (was {old}) "
                       "[rule: requirement statement restated]")
