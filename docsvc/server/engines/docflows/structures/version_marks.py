"""Version marks: the line that says which release an item came in, changed in or was deprecated
in (``.. versionadded:: 8.4``, "*Introduced in 1.2.0*", ``.. deprecated::``).

Carries: added (a new directive gets its siblings' mark with the release the change ships in, when
the code says which; else an open point) and deprecated (an option the code now declares
deprecated gets a deprecation mark in its entry: ``.. deprecated:: X`` at the end of its directive's
body or under the heading of its own section, or the Markdown form the page already uses for one
(MyST's fenced ``{deprecated}``, a line "*Deprecated in 2.1*"), with the release the change ships
in written as the page writes versions; where there is no entry to mark, no form to copy or no
release known, the places it is documented are pointed out).
"""

from __future__ import annotations

import re

from ..evidence.docs import mentions, spoken
from ..facts_model import MARKED, Fact
from ..new_section import titled_by
from ..release import in_form
from ..structure import Block, blocks, is_rst
from ..version_marks import Mark, first_mark
from .base import Draft, Page, Structure
from .common import _OPTION_LINE, _about_blocks, _said


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


_VERSION = re.compile(r"v?\d+(?:\.\d+)+")
_RST_MARK = re.compile(r"^\s*\.\.\s+(?:versionadded|versionchanged|deprecated)::\s*(v?\d+(?:\.\d+)+)")
# MyST's fenced directive (```{deprecated} 2.1, :::{deprecated} 2.1) and a Markdown line of its own
_MYST_MARK = re.compile(r"^(\s*)(`{3,}|:{3,})\{deprecated\}\s*(v?\d+(?:\.\d+)+)\s*$")
_MD_MARK = re.compile(r"^\s*[*_]{0,2}(?:Deprecated|DEPRECATED)(?: (?:in|since)(?: version)?)?:? "
                      r"[*_]{0,2}(v?\d+(?:\.\d+)+)[.*_]{0,3}\s*$")


def _deprecation_lines(lines: list[str], rst: bool, release: str, indent: str) -> list[str] | None:
    """The deprecation mark for ``release`` in the form the page writes marks, or None when a
    Markdown page has no form of its own to copy."""
    if rst:
        written = next((m.group(1) for line in lines if (m := _RST_MARK.match(line))), release)
        return [f"{indent}.. deprecated:: {in_form(written, release)}"]
    for line in lines:
        myst = _MYST_MARK.match(line)
        if myst:
            return [f"{indent}{myst.group(2)}{{deprecated}} {in_form(myst.group(3), release)}", indent + myst.group(2)]
        plain = _MD_MARK.match(line)
        if plain:
            version = plain.group(1)
            return [indent + line.strip().replace(version, in_form(version, release), 1)]
    return None


class DeprecationMarks(Structure):
    name = "version marks"
    carries = "an option declared deprecated: a deprecation mark in its entry, in the page's form"

    def takes(self, fact: Fact) -> bool:
        return fact.change == "deprecated" and fact.rule.endswith(MARKED)

    def write(self, fact: Fact, page: Page) -> bool:
        lines, rst = page.lines, is_rst(page.path)
        name = spoken(fact.name, _said(lines))
        found = blocks(page.path, "\n".join(lines))
        entries = [b for b in _about_blocks(found, lines, name) if b.kind == "directive" and rst] + \
            [s for s in titled_by(found, name) if not any(o.start in range(s.start + 1, s.end)
                                                          for o in found if o.kind == "section")]
        entries = [b for b in entries if not any("deprecat" in lines[i].lower() for i in range(b.start, b.end))]
        marked = 0
        if page.release:
            for entry in sorted(entries, key=lambda b: -b.start):
                at, indent = self._place(lines, entry, rst)
                mark = _deprecation_lines(lines, rst, page.release, indent)
                if mark is None:
                    break
                lines[at:at] = ["", *mark] + ([""] if at < len(lines) and lines[at].strip() else [])
                marked += 1
        if marked:
            page.draft.notes.append(f"{page.path}: marked {name} deprecated in {page.release} ({marked} place(s)) "
                                    "[rule: deprecation mark in its entry, in the page's form]")
            return True
        left = mentions("\n".join(lines), name)
        if left:
            why = "" if page.release else " (the code does not say which release the change ships in)"
            page.draft.open_points.append(f"{page.path}: {name} is now deprecated (line(s) "
                                          f"{', '.join(map(str, left[:5]))}): say so where it is documented{why}")
        return True

    @staticmethod
    def _place(lines: list[str], entry: Block, rst: bool) -> tuple[int, str]:
        """Where a mark goes in an entry, and its indentation: at the end of a directive's body,
        indented as the body; right under a section's heading."""
        if entry.kind == "directive":
            body = [line for line in lines[entry.start + 1:entry.end] if line.strip()]
            lead = lines[entry.start][:len(lines[entry.start]) - len(lines[entry.start].lstrip())]
            indent = body[0][:len(body[0]) - len(body[0].lstrip())] if body else lead + "   "
            return entry.end, indent
        return entry.start + (2 if rst else 1), ""
