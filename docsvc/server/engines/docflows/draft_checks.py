"""The Editor's checks of what a draft did to a page, against the page as it was: a draft that
fails one is dropped, since it would leave the page worse than it found it.

- ``parse``: the page parses as well as before: docutils (reST) reports no error or warning the
  old page did not have (Sphinx's own directives and roles, unknown to docutils, aside);
  markdown-it-py (Markdown) parses it;
- ``table-columns``: a row the draft wrote has as many cells as its table's header;
- ``duplicate-item``: no row, list item, directive or option entry the draft wrote is about a name
  another one of its kind in the same section is about already (a label each entry's section repeats,
  ``+ Default: `0```, is no name; two commands' sections may each list one option);
- ``removed-target``: no label or anchor the page still refers to (``:ref:`x```, ``{ref}`x```,
  ``](#x)``, `` `x`_ ``) was removed.

Each check compares the draft with the original, so a page's own old faults are not the draft's.
"""

from __future__ import annotations

import difflib
import io
import re
from collections import Counter

from .structure import RENDERED, is_rst, is_underline

__all__ = ["DROPS", "draft_checks"]

DROPS = ("parse", "table-columns", "duplicate-item", "removed-target")
# docutils knows no Sphinx directive or role: its complaints about them say nothing of the page
_SPHINX_ONLY = re.compile(r"^(Unknown (directive type|interpreted text role)|No (directive|role) entry|"
                          r"Trying \"[^\"]+\" as canonical)")
_ROW = re.compile(r"^\s*\|.*\|\s*$")
_SEPARATOR = re.compile(r"^\s*\|?[\s:|-]+\|[\s:|-]*$")
# What a line is about: a row's first cell, an item's leading name, a directive's argument, an option
_SUBJECTS = (
    ("row", re.compile(r"^\s*\|\s*[`*_]*([\w.$-]+)[`*_]*\s*\|")),
    ("item", re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+[`*_]*(--?[\w-]+|[\w.$]*[\w$])[`*_]*\s*[:—–-]")),
    ("directive", re.compile(r"^\s*\.\.\s+((?:option|cmdoption|confval|envvar|setting|describe|auto\w+|py:\w+|"
                             r"function|class|data|attribute|method)::\s*\S+)")),
)
_LABELS = (
    re.compile(r"^\s*\.\.\s+_([^:`]+):\s*$"),  # reST
    re.compile(r"^\s*\(([\w.:-]+)\)=\s*$"),  # MyST
    re.compile(r"<a\s+(?:id|name)=\"([^\"]+)\""),  # HTML anchor
    re.compile(r"\{\s*#([\w.:-]+)[^}]*\}"),  # attribute list
)
_REFERENCES = (
    re.compile(r":ref:`(?:[^`<]*<)?([^`>]+)>?`"),
    re.compile(r"\{ref\}`(?:[^`<]*<)?([^`>]+)>?`"),
    re.compile(r"\]\(#([^)\s]+)\)"),
    re.compile(r"`([^`<]+)`_(?!_)"),
)


Finding = tuple[int, str, str]  # (line, check, message): the Editor makes its comment of it


def _comment(path: str, line: int, check: str, message: str) -> Finding:
    return line, check, message


def draft_checks(path: str, old: str, new: str) -> list[Finding]:
    """The findings on what the draft did to the page at ``path`` (``old`` → ``new``)."""
    if old == new:
        return []
    old_lines, new_lines = old.split("\n"), new.split("\n")
    matcher = difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False)
    written = [i for tag, _, _, start, end in matcher.get_opcodes() if tag in ("insert", "replace")
               for i in range(start, end) if new_lines[i].strip()]
    return (_parse(path, old, new) + _columns(path, new_lines, written)
            + _duplicates(path, old_lines, new_lines, written) + _targets(path, old_lines, new))


def _problems(path: str, text: str) -> Counter:
    """The page's parse problems, as (kind, message) with their counts: docutils' warnings and
    errors for reST; for Markdown, an exception markdown-it-py raised."""
    if is_rst(path):
        from docutils import nodes
        from docutils.core import publish_doctree

        try:
            tree = publish_doctree(text, settings_overrides={"report_level": 5, "halt_level": 5,
                                                             "warning_stream": io.StringIO(),
                                                             "file_insertion_enabled": False,
                                                             "raw_enabled": False})
        except Exception as exc:  # noqa: BLE001  (docutils gives up on some pages: that is the finding)
            return Counter({("SEVERE", type(exc).__name__): 1})
        found: Counter = Counter()
        for message in tree.findall(nodes.system_message):
            said = message.children[0].astext() if message.children else message.astext()
            if message["level"] >= 2 and not _SPHINX_ONLY.match(said):
                found[(message["type"], re.sub(r"\d+", "N", said))] += 1
        return found
    from markdown_it import MarkdownIt

    try:
        MarkdownIt("commonmark").enable("table").parse(text)
    except Exception as exc:  # noqa: BLE001
        return Counter({("ERROR", type(exc).__name__): 1})
    return Counter()


def _parse(path: str, old: str, new: str) -> list[Finding]:
    gained = _problems(path, new) - _problems(path, old)
    return [_comment(path, 1, "parse", f"the page no longer parses cleanly: {kind.lower()} '{said}'")
            for (kind, said) in sorted(gained)]


def _cells(row: str) -> int:
    return len(re.split(r"(?<!\\)\|", row.strip().removeprefix("|").removesuffix("|")))


def _columns(path: str, lines: list[str], written: list[int]) -> list[Finding]:
    """Rows the draft wrote whose cells are not as many as their table's header's."""
    out = []
    for i in written:
        if not _ROW.match(lines[i]) or _SEPARATOR.match(lines[i]):
            continue
        top = i
        while top > 0 and _ROW.match(lines[top - 1]):
            top -= 1
        if top + 1 < len(lines) and _SEPARATOR.match(lines[top + 1]) and top != i and \
                _cells(lines[i]) != _cells(lines[top]):
            out.append(_comment(path, i + 1, "table-columns", f"the row has {_cells(lines[i])} cells; its table "
                                                              f"has {_cells(lines[top])} columns"))
    return out


def _subject(line: str) -> tuple[str, str] | None:
    for kind, pattern in _SUBJECTS:
        match = pattern.match(line)
        if match:
            return kind, match.group(1)
    rendered = RENDERED.match(line)
    if rendered and not rendered["indent"] and not rendered["heading"]:  # mkdocstrings' ``::: a.b``
        return "directive", line.rstrip()
    return None


_MD_HEADING = re.compile(r"^#{1,6}\s")


def _sections(lines: list[str]) -> list[int]:
    """Each line's section: how many headings (Markdown ``#``, reST underlined) stand above it."""
    out, section = [], 0
    for i, line in enumerate(lines):
        underlined = i + 1 < len(lines) and line.strip() and is_underline(lines[i + 1]) and \
            len(lines[i + 1].rstrip()) >= len(line.rstrip())
        section += bool(_MD_HEADING.match(line) or underlined)
        out.append(section)
    return out


def _entries(lines: list[str]) -> Counter:
    """The page's entries as (section, kind, name) with their counts."""
    return Counter((at, *s) for line, at in zip(lines, _sections(lines)) if (s := _subject(line)))


def _duplicates(path: str, old: list[str], new: list[str], written: list[int]) -> list[Finding]:
    """Entries the draft wrote about a name an entry of their kind in their section is about already."""
    before, after = Counter(s[1:] for s in _entries(old).elements()), _entries(new)
    sections = _sections(new)
    out = []
    for i in written:
        subject = _subject(new[i])
        if subject and after[(sections[i], *subject)] > 1 and \
                sum(n for key, n in after.items() if key[1:] == subject) > before[subject]:
            out.append(_comment(path, i + 1, "duplicate-item",
                                f"{subject[1]} has a {subject[0]} in its section already"))
    return out


def _targets(path: str, old: list[str], new: str) -> list[Finding]:
    """Labels and anchors the draft removed while the page still refers to them."""
    def labels(lines: list[str]) -> set[str]:
        return {m.group(1).strip().lower() for line in lines for p in _LABELS for m in p.finditer(line)}

    referred = {m.group(1).strip().lower() for p in _REFERENCES for m in p.finditer(new)}
    gone = sorted((labels(old) - labels(new.split("\n"))) & referred)
    return [_comment(path, 1, "removed-target", f"the target '{label}' was removed; the page still refers to it")
            for label in gone]
