"""Output helpers: one ``--json`` option and one JSON printer for every command; every line for
people goes out through ``say`` or ``status``, which escape control characters: what the service
prints comes from repositories, specs and pull requests, and must not drive the terminal or a CI
log (JSON escapes them itself)."""

from __future__ import annotations

import os
import sys
from typing import Any, Callable, Iterable

import click

from ..controls import escape_controls, escape_line


def _model_data(value: Any) -> Any:
    """A wire model met inside the data ``emit`` prints, as JSON data. Called by ``json`` for what
    it cannot write itself: the data is not walked and copied first (a scan's thousands of findings
    are plain JSON already)."""
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json", exclude_none=False)
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def json_option(func: Callable) -> Callable:
    """Add ``--json``: the command passes its data and a line renderer to ``emit``."""
    return click.option("--json", "as_json", is_flag=True, help="print the data as JSON for scripts")(func)


def emit(data: Any, as_json: bool, render: Callable[[Any], Iterable[str] | str], *,
         empty: str | None = None) -> None:
    if as_json:
        import json  # only --json output needs it: --help and plain commands start without it

        click.echo(json.dumps(data, indent=2, ensure_ascii=False, default=_model_data))
        return
    if empty is not None and isinstance(data, list) and not data:
        status(empty)
        return
    lines = render(data)
    for line in [lines] if isinstance(lines, str) else lines:
        say(line)


def say(line: str, *, colour: str | None = None, err: bool = False) -> None:
    """A line for people, its control characters escaped, then coloured when ``colour`` is given
    and the stream is a terminal that may show colour (``NO_COLOR`` unset)."""
    text = escape_controls(str(line))
    if colour and _takes_colour(sys.stderr if err else sys.stdout):
        click.echo(click.style(text, fg=colour), err=err, color=True)
    else:
        click.echo(text, err=err)


def _takes_colour(stream) -> bool:
    try:
        return stream.isatty() and "NO_COLOR" not in os.environ
    except (AttributeError, ValueError):
        return False


def status(message: str) -> None:
    """A status line for people: stderr, so stdout stays clean for data."""
    say(message, err=True)


def columns(rows: list[list[str]]) -> list[str]:
    """Left-aligned columns separated by two spaces, one row a line (a cell's newlines and tabs shown
    as ``\\n`` and ``\\t``), aligned by the width a terminal gives each character (CJK and most
    emoji take two columns, combining marks none); empty cells collapse."""
    if not rows:
        return []
    rows = [[escape_line(str(cell)) for cell in row] for row in rows]
    widths = [max(_width(row[i]) for row in rows) for i in range(len(rows[0]))]
    out = []
    for row in rows:
        cells = [cell + " " * (widths[i] - _width(cell)) if i < len(row) - 1 else cell for i, cell in enumerate(row)]
        out.append("  ".join(cells).rstrip())
    return out


def _width(text: str) -> int:
    """Terminal columns ``text`` takes."""
    if text.isascii():
        return len(text)
    import unicodedata

    return sum(0 if unicodedata.combining(c) or c == "\u200b" else 2 if unicodedata.east_asian_width(c) in "WF"
               else 1 for c in text)


def stdin_is_tty() -> bool:
    try:
        return sys.stdin.isatty()
    except (AttributeError, ValueError):
        return False
