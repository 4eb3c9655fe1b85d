"""CommonMark with GFM tables (``md``) and Docusaurus MDX (``docusaurus``): one writer, two dialects.

Text is plain text, so every character that could start markup is backslash-escaped (CommonMark
lets any ASCII punctuation be escaped, and MDX keeps that rule). The dialects differ only in what
they must escape and in the front matter:

- ``md``: ``\\ ` * [ ] < & | ~`` anywhere (``~`` for GFM strikethrough, which GitHub applies), ``_``
  unless inside a word, and at the start of a line what would open a block: ``# - + = >``, ``1.``.
- ``docusaurus``: the same, plus ``{ }`` (MDX reads them as JavaScript expressions) and a leading
  ``:`` (``:::note`` opens a Docusaurus admonition) and the first letter of a leading ``import`` or
  ``export`` (JavaScript to MDX) as a character reference; YAML front matter with the title and the
  description; admonitions as ``:::note`` blocks. No HTML comment (MDX refuses ``<!--``) and no raw
  HTML but the anchors, written as JSX that is also valid HTML: ``<a id="x"></a>``.

Anchors go on their own line before a heading, because neither CommonMark nor MDX has a syntax
for a heading's id. Table cells cannot hold line breaks (the outline has made them one line) and
``|`` in them is escaped, code spans included, as GFM asks.
"""

from __future__ import annotations

import json
import re
import string
import unicodedata
from dataclasses import dataclass
from typing import Callable

from ..doc import BulletList, Code, CodeBlock, Document, Heading, Inline, Link, Strong, Table
from .common import BlockWriter, Notice, Outline, backslashed

__all__ = ["render_markdown", "render_docusaurus"]

_MARKDOWN_TEXT = backslashed("\\`*[]<&|~")
_MDX_TEXT = backslashed("\\`*[]<&|~{}")
# "_" opens emphasis only at a word's edge: snake_case stays readable.
_UNDERSCORE = re.compile(r"(?<![^\W_])_|_(?![^\W_])")
# What opens a block at the start of a line; the backslash goes before the last character matched.
_MARKDOWN_START = re.compile(r"[#+\-=>]|\d+[.)]")
_MDX_START = re.compile(r"[#+\-=>:]|\d+[.)]")
# A line starting with the word import or export is JavaScript to MDX; a letter cannot be
# backslash-escaped, but written as a character reference it is no keyword.
_MDX_ESM = re.compile(r"(?:import|export)\s")
_BACKTICKS = re.compile(r"`+")
_NOT_PRINTABLE_IN_YAML = re.compile("[\u0080-\u009f\ud800-\udfff\ufffe\uffff]")
_LABEL = {"note": "Note", "warning": "Warning"}
_ASCII_PUNCTUATION = frozenset(string.punctuation)


@dataclass(frozen=True)
class _Dialect:
    text: Callable[[str], str]  # escapes plain text
    start: re.Pattern[str]
    docusaurus: bool


_MARKDOWN = _Dialect(_MARKDOWN_TEXT, _MARKDOWN_START, docusaurus=False)
_DOCUSAURUS = _Dialect(_MDX_TEXT, _MDX_START, docusaurus=True)


def render_markdown(doc: Document) -> str:
    return _Writer(_MARKDOWN).render(doc)


def render_docusaurus(doc: Document) -> str:
    return _Writer(_DOCUSAURUS).render(doc)


def _yaml_string(text: str) -> str:
    """A double-quoted YAML scalar: a JSON string is one, once the characters YAML may not hold raw
    (C1 controls, lone surrogates, U+FFFE/U+FFFF) are written as escapes too."""
    return _NOT_PRINTABLE_IN_YAML.sub(lambda m: f"\\u{ord(m.group()):04x}", json.dumps(text, ensure_ascii=False))


class _Writer(BlockWriter):
    def __init__(self, dialect: _Dialect) -> None:
        self.dialect = dialect
        self.marker = "-"

    def front(self, page: Outline) -> list[str]:
        out: list[str] = []
        if self.dialect.docusaurus:
            front = f"---\ntitle: {_yaml_string(page.title)}\n"
            if page.description:
                front += f"description: {_yaml_string(page.description)}\n"
            out.append(front + "---")
        out.append(self.heading(Heading(1, page.title, page.title_anchor)))
        return out

    def para(self, parts: list[Inline]) -> str:
        return self.line(parts)

    def cell(self, parts: list[Inline]) -> str:
        return self.line(parts, table=True)

    def bullets(self, block: BulletList, after_list: bool) -> str:
        # The second of two lists in a row uses the other bullet.
        self.marker = "*" if after_list and self.marker == "-" else "-"
        return "\n".join(f"{self.marker} {self.line(item)}".rstrip() for item in block.items)

    def heading(self, heading: Heading) -> str:
        text = self.inline(heading.text)
        if text.endswith("#"):  # a closing "#" sequence would be dropped from the heading's text
            text = text[:-1] + "\\#"
        line = f"{'#' * heading.level} {text}"
        return f'<a id="{heading.anchor}"></a>\n\n{line}' if heading.anchor else line

    def inline(self, text: str) -> str:
        text = self.dialect.text(text)
        return _UNDERSCORE.sub(r"\\_", text) if "_" in text else text

    def line(self, parts: list[Inline], table: bool = False) -> str:
        """Inline parts as one line of Markdown; at the start of a line unless ``table``."""
        if table and len(parts) <= 1:  # most table cells: nothing, or one piece of text or code
            if not parts:
                return ""
            if type(parts[0]) is str:
                return self.inline(parts[0])
            if type(parts[0]) is Code:
                return _code_span(parts[0].text.replace("|", "\\|"))
        out: list[str] = []
        strong: list[int] = []  # where in out
        for part in parts:
            if isinstance(part, str):
                out.append(self.inline(part))
            elif isinstance(part, Code):
                out.append(_code_span(part.text.replace("|", "\\|") if table else part.text))
            elif isinstance(part, Strong):
                strong.append(len(out))
                out.append(self.inline(part.text))
            elif isinstance(part, Link):
                if out and out[-1].endswith("!"):  # "![" would make the link an image
                    out[-1] = out[-1][:-1] + "\\!"
                out.append(f"[{self.inline(part.text)}](#{part.anchor})")
        for n in strong:
            # "**" only opens after a space or punctuation when punctuation follows it ("a**'x'**"
            # shows its asterisks), and closes likewise: then the words stay, not bold.
            inner, before, after = out[n], out[n - 1][-1:] if n else "", out[n + 1][:1] if n + 1 < len(out) else ""
            if not (_wordish(before) and _punctuation(inner[0]) or _wordish(after) and _punctuation(inner[-1])):
                out[n] = f"**{inner}**"
        text = "".join(out)
        if not table and (match := self.dialect.start.match(text)):
            text = f"{text[:match.end() - 1]}\\{text[match.end() - 1:]}"
        elif self.dialect.docusaurus and _MDX_ESM.match(text):
            text = f"&#{ord(text[0])};{text[1:]}"
        return text

    def notice(self, notice: Notice) -> str:
        paragraphs = [self.line(parts) for parts in notice.paragraphs]
        if self.dialect.docusaurus:
            return "\n\n".join([f":::{notice.kind}", *paragraphs, ":::"])
        paragraphs[0] = f"**{_LABEL[notice.kind]}:** {paragraphs[0]}"
        return "\n>\n".join(f"> {paragraph}" for paragraph in paragraphs)

    def table(self, table: Table) -> str:
        rows = [
            "| " + " | ".join(self.inline(text) for text in table.header) + " |",
            "| " + " | ".join("---" for _ in table.header) + " |",
        ]
        rows.extend("| " + " | ".join(self.cell_texts(row)) + " |" for row in table.rows)
        return "\n".join(rows)

    def code(self, block: CodeBlock) -> str:
        # A fence longer than any run of backticks inside, so that no line of the code can close it.
        fence = "`" * max(3, _backticks(block.text) + 1)
        return f"{fence}{block.language}\n{block.text}\n{fence}"


# CommonMark 0.31 counts symbols (emoji, ©) as punctuation for "**"; earlier versions, and the
# micromark of MDX, only ASCII punctuation and Unicode's P*. Both readings are kept on the safe side.
def _punctuation(char: str) -> bool:
    return char in _ASCII_PUNCTUATION or unicodedata.category(char)[0] in "PS"


def _wordish(char: str) -> bool:
    return bool(char) and not char.isspace() and char not in _ASCII_PUNCTUATION \
        and unicodedata.category(char)[0] != "P"


def _backticks(text: str) -> int:
    """The longest run of backticks in ``text``; looked for first, as the pattern searches slowly
    through the megabytes of a large document's examples."""
    return max(len(run) for run in _BACKTICKS.findall(text)) if "`" in text else 0


def _code_span(text: str) -> str:
    ticks = "`" * (_backticks(text) + 1)
    # A space inside each end, when the code starts or ends with a backtick (or a space, which
    # CommonMark would otherwise strip in pairs), is removed again by the parser.
    if text[0] in "` " or text[-1] in "` ":
        text = f" {text} "
    return f"{ticks}{text}{ticks}"
