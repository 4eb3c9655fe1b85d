"""reStructuredText for docutils (``rst``) and for a Sphinx project (``sphinx``): one writer, two dialects.

The text must pass docutils and ``sphinx-build -W`` with no warning, so:

- inline markup characters in text are backslash-escaped: ``\\ * ` |`` always, ``_`` when it ends a
  word (``name_`` is a reference; ``snake_case`` is not), the first ``-`` of ``--`` (Sphinx's smart
  quotes would make an en dash of ``--verbose``); at the start of a paragraph, list item,
  cell or section title, what would open a block (a bullet, ``1.``, ``(a)``, ``..``, ``:``, ``>>>``,
  a line of one repeated punctuation character) gets a backslash too, and a final ``::`` becomes
  ``:\\:`` (it would announce a literal block);
- inline markup next to a word (``Code`` right after text) is separated by an escaped space
  (``\\ ``), which docutils recognises as a boundary and prints as nothing;
- section underlines are as long as the title's display width: East Asian wide characters take
  two columns, and docutils measures them so;
- every heading with an anchor has an explicit target ``.. _anchor:`` before it, and links are
  anonymous embedded alias references `` `text <anchor_>`__ ``: anonymous so that the same link
  text twice is no "duplicate target" error. Two sections with the same title only give docutils
  INFO messages (duplicate implicit targets), which is below the warning level;
- tables are ``list-table`` directives, every row as wide as the header;
- code is ``.. code:: LANG`` for docutils and ``.. code-block:: LANG`` for Sphinx. Only languages
  that Pygments knows are named (an unknown lexer is a warning), plain text has none in docutils
  (no lexing at all). Sphinx warns when code does not lex cleanly as its language, so JSON is
  labelled json only when it parses and other languages carry ``:force:``, which highlights what it
  can without that warning.
"""

from __future__ import annotations

import json
import re
import unicodedata

from ..doc import BulletList, Code, CodeBlock, Document, Heading, Inline, Link, Strong, Table
from .common import BlockWriter, Notice, Outline, backslashed

__all__ = ["render_rst", "render_sphinx"]

_TEXT = backslashed("\\*`|")
# "name_" and "__" make references; "--" becomes an en dash under Sphinx's smart quotes.
_RISKY = re.compile(r"(?=[_-])(?:_(?![^\W_])|-(?=-))")  # the lookahead first: a quick no elsewhere
_LITERAL_ROLE = backslashed("\\`")
_LINK_TEXT = backslashed("\\`<")
# What opens a block at the start of a line: bullets, enumerators, explicit markup, field and doctest.
_START = re.compile(r"[-+\u2022\u2023\u2043](?= |$)|\.\.(?= |$)|:|>>>|\(?(?:\d+|#|[A-Za-z]|[IVXLCDMivxlcdm]+)[.)](?= |$)")
# A line of one repeated punctuation character is a transition or a section adornment.
_ADORNMENT = re.compile(r"([!-/:-@\[-`{-~])\1*")
# Around inline markup docutils wants whitespace or one of these; anything else gets "\ " between.
# After an opening quote or bracket the markup must not start with its closer ("(``)x``"). Not ":",
# which docutils allows, as "see:role:" before a backquote would make a role of it.
_OK_BEFORE = {" ": "", "-": "", "/": "", "'": "'", '"': '"', "(": ")", "[": "]", "{": "}", "<": ">"}
_OK_AFTER = frozenset(" -.,:;!?/'\")]}>")
_UNDERLINE = {2: "=", 3: "-", 4: "~", 5: "^", 6: '"'}

# Lexer names every Pygments of the last years knows; any other language is written as text.
_LEXERS = frozenset("""
    bash sh shell console zsh powershell ps1 bat json yaml yml toml ini cfg properties xml html css
    http javascript js typescript ts jsx python py python3 pycon ruby rb go java kotlin scala groovy
    c cpp csharp rust php swift sql graphql protobuf proto dockerfile docker nginx make makefile diff
    markdown md rst hcl terraform jinja text
""".split())


def render_rst(doc: Document) -> str:
    return _Writer(sphinx=False).render(doc)


def render_sphinx(doc: Document) -> str:
    return _Writer(sphinx=True).render(doc)


def width(text: str) -> int:
    """Columns ``text`` takes in a fixed-width font, as docutils counts them for underlines."""
    if text.isascii():
        return len(text)
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _start(line: str) -> str:
    """``line`` with a backslash where its start would open a block or be read as an adornment."""
    if _ADORNMENT.fullmatch(line):
        if line[0] != "\\":
            return "\\" + line
        # Escaped backslashes only ("\\\\\\\\"): an escaped space, printed as nothing, breaks the run.
        return f"\\\\\\ {line[2:]}" if len(line) >= 4 else line
    return "\\" + line if _START.match(line) else line


def _backslash(match: re.Match[str]) -> str:
    return "\\" + match.group()


def _text(text: str) -> str:
    text = _TEXT(text)
    return _RISKY.sub(_backslash, text) if "_" in text or "-" in text else text


def _markup(part: Inline) -> str:
    if isinstance(part, Code):
        # ``...`` shows backslashes as they are but cannot hold a backquote; the literal role can,
        # escaped, since it reads backslash escapes.
        if "`" in part.text or part.text.endswith("\\"):
            return f":literal:`{_LITERAL_ROLE(part.text)}`"
        return f"``{part.text}``"
    if isinstance(part, Strong):
        return f"**{_text(part.text)}**"
    assert isinstance(part, Link)
    text = _RISKY.sub(_backslash, _LINK_TEXT(part.text))
    return f"`{text} <{part.anchor}_>`__"


def _content_start(markup: str) -> str:
    return markup[2] if markup.startswith(("``", "**")) else markup[1]


def _line(parts: list[Inline]) -> str:
    """Inline parts as one line of reStructuredText, which may start a block."""
    if len(parts) <= 1:  # most table cells: nothing, or one piece of text or markup
        if not parts:
            return ""
        line = _start(_text(parts[0])) if type(parts[0]) is str else _markup(parts[0])
        return line[:-1] + "\\:" if line.endswith("::") else line
    out: list[str] = []
    last, after_markup = "", False
    for part in parts:
        if isinstance(part, str):
            text = _text(part)
            if after_markup and text[0] not in _OK_AFTER:
                out.append("\\ ")
            after_markup = False
        else:
            text = _markup(part)
            if last and (last not in _OK_BEFORE or _OK_BEFORE[last] == _content_start(text)):
                out.append("\\ ")
            after_markup = True
        out.append(text)
        last = text[-1]
    line = "".join(out)
    if parts and isinstance(parts[0], str):  # markup of ours may start a line (":literal:`x`"); text may not
        line = _start(line)
    return line[:-1] + "\\:" if line.endswith("::") else line


class _Writer(BlockWriter):
    def __init__(self, sphinx: bool) -> None:
        self.sphinx = sphinx
        self.marker = "-"

    def front(self, page: Outline) -> list[str]:
        title = _start(_text(page.title))
        rule = "=" * width(title)
        out = [f"{rule}\n{title}\n{rule}"]
        if page.title_anchor:
            out.insert(0, f".. _{page.title_anchor}:")
        if page.description:  # the meta directive takes the text as it is, but for backslash escapes
            description = page.description.replace("\\", "\\\\")
            out.append(f".. meta::\n   :description: {description}")
        return out

    def heading(self, block: Heading) -> str:
        text = _start(_text(block.text))
        heading = f"{text}\n{_UNDERLINE[block.level] * width(text)}"
        return f".. _{block.anchor}:\n\n{heading}" if block.anchor else heading

    def para(self, parts: list[Inline]) -> str:
        return _line(parts)

    def cell(self, parts: list[Inline]) -> str:
        return _line(parts)

    def notice(self, block: Notice) -> str:
        body = "\n\n".join(f"   {_line(parts)}" for parts in block.paragraphs)
        return f".. {block.kind}::\n\n{body}"

    def bullets(self, block: BulletList, after_list: bool) -> str:
        # The second of two lists in a row uses the other bullet.
        self.marker = "*" if after_list and self.marker == "-" else "-"
        return "\n".join(f"{self.marker} {_line(item)}".rstrip() for item in block.items)

    def table(self, table: Table) -> str:
        # A header row needs a body row below it in a list-table: a lone header is written as a row.
        lines = [".. list-table::", "   :header-rows: 1", ""] if table.rows else [".. list-table::", ""]
        for row in [[[text] if text else [] for text in table.header], *table.rows]:
            for n, text in enumerate(self.cell_texts(row)):
                lines.append(f"{'   * -' if n == 0 else '     -'} {text}".rstrip())
        return "\n".join(lines)

    def code(self, block: CodeBlock) -> str:
        lang = block.language if block.language in _LEXERS else "text"
        if self.sphinx:
            force = ""
            if lang == "json" and not _is_json(block.text):
                lang = "text"
            elif lang not in ("json", "text"):
                force = "\n   :force:"
            head = f".. code-block:: {lang}{force}"
        else:
            head = ".. code::" if lang == "text" else f".. code:: {lang}"
        body = "\n".join(f"   {line}" if line.strip() else "" for line in block.text.split("\n"))
        return f"{head}\n\n{body}"


def _refuse(name: str) -> None:
    raise ValueError(name)


def _is_json(text: str) -> bool:
    # NaN and Infinity are Python's extension, not JSON: Pygments marks them as errors.
    try:
        json.loads(text, parse_constant=_refuse)
    except ValueError:
        return False
    return True
