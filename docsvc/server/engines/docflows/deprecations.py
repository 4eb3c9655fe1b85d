"""A pull request that adds a deprecation: the fact behind a project's deprecations page.

Projects that warn before they remove keep one page that lists what is deprecated and when it
goes (pytest's ``deprecations.rst``, goreleaser's ``deprecations.md``), and a change that starts
warning is expected to add its entry there. No option or setting need change for that: the code
gains a warning. Counted here across the change's code
files, so a warning moved from one file to another is no new one:

- Python: a ``DeprecationWarning``, ``PendingDeprecationWarning`` or ``FutureWarning``, a project's
  own ``...DeprecationWarning``/``...RemovedIn...Warning`` classes, an ``@deprecated`` decorator, a
  call to a ``deprecate``/``deprecated``/``warn_deprecated``-like helper;
- JavaScript/TypeScript: the same helpers (``util.deprecate(...)``), a ``@deprecated`` tag,
  ``'DeprecationWarning'`` given to ``process.emitWarning``;
- Go: a ``// Deprecated:`` comment (the language's convention), ``deprecate.Notice(...)``-like calls.

The pages it plans are those whose file name or title says they list deprecations; their
entry is a person's to write (what to use instead, when it goes), so they are planned for review.
A function that now warns is a fact of its own (``warned``): the pages naming it are planned.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import PurePosixPath

from .facts_model import WARNS, Fact
from .warned import codes_of, inserted_lines, warned_definitions

__all__ = ["Deprecations", "is_deprecations_page", "speaks_of_deprecations", "warnings_in"]

MAX_FILES = 200  # code files a change may have for its functions' warnings to be looked for

_WARNING = re.compile(r"""(?x)
    \b\w*Deprecat\w*Warning\b | \b\w*RemovedIn\w*Warning\b | \bFutureWarning\b
  | @deprecated\b
  | //\s*Deprecated:
  | \b(?:\w+_)?deprecat(?:e|ed|ion)(?:_\w+)?\s*\(      # deprecate(...), warn_deprecated(...)
  | \bdeprecat\w*\.\w+\s*\(                             # deprecate.Notice(...), deprecation.warn(...)
  | \b[A-Z]\w*Deprecation\b                          # a category: FastifyDeprecation
""")
_LIST = re.compile(r"(?i)^deprecat(?:ions|ed)(?![a-z])")  # a list of them, not the policy for them
_ABOUT = re.compile(r"(?i)deprecat")
TITLE_LINES = 12  # how far down a page its title is looked for (front matter first)


# A definition is no warning, whatever its name: pytest's ``def deprecated_call(`` checks for them.
_DEFINITION = re.compile(r"^\s*(?:export\s+)?(?:async\s+)?(?:def|function|func|fn)\b")


def warnings_in(text: str | None) -> Counter[str]:
    """The deprecation markers of a code file's text, each line stripped, with how often it stands."""
    if not text:
        return Counter()
    return Counter(line.strip() for line in text.split("\n") if _WARNING.search(line) and not _DEFINITION.match(line))


class Deprecations:
    """The deprecation markers a change's code files gain and lose, counted file by file
    (``count``), and the fact they make (``fact``)."""

    def __init__(self) -> None:
        self.gained: Counter[str] = Counter()
        self.lost: Counter[str] = Counter()
        self.first: dict[str, tuple[int, int]] = {}  # path -> (markers gained, line of the first)
        self.files: list[tuple[str, str | None, str]] = []  # (path, old, new) of the code files changed

    def count(self, path: str, old: str | None, new: str | None) -> None:
        if new is not None:
            self.files.append((path, old, new))
        before, after = warnings_in(old), warnings_in(new)
        added = after - before
        self.gained += added
        self.lost += before - after
        if added:
            line = next(n for n, text in enumerate((new or "").split("\n"), 1) if text.strip() in added)
            self.first[path] = (sum(added.values()), line)

    def fact(self) -> Fact | None:
        """One fact when the files gained markers that no file lost: named by the file that gained
        the most, at its first new marker."""
        if not self.first or not self.gained - self.lost:  # moved, or one warning for another
            return None
        path = max(self.first, key=lambda p: (self.first[p][0], p))
        return Fact("deprecation", "added", path, path, "deprecation warning added", line=self.first[path][1])

    def warned(self) -> list[Fact]:
        """A fact (``deprecated``) per public function or setting that a new marker, or a line
        emitting a code a new marker defines, now makes warn (``warned``)."""
        new_markers = self.gained - self.lost  # a marker only moved deprecates nothing new
        if not new_markers or len(self.files) > MAX_FILES:
            return []
        codes = codes_of(new_markers)
        facts: list[Fact] = []
        for path, old, new in self.files:
            warning = {n for n, row in enumerate(new.split("\n"), 1)
                       if row.strip() in new_markers or any(code in row for code in codes)}
            if not warning:  # most files: no line diff to compute
                continue
            lines = [n for n in inserted_lines(old, new) if n in warning]
            facts += [Fact(kind, "deprecated", name, path, WARNS, line=line)
                      for kind, name, line in warned_definitions(path, new, lines)]
        return facts


def is_deprecations_page(path: str, text: str) -> bool:
    """Whether a page is the project's list of deprecations: its file name or its title starts
    with "Deprecations" or "Deprecated" (``deprecations.rst``, "Deprecated features"; not
    ``old-deprecations.md``, the ones gone by, nor a "Deprecation policy")."""
    return any(_LIST.match(name) for name in (PurePosixPath(path).stem, _title(text)))


def speaks_of_deprecations(path: str, text: str) -> bool:
    """Whether a page is about deprecated things, by its file name or its title: the list of
    them, the ones gone by (``old-deprecations.md``), the policy. No place for a new name, however
    many of its siblings it names (the old keys it lists are siblings too)."""
    return any(_ABOUT.search(name) for name in (PurePosixPath(path).stem, _title(text)))


def _title(text: str) -> str:
    """A page's title: its first Markdown heading or front matter ``title:``, else the first
    reStructuredText line over an underline; "" when none stands in its first lines."""
    head = text.split("\n", TITLE_LINES)[:TITLE_LINES]  # not the whole page: asked of many pages
    title = next((line for line in head if line.startswith(("# ", "title:"))), None)
    if title is None:
        lines = [line for line in head if line.strip()]
        title = next((a for a, b in zip(lines, lines[1:]) if re.fullmatch(r"([=\-~^*#])\1{2,}", b.strip())), "")
    return re.sub(r"^(?:#\s+|title:\s*['\"]?)", "", title.strip())
