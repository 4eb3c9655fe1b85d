"""Small helpers the reference generators share for writing Markdown."""

from __future__ import annotations

import re


def cell(text: str) -> str:
    """``text`` as one GFM table cell: on one line, its pipes escaped."""
    return " ".join(str(text).split()).replace("|", "\\|")


def slug(name: str) -> str:
    """A file name for a command or a heading: lower case, words joined by ``-``."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "index"
