"""Outside text made safe for a terminal or a CI log: a file name, a docs line or a server's
message could carry an escape sequence that recolours, rewrites or hides what a person reads
(a carriage return overwrites the line before it). Shown as visible ``\\xNN`` instead; tabs and
newlines stay, except in text that must stay on one line (``escape_line``)."""

from __future__ import annotations

import re

__all__ = ["escape_controls", "escape_line"]

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\x9b]")  # C0 (not tab, not newline), DEL, the 8-bit CSI


def escape_controls(text: str) -> str:
    """``text`` with its control characters as visible ``\\xNN``."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def escape_line(text: str) -> str:
    """``text`` on one line: control characters visible as in ``escape_controls``, and tabs and
    newlines as ``\\t`` and ``\\n``: a title holding a newline must not add a row that looks like
    another item to a listing, one item a line."""
    return escape_controls(text.replace("\t", "\\t").replace("\n", "\\n"))
