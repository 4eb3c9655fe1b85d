"""What the CLI prints for people carries no control characters from outside: a docs line, a
file name or a server's message with an escape sequence shows as text (``\\x1b``), in data lines,
status lines and errors alike; ``--json`` stays exact, and colour is the CLI's own."""

from __future__ import annotations

import json

import click
from click.testing import CliRunner

from docsvc.cli.context import CliExit
from docsvc.cli.output import emit, say, status

HOSTILE = "docs/\x1b]0;owned\x07page.md\rfake: all clear\x1b[2K"
SHOWN = "docs/\\x1b]0;owned\\x07page.md\\x0dfake: all clear\\x1b[2K"


@click.command()
@click.option("--json", "as_json", is_flag=True)
@click.option("--fail", is_flag=True)
def command(as_json: bool, fail: bool) -> None:
    status(f"planned {HOSTILE}")
    emit({"path": HOSTILE}, as_json, lambda d: [f"  {d['path']}\tkept"])
    say(f"+ {HOSTILE}", colour="green")
    if fail:
        raise CliExit(f"the service said: {HOSTILE}", 1)


def test_lines_for_people_show_control_characters_as_text():
    done = CliRunner().invoke(command, [])
    assert done.exit_code == 0
    assert done.stdout == f"  {SHOWN}\tkept\n+ {SHOWN}\n"  # tab kept; no colour off a terminal
    assert done.stderr == f"planned {SHOWN}\n"


def test_an_error_from_outside_is_escaped_too_and_json_stays_exact():
    done = CliRunner().invoke(command, ["--fail"])
    assert (done.exit_code, done.stderr.splitlines()[-1]) == (1, f"Error: the service said: {SHOWN}")
    done = CliRunner().invoke(command, ["--json"])
    assert json.loads(done.stdout.split("\n+ ")[0]) == {"path": HOSTILE}
