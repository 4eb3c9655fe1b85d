"""Version output: what the project's own program prints when asked for its version, shown in a
code block (``$ http --version`` then ``# 3.0.0``).

Carries: the project's declared version set anew (a ``version`` fact: old → new, its siblings the
program names, ``version_output.programs``). Output that showed the version before the pull request
(``version_output.current``) shows the new one, the rest of the line as it was; output that showed
another version was stale before the pull request, and is pointed out, not rewritten (the maintainers
may keep an old example's output on purpose).
"""

from __future__ import annotations

from ..facts_model import Fact
from ..version_output import VERSION, restated, shown
from .base import Page, Structure
from .common import restate

__all__ = ["VersionOutput"]


class VersionOutput(Structure):
    name = "version output"
    carries = "the project's version set anew: the version its program's --version output shows"

    def takes(self, fact: Fact) -> bool:
        return fact.kind == "version" and fact.change == "default-changed" and bool(fact.new)

    def write(self, fact: Fact, page: Page) -> bool:
        text = "\n".join(page.lines)
        now = shown(text, fact.siblings, fact.old)
        for i in (i for i in shown(text, fact.siblings) if i not in now):
            page.draft.open_points.append(
                f"{page.path}: line {i + 1} shows {fact.siblings[0]} printing {VERSION.search(page.lines[i]).group(0)}, "
                f"not {fact.old}, the version before the pull request: stale before it, so not rewritten; check "
                f"whether it should show {fact.new}")
        return restate(page, now, lambda line: restated(line, fact.new),
                       f"the version {fact.siblings[0]} prints is now {fact.new} [rule: version output restated]")
