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


def test_a_listing_keeps_one_item_a_line_whatever_a_title_holds():
    """A title with a newline would add a row that reads as another item (``99  Approved by
    security``); a tab would shift the columns. Both are shown, escaped, in their cell."""
    from docsvc.cli.output import columns

    lines = columns([["9", "Real title\n99  Approved by security team\tdone", "draft"], ["10", "other", "done"]])
    assert lines[0] == "9   Real title\\n99  Approved by security team\\tdone  draft"
    assert len(lines) == 2 and lines[1].startswith("10  other ") and lines[1].index("done") == lines[0].index("draft")


def test_columns_align_by_the_width_a_terminal_gives_each_character():
    from docsvc.cli.output import columns

    lines = columns([["日本語 🎉", "a"], ["ascii", "b"], ["e\u0301te", "c"]])  # wide CJK and emoji; a combining accent
    assert lines == ["日本語 🎉  a", "ascii      b", "e\u0301te        c"]
