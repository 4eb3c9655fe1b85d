"""AsciiDoc for Asciidoctor (``adoc``).

Asciidoctor applies its inline substitutions to all text: quotes (``*strong*``, ``_em_``,
`` `mono` ``, ``#mark#``, ``^sup^``, ``~sub~``), attribute references (``{name}``, a warning when
the attribute is missing), replacements (``--``, ``...``, ``(C)``, ``->``), macros (``<<xref>>``,
``[[anchor]]``, ``link:x[]``, ``((index))``) and passthroughs (``+x+``, ``++x++``, ``$$x$$``).
A backslash escapes these only where the full pattern matches (elsewhere it stays visible), so
plain text is escaped with character references instead: a risky character becomes ``&#NN;``,
which no substitution reads as markup and which Asciidoctor hands to the output as the character
(its own last replacement restores references). Risky are ``\\ ` ^ ~ + [ { < >`` everywhere;
``* _ #`` doubled, or single where they could open a quote (not after a letter or digit, not before
a space): one that could only close a quote closes nothing, as every opener is escaped, so
snake_case, C# and 2 * 3 stay readable; the first of ``-- ... :: ;; $$ ((`` and of ``(C) (R) (TM)``;
``&`` before a name. The apostrophe is left to become typographic (don't -> don’t), as AsciiDoc
authors expect.

At the start of a paragraph, list item or title, a character that would open a block (``=``,
``.``, ``-``, ``/``, ``'``, ``|``, ``:``, ``*``, ``#``, ``1.``, ``A.``, ``NOTE:``) is written as a
reference too.

Other rules: a ``[[anchor]]`` line before each heading with an anchor (ids that start with a digit
get a ``_`` in front, as the anchor syntax needs a letter or ``_``); links are ``<<anchor,text>>``;
section levels never skip (the outline sees to it: Asciidoctor warns); tables escape ``|`` in
cells as ``\\|``, which the table parser reads before any substitution; source blocks use a ``----``
delimiter longer than any such line in the code, turn off callouts when a line ends like one
(``<1>``), and escape preprocessor lines (``include::`` and ``ifdef::``, read even inside blocks).
"""

from __future__ import annotations

import re

from ..doc import BulletList, Code, CodeBlock, Document, Heading, Inline, Link, Strong, Table
from .common import BlockWriter, Notice, Outline

__all__ = ["render_asciidoc"]

_RISKY_IN_TEXT = r"""
    [\\`^~+\[{]                                    # escapes, mono, sup, sub, passthroughs, macros, attributes
  | \*(?=\*) | (?<=\*)\* | _(?=_) | (?<=_)_ | \#(?=\#) | (?<=\#)\#  # doubled: strong, emphasis, mark anywhere
  | (?<![^\W_])[*_#](?!\s)                          # single: where it could open (a lone closer closes nothing)
  | <(?=[<\-=]|$) | [\-=](?=>)                       # xrefs <<, arrows <- <= -> => (a final < may meet our <<)
  | -(?=-) | \.(?=\.\.) | :(?=:) | ;(?=;) | \$(?=\$)  # --, ..., description lists, $$ passthrough
  | \((?=\(|C\)|R\)|TM\)) | &(?=[A-Za-z\#])            # ((index)), (C) (R) (TM), character references
"""
# The lookahead first: where no risky character is, a quick no.
_RISKY = re.compile(rf"(?=[\\`^~+\[{{<*_\#\-=.:;$(&])(?:{_RISKY_IN_TEXT})", re.X)
_CODE_RISKY = re.compile(rf"(?=[\\`^~+\[{{<*_\#\-=.:;$(&'])(?:{_RISKY_IN_TEXT}| ')", re.X)  # code: straight '
# Asciidoctor makes a link of a URL in text, up to a space or "]" once "<" and "[" are references
# ("&lt;", "&#91;"). One that escaping would change, or holding "<>&;", loses its scheme's colon to
# a reference instead: a final ";" is cut off as punctuation, and all the rest is in the address.
_URL = re.compile(r"(?:https?|file|ftp|irc)://[^\s\]]*")
_AFTER_REFERENCE = re.compile(r"(?<=;);")
# What would open a block at the start of a line (the rest of the risky starts are escaped already).
_START = re.compile(r"[=./\-'|:;!*_#<>]|\d+\.(?=\s)|[A-Za-z]\.(?=\s)|[IVXivx]+\)(?=\s)|(?:NOTE|TIP|IMPORTANT|WARNING|CAUTION):")
# Asciidoctor's own patterns for preprocessor lines, read in every block, and for callouts.
_PREPROCESSOR = re.compile(r"^(?:include::[^\s\[](?:[^\[]*[^\s\[])?|(?:ifdef|ifndef|ifeval|endif)::\S*)\[.*\]$", re.M)
_CALLOUT = re.compile(r"<!?(?:--)?(?:\d+|\.)(?:--)?>\s*$", re.M)
_DASHES = re.compile(r"^-{4,}$", re.M)
# In an attribute entry only special characters and attribute references are substituted: escape the
# references that Asciidoctor would match (a backslash elsewhere would stay visible).
_ATTRIBUTE_REFERENCE = re.compile(r"\{(?=(?:\w[\w-]*|(?:set|counter2?):[^\n]+?)\})")
_LABEL = {"note": "NOTE", "warning": "WARNING"}


def _reference(match: re.Match[str]) -> str:
    return f"&#{ord(match.group())};"


def _escape(text: str, risky: re.Pattern[str] = _RISKY) -> str:
    text = risky.sub(_reference, text)
    # A reference ends with ";": with a ";" after it, ";;" before a space would start a description list.
    return _AFTER_REFERENCE.sub("&#59;", text) if ";;" in text else text


def _text(text: str, risky: re.Pattern[str] = _RISKY) -> str:
    """Plain text (or, with ``_CODE_RISKY``, the text of inline code) safe from every substitution."""
    if "://" not in text:
        return _escape(text, risky)
    out, end = [], 0
    for url in _URL.finditer(text):
        out.append(_escape(text[end:url.start()], risky))
        escaped = _escape(url.group(), risky)
        if escaped != url.group() or any(c in url.group() for c in "<>&;"):
            escaped = escaped.replace(":", "&#58;", 1)
        out.append(escaped)
        end = url.end()
    out.append(_escape(text[end:], risky))
    return "".join(out)


def _link_text(text: str) -> str:
    # No ">" at all ("x>>" would end the link early), and no "-" or "=" before our ">>" (an arrow).
    text = _text(text).replace(">", "&#62;")
    return text[:-1] + f"&#{ord(text[-1])};" if text[-1] in "-=" else text


def _start(line: str) -> str:
    if _START.match(line):
        return f"&#{ord(line[0])};{line[1:]}"
    return line


def _id(anchor: str) -> str:
    return anchor if anchor[0].isalpha() else "_" + anchor


def _line(parts: list[Inline], cell: bool = False) -> str:
    """Inline parts as one line of AsciiDoc: a block's first line, or a table cell's text."""
    out: list[str] = []
    for part in parts:
        if isinstance(part, str):
            out.append(_text(part))
        elif isinstance(part, Code):
            out.append(f"``{_text(part.text, _CODE_RISKY)}``")  # links are made inside code too
        elif isinstance(part, Strong):
            out.append(f"**{_text(part.text).replace('*', '&#42;')}**")  # "a*" would close the "**" early
        elif isinstance(part, Link):
            out.append(f"<<{_id(part.anchor)},{_link_text(part.text)}>>")
    line = "".join(out)
    if cell:
        return line.replace("|", "\\|")
    # Markup of ours may start a line ("**Note**"), text may not.
    return _start(line) if parts and isinstance(parts[0], str) else line


def _title(text: str) -> str:
    text = _start(_text(text))
    # "== Title ==" is a title too: a final "=" would be taken for its closing marks.
    return text[:-1] + "&#61;" if text.endswith("=") else text


def _attribute_value(text: str) -> str:
    # Asciidoctor writes the value into <meta content="..."> without escaping '"': {quot} does.
    value = _ATTRIBUTE_REFERENCE.sub(r"\\{", text).replace('"', "{quot}")
    # A value that ends with " +" or " \" continues on the next line, taking the document with it.
    if value.endswith(("+", "\\")):
        value = value[:-1] + ("{plus}" if value[-1] == "+" else "{backslash}")
    return value


def render_asciidoc(doc: Document) -> str:
    return _Writer().render(doc)


class _Writer(BlockWriter):
    def front(self, page: Outline) -> list[str]:
        header = f"= {_title(page.title)}"
        if page.title_anchor:
            header = f"[[{_id(page.title_anchor)}]]\n{header}"
        if page.description:
            header += "\n:description: " + _attribute_value(page.description)
        return [header]

    def heading(self, block: Heading) -> str:
        heading = f"{'=' * block.level} {_title(block.text)}"
        return f"[[{_id(block.anchor)}]]\n{heading}" if block.anchor else heading

    def para(self, parts: list[Inline]) -> str:
        return _line(parts)

    def cell(self, parts: list[Inline]) -> str:
        return _line(parts, cell=True)

    def notice(self, block: Notice) -> str:
        label = _LABEL[block.kind]
        if len(block.paragraphs) == 1:
            return f"{label}: {_line(block.paragraphs[0])}"
        body = "\n\n".join(_line(parts) for parts in block.paragraphs)
        return f"[{label}]\n====\n{body}\n===="

    def bullets(self, block: BulletList, after_list: bool) -> str:
        # An empty item needs some text to be an item at all: {empty} is Asciidoctor's nothing.
        items = "\n".join(f"* {_line(item) or '{empty}'}" for item in block.items)
        return f"//-\n\n{items}" if after_list else items  # a comment line keeps two lists apart

    def table(self, table: Table) -> str:
        lines = [f'[cols="{len(table.header)}*",options="header"]', "|==="]
        lines.extend(f"| {_line([text], cell=True)}".rstrip() for text in table.header)
        for row in table.rows:
            lines.append("")
            lines.extend(f"| {text}".rstrip() for text in self.cell_texts(row))
        lines.append("|===")
        return "\n".join(lines)

    def code(self, block: CodeBlock) -> str:
        return _code(block)


def _code(block: CodeBlock) -> str:
    # Each pattern needs a fixed string ("::", "----"), looked for first: a quick no over the
    # megabytes of examples, where the searches take tens of milliseconds.
    text = _PREPROCESSOR.sub(lambda m: "\\" + m.group(), block.text) if "::" in block.text else block.text
    # The delimiter closes at the first line equal to it: make it longer than any line of dashes.
    taken = {len(line) for line in _DASHES.findall(text)} if "----" in text else set()
    size = 4
    while size in taken:
        size += 1
    delimiter = "-" * size
    attributes = f"source,{block.language}"
    if _CALLOUT.search(text):
        attributes += ',subs="-callouts"'
    return f"[{attributes}]\n{delimiter}\n{text}\n{delimiter}"
