"""Signatures: the calls a page shows of a function or method that loses a parameter.

Carries: a parameter removed from a public function's or method's signature. The page keeps
working code only if its calls stop passing it: each call of the function (``send(``, a
signature written out as ``Client.send(request, stream=False)`` too) that passes the parameter
by its name is pointed out, line by line. A call that passes it by position cannot be told from
the text, and is left to the mentions ``removals`` lists.
"""

from __future__ import annotations

import re

from ..facts_model import Fact, owner_of, token
from .base import Page, Structure

__all__ = ["Signatures"]

MAX_CALL_LINES = 12  # how far a call's arguments may run below its opening parenthesis


def _call_text(lines: list[str], at: int, start: int) -> tuple[str, int]:
    """The text of the call that opens at ``lines[at][start]`` (its ``(``) up to its closing
    parenthesis, and the line it ends on."""
    depth, text = 0, []
    for i in range(at, min(len(lines), at + MAX_CALL_LINES)):
        chunk = lines[i][start:] if i == at else lines[i]
        for n, char in enumerate(chunk):
            depth += {"(": 1, ")": -1}.get(char, 0)
            if depth == 0:
                return "\n".join(text + [chunk[:n + 1]]), i
        text.append(chunk)
    return "\n".join(text), at


def calls_passing(lines: list[str], function: str, parameter: str) -> list[int]:
    """The 0-based lines where a call of ``function`` (its last dotted part) starts that passes
    ``parameter`` by name."""
    opening = re.compile(rf"(?<![\w]){re.escape(function)}\s*\(")
    keyword = re.compile(rf"(?<![\w.]){re.escape(parameter)}\s*=(?!=)")
    found = []
    for at, line in enumerate(lines):
        for match in opening.finditer(line):
            text, _ = _call_text(lines, at, match.end() - 1)
            if keyword.search(text):
                found.append(at)
                break
    return found


class Signatures(Structure):
    name = "signatures"
    carries = "a parameter dropped from a public signature: the calls the page shows that pass it, pointed out"

    def takes(self, fact: Fact) -> bool:
        return fact.kind == "parameter" and fact.change == "removed" and owner_of(fact.name) is not None

    def write(self, fact: Fact, page: Page) -> bool:
        owner, parameter = owner_of(fact.name), token(fact.name)
        found = calls_passing(page.lines, owner.rsplit(".", 1)[-1], parameter)
        for at in found:
            page.draft.open_points.append(
                f"{page.path}:{at + 1}: this call of {owner} passes {parameter}, which the pull request drops "
                f"from its signature: update the call [rule: changed signature]")
        return bool(found)
