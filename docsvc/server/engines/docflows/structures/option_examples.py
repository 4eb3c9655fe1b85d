"""Option examples: a page that introduces each option by a sentence and a command line (``you may
pass the path of the key file with `--cert-key`:`` then ``$ http --cert=c.crt --cert-key=c.key URL``)
rather than in a table or list. A new option whose nearest sibling in the code is introduced so, and
none of whose nearest siblings has a row, item or entry of its own there (``siblings`` places it
then), gets an example after the sibling's: the sibling's example block with the new option added
beside the sibling on its command line. The sentence that introduces it is the page's voice, which
a help text is not (on the release pairs, a help text written as that sentence agreed with no line
the maintainers wrote): an open point gives the help text for a person to say it so. The value
it takes is shown as its help screen shows it (``Item.shows``), else as argparse names it (the
option's name in capitals); a switch (a boolean default) takes none. No help text: nothing written.
"""

from __future__ import annotations

import re

from ..facts_model import Fact, token
from ..structure import Block, is_rst
from .base import Page, Structure
from .common import NEAREST_SIBLINGS, _about_blocks, addition, apart

__all__ = ["OptionExamples"]

RULE = "an option's example beside its nearest sibling's"
_SWITCH = frozenset({"True", "False", "true", "false"})


def _uses(line: str, option: str) -> re.Match | None:
    """Where the command line passes ``option``, with its value (``--cert-key=client.key``,
    ``--cert-key client.key``) or none."""
    return re.search(rf"(?<![\w-]){re.escape(option)}(?:(=)\S*|( )(?!-)[^\s|;&]+)?(?![\w-])", line)


def _introduced(lines: list[str], block: Block, option: str, quote: str) -> bool:
    """Whether the paragraph just above the code block names ``option`` as inline code."""
    at = block.start - 1
    while at >= 0 and not lines[at].strip():
        at -= 1
    paragraph = []
    while at >= 0 and lines[at].strip() and not lines[at].lstrip().startswith(("#", "```", "~~~")):
        paragraph.append(lines[at])
        at -= 1
    return re.search(rf"{re.escape(quote)}{re.escape(option)}(?:[= ][^`]*)?{re.escape(quote)}",
                     " ".join(paragraph)) is not None


def _example(found: list[Block], lines: list[str], option: str, quote: str) -> tuple[Block, int] | None:
    """The code block that the sentence introducing ``option`` leads to, and its one line passing
    it; None when the page shows it no such way."""
    for block in found:
        if block.kind != "code" or not _introduced(lines, block, option, quote):
            continue
        using = [i for i in range(block.start, block.end) if _uses(lines[i], option)]
        if len(using) == 1:
            return block, using[0]
    return None


def _passed(fact: Fact, name: str, joiner: str) -> str:
    """The new option as a command line passes it."""
    if fact.new in _SWITCH:
        return name
    return f"{name}{joiner}{fact.shows or name.lstrip('-').replace('-', '_').upper()}"


class OptionExamples(Structure):
    name = "option examples"
    carries = "a new option: its help text and a command line passing it, after its nearest sibling's example"
    entry = True

    def takes(self, fact: Fact) -> bool:
        return fact.change == "added" and fact.kind == "flag" and token(fact.name).startswith("--")

    def write(self, fact: Fact, page: Page) -> bool:
        start = addition(fact, page.path, page.lines)
        if start is None:
            return False
        name, description, _, found = start
        nearest = fact.siblings[:NEAREST_SIBLINGS]
        if not description or any(_about_blocks(found, page.lines, s) for s in nearest):
            return False  # nothing the code says of it; or its siblings' own entries take it
        quote = "``" if is_rst(page.path) else "`"
        for sibling in nearest:
            shown = _example(found, page.lines, sibling, quote)
            if shown is None:
                continue
            block, at = shown
            used = _uses(page.lines[at], sibling)
            joiner = used.group(1) or used.group(2) or "="
            line = page.lines[at]
            command = line[:used.end()] + " " + _passed(fact, name, joiner) + line[used.end():]
            new = [command if i == at else page.lines[i] for i in range(block.start, block.end)]
            page.lines = page.lines[:block.end] + apart(page.lines, block.end, new) + page.lines[block.end:]
            page.draft.notes.append(f"{page.path}: added an example of {name} after the one of {sibling} "
                                    f"(line {at + 1}) [rule: {RULE}]")
            # the sentence that leads to it is the page's voice, not the help text's: a person's words
            page.draft.open_points.append(f"{page.path}: introduce the example of {name} as the one of {sibling} "
                                          f"is introduced; the code's help text: {description}")
            return True
        return False
