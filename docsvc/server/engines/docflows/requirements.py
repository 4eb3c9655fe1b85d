"""Supported-version statements: what a project requires of the language it runs on, as its
manifest says it (``requires-python = ">=3.9"``, ``python_requires``, ``package.json``'s
``engines.node``, ``go.mod``'s ``go`` directive) and as its docs state it in prose ("Python 3.9+",
"Python 3.9 or later", "requires Python >= 3.9", "Node.js 18 or newer", "at least Go 1.21").

Shared by the planner (which pages state the old minimum) and the Writer's ``requirements``
structure (which writes the new one in the same words). Only a statement of the old minimum is made
stale by the pull request; one of a lower minimum was stale before it (``stale``), and is pointed
out, not rewritten.
"""

from __future__ import annotations

import re

__all__ = ["LANGUAGES", "minimum", "statements", "restated", "stale"]

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


_ANY = r"\d+(?:\.\d+)*"  # any version, for the statements that state another minimum


def _pattern(language: str, version: str | None) -> re.Pattern:
    """A mention of ``version`` of the language (None: of any version), as a minimum may be
    written: the version is group 1 ("Python 3.8+", "Python >= 3.8") or group 2 ("at least
    Python 3.8")."""
    named = LANGUAGES[language][0] if language in LANGUAGES else re.escape(language)
    v = _ANY if version is None else re.escape(version)
    return re.compile(
        rf"(?:\b(?:{named})\s*(?:version\s*|>=\s*|≥\s*)?({v})(?!\.?\d)(?=\s*(?:\+|or\s+(?:later|newer|higher|above|"
        rf"greater)|and\s+(?:later|newer|higher|above|up)|\)|\s*$|[,.;:]?\s)))"
        rf"|(?:\b(?:at\s+least|requires?|required|needs?|minimum(?:\s+version)?(?:\s+of)?)\s+(?:{named})\s*(?:>=\s*)?"
        rf"({v})(?!\.?\d))", re.IGNORECASE)


# Words that make a mention a minimum: "3.8+", "or later", "at least", "requires", ">="
_MINIMUM = re.compile(r"(?i)\+|or\s+(?:later|newer|higher|above|greater)|and\s+(?:later|newer|higher|above|up)|"
                      r"at\s+least|requires?|required|needs?|minimum|>=|≥")
# "In Python 3.7 and later you no longer get ...": the language's history, not the project's requirement
_HISTORY = re.compile(r"(?i)\b(?:in|since|as\s+of|from|starting(?:\s+(?:with|in|from))?|before|until|prior\s+to|"
                      r"on)\s+$")
# "Python 3.8-3.11", "3.8 through 3.11": a span, whose ends a person rewords together
_SPAN = re.compile(r"(?i)^\s*(?:-|–|—|to\b|through\b|thru\b)\s*\d")


def _stated(line: str, language: str, version: str | None) -> list[re.Match]:
    """The mentions of ``version`` on the line that state it as the language's minimum the project
    requires: a minimum's words beside it, no span, no history of the language."""
    out = []
    for match in _pattern(language, version).finditer(line):
        group = 1 if match.group(1) is not None else 2
        if _SPAN.match(line[match.end(group):]) or _HISTORY.search(line[:match.start()]):
            continue
        if _MINIMUM.search(line[max(0, match.start() - 30):match.end() + 20]):
            out.append(match)
    return out


def statements(text: str, language: str, version: str) -> list[int]:
    """The lines (0-based) that state ``version`` as the language's minimum: "Python 3.8+",
    "Python 3.8 or later", "requires Python 3.8", "Python >= 3.8", "at least Python 3.8"; not
    "In Python 3.7 and later ..." (the language's history) or "Python 3.8-3.11" (a span)."""
    return [i for i, line in enumerate(text.split("\n")) if _stated(line, language, version)]


def _key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def stale(text: str, language: str, old: str) -> list[tuple[int, str]]:
    """The lines (0-based) that state a lower minimum of the language than ``old``, with that
    version: stale before a pull request that moves the minimum from ``old``. "Python 3+" under
    ``3.8`` is less precise, not wrong."""
    out = []
    for i, line in enumerate(text.split("\n")):
        for match in _stated(line, language, None):
            version = match.group(1) or match.group(2)
            if _key(version) < _key(old) and _key(old)[:len(_key(version))] != _key(version):
                out.append((i, version))
                break
    return out


def restated(line: str, language: str, old: str, new: str) -> str:
    """The line with each statement of the language's minimum ``old`` written as ``new``, in the
    same words; its other mentions of the version stay."""
    for match in reversed(_stated(line, language, old)):
        group = 1 if match.group(1) is not None else 2
        line = line[:match.start(group)] + new + line[match.end(group):]
    return line
