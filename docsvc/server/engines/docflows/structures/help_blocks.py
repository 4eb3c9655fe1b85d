"""Help blocks: a command's ``--help``/usage output shown in a code block, as the CLI framework
prints it (click, typer's plain form, argparse, optparse, cobra, commander, urfave/cli: one option a
line, its help text in a column).

Carries: an option added to a command whose siblings the block lists. The new option gets its line
as the framework prints it: its short form first where it has one and its siblings show theirs
(``-p, --port``), or after it where they show theirs so (urfave/cli's ``--port value, -p value``),
else the indentation of the siblings' lines (those without a short form, where some have none), the
value it takes as the framework names it (``Item.shows``: ``TEXT``,
``INTEGER``, ``[a|b]``, ``MAX_SIZE``; none for a flag), its help text from the code in the block's
help column (with its default, where the siblings' lines say theirs: ``[default: 8080]``), wrapped
as the framework wraps it (at 78 columns, or the block's widest line), on the next line when the
option does not fit before the column; where the block's rows were aligned on one column, the
column then moves as the framework moves it (``help_columns``). It stands where the framework
lists it: after the option above it in the code, else before the one below it.
Where the code does not say what value the option shows, the block is pointed out instead.
"""

from __future__ import annotations

import re
import textwrap
from collections import Counter

from ..evidence.docs import mentions, prose
from ..facts_model import Fact, token
from ..structure import blocks
from .base import Page, Structure
from .help_columns import aligned_rows, realign

__all__ = ["HelpBlocks"]

# An option's line in a help screen: indentation, an optional short form, the long form, the rest.
_OPTION = re.compile(r"^(?P<indent>\s+)(?P<short>-\w,\s+)?(?P<long>--[\w][\w-]*)(?P<rest>.*)$")
# after the long form and its value: ", -l" and, as urfave/cli prints it, the value again
_SHORT_AFTER = re.compile(r"^(?: [^\s,]+)?, -\w(?P<again> [^\s,]+)?(?:\s{2,}|$)")
_COLUMNS = re.compile(r"^(\s*\S.*?\S)(\s{2,})\S")  # the option part, then two spaces or more, then help
MIN_OPTIONS = 2  # option lines a code block must show to be a help screen
WIDTH = 78  # click's and argparse's text width on an 80-column terminal


def _help_blocks(page: Page) -> list[tuple[int, int, list[int]]]:
    """The code blocks of the page that show a help screen: (start, end, their option lines)."""
    out = []
    for block in blocks(page.path, "\n".join(page.lines)):
        if block.kind != "code":
            continue
        options = [i for i in range(block.start, block.end) if _OPTION.match(page.lines[i])]
        if len(options) >= MIN_OPTIONS:
            out.append((block.start, block.end, options))
    return out


def _entry_end(lines: list[str], at: int, end: int) -> int:
    """The line after an option's entry: its line and the help text wrapped under it."""
    indent = len(_OPTION.match(lines[at]).group("indent"))
    i = at + 1
    while i < end and lines[i].strip() and not _OPTION.match(lines[i]) and \
            len(lines[i]) - len(lines[i].lstrip()) > indent:
        i += 1
    return i


def _column(lines: list[str], options: list[int]) -> int | None:
    """Where the help text starts on the block's option lines (the most common place)."""
    found = Counter(len(m.group(1)) + len(m.group(2)) for i in options if (m := _COLUMNS.match(lines[i])))
    return found.most_common(1)[0][0] if found else None


# How a help screen says a default after the help text: click's "[default: 8080]", cobra's
# '(default "en")', argparse's "(default: 8080)" written by the project in its help strings.
_DEFAULT = re.compile(r"(?P<open>[\[(])default:? (?P<quote>\"?)[^\])\"]*(?P=quote)(?P<close>[\])])")
_ZERO = {"", "0", "0.0", "False", "false", "None", "nil", "null", "''", '""'}


def _default_said(fact: Fact, lines: list[str], options: list[int], end: int) -> str | None:
    """The new option's default as its siblings' lines say theirs (``_DEFAULT``), when they say
    one and the code gives a plain value that is not the type's zero (which help screens omit)."""
    said = next((m for i in range(options[0], end) if (m := _DEFAULT.search(lines[i]))), None)
    value = (fact.new or "").strip()
    quoted = len(value) >= 2 and value[0] == value[-1] and value[0] in "'\""
    value = value[1:-1] if quoted else value
    if said is None or value in _ZERO or not re.fullmatch(r"[\w./:@+-]+", value):
        return None
    if fact.shows == "FLOAT" and re.fullmatch(r"-?\d+", value):
        value += ".0"  # click shows the default converted by the option's type: 20 as a FLOAT is 20.0
    colon = ":" if said.group(0)[len(said.group("open")) + 7:].startswith(":") else ""
    quote = said.group("quote") if quoted else ""
    return f"{said.group('open')}default{colon} {quote}{value}{quote}{said.group('close')}"


def _line_for(fact: Fact, lines: list[str], options: list[int], end: int) -> list[str]:
    """The new option's entry, shaped like the block's entries."""
    parsed = [_OPTION.match(lines[i]) for i in options]
    bare = [m for m in parsed if not m.group("short")]
    shortened = [m for m in parsed if m.group("short")]
    indent = (bare[0] if bare else parsed[0]).group("indent")
    head = indent + token(fact.name) + (" " + fact.shows if fact.shows else "")
    # urfave/cli's "--lang value, -l value": the short form after the long one, with the value again
    trailing = [t for m in parsed if (t := _SHORT_AFTER.match(m.group("rest")))]
    if fact.short and shortened:  # its short form before it, as the siblings that have one show theirs
        model = shortened[0]
        head = model.group("indent") + fact.short + model.group("short")[2:] + head.lstrip()
    elif fact.short and trailing:
        head += ", " + fact.short + (" " + fact.shows if fact.shows and trailing[0].group("again") else "")
    description, default = prose(fact.note), _default_said(fact, lines, options, end)
    if fact.shows and f"`{fact.shows}`" in description:  # the help's placeholder, printed without its quotes
        description = description.replace(f"`{fact.shows}`", fact.shows)
    if default:  # click sets its bracket two spaces off the help text; cobra and argparse one
        description = (description + ("  " if default.startswith("[") else " ") if description else "") + default
    if not description:
        return [head]
    column = _column(lines, options) or len(head) + 2
    width = max([WIDTH] + [len(lines[i]) for i in range(options[0], end)])
    wrapped = textwrap.wrap(description, max(20, width - column)) or [description]
    if len(head) + 2 <= column:
        first, rest = head.ljust(column) + wrapped[0], wrapped[1:]
        return [first] + [" " * column + more for more in rest]
    return [head] + [" " * column + more for more in wrapped]


class HelpBlocks(Structure):
    name = "help blocks"
    carries = "a new option: its line in the help screens that list its siblings, as the framework prints it"
    describes = False  # a help screen shows the code's help text, nothing else

    def takes(self, fact: Fact) -> bool:
        return fact.change == "added" and fact.kind == "flag"

    def write(self, fact: Fact, page: Page) -> bool:
        name = token(fact.name)
        wrote = False
        # Blocks from the last up: an insertion leaves the lines of the blocks above where they were.
        for start, end, options in reversed(_help_blocks(page)):
            lines = page.lines
            listed = {_OPTION.match(lines[i]).group("long"): i for i in options}
            if name in listed or any(mentions(lines[i], name) for i in range(start, end)):
                continue  # shown already
            above = next((listed[n] for n in map(token, fact.follows) if n in listed), None)
            below = next((listed[n] for n in map(token, fact.siblings) if n in listed and n not in fact.follows),
                         None)
            if above is None and below is None:
                continue  # another command's help: none of its siblings is listed
            if fact.shows is None:
                page.draft.open_points.append(f"{page.path}:{start + 1}: the help output here lists the siblings "
                                              f"of {name}: add its line (the code does not say what value it shows)")
                continue
            at = _entry_end(lines, above, end) if above is not None else below
            new = _line_for(fact, lines, options, end)
            aligned = aligned_rows(lines, above if above is not None else below, start, end)
            page.lines = lines[:at] + new + lines[at:]
            if aligned:  # the column moves as the framework moves it for the new option's width
                page.lines = realign(page.lines, start, at, end + len(new), aligned)
            wrote = True
            page.draft.notes.append(f"{page.path}: added {name} to the help output at line {start + 1}, as the "
                                    "command prints it [rule: help block line in the framework's format]")
        return wrote
