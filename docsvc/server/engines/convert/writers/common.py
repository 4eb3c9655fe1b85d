"""What every writer needs before it spells anything: the document's outline made safe.

A converter may hand over headings that skip levels, the same anchor twice, links to anchors no
heading defines, text with control characters, line breaks inside table cells, empty blocks. Each
of these is an error or a warning in at least one of the target tools (a skipped section level in
docutils and Asciidoctor, an unknown link target in docutils, a duplicate id in Asciidoctor), so it
is settled here once, the same way for all five formats:

- headings: the title is level 1; sections are clamped to 2..6 and to at most one level deeper
  than the heading before; empty text becomes "Untitled";
- anchors: made valid with ``anchor_id`` when they are not; a second heading with an anchor
  already used keeps its text but not the anchor;
- links: to an anchor that no heading defines, written as their plain text;
- text: control characters dropped, CR LF as LF; inline text is one line (runs of whitespace,
  newlines included, become one space), except that a blank line in a paragraph or admonition
  starts a new paragraph.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Hashable

from ..doc import Admonition, Block, BulletList, CodeBlock, Document, Heading, Inline, Link, Para, Table, anchor_id

__all__ = ["Outline", "Notice", "BlockWriter", "outline", "clean", "one_line", "language", "backslashed"]

# C0 controls except TAB and LF, DEL and C1 controls: no format shows them, XML-based ones reject them.
_CONTROLS = dict.fromkeys([*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), *range(0x7F, 0xA0)])
_CONTROLS[0x0D] = "\n"  # a lone CR (CR LF is replaced first) ends a line too
_NOT_CLEAN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # what _CONTROLS changes, CR included
_CLEAN_BYTES = bytes(b for b in range(0x80) if not _NOT_CLEAN.match(chr(b)))  # the same in ASCII text
# A control character or whitespace other than a space (what str.isspace() knows): with two spaces in a
# row, what one_line and _collapse change. One character class, as alternatives search much slower.
_NOT_A_SPACE = re.compile("[\x00-\x1f\x7f-\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]")
_BLANK_LINE = re.compile(r"\n[^\S\n]*\n\s*")  # at least one blank line: a paragraph break
_ANCHOR = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_LANGUAGE = re.compile(r"[a-z0-9][a-z0-9_+#.-]*")


def clean(text: str) -> str:
    """``text`` without control characters, line ends as LF."""
    # Most text has nothing to clean, and looking is much cheaper than translating.
    return text.replace("\r\n", "\n").translate(_CONTROLS) if _unclean(text) else text


def _unclean(text: str) -> bool:
    if text.isascii():  # nearly all of it: what is left of its bytes without the clean ones, in C
        return bool(text.encode("ascii").translate(None, _CLEAN_BYTES))  # 6x quicker than the search
    return _NOT_CLEAN.search(text) is not None


def backslashed(chars: str) -> Callable[[str], str]:
    """A function putting a backslash before each of ``chars`` in a text: ``str.translate`` with
    ``{c: "\\" + c}``, four times faster. Translate looks every character up in the table once a
    character becomes two; ``replace`` only scans (in C) for the few that are there."""
    pairs = [(c, "\\" + c) for c in sorted(chars, key=lambda c: c != "\\")]  # the backslash first

    def escape(text: str) -> str:
        for char, escaped in pairs:
            if char in text:
                text = text.replace(char, escaped)
        return text

    return escape


def one_line(text: str) -> str:
    """Clean text on one line: each run of whitespace (newlines too) one space, ends stripped."""
    if "  " not in text and not _NOT_A_SPACE.search(text) and text[:1] != " " and text[-1:] != " ":
        return text
    return " ".join(clean(text).split())


def _collapse(text: str) -> str:
    """Clean text with each run of whitespace one space, a space at either end kept as one."""
    # Nearly every piece of text is collapsed already; one search says so (a large document has millions).
    if "  " not in text and not _NOT_A_SPACE.search(text):
        return text
    text = clean(text)
    words = " ".join(text.split())
    if not words:
        return " " if text else ""
    return f"{' ' if text[0].isspace() else ''}{words}{' ' if text[-1].isspace() else ''}"


def language(name: str) -> str:
    """A code block's language as a safe lower-case token (no spaces, quotes or backticks), else ``text``."""
    name = name.strip().lower()
    return name if _LANGUAGE.fullmatch(name) else "text"


def _valid_anchor(anchor: str) -> str:
    return anchor if _ANCHOR.fullmatch(anchor) else anchor_id(anchor)


@dataclass
class Notice:
    """An admonition ready to write: ``kind`` is "note" or "warning"; one line per paragraph."""

    kind: str
    paragraphs: list[list[Inline]]


@dataclass
class Outline:
    """A document ready for a writer (see the module docstring for what was settled).

    ``blocks`` holds ``Heading`` (level 2..6, text and anchor valid), ``Para`` (one paragraph: its
    parts are one line), ``Notice``, ``BulletList`` (each item one line, maybe empty), ``Table``
    (header and every row as wide as the widest, cells one line) and ``CodeBlock`` (language a
    safe token, text not empty). Links in them all lead to ``anchors``."""

    title: str
    title_anchor: str | None
    description: str
    blocks: list[Block | Notice]
    anchors: set[str]


def outline(doc: Document) -> Outline:
    """Settle headings, anchors, links and text (see the module docstring) in one pass over the blocks."""
    blocks: list[Block] = list(doc.blocks)
    title, title_anchor = one_line(doc.title), None
    # A converter may give the title twice, as Document.title and as a level-1 heading first: once is enough.
    if blocks and isinstance(blocks[0], Heading) and blocks[0].level <= 1:
        first = blocks.pop(0)
        title = one_line(first.text) or title
        title_anchor = _valid_anchor(first.anchor) if first.anchor else None
    anchors = {title_anchor} if title_anchor else set()
    # Links may point forwards: every anchor is known before any inline text is prepared.
    for block in blocks:
        if isinstance(block, Heading) and block.anchor:
            anchors.add(_valid_anchor(block.anchor))
    inline = _Inline(anchors)
    out: list[Block | Notice] = []
    used = {title_anchor}
    previous = 1
    for block in blocks:
        if isinstance(block, Heading):
            level = max(2, min(block.level, previous + 1, 6))
            previous = level
            anchor = _valid_anchor(block.anchor) if block.anchor else None
            if anchor in used:
                anchor = None
            used.add(anchor)
            out.append(Heading(level, one_line(block.text) or "Untitled", anchor))
        elif isinstance(block, Para):
            out.extend(inline.paras(block.parts))
        elif isinstance(block, Admonition):
            paragraphs = inline.paragraphs(block.parts)
            if paragraphs:
                out.append(Notice("warning" if block.kind.strip().lower() == "warning" else "note", paragraphs))
        elif isinstance(block, BulletList):
            if block.items:
                out.append(BulletList(inline.lines(block.items)))
        elif isinstance(block, Table):
            width = max([len(block.header), *(len(row) for row in block.rows)])
            if width:
                header = [one_line(text) for text in block.header] + [""] * (width - len(block.header))
                rows = [inline.lines(row) for row in block.rows]
                for row in rows:
                    if len(row) < width:
                        row += [[]] * (width - len(row))
                out.append(Table(header, rows))
        elif isinstance(block, CodeBlock):
            text = clean(block.text).rstrip()
            if text:  # not only whitespace
                out.append(CodeBlock(language(block.language), text))
        else:
            raise TypeError(f"not a document block: {block!r}")
    return Outline(title or "Untitled", title_anchor, one_line(doc.description), out, anchors)


class _Once:
    """``make(parts)``, made once per distinct content. Large specs repeat themselves: MS Graph beta's
    document has 620,000 table cells with 35,000 distinct contents, and 219,000 paragraphs with 35,000.
    What is made is shared between the places, so no one may change it.

    The builder already shares its repeated cells, so a list met before is found by its id, without
    hashing its parts again (frozen dataclasses hash in Python); a new one by its content: the one
    part itself, or a tuple of them. ``make`` comes with each call: kept here, a bound method of the
    memo's owner would make a reference cycle, and all that is cached would wait for the collector."""

    def __init__(self) -> None:
        self._by_id: dict[int, tuple[list[Inline], Any]] = {}
        self._by_content: dict[Hashable, Any] = {}

    def get(self, parts: list[Inline], make: Callable[[list[Inline]], Any]) -> Any:
        hit = self._by_id.get(id(parts))
        if hit is not None:
            return hit[1]
        key = parts[0] if len(parts) == 1 else tuple(parts)
        made = self._by_content.get(key)
        if made is None:
            made = self._by_content[key] = make(parts)
        self._by_id[id(parts)] = (parts, made)  # holding the list: its id is not reused while cached
        return made

    def each(self, lists: list[list[Inline]], make: Callable[[list[Inline]], Any]) -> list[Any]:
        """``[self.get(parts, make) for parts in lists]``, the lists met before found without a call
        each (a table row's cells: a large document has a million)."""
        by_id = self._by_id
        return [hit[1] if (hit := by_id.get(id(parts))) is not None else self.get(parts, make) for parts in lists]


class _Inline:
    """Inline parts made ready: whitespace collapsed, empty parts dropped, links resolved."""

    def __init__(self, anchors: set[str]) -> None:
        self.anchors = anchors
        self._lines, self._paragraphs, self._paras = _Once(), _Once(), _Once()

    def line(self, parts: list[Inline]) -> list[Inline]:
        """The parts as one line, without leading, trailing or doubled spaces."""
        return self._lines.get(parts, self._line)

    def lines(self, lists: list[list[Inline]]) -> list[list[Inline]]:
        """``[self.line(parts) for parts in lists]``, quicker."""
        return self._lines.each(lists, self._line)

    def paragraphs(self, parts: list[Inline]) -> list[list[Inline]]:
        """The parts split into paragraphs at the blank lines of their text, each one line; none empty."""
        return self._paragraphs.get(parts, self._split)

    def paras(self, parts: list[Inline]) -> list[Para]:
        """``paragraphs(parts)`` as blocks, the same blocks for the same parts."""
        return self._paras.get(parts, self._para_blocks)

    def _para_blocks(self, parts: list[Inline]) -> list[Para]:
        return [Para(paragraph) for paragraph in self._split(parts)]

    def _line(self, parts: list[Inline]) -> list[Inline]:
        if len(parts) <= 1:  # most table cells: nothing, or one piece of text or code
            if not parts:
                return []
            part = parts[0]
            if type(part) is str:
                text = _collapse(part).strip(" ")
                return [text] if text else []
            if type(part) is not Link:
                text = one_line(part.text)
                return [part if text == part.text else type(part)(text)] if text else []
        out: list[Inline] = []
        space = True  # at the start, and after a space, a leading space would be one too many
        for part in parts:
            if isinstance(part, str):
                text = _collapse(part)
            else:
                text = one_line(part.text)
                if isinstance(part, Link):
                    anchor = _valid_anchor(part.anchor)
                    if anchor in self.anchors:
                        out.append(Link(text or anchor, anchor))
                        space = False
                        continue
                    text = text or part.anchor  # nowhere to go: the words stay, as plain text
                elif text:
                    # Code next to code (or strong next to strong) is one span: side by side, their
                    # markers would run together ("`a``b`").
                    if out and type(out[-1]) is type(part):
                        out[-1] = type(part)(out[-1].text + text)
                    else:
                        out.append(type(part)(text))
                    space = False
                    continue
            if space:
                text = text.lstrip(" ")
            if text:
                # Text next to text is one string, so that escaping sees what the reader will ("-" ">").
                if out and isinstance(out[-1], str):
                    out[-1] += text
                else:
                    out.append(text)
                space = text.endswith(" ")
        if out and isinstance(out[-1], str):
            out[-1] = out[-1].rstrip(" ")
            if not out[-1]:
                out.pop()
        return out

    def _split(self, parts: list[Inline]) -> list[list[Inline]]:
        paragraphs: list[list[Inline]] = [[]]
        for part in parts:
            if isinstance(part, str) and "\n" in (part := clean(part)):
                first, *rest = _BLANK_LINE.split(part)
                paragraphs[-1].append(first)
                paragraphs.extend([piece] for piece in rest)
            else:
                paragraphs[-1].append(part)
        lines = [self.line(paragraph) for paragraph in paragraphs]
        return [line for line in lines if line]


class BlockWriter:
    """One pass over a document's outline, shared by the three writer families.

    A format says how it spells the page's start (``front``) and each kind of block; this class
    walks the blocks once and joins the chunks with blank lines. ``bullets`` is told whether a list
    came right before, since two lists in a row would merge into one in every format."""

    def render(self, doc: Document) -> str:
        page = outline(doc)
        self._cells = _Once()  # the text of each distinct cell (cell_texts)
        paragraphs = _Once()
        spell = {Heading: self.heading, Para: lambda block: paragraphs.get(block.parts, self.para),
                 Notice: self.notice, Table: self.table, CodeBlock: self.code}
        out = self.front(page)  # chunks, one per block, joined by blank lines at the end
        previous = None
        for block in page.blocks:
            if type(block) is BulletList:
                out.append(self.bullets(block, type(previous) is BulletList))
            else:
                out.append(spell[type(block)](block))
            previous = block
        out[-1] += "\n"  # the final newline, without copying the whole text once more
        return "\n\n".join(out)

    def front(self, page: Outline) -> list[str]:
        raise NotImplementedError

    def heading(self, block: Heading) -> str:
        raise NotImplementedError

    def para(self, parts: list[Inline]) -> str:
        """A paragraph's one line."""
        raise NotImplementedError

    def cell(self, parts: list[Inline]) -> str:
        """A table cell's text (what ``cell_texts`` makes once per distinct content)."""
        raise NotImplementedError

    def cell_texts(self, row: list[list[Inline]]) -> list[str]:
        """The texts of a row's cells."""
        return self._cells.each(row, self.cell)

    def notice(self, block: Notice) -> str:
        raise NotImplementedError

    def bullets(self, block: BulletList, after_list: bool) -> str:
        raise NotImplementedError

    def table(self, block: Table) -> str:
        raise NotImplementedError

    def code(self, block: CodeBlock) -> str:
        raise NotImplementedError
