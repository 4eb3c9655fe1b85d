"""Output helpers: one ``--json`` option and one JSON printer for every command."""

from __future__ import annotations

import json
import sys
from typing import Any, Callable, Iterable

import click


def to_jsonable(value: Any) -> Any:
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json", exclude_none=False)
    if isinstance(value, (list, tuple)):
        return [to_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {k: to_jsonable(v) for k, v in value.items()}
    return value


def json_option(func: Callable) -> Callable:
    """Add ``--json``: the command passes its data and a line renderer to ``emit``."""
    return click.option("--json", "as_json", is_flag=True, help="print the data as JSON for scripts")(func)


def emit(data: Any, as_json: bool, render: Callable[[Any], Iterable[str] | str], *,
         empty: str | None = None) -> None:
    if as_json:
        click.echo(json.dumps(to_jsonable(data), indent=2, ensure_ascii=False))
        return
    if empty is not None and isinstance(data, list) and not data:
        status(empty)
        return
    lines = render(data)
    for line in [lines] if isinstance(lines, str) else lines:
        click.echo(line)


def status(message: str) -> None:
    """A status line for people: stderr, so stdout stays clean for data."""
    click.echo(message, err=True)


def columns(rows: list[list[str]]) -> list[str]:
    """Left-aligned columns separated by two spaces; empty cells collapse."""
    if not rows:
        return []
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    out = []
    for row in rows:
        cells = [cell.ljust(widths[i]) if i < len(row) - 1 else cell for i, cell in enumerate(row)]
        out.append("  ".join(cells).rstrip())
    return out


def stdin_is_tty() -> bool:
    try:
        return sys.stdin.isatty()
    except (AttributeError, ValueError):
        return False
