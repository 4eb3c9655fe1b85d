"""``@examples(...)``: the "Examples:" block that ends a command's help, as gh's help does.

Each example is a real command line; the meta test ``tests/unit/test_cli_help.py`` parses every
one with the command's own parser, so an example cannot drift from the options it shows.
"""

from __future__ import annotations

from typing import Callable, TypeVar

import click

__all__ = ["examples", "examples_of"]

C = TypeVar("C", bound=click.Command)


def examples(*lines: str) -> Callable[[C], C]:
    """Put above ``@click.command()``/``@click.group()``: each line is ``docsvc ...``, optionally
    followed by ``  # what it does``."""

    def attach(command: C) -> C:
        command.__dict__["_examples"] = lines
        # "\b" keeps click from re-wrapping the block into one paragraph.
        block = "\b\nExamples:\n" + "\n".join(f"  $ {line}" for line in lines)
        command.epilog = f"{command.epilog}\n\n{block}" if command.epilog else block
        return command

    return attach


def examples_of(command: click.Command) -> tuple[str, ...]:
    """The example command lines of ``command`` (without their ``# ...`` comments)."""
    return tuple(line.split("  #", 1)[0].strip() for line in command.__dict__.get("_examples", ()))
