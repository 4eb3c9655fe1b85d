"""Version marks: the line that says which release an item came in, changed in or was deprecated
in (``.. versionadded:: 8.4``, "*Introduced in 1.2.0*", ``.. deprecated::``).

Carries: added (a new directive gets its siblings' mark with the release the change ships in, when
the code says which; else an open point).
"""

from __future__ import annotations

from ..structure import Block
from ..version_marks import Mark, first_mark
from .base import Draft
from .common import _OPTION_LINE


def _directive_mark(lines: list[str], directives: list[Block]) -> tuple[Mark, bool] | None:
    """The first version mark in these directives' bodies (``.. versionadded:: 8.4``), and whether
    it stands before the body's text (its options aside)."""
    for block in directives:
        mark = first_mark(lines, range(block.start + 1, block.end))
        if mark is not None:
            return mark, not any(lines[i].strip() and not _OPTION_LINE.match(lines[i])
                                 for i in range(block.start + 1, mark.line))
    return None


def _with_mark(new: list[str], mark: str, before: bool) -> list[str]:
    """A new directive with its version mark in its body: before its text (after the blank line
    that ends its options) or after everything, as the sibling has it."""
    if before and "" in new:
        at = new.index("") + 1
        return new[:at] + [mark, ""] + new[at:]
    return new + ["", mark]


def _unmarked(mark: Mark | None, release: str | None, path: str, name: str, draft: Draft) -> None:
    """An open point where the siblings of a new item mark the release they came in and the code
    does not say which release this change ships in (``release``)."""
    if mark is not None and release is None:
        draft.open_points.append(f"{path}: {name} is new and its siblings say the release they came in "
                                 f"({mark.text.strip()}): mark it with the release this change ships in")
