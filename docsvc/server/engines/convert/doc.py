"""The document model every converter builds and every writer renders.

Converters (``openapi``, ``helm``) say *what* the page holds; writers (``writers``) say how each
target format spells it and escape text for it. Keeping the two apart is what lets one OpenAPI
walk produce Docusaurus MDX, CommonMark, reStructuredText, Sphinx and AsciiDoc that their own
parsers accept.

Text is always plain text: a writer escapes it. Inline content is a list of parts: a ``str``
(plain text), ``Code`` (inline literal), ``Strong``, or ``Link`` (to an ``anchor`` of this document).
Anchors are made by ``anchor_id`` so that every writer can use them as they are.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Union

__all__ = ["Code", "Strong", "Link", "Inline", "Heading", "Para", "Table", "CodeBlock", "BulletList",
           "Admonition", "Block", "Document", "Built", "anchor_id", "Anchors"]


@dataclass(frozen=True)
class Code:
    text: str


@dataclass(frozen=True)
class Strong:
    text: str


@dataclass(frozen=True)
class Link:
    text: str
    anchor: str  # an anchor made by anchor_id, defined by a Heading of the same document


Inline = Union[str, Code, Strong, Link]


@dataclass
class Heading:
    level: int  # 1 = the document title; sections 2..6
    text: str
    anchor: str | None = None


@dataclass
class Para:
    parts: list[Inline]


@dataclass
class Table:
    header: list[str]
    rows: list[list[list[Inline]]]  # rows of cells; each cell a list of inline parts


@dataclass
class CodeBlock:
    language: str  # "json", "yaml", "bash", "text", ...
    text: str


@dataclass
class BulletList:
    items: list[list[Inline]]


@dataclass
class Admonition:
    kind: str  # "note" | "warning"
    parts: list[Inline]


Block = Union[Heading, Para, Table, CodeBlock, BulletList, Admonition]


@dataclass
class Document:
    title: str
    description: str = ""  # one line, for front matter
    blocks: list[Block] = field(default_factory=list)

    def add(self, *blocks: Block) -> None:
        self.blocks.extend(blocks)


def anchor_id(*parts: str) -> str:
    """A lower-case ASCII id safe as an HTML id, an RST target name and an AsciiDoc anchor."""
    slug = re.sub(r"[^a-z0-9]+", "-", "-".join(parts).lower()).strip("-")
    return slug or "section"


class Anchors:
    """Unique anchors for a document: the same wish twice gets ``-2``, ``-3``..."""

    def __init__(self) -> None:
        self._used: set[str] = set()
        self._by_key: dict[tuple[str, ...], str] = {}

    def make(self, *parts: str) -> str:
        key = tuple(parts)
        if key in self._by_key:
            return self._by_key[key]
        base = anchor_id(*parts)
        anchor, n = base, 1
        while anchor in self._used:
            n += 1
            anchor = f"{base}-{n}"
        self._used.add(anchor)
        self._by_key[key] = anchor
        return anchor

    def get(self, *parts: str) -> str | None:
        return self._by_key.get(tuple(parts))


@dataclass
class Built:
    """What a converter hands to the writers, with what the caller reports."""

    document: Document
    warnings: list[str] = field(default_factory=list)
    stats: dict[str, int] = field(default_factory=dict)
    names: list[str] = field(default_factory=list)  # every operation or values key, for coverage checks
