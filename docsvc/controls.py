"""Outside text made safe for a terminal or a CI log: a file name, a docs line or a server's
message could carry an escape sequence that recolours, rewrites or hides what a person reads
(a carriage return overwrites the line before it). Shown as visible ``\\xNN`` instead; tabs and
newlines stay."""

from __future__ import annotations

import re

__all__ = ["escape_controls"]

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\x9b]")  # C0 (not tab, not newline), DEL, the 8-bit CSI


def escape_controls(text: str) -> str:
    """``text`` with its control characters as visible ``\\xNN``."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)
