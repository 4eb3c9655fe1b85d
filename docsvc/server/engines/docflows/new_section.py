"""A new setting's own section, shaped like a sibling's, for pages that document each setting under
a heading of its name (``### `installer.max-workers```, ``## build.cssTarget``, ``edit_uri`` with
its underline).

The new section copies the heading (its level, markup and any prefix: ``build.``) and, of the
sibling's field lines (``**Default**: `x```, ``- **Type:** `boolean```, ``+ Default: `x```), only
those the code answers for the new name: its default; its type when the sibling's is a boolean and
so is the new default; a field that spells the sibling's name in another form
(``POETRY_INSTALLER_MAX_WORKERS``), spelled so for the new one. The description is the code's
help text, where the sibling's prose stands, worded as the sibling's (a capital, a full stop). Its
labels and anchors (``<a id="factory-body-limit">``, ``{ #opt-bodyLimit }``, ``.. _opt-body-limit:``)
are made from its name as the sibling's are from the sibling's; one not made from a name (a group's)
is not copied. Where the sections mark the
release they came in ("*Introduced in 1.2.0*"), the new one gets that mark with the coming
release. Nothing else is copied: the sibling's prose, notes and examples are its own. Without a
default or a help text there is nothing to say, and no section is made.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from .evidence.siblings import spellings
from .quoting import worded_like
from .structure import Block, is_underline
from .version_marks import Mark, first_mark, mark_of

__all__ = ["SectionModel", "titled_by", "shaped_section", "section_end", "heading_start", "states_a_default",
           "section_mark"]

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
    """Where a section begins with the labels or anchors that stand before its heading (reST's a
    blank line apart)."""
    start = k = section.start - _overlined(section)
    while k > 0 and (_LABEL.match(lines[k - 1]) or not lines[k - 1].strip()):
        k -= 1
        start = k if _LABEL.match(lines[k]) else start
    return start


def _overlined(section: Block) -> int:
    """1 for a reST title with an overline above it (its mark is the character twice), else 0."""
    return int(not section.mark.startswith("#") and len(section.mark) == 2)


def shaped_section(model: SectionModel, lines: list[str], code: set[int], rst: bool, name: str,
                   description: str, default: str | None, mark: tuple[str, bool] | None = None) -> list[str] | None:
    """The new section's lines, heading first, in the shape of ``model``'s; None when the code
    gives neither a default nor a help text for it. ``mark``: its version mark, and whether it
    goes before the prose (``section_mark``)."""
    section, term = model.section, model.term
    heading = re.sub(rf"(?<![\w-]){re.escape(term)}(?![\w-])", lambda _: name, lines[section.start], count=1)
    attributes = _ATTRIBUTES.search(heading)  # `{ #anchor }`: kept where it is made from the name
    if attributes:
        made = _anchored(attributes.group(), term, name)
        heading = heading[:attributes.start()] + (made if made and made != attributes.group() else "")
    head = [heading]
    if not section.mark.startswith("#"):  # underlined (reST, a Markdown setext heading), maybe overlined too
        rule = section.mark[0] * max(len(_ATTRIBUTES.sub("", heading).strip()), 3)
        head = [rule] * _overlined(section) + head + [rule]
    head = _labels(lines, range(heading_start(lines, section), section.start - _overlined(section)), term, name) \
        + head + _labels(lines, _leading_labels(lines, section), term, name)
    found, prose_at = _body(lines, section, code)  # prose_at: the help text's place
    fields = [(i, new) for i, field in found for new in [_field(field, term, name, default, rst)] if new is not None]
    if not description and not any(_is_default(lines[i]) for i, _ in fields):
        return None
    tight = any(b - a == 1 for (a, _), (b, _) in zip(fields, fields[1:]))  # a list of fields, not paragraphs
    before = [text for i, text in fields if prose_at is not None and i < prose_at]
    after = [text for i, text in fields if prose_at is None or i > prose_at]
    chunks = []
    if before:
        chunks.append("\n".join(before) if tight else "\n\n".join(before))
    if mark and mark[1]:
        chunks.append(mark[0])
    if description:
        chunks.append(worded_like(description, _paragraph(lines, prose_at)) if prose_at is not None else description)
    if after:
        chunks.append("\n".join(after) if tight else "\n\n".join(after))
    if mark and not mark[1]:
        chunks.append(mark[0])
    return head + [""] + "\n\n".join(chunks).split("\n")


def _paragraph(lines: list[str], at: int) -> str:
    """The paragraph that starts at line ``at``, on one line (how the sibling words its help text)."""
    end = at
    while end < len(lines) and lines[end].strip():
        end += 1
    return " ".join(line.strip() for line in lines[at:end])


def _leading_labels(lines: list[str], section: Block) -> range:
    """The labels or anchors right below a heading (``<a id="factory-http"></a>``)."""
    end = _body_start(section)
    while end < len(lines) and _LABEL.match(lines[end]):
        end += 1
    return range(_body_start(section), end)


def _labels(lines: list[str], span: range, term: str, name: str) -> list[str]:
    """The new section's own labels or anchors, made from the sibling's in ``span`` as they are
    made from its name, the blank lines after them kept; a label not made from the name (a group's:
    ``.. _timeouts:``) is not copied, nor what stands before it."""
    made: list[str] = []
    for i in span:
        label = _anchored(lines[i], term, name) if lines[i].strip() else ""
        made = [] if label is None else made + [label] if made or label else made
    return made


# How pages make an anchor from a name: kebab or snake case (camelCase split), lower case, as is.
def _joined(separator: str) -> Callable[[str], str]:
    """A name's words joined by ``separator``, in lower case (``connectionTimeout``: ``connection-timeout``)."""
    return lambda name: re.sub(r"[-_.]", separator, re.sub(r"(?<=[a-z0-9])(?=[A-Z])", separator, name)).lower()


_SPELLS = (_joined("-"), _joined("_"), str.lower, str)


def _anchored(text: str, term: str, name: str) -> str | None:
    """A label or anchor of the sibling's made for the new name as it was made from the sibling's
    (``factory-connection-timeout`` of ``connectionTimeout``: ``factory-handler-timeout``); None
    when it is not made from the name."""
    for spell in _SPELLS:
        found = list(re.finditer(rf"(?<![A-Za-z0-9]){re.escape(spell(term))}(?![A-Za-z0-9])", text))
        if len(found) == 1:
            return text[:found[0].start()] + spell(name) + text[found[0].end():]
    return None


def _body_start(section: Block) -> int:
    return section.start + (1 if section.mark.startswith("#") else 2)  # past an underline too


def _body(lines: list[str], section: Block, code: set[int]) -> tuple[list[tuple[int, re.Match]], int | None]:
    """A section's field lines and its first line of prose; a version mark is neither."""
    fields, prose_at = [], None
    for i in range(_body_start(section), section_end(lines, section)):
        line = lines[i]
        if not line.strip() or _LABEL.match(line) or (i not in code and mark_of(line)):
            continue
        field = _FIELD.match(line) if i not in code else None
        if field is None:
            prose_at = i if prose_at is None else prose_at
        else:
            fields.append((i, field))
    return fields, prose_at


def section_mark(lines: list[str], sections: list[Block], code: set[int]) -> tuple[Mark, bool] | None:
    """The first version mark the sections give themselves (``version_marks``), and whether it
    stands before its section's prose."""
    for section in sections:
        mark = first_mark(lines, (i for i in range(_body_start(section), section_end(lines, section))
                                  if i not in code))
        if mark is not None:
            prose_at = _body(lines, section, code)[1]
            return mark, prose_at is None or mark.line < prose_at
    return None


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

