"""Feature Author: a feature brief turned into a draft page (the ``feature_drafts.create`` job in
``tasks/feature_draft`` saves it).

The rule-based Writer (a language model may replace it later) reads the brief, free text or
Markdown, and sorts each part into the page's sections; every placement is noted with the rule
that made it:

- a heading of the brief (Steps, Options, Limitations, ...) decides for what follows it;
- numbered list items, and sentences that start with First/Then/Next/Finally, are steps; a
  numbered list written inline ("1. Build the image 2. If it fails, ...") is one step per number;
- list items and sentences that start with an option (``--flag`` or `` `name` ``) are options,
  the rest of the line its description;
- sentences and list items that say what cannot be done (cannot, does not, not supported,
  only ..., limitation, note), and pointers to more reading (See ..., For more ...), are
  limitations and notes;
- "users can ..." / "you can ..." / "lets you ..." sentences and other list items are capabilities;
- fenced code blocks are kept verbatim as examples under "How to use it";
- other prose is the overview.

The page then goes through the Docflows Editor (``editor.review``), which passes it or lists its
comments, and the Editor suggests the release-notes entry (``editor.suggest_release_notes``).
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field

__all__ = ["Draft", "write_draft", "draft_path"]


_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.+?)\s*#*\s*$")
_FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
_NUMBERED = re.compile(r"^\s*(\d+)([.)])\s+(.*)$")
# A number of an inline list: "2." or "2)" after a space, before the step's text.
_INLINE_NUMBER = re.compile(r"(?<!\S)(\d{1,3})([.)])\s+(?=\S)")
# Words after which a number is a value, not the next step ("set retries to 2. Then ...").
_TAKES_NUMBER = frozenset("to is are was be of by from at than version v step steps page chapter section "
                          "line lines item items number no table figure".split())
_BULLET = re.compile(r"^\s*[-*+]\s+(.*)$")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`\"'(])")
# An option at the start of a line: --flag, -f, `--flag`, `name`, optionally followed by : or - or —.
_OPTION = re.compile(r"^(`[^`]+`|--?[A-Za-z][\w-]*(?:[ =]<[^>]+>)?)\s*(?:[:=—–-]\s*|\s+)(.+)$")
_CAN = re.compile(r"^(?:(?:users|you|admins|administrators|writers|teams|developers|customers|people)\s+can|"
                  r"(?:it|this|the feature)\s+lets\s+(?:you|users))\s+(.+)$", re.I)
_STEP_WORD = re.compile(r"^(?:first|then|next|finally|after that|afterwards)\b[,:]?\s*(.+)$", re.I)
_LIMIT = re.compile(r"\b(?:cannot|can't|can not|does not|doesn't|do not|don't|not (?:yet )?supported|"
                    r"unsupported|only (?:works|applies|available)|limitations?|not available|note:?)\b", re.I)
_POINTER = re.compile(r"^(?:see|read|for more|learn more|more about)\b", re.I)

# Headings a brief may use, by the section they name.
_SECTION_WORDS = (
    ("steps", re.compile(r"\b(?:steps?|how to|usage|use it|getting started|set ?up)\b", re.I)),
    ("options", re.compile(r"\b(?:options?|flags?|parameters?|settings?|arguments?)\b", re.I)),
    ("limitations", re.compile(r"\b(?:limitations?|limits?|notes?|caveats?|known issues?)\b", re.I)),
    ("capabilities", re.compile(r"\b(?:capabilit(?:y|ies)|features?|what (?:you|users) can do|highlights?)\b",
                                re.I)),
    ("overview", re.compile(r"\b(?:overview|summary|about|why|background|description)\b", re.I)),
)
SECTION_TITLES = {"overview": "Overview", "capabilities": "What you can do", "steps": "How to use it",
                  "options": "Options", "limitations": "Limitations and notes"}


@dataclass
class Draft:
    """The Writer's page and how it was made."""

    markdown: str
    sections: dict[str, list] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)  # one per placement: what went where, by which rule


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def _heading_section(title: str) -> str | None:
    for name, pattern in _SECTION_WORDS:
        if pattern.search(title):
            return name
    return None


def _inline_steps(text: str, expected: int, style: str | None = None) -> tuple[str, list[str]]:
    """Split ``text`` at an inline numbered list: numbers from ``expected`` on, in order, each
    after a space and written like the first (``2.`` or ``2)``). Returns the text before the
    first such number and the steps; no steps when there is no such list."""
    cuts: list[tuple[int, int]] = []  # (where the number starts, where its step starts)
    for match in _INLINE_NUMBER.finditer(text):
        if int(match.group(1)) != expected or (style is not None and match.group(2) != style):
            continue
        before = text[:match.start()].split()
        if not before or before[-1].lower().strip("`*_,;:(") in _TAKES_NUMBER:
            continue
        style = match.group(2)
        cuts.append((match.start(), match.end()))
        expected += 1
    if not cuts:
        return text, []
    ends = [start for start, _ in cuts[1:]] + [len(text)]
    steps = [text[begin:end].strip() for (_, begin), end in zip(cuts, ends)]
    return text[:cuts[0][0]].strip(), [step for step in steps if step]


def _sentences(paragraph: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(" ".join(paragraph.split())) if s.strip()]


class _Sorter:
    def __init__(self) -> None:
        self.sections: dict[str, list] = {name: [] for name in SECTION_TITLES}
        self.examples: list[str] = []
        self.notes: list[str] = []

    def put(self, section: str, value, line: int, rule: str) -> None:
        self.sections[section].append(value)
        shown = value if isinstance(value, str) else f"{value[0]}"
        self.notes.append(f"line {line}: {SECTION_TITLES[section]} ← {shown[:60]} ({rule})")

    def option(self, text: str) -> tuple[str, str] | None:
        match = _OPTION.match(text)
        if not match or not (match.group(1).startswith("`") or match.group(1).startswith("-")):
            return None
        name = match.group(1).strip("`")
        return f"`{name}`", match.group(2).strip()

    def item(self, text: str, line: int, hint: str | None, numbered: bool) -> None:
        """A list item: the heading's section when there is one, else by its own words."""
        if hint == "options" or (hint is None and self.option(text)):
            option = self.option(text)
            if option:
                return self.put("options", option, line, "a list item that starts with an option")
            if hint == "options":
                return self.put("options", (text, ""), line, "a list item under an options heading")
        if hint in ("steps", "limitations", "capabilities"):
            return self.put(hint, _cap(text), line, f"a list item under a {SECTION_TITLES[hint]} heading")
        if numbered:
            return self.put("steps", _cap(text), line, "a numbered list item")
        if _LIMIT.search(text):
            return self.put("limitations", _cap(text), line, "a list item that says what cannot be done")
        can = _CAN.match(text)
        return self.put("capabilities", _cap(can.group(1) if can else text), line, "a list item")

    def sentence(self, text: str, line: int, hint: str | None) -> None:
        """A prose sentence: by its own words first (they are explicit), else the heading's section."""
        step = _STEP_WORD.match(text)
        can = _CAN.match(text)
        option = self.option(text)
        if option and hint in (None, "options"):
            self.put("options", option, line, "a sentence that starts with an option")
        elif step and hint in (None, "steps"):
            self.put("steps", _cap(step.group(1)), line, f"a sentence that starts with '{text.split()[0]}'")
        elif _LIMIT.search(text) and hint != "options":
            self.put("limitations", text, line, "a sentence that says what cannot be done")
        elif _POINTER.match(text):
            self.put("limitations", text, line, "a pointer to more reading")
        elif can and hint in (None, "capabilities", "overview"):
            self.put("capabilities", _cap(can.group(1).rstrip(".")), line, "a 'users can' sentence")
        elif hint in ("steps", "capabilities", "limitations"):
            self.put(hint, text, line, f"a sentence under a {SECTION_TITLES[hint]} heading")
        else:
            self.put("overview", text, line, "other prose")


def _parse(brief: str) -> _Sorter:
    sorter = _Sorter()
    lines = brief.replace("\r\n", "\n").split("\n")
    hint: str | None = None
    paragraph: list[str] = []
    start = 0

    def flush() -> None:
        if paragraph:
            text = " ".join(paragraph)
            lead, steps = _inline_steps(text, 1)
            if len(steps) < 2:  # "... 1. A 2. B": a list written inline; a lone "1." is prose
                lead, steps = text, []
            for sentence in _sentences(lead):
                sorter.sentence(sentence, start, hint)
            for step in steps:
                sorter.item(step, start, hint, True)
            paragraph.clear()

    n = 0
    while n < len(lines):
        line, number = lines[n], n + 1
        fence = _FENCE.match(line)
        if fence:
            flush()
            # Kept verbatim up to its closing fence; an unclosed fence is kept as it is, for the Editor.
            block = [line]
            n += 1
            while n < len(lines):
                block.append(lines[n])
                closing = _FENCE.match(lines[n])
                n += 1
                if closing and closing.group(1)[0] == fence.group(1)[0] and \
                        len(closing.group(1)) >= len(fence.group(1)) and not lines[n - 1].strip()[len(closing.group(1)):]:
                    break
            sorter.examples.append("\n".join(block))
            sorter.notes.append(f"line {number}: How to use it ← a code block (kept verbatim as an example)")
            continue
        heading = _HEADING.match(line)
        numbered, bullet = _NUMBERED.match(line), _BULLET.match(line)
        if heading:
            flush()
            hint = _heading_section(heading.group(2))
        elif numbered:
            flush()
            # "1. Build the image 2. If it fails, ..." on one line is two steps.
            first, rest = _inline_steps(numbered.group(3).strip(), int(numbered.group(1)) + 1, numbered.group(2))
            for text in [first, *rest] if first else rest:
                sorter.item(text, number, hint, True)
        elif bullet:
            flush()
            sorter.item(bullet.group(1).strip(), number, hint, False)
        elif not line.strip():
            flush()
        else:
            if not paragraph:
                start = number
            paragraph.append(line.strip())
        n += 1
    flush()
    return sorter


def write_draft(title: str, brief: str) -> Draft:
    """The draft page for a feature called ``title`` from its ``brief``."""
    sorter = _parse(brief)
    s = sorter.sections
    out = [f"# {title.strip()}", "", "## Overview", ""]
    if s["overview"]:
        out.append(" ".join(s["overview"]))
    else:
        first = (s["capabilities"] or [None])[0]
        out.append(f"{title.strip()}: {first[:1].lower() + first[1:]}." if first else
                   f"This page describes {title.strip()}.")
        sorter.notes.append("Overview: the brief has no summary prose, so the overview is made from the title")
    if s["capabilities"]:
        out += ["", "## What you can do", ""] + [f"- {c.rstrip('.')}." for c in s["capabilities"]]
    if s["steps"] or sorter.examples:
        out += ["", "## How to use it", ""]
        out += [f"{i}. {step.rstrip('.')}." for i, step in enumerate(s["steps"], 1)]
        for example in sorter.examples:
            out += ["", example]
    if s["options"]:
        out += ["", "## Options", "", "| Option | Description |", "|---|---|"]
        out += ["| {} | {} |".format(name, desc.replace("|", "\\|")) for name, desc in s["options"]]
    if s["limitations"]:
        out += ["", "## Limitations and notes", ""] + [f"- {x}" for x in s["limitations"]]
    return Draft("\n".join(out) + "\n", s, sorter.notes)


def slug(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")[:60] or "feature"


def draft_path(title: str, docs_path: str | None) -> str:
    """Where the page would live: ``<docs folder>/features/<slug>.md`` (relative links resolve from it)."""
    return posixpath.join(docs_path or "", "features", f"{slug(title)}.md")
