"""Supported-version statements: what a project requires of the language it runs on, as its
manifest says it (``requires-python = ">=3.9"``, ``python_requires``, ``package.json``'s
``engines.node``, ``go.mod``'s ``go`` directive) and as its docs state it in prose ("Python 3.9+",
"Python 3.9 or later", "requires Python >= 3.9", "Node.js 18 or newer", "at least Go 1.21").

Shared by the planner (which pages state the old minimum) and the Writer's ``requirements``
structure (which writes the new one in the same words).
"""

from __future__ import annotations

import re

__all__ = ["LANGUAGES", "minimum", "statements", "restated"]

# The requirement's name in the facts -> how pages name the language, and the words to find them by
LANGUAGES = {"python": (r"Python|CPython", ("Python", "python", "CPython")),
             "node": (r"Node(?:\.js|JS)?", ("Node", "node", "NodeJS", "js")),
             "go": (r"Go(?:lang)?", ("Go", "Golang"))}
_SPEC = re.compile(r"^\s*(?:>=|~=|\^|==|>)?\s*v?(\d+(?:\.\d+)*)")


def minimum(spec: str | None) -> str | None:
    """The lowest version a requirement admits, as people write it: ``>=3.9`` → ``3.9``,
    ``>=3.8,<4`` → ``3.8``; None for a spec that names no lower bound."""
    if not spec:
        return None
    for part in spec.strip().strip("'\"").split(","):
        part = part.strip()
        if part.startswith(("<", "!=")):
            continue
        match = _SPEC.match(part)
        if match:
            parts = match.group(1).split(".")
            while len(parts) > 1 and parts[-1] == "0":  # ">=18.0.0" is said "Node.js 18"
                parts.pop()
            return ".".join(parts)
    return None


def _pattern(language: str, version: str) -> re.Pattern:
    """A statement of ``version`` as the minimum of the language: the version is group 1."""
    named = LANGUAGES[language][0] if language in LANGUAGES else re.escape(language)
    v = re.escape(version)
    return re.compile(
        rf"(?:\b(?:{named})\s*(?:version\s*|>=\s*|≥\s*)?({v})(?!\.?\d)(?=\s*(?:\+|or\s+(?:later|newer|higher|above|"
        rf"greater)|and\s+(?:later|newer|higher|above|up)|\)|\s*$|[,.;:]?\s)))"
        rf"|(?:\b(?:at\s+least|requires?|minimum(?:\s+version)?(?:\s+of)?|supports?)\s+(?:{named})\s*(?:>=\s*)?"
        rf"({v})(?!\.?\d))", re.IGNORECASE)


def statements(text: str, language: str, version: str) -> list[int]:
    """The lines (0-based) that state ``version`` as the language's minimum: "Python 3.8+",
    "Python 3.8 or later", "requires Python 3.8", "Python >= 3.8"; a bare "Python 3.8" counts only
    when the line says it is the minimum (+, or later, at least, requires, ...)."""
    pattern, out = _pattern(language, version), []
    minimal = re.compile(r"(?i)\+|or\s+(?:later|newer|higher|above|greater)|and\s+(?:later|newer|higher|above|up)|"
                         r"at\s+least|requires?|minimum|>=|≥|supports?")
    for i, line in enumerate(text.split("\n")):
        for match in pattern.finditer(line):
            if minimal.search(line[max(0, match.start() - 40):match.end() + 20]):
                out.append(i)
                break
    return out


def restated(line: str, language: str, old: str, new: str) -> str:
    """The line with the language's minimum ``old`` written as ``new``, in the same words."""
    def swap(match: re.Match) -> str:
        group = 1 if match.group(1) is not None else 2
        start, end = match.span(group)
        whole = match.group(0)
        offset = match.start()
        return whole[:start - offset] + new + whole[end - offset:]
    return _pattern(language, old).sub(swap, line)
