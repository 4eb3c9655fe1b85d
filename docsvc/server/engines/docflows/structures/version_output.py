"""Version output: what the project's own program prints when asked for its version, shown in a
code block (``$ http --version`` then ``# 3.0.0``).

Carries: the project's declared version set anew (a ``version`` fact: old → new, its siblings the
program names, ``version_output.programs``). The version such output shows becomes the new one,
whatever version it showed before (output left stale by earlier releases is as wrong); the rest of
the line stays as it is.
"""

from __future__ import annotations

from ..facts_model import Fact
from ..version_output import restated, shown
from .base import Page, Structure
from .common import restate

__all__ = ["VersionOutput"]


class VersionOutput(Structure):
    name = "version output"
    carries = "the project's version set anew: the version its program's --version output shows"

    def takes(self, fact: Fact) -> bool:
        return fact.kind == "version" and fact.change == "default-changed" and bool(fact.new)

    def write(self, fact: Fact, page: Page) -> bool:
        return restate(page, shown("\n".join(page.lines), fact.siblings), lambda line: restated(line, fact.new),
                       f"the version {fact.siblings[0]} prints is now {fact.new} [rule: version output restated]")
