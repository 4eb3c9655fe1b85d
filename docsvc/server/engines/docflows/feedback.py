"""A reviewer's feedback read by the rule-based Writer (request-changes).

Instructions it reads, one per line or sentence (quotes optional): ``replace "X" with "Y"``,
``remove "X"`` (a table row or list item holding X, else the words), ``add "TEXT" after
"HEADING"``, ``rename section "X" to "Y"``. Anything else is reported as not applied, plainly.
"""

from __future__ import annotations

import re

__all__ = ["instructions", "apply"]

_QUOTED = r"[\"“'`]?(.+?)[\"”'`]?"
_RULES = [
    ("replace", re.compile(rf"^replace\s+{_QUOTED}\s+(?:with|by)\s+{_QUOTED}$", re.I)),
    ("rename-section", re.compile(rf"^rename\s+(?:the\s+)?section\s+{_QUOTED}\s+to\s+{_QUOTED}$", re.I)),
    ("add-after", re.compile(rf"^add\s+{_QUOTED}\s+after\s+(?:the\s+)?(?:heading\s+|section\s+)?{_QUOTED}$", re.I)),
    ("remove", re.compile(rf"^(?:remove|delete)\s+{_QUOTED}$", re.I)),
]


def instructions(feedback: str) -> list[str]:
    parts = re.split(r"\n+|;\s*|(?<=[\"”'`.])\s*\.\s+(?=[A-Z])", feedback)
    return [p.strip().rstrip(".") for p in parts if p.strip().rstrip(".")]


def apply(instruction: str, text: str) -> tuple[str, bool]:
    for name, pattern in _RULES:
        match = pattern.match(instruction)
        if not match:
            continue
        if name == "replace":
            old, new = match.groups()
            return (text.replace(old, new), old in text)
        if name == "rename-section":
            old, new = match.groups()
            heading = re.compile(rf"^(#{{1,6}}\s+){re.escape(old)}\s*$", re.M)
            return (heading.sub(lambda m: m.group(1) + new, text), bool(heading.search(text)))
        if name == "add-after":
            addition, title = match.groups()
            heading = re.compile(rf"^#{{1,6}}\s+{re.escape(title)}\s*$", re.M)
            found = heading.search(text)
            if not found:
                return text, False
            end = found.end()
            return (text[:end] + f"\n\n{addition}" + text[end:], True)
        if name == "remove":
            (target,) = match.groups()
            lines = text.split("\n")
            kept = [line for line in lines if not (target in line and re.match(r"^\s*(\||[-*+]\s|\d+[.)]\s)", line))]
            if len(kept) != len(lines):
                return "\n".join(kept), True
            return (text.replace(target, ""), target in text)
    return text, False
