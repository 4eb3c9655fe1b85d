"""Table rows and list items: option and setting tables, environment-variable tables, lists of
options and settings.

Carries: a new name's row or item, shaped like its nearest sibling's (written by ``siblings``, which
finds the group). A row keeps the sibling's name cell styled the same, the description and the
default under the headers that name them, padded as the sibling's cells are; an item keeps the
sibling's marker, name markup and separator, the code's help text worded as the sibling's is, and
the default said as the sibling says its own (``Default: `x`.``).
"""

from __future__ import annotations

import re
import textwrap

from ..quoting import worded_like
from ..structure import Block
from .base import Structure
from .common import _SEPARATOR_ROW, _literal, _name_markup, anchored_as, renamed_in


_DEFAULT_SAID = re.compile(r"\bDefault(?:s to)?:?\s*`")


_PAGE_VALUE = re.compile(r"(?<![\w-])--?\w[\w-]*[ =]<([\w-]+)>")  # the values options show: `--port <int>`


def _value_like(model_value: str, shows: str | None, page: str) -> str:
    """The value a new option shows beside its name, written as the sibling writes its own
    (`` <int>``, `` PORT``): the page's own word for the framework's type where it has one
    (``INTEGER`` is ``<int>`` where the page writes ``<int>``), else the type's name; nothing for
    a flag or where the code does not say."""
    if not shows:
        return ""
    if not model_value.strip(" =").startswith("<"):
        return model_value[0] + shows
    word = shows.lower()
    used = set(_PAGE_VALUE.findall(page))
    word = word if word in used else next((u for u in sorted(used, key=len, reverse=True) if word.startswith(u)),
                                          word)
    return f"{model_value[0]}<{word}>"


def _list_item(model: str, sibling: str, name: str, description: str, default: str | None,
               shows: str | None = None, page: str = "") -> str | None:
    """A list item shaped like the sibling's item ``model``: the same marker, the name marked up
    the same, with the value it shows where the sibling shows its own (``_value_like``; ``page``:
    the page's text), the same separator, the new name's own description, and its default said
    as the sibling says its own (``Default: `x`.``)."""
    prefix = re.match(r"^(\s*(?:[-*+]|\d+[.)])\s+)", model).group(1)
    if _TOC_ITEM.fullmatch(model[len(prefix):]):  # a table of contents' link: the new name's, to its anchor
        linked = anchored_as(model[len(prefix):], sibling, name)
        return prefix + linked if linked else None
    styled = _name_markup(sibling).search(model)
    opening, separator = (styled.group("open"), styled.group("separator") or " — ") if styled else ("", " — ")
    closing = opening[::-1]  # the marks close as they open: `name`, **name**, __`name`__
    value = _value_like(styled.group("value"), shows, page) if styled and styled.group("value") else ""
    first, *rest = model.split("\n")
    if styled and styled.end() <= len(first) and not first[styled.end():].strip() and \
            all(_BARE_ITEM.fullmatch(r) for r in rest if r.strip()):
        return prefix + opening + name + closing  # a list of bare names (nested ones too): the name alone
    if description:
        description = worded_like(description, first[styled.end():] if styled else first)
    if default and _DEFAULT_SAID.search(model):
        text = (description.rstrip(".") + ". " if description else "") + f"Default: `{default}`."
    else:
        text = description or f"defaults to `{default}`"
    return prefix + opening + name + value + closing + separator + text


_ITEM_START = re.compile(r"^(\s*)(?:[-*+]|\d+[.)])\s")
HARD_WRAPPED = 2  # items whose text goes on under them, at least: the list is wrapped by hand (or a formatter)


def _wrapped_like(item: str, lines: list[str], block: Block) -> list[str]:
    """A new item wrapped as the items around its sibling are: where their text goes on under
    them (a line, then one indented as its text, no item of its own), at the widest line so
    followed, the rest indented as theirs; on one line where they are not wrapped."""
    start, end = block.start, block.end
    while start > 0 and lines[start - 1].strip():
        start -= 1
    while end < len(lines) and lines[end].strip():
        end += 1
    region = lines[start:end]
    wrapped = [(len(line), len(more) - len(more.lstrip())) for line, more in zip(region, region[1:])
               if more.strip() and not _ITEM_START.match(more) and not line.rstrip().endswith(":")]
    if len(wrapped) < HARD_WRAPPED or len(item) <= max(w for w, _ in wrapped):
        return [item]
    indent = max(set(i for _, i in wrapped), key=[i for _, i in wrapped].count)
    return textwrap.wrap(item, max(w for w, _ in wrapped), subsequent_indent=" " * indent,
                         break_long_words=False, break_on_hyphens=False)


_TOC_ITEM = re.compile(r"\[[^\[\]\n]+\]\(#[^)\s]+\)\s*")
_BARE_ITEM = re.compile(r"\s*(?:[-*+]|\d+[.)])\s+[`*_]*[\w.$-]+[`*_]*\s*")


_PLACEHOLDER = re.compile(r"(?<=\S)[ =](?:<[^<>`|]*>|\[[^\[\]`|]*\])")


def _raw_cells(row: str) -> list[str]:
    """A table row's cells as written, padding included; an escaped ``\\|`` stays in its cell."""
    return re.split(r"(?<!\\)\|", row.strip().removeprefix("|").removesuffix("|"))


def _cells(row: str) -> list[str]:
    return [c.strip() for c in _raw_cells(row)]


def _table_row(lines: list[str], index: int, sibling: str, name: str, description: str, default: str | None,
               short: str | None = None) -> str | None:
    """A row shaped like the sibling's: the name cell styled the same, description and default
    placed under the headers that name them."""
    header, aligned, sides = None, False, []
    for j in range(index, -1, -1):  # the header is the row above the |---| separator
        if j > 0 and _SEPARATOR_ROW.match(lines[j]) and lines[j - 1].lstrip().startswith("|"):
            header = [h.lower() for h in _cells(lines[j - 1])]
            aligned = len(lines[j].rstrip()) == len(lines[index].rstrip())  # columns padded to one width
            sides = _cells(lines[j])
            break
    cells = _cells(lines[index])
    out = []
    for k, cell in enumerate(cells):
        title = header[k] if header and k < len(header) else ""
        if k == 0 or sibling in cell:
            renamed = renamed_in(cell, sibling, name, short) if sibling in cell else name
            if renamed is None:
                return None  # an anchor not spelled from the sibling's name: the new one's is not known
            # the sibling's own value placeholder (`--host [host]`) is not the new option's
            out.append(_PLACEHOLDER.sub("", renamed, count=1) if sibling in cell else name)
        elif "default" in title:
            out.append(f"`{default}`" if default and "`" in cell else (default or "—"))
        elif any(word in title for word in ("description", "meaning", "help", "what", "purpose")) or \
                (not title and k == len(cells) - 1):  # an untitled last column describes
            out.append(worded_like(description, cell))
        else:
            out.append("—")
    if aligned:  # padded as the sibling's cells are, where the new text fits, on the side the column aligns to
        out = [_padded(text, len(raw) - 2, sides[k] if k < len(sides) else "")
               for k, (text, raw) in enumerate(zip(out, _raw_cells(lines[index])))]
    return "| " + " | ".join(out) + " |"


def _padded(text: str, width: int, separator: str) -> str:
    """A cell's text padded to ``width`` as its column aligns (the separator's ``--:``, ``:-:``)."""
    if separator.endswith(":") and separator.startswith(":"):
        return text.center(width)
    return text.rjust(width) if separator.endswith(":") else text.ljust(width)


class TableRows(Structure):
    name = "table rows and list items"
    carries = "a new option, setting or variable: a row or item shaped like its sibling's"
    kinds = ("row", "item")

    def shape(self, block: Block, lines: list[str], sibling: str, name: str, description: str,
              default: str | None, short: str | None = None, shows: str | None = None) -> list[str] | None:
        if block.kind == "row":
            row = _table_row(lines, block.start, sibling, name, description, default, short) if description else None
            return [row] if row else None
        model = "\n".join(lines[block.start:block.end])
        if _TOC_ITEM.fullmatch(model.strip()[len(re.match(r"[-*+]|\d+[.)]", model.strip()).group(0)):].strip()):
            item = _list_item(model, sibling, name, description, None)  # a link needs no description
            return [item] if item else None
        if not description and not _literal(default):
            return None
        item = _list_item(model, sibling, name, description, default if _literal(default) else None, shows,
                          "\n".join(lines))
        return _wrapped_like(item, lines, block) if item else None
