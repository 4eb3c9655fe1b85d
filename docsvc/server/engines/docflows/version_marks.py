"""The line a page gives an item to say which release it came in, and the same line for a new one.

A page that marks some of its items so (``.. versionadded:: 8.4``, "NEW: **New in version
1.4.**", "*Introduced in 1.2.0*", "_First available in v3.5.0_") marks the items added since it
began to: a new item gets the mark of its siblings, with the release the change ships in
(``release``), written as the page writes versions. A mark is a line of its own that says nothing
else: "First available in v1.9.0, default changed in v2.0.0" is history, not a mark to copy; and
MyST's fenced ``{versionadded}`` is a block of lines, not a line, so it is not copied.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

from .release import in_form

__all__ = ["Mark", "mark_of", "first_mark"]

_VERSION = re.compile(r"(?<![\w.])v?\d+(?:\.\d+)+(?![\w-])")
_DIRECTIVE = re.compile(r"^\s*\.\.\s+versionadded::\s*v?\d+(?:\.\d+)+\s*$")
# What a mark says besides its version and markup: these words only.
_MARK_WORDS = {"new", "in", "version", "added", "introduced", "first", "available", "since"}


@dataclass(frozen=True)
class Mark:
    line: int  # where it stands (0-based)
    text: str  # the line as written
    version: str  # its version as written (``1.4``, ``v3.5.0``)

    def for_release(self, release: str) -> str:
        """The mark for an item that comes in ``release``."""
        return self.text.replace(self.version, in_form(self.version, release), 1)


def mark_of(line: str, index: int = 0) -> Mark | None:
    """The line as a version mark, when it is one."""
    versions = _VERSION.findall(line)
    if len(versions) != 1:
        return None
    if not _DIRECTIVE.match(line):
        words = re.findall(r"[A-Za-z]+", line.replace(versions[0], " "))
        if not words or not set(w.lower() for w in words) <= _MARK_WORDS or \
                not {"new", "added", "introduced", "available", "since"} & {w.lower() for w in words}:
            return None
    return Mark(index, line, versions[0])


def first_mark(lines: list[str], indices: Iterable[int]) -> Mark | None:
    """The first version mark among ``lines`` at these indices."""
    return next((m for i in indices for m in [mark_of(lines[i], i)] if m), None)
