"""Requirement statements: the sentences that say which versions of the language a project
supports ("Python 3.8+", "requires Python 3.8 or later", "Python >= 3.8").

Carries: the manifest's supported-version requirement changed (``requires-python``: a ``requirement``
fact's default). Every statement of the old minimum becomes the new one, in the same words
(``requirements.restated``); the rest of the line stays as it is.
"""

from __future__ import annotations

import re

from ..facts_model import Fact
from ..requirements import minimum, restated, statements
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
        at = [i for i in statements("\n".join(page.lines), fact.name, old)
              if not re.search(rf"(?<![\d.]){re.escape(new)}(?!\.?\d)", page.lines[i])]
        return restate(page, at, lambda line: restated(line, fact.name, old, new),
                       f"the supported {fact.name} version now starts at {new} (was {old}) "
                       "[rule: requirement statement restated]")
