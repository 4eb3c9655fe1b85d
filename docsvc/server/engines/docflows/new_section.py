"""A new setting's own section, shaped like a sibling's, for pages that document each setting under
a heading of its name (``### `installer.max-workers```, ``## build.cssTarget``, ``edit_uri`` with
its underline).

The new section copies the heading (its level, markup and any prefix: ``build.``) and, of the
sibling's field lines (``**Default**: `x```, ``- **Type:** `boolean```, ``+ Default: `x```), only
those the code answers for the new name: its default; its type when the sibling's is a boolean and
so is the new default; a field that spells the sibling's name in another form
(``POETRY_INSTALLER_MAX_WORKERS``), spelled so for the new one. The description is the code's
help text, where the sibling's prose stands. Nothing else is copied: the sibling's prose, notes,
examples and "introduced in" lines are its own. Without a default or a help text there is nothing
to say, and no section is made.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .planner import spellings
from .structure import Block, is_underline

__all__ = ["SectionModel", "titled_by", "shaped_section", "section_end", "heading_start", "states_a_default"]

# A field line: a label, bold or after a list marker or a reST field list's colon, a colon, a value.
_FIELD = re.compile(r"^(?P<lead>\s*(?:[-*+]\s+(?:[*_]{2})?|[*_]{2}|:)(?P<label>[A-Za-z][A-Za-z ]{0,30}?)"
                    r"(?:[*_]{2})?\s*:\s*(?:[*_]{2})?\s*)(?P<value>\S.*)$")
_CODE_VALUE = re.compile(r"`([^`]+)`")
_ATTRIBUTES = re.compile(r"\s*\{[^{}]*\}\s*$")  # `{ #anchor }` after a heading's title
# What stands just before a heading and belongs to it: a label or an anchor.
_LABEL = re.compile(r"^\s*(?:\([\w.-]+\)=|<a\s+(?:id|name)=\"[^\"]*\">\s*</a>|\.\.\s+_[^:]+:)\s*$")
_BOOLEANS = ("true", "false")


@dataclass(frozen=True)
class SectionModel:
    section: Block  # a sibling's section
    term: str  # the sibling's name as its title says it
    rank: int  # its place among the new name's siblings in the code (0: the nearest)
    shortened: bool  # the title says a dotted name's last part only (``cssTarget`` of ``build.cssTarget``)


def _title(text: str) -> str:
    return _ATTRIBUTES.sub("", text).strip().strip("`*_").strip()


def titled_by(found: list[Block], term: str) -> list[Block]:
    """The sections whose title is ``term`` alone, as code or not, or ends with it after a dot
    (``build.cssTarget`` for ``cssTarget``)."""
    return [b for b in found if b.kind == "section" and
            (_title(b.name) == term or _title(b.name).endswith("." + term))]


def section_end(lines: list[str], section: Block) -> int:
    """Where a section's own text ends: before its trailing blank lines and before the label or
    anchor that belongs to the heading after it."""
    end = section.end
    while end > section.start + 1 and (not lines[end - 1].strip() or _LABEL.match(lines[end - 1])
                                       or (end == section.end and is_underline(lines[end - 1]))):
        end -= 1  # (an overline there is the next heading's)
    return end


def heading_start(lines: list[str], section: Block) -> int:
    """Where a section begins with the label or anchor that stands before its heading."""
    start = section.start - _overlined(section)
    while start > 0 and _LABEL.match(lines[start - 1]):
        start -= 1
    return start


def _overlined(section: Block) -> int:
    """1 for a reST title with an overline above it (its mark is the character twice), else 0."""
    return int(not section.mark.startswith("#") and len(section.mark) == 2)


def shaped_section(model: SectionModel, lines: list[str], code: set[int], rst: bool, name: str,
                   description: str, default: str | None) -> list[str] | None:
    """The new section's lines, heading first, in the shape of ``model``'s; None when the code
    gives neither a default nor a help text for it."""
    section, term = model.section, model.term
    heading = _ATTRIBUTES.sub("", re.sub(rf"(?<![\w-]){re.escape(term)}(?![\w-])", lambda _: name,
                                         lines[section.start], count=1))
    head = [heading]
    body_start = section.start + 1
    if not section.mark.startswith("#"):  # underlined (reST, a Markdown setext heading), maybe overlined too
        rule = section.mark[0] * max(len(heading.strip()), 3)
        head = [rule] * _overlined(section) + head + [rule]
        body_start += 1
    fields: list[tuple[int, str]] = []  # (line of the sibling's field, the new one's)
    prose_at = None  # the sibling's first line of prose, the help text's place
    for i in range(body_start, section_end(lines, section)):
        line = lines[i]
        if not line.strip() or _LABEL.match(line):
            continue
        field = _FIELD.match(line) if i not in code else None
        if field is None:
            if prose_at is None:
                prose_at = i
            continue
        new = _field(field, term, name, default, rst)
        if new is not None:
            fields.append((i, new))
    if not description and not any(_is_default(lines[i]) for i, _ in fields):
        return None
    tight = any(b - a == 1 for (a, _), (b, _) in zip(fields, fields[1:]))  # a list of fields, not paragraphs
    before = [text for i, text in fields if prose_at is not None and i < prose_at]
    after = [text for i, text in fields if prose_at is None or i > prose_at]
    chunks = []
    if before:
        chunks.append("\n".join(before) if tight else "\n\n".join(before))
    if description:
        chunks.append(description)
    if after:
        chunks.append("\n".join(after) if tight else "\n\n".join(after))
    return head + [""] + "\n\n".join(chunks).split("\n")


def states_a_default(lines: list[str], section: Block) -> bool:
    """Whether a section has a field line for a default (``**default**: `null```): it documents a
    setting, whatever word titles it."""
    return any(_is_default(line) for line in lines[section.start + 1:section_end(lines, section)])


def _is_default(line: str) -> bool:
    field = _FIELD.match(line)
    return field is not None and "default" in field.group("label").lower()


def _field(field: re.Match, term: str, name: str, default: str | None, rst: bool) -> str | None:
    """The new name's version of one of the sibling's field lines, or None when the code does not
    answer it."""
    label, value = field.group("label").lower(), field.group("value")
    lead = field.group("lead")
    if "default" in label:
        ticks = re.match(r"`+", value)
        ticks = ticks.group() if ticks else "``" if rst else "`"  # the sibling's markup for code, else the format's
        return f"{lead}{ticks}{default}{ticks}" if default else None
    if "type" in label:
        typed = _CODE_VALUE.search(value)
        boolean = typed is not None and typed.group(1).strip().lower() in ("bool", "boolean")
        return f"{lead}{typed.group(0)}" if boolean and default and default.lower() in _BOOLEANS else None
    for old, new in zip(spellings(term), spellings(name)):
        spelled = re.compile(rf"(?<![A-Za-z0-9]){re.escape(old)}(?![A-Za-z0-9])")  # POETRY_ + the name too
        if spelled.search(value):
            return lead + spelled.sub(lambda _: new, value)
    return None

