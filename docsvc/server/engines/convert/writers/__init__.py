"""Writers: a ``doc.Document`` spelled in one of the five target formats.

``render(doc, target)`` is all a converter needs. The families share their code: ``markdown``
writes CommonMark (``md``) and Docusaurus MDX (``docusaurus``), ``rst`` writes plain docutils
reStructuredText (``rst``) and Sphinx's (``sphinx``), ``asciidoc`` writes Asciidoctor's AsciiDoc
(``adoc``). ``common.outline`` first settles, once for all of them, what the formats would refuse
(skipped heading levels, duplicate anchors, links to nowhere, control characters).

Every writer is linear in the size of the document (one pass, text escaped with ``str.replace``
and precompiled patterns, one join at the end): a large OpenAPI document makes some 100,000 blocks.
"""

from __future__ import annotations

from typing import Callable

from ..doc import Document
from .asciidoc import render_asciidoc
from .markdown import render_docusaurus, render_markdown
from .rst import render_rst, render_sphinx

__all__ = ["render", "WRITERS"]

WRITERS: dict[str, Callable[[Document], str]] = {
    "docusaurus": render_docusaurus,
    "sphinx": render_sphinx,
    "md": render_markdown,
    "rst": render_rst,
    "adoc": render_asciidoc,
}


def render(doc: Document, target: str) -> str:
    """``doc`` as text in ``target`` (a key of ``WRITERS``, the same as ``convert.TARGETS``)."""
    try:
        writer = WRITERS[target]
    except KeyError:
        raise ValueError(f"unknown target format {target!r}; one of {', '.join(WRITERS)}") from None
    return writer(doc)
