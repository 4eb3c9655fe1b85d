"""The Writer stage of Docflows: edits the planned pages' text.

Rule-based (a language model may replace it later); every edit is noted with the rule that made
it. Renames in place; removals of table rows, list items and whole sections; changed defaults on
the lines that document them; additions in the format of their neighbours: a table row next to
a sibling's row, a list item next to a sibling's item, or a section after a sibling's section.
What no rule covers is said plainly and left for a person.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

from .facts import Fact
from .planner import Plan, _plain, _term, mentions

__all__ = ["Draft", "write"]

_TABLE_ROW = re.compile(r"^\s*\|.*\|\s*$")
_LIST_ITEM = re.compile(r"^(\s*)([-*+]|\d+[.)])\s+")
_HEADING = re.compile(r"^(#{1,6})\s+")


@dataclass
class Draft:
    files: dict[str, str] = field(default_factory=dict)  # path -> new text (only changed files)
    notes: list[str] = field(default_factory=list)  # what was done, per edit, with its rule
    open_points: list[str] = field(default_factory=list)  # what the rules could not do


def _word(term: str) -> re.Pattern:
    return re.compile(rf"(?<![\w-]){re.escape(term)}(?![\w-])")


def write(plan: Plan, read: Callable[[str], str | None]) -> Draft:
    draft = Draft()
    for page in plan.pages:
        text = read(page.path)
        if text is None:
            draft.open_points.append(f"{page.path}: could not be read")
            continue
        lines = text.split("\n")
        for fact in page.facts:
            lines = _apply(fact, page.path, lines, draft)
        new_text = "\n".join(lines)
        if new_text != text:
            draft.files[page.path] = new_text
    return draft


def _apply(fact: Fact, path: str, lines: list[str], draft: Draft) -> list[str]:
    if fact.change == "renamed":
        old, new = _term(fact.old), _term(fact.name)
        pattern, count = _word(old), 0
        for i, line in enumerate(lines):
            lines[i], n = pattern.subn(new, line)
            count += n
        if count:
            draft.notes.append(f"{path}: renamed {old} to {new} ({count} place(s)) [rule: rename in place]")
        return lines
    if fact.change == "removed":
        return _remove(_term(fact.name), path, lines, draft)
    if fact.change == "default-changed":
        name, old, new = _term(fact.name), _plain(fact.old), _plain(fact.new)
        changed = 0
        for n in mentions("\n".join(lines), name):
            line = lines[n - 1]
            replaced = re.sub(rf"(?<![\w.]){re.escape(old)}(?![\w.])", new, line) if old else line
            if replaced != line:
                lines[n - 1], changed = replaced, changed + 1
        if changed:
            draft.notes.append(f"{path}: default of {name} changed {old} → {new} ({changed} line(s)) "
                               "[rule: changed default]")
        else:
            draft.open_points.append(f"{path}: mentions {name}, but not its old default {old}: check whether "
                                     f"the page should say the new default {new}")
        return lines
    if fact.change == "added":
        return _add(fact, path, lines, draft)
    return lines


def _section_end(lines: list[str], start: int) -> int:
    level = len(_HEADING.match(lines[start]).group(1))
    for i in range(start + 1, len(lines)):
        match = _HEADING.match(lines[i])
        if match and len(match.group(1)) <= level:
            return i
    return len(lines)


def _remove(name: str, path: str, lines: list[str], draft: Draft) -> list[str]:
    pattern = _word(name)
    for i, line in enumerate(lines):
        if _HEADING.match(line) and pattern.search(line):
            end = _section_end(lines, i)
            draft.notes.append(f"{path}: removed the section '{line.strip()}' ({end - i} lines) [rule: removal]")
            return lines[:i] + lines[end:]
    kept, removed = [], 0
    for line in lines:
        if pattern.search(line) and (_TABLE_ROW.match(line) or _LIST_ITEM.match(line)):
            removed += 1
            continue
        kept.append(line)
    if removed:
        draft.notes.append(f"{path}: removed {removed} table row(s) or list item(s) about {name} [rule: removal]")
    for n in mentions("\n".join(kept), name):
        draft.open_points.append(f"{path}:{n}: {name} is still mentioned in the text; it was removed from the code")
    return kept


def _add(fact: Fact, path: str, lines: list[str], draft: Draft) -> list[str]:
    name = _term(fact.name)
    if mentions("\n".join(lines), name):
        return lines  # already documented here
    default = _plain(fact.new)
    # Only what the code says: its help text, else its default. Never invented prose.
    description = fact.note or (f"defaults to `{default}`" if default else "")
    if not description:
        draft.open_points.append(f"{path}: describe {name}; the code gives no help text or default for it")
    for sibling in fact.siblings:
        pattern = _word(_term(sibling))
        for i, line in enumerate(lines):
            if not pattern.search(line):
                continue
            if _TABLE_ROW.match(line) and not re.match(r"^\s*\|[\s:|-]+\|\s*$", line):
                end = i
                while end + 1 < len(lines) and _TABLE_ROW.match(lines[end + 1]):
                    end += 1
                row = _table_row(lines, i, _term(sibling), name, description, _plain(fact.new))
                draft.notes.append(f"{path}: added a table row for {name} beside {_term(sibling)} "
                                   "[rule: addition in the format of its neighbours]")
                return lines[:end + 1] + [row] + lines[end + 1:]
            if _LIST_ITEM.match(line):
                end = i
                while end + 1 < len(lines) and _LIST_ITEM.match(lines[end + 1]):
                    end += 1
                item = _list_item(line, _term(sibling), name, description)
                draft.notes.append(f"{path}: added a list item for {name} beside {_term(sibling)} "
                                   "[rule: addition in the format of its neighbours]")
                return lines[:end + 1] + [item] + lines[end + 1:]
            if _HEADING.match(line):
                end = _section_end(lines, i)
                heading = pattern.sub(name, line)
                block = [heading, ""] + ([description, ""] if description else [])
                if fact.new:
                    block += [f"Default: `{_plain(fact.new)}`.", ""]
                draft.notes.append(f"{path}: added a section for {name} after the one on {_term(sibling)} "
                                   "[rule: addition in the format of its neighbours]")
                if end < len(lines) and lines[end - 1].strip():
                    block = [""] + block
                return lines[:end] + block + lines[end:]
    draft.open_points.append(f"{path}: {name} is new; its siblings are mentioned only in prose here, so no "
                             "place for it was found")
    return lines


def _list_item(line: str, sibling: str, name: str, description: str) -> str:
    """A list item shaped like the sibling's: same marker, same styling of the name, same
    separator, and the new name's own description (or none)."""
    prefix, body = re.match(r"^(\s*(?:[-*+]|\d+[.)])\s+)(.*)$", line).groups()
    styled = re.search(r"([`*_]*)" + re.escape(sibling) + r"([`*_]*)(\s*[:—–-]\s*)?", body)
    opening, closing, separator = (styled.group(1), styled.group(2), styled.group(3) or " — ") if styled \
        else ("", "", " — ")
    return prefix + opening + name + closing + (separator + description if description else "")


def _cells(row: str) -> list[str]:
    return [c.strip() for c in row.strip().strip("|").split("|")]


def _table_row(lines: list[str], index: int, sibling: str, name: str, description: str, default: str | None) -> str:
    """A row shaped like the sibling's: the name cell styled the same, description and default
    placed under the headers that name them."""
    header = None
    for j in range(index, -1, -1):  # the header is the row above the |---| separator
        if j > 0 and re.match(r"^\s*\|[\s:|-]+\|\s*$", lines[j]) and _TABLE_ROW.match(lines[j - 1]):
            header = [h.lower() for h in _cells(lines[j - 1])]
            break
    cells = _cells(lines[index])
    out = []
    for k, cell in enumerate(cells):
        title = header[k] if header and k < len(header) else ""
        if sibling in cell:
            out.append(cell.replace(sibling, name))
        elif "default" in title:
            out.append(f"`{default}`" if default and "`" in cell else (default or "—"))
        elif any(word in title for word in ("description", "meaning", "help", "what", "purpose")) or \
                (not header and k == len(cells) - 1):
            out.append(description or "—")
        else:
            out.append("—")
    return "| " + " | ".join(out) + " |"


def reword(line: str, old: str, new: str) -> str:
    """The line with the old name, as a whole word, renamed (the Writer's answer to the Editor's
    'leftover-name' comment)."""
    return _word(old).sub(new, line)
