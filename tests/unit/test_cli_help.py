"""Help screens, kept true by tests: every command ends its help with two or three examples that
its own parser accepts, and every command beyond the interface says "[addition]" in its help line."""

from __future__ import annotations

import re
import shlex
import warnings
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from docsvc.cli.examples import examples_of
from docsvc.cli.main import cli
from docsvc.endpoints import TOOLS

INTERFACE = Path(__file__).resolve().parents[2].parent / "shared" / "spec" / "interface.md"
SHELL_OPERATORS = {">", "<", "|", "&&", ";"}


def all_commands(command: click.Command = cli, path: tuple[str, ...] = ()):
    yield path, command
    if isinstance(command, click.Group):
        for name, sub in sorted(command.commands.items()):
            yield from all_commands(sub, path + (name,))


COMMANDS = list(all_commands())
LEAVES = [(path, command) for path, command in COMMANDS if not isinstance(command, click.Group)]


def name(path) -> str:
    return " ".join(("docsvc",) + path)


def parse(argv: list[str]) -> click.Command:
    """Parse ``argv`` the way ``docsvc`` would, down to the leaf command, without running it;
    returns the command reached. Raises click's usage errors for an option or value it refuses."""
    ctx = cli.make_context("docsvc", list(argv))
    command, args = cli, rest(ctx)
    while isinstance(command, click.Group) and args:
        _, command, args = command.resolve_command(ctx, args)
        ctx = command.make_context(command.name, args, parent=ctx)
        args = rest(ctx) if isinstance(command, click.Group) else []
    return command


def rest(ctx: click.Context) -> list[str]:
    """A group's unparsed words: click 8 splits them in two (``protected_args`` is deprecated)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return [*getattr(ctx, "protected_args", []), *ctx.args]


def argv_of(example: str) -> list[str]:
    """The arguments of ``docsvc`` in a shell line: no leading VAR=value, nothing after a
    redirection, a pipe or &&."""
    words = shlex.split(example)
    while words and re.match(r"^[A-Z_][A-Z0-9_]*=", words[0]):
        words.pop(0)
    assert words and words[0] == "docsvc", f"an example must run docsvc: {example!r}"
    argv = []
    for word in words[1:]:
        if word in SHELL_OPERATORS:
            break
        argv.append(word)
    return argv


def example_files(argv: list[str], folder: Path, content: bytes = b"") -> None:
    """The files an example reads (ROUTE=PATH too), so options that need one accept it: empty,
    or ``content`` (``{}`` passes for a YAML or JSON document)."""
    for word in argv:
        file = word.rsplit("=", 1)[-1]
        if re.fullmatch(r"[\w.-][\w./-]*\.(md|png|txt|yaml|json)", file):
            (folder / file).parent.mkdir(parents=True, exist_ok=True)
            (folder / file).write_bytes(content)


@pytest.mark.parametrize("path, command", COMMANDS, ids=lambda v: name(v) if isinstance(v, tuple) else "")
def test_help_ends_with_two_or_three_examples_of_itself(path, command):
    lines = examples_of(command)
    assert 2 <= len(lines) <= 3, f"{name(path)}: its help needs two or three examples"
    runner = CliRunner()
    with runner.isolated_filesystem():
        for line in lines:
            argv = argv_of(line)
            example_files(argv, Path.cwd())
            reached = parse(argv)
            if not isinstance(command, click.Group):
                assert reached is command, f"{line!r} is not an example of {name(path)}"
    last = runner.invoke(cli, list(path) + ["--help"]).output.rstrip().splitlines()[-1].strip()
    assert last.startswith("$ ") and "docsvc" in last, f"{name(path)} --help does not end with its examples"


def interface_commands() -> set[tuple[str, ...]]:
    """Command paths of the interface's CLI table: `docsvc items approve docflows <id>` is
    ("items", "approve"); the tool and the placeholders are arguments."""
    found = set()
    for row in re.findall(r"^\| `docsvc ([^`]+)`", INTERFACE.read_text(encoding="utf-8"), re.M):
        words = []
        for position, word in enumerate(row.split()):
            if word.startswith("<") or (word in TOOLS and position >= 2):
                break
            words.append(word)
        found.add(tuple(words))
    return found


@pytest.mark.skipif(not INTERFACE.exists(), reason="shared/spec/interface.md is not beside the project")
def test_commands_beyond_the_interface_say_so():
    known = interface_commands()
    assert ("items", "list") in known and ("sync",) in known
    unmarked = [name(path) for path, command in LEAVES
                if path not in known and not (command.help or "").startswith("[addition]")]
    assert unmarked == []
    marked_but_known = [name(path) for path, command in LEAVES
                        if path in known and (command.help or "").startswith("[addition]")]
    assert marked_but_known == []
