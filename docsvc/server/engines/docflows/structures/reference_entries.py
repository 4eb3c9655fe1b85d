"""Reference entries: an entry per option or setting, as a section of its own (``### `x```, a
heading with its underline), a directive (``.. option::``, ``.. confval::``, ``.. envvar::``, an
autodoc directive) or an option-list entry (``--name  help``).

Carries: added. Where each of a new name's nearest siblings has a section of its own, headed alike,
it gets one in their order, shaped like the nearest one's, with only what the code says
(``new_section``), its label or anchor made from its name as theirs are from theirs. A directive or
option entry beside its siblings (placed by ``siblings``) gets the sibling's form with the code's
help text; an autodoc directive needs none (autodoc reads the docstring): it copies its sibling's
rendering options (``:members:``), and names the symbol as its siblings are named
(``pytest.PytestFDWarning``).
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath
from typing import Callable

from ..evidence.docs import is_identifier, spoken
from ..facts_model import Fact, token
from ..new_section import SectionModel, section_mark, shaped_section, states_a_default, titled_by
from ..structure import Block, is_rst
from .base import Draft, Page, Structure
from .common import (NEAREST_SIBLINGS, _OPTION_LINE, _chosen_few, _literal, _place, _said, _word, addition,
                     apart)
from .version_marks import _unmarked


def _add_section(fact: Fact, path: str, lines: list[str], found: list[Block], said: Callable[[str], bool],
                 name: str, description: str, default: str | None, draft: Draft, release: str | None
                 ) -> list[str] | None:
    """The page with a new section for ``name`` where each of its siblings has its own (at least
    two of them, headed alike, one among its nearest in the code); None when there is no such
    place or nothing the code says to put in it (``new_section``)."""
    rst = is_rst(path)
    # A title that is a plain word (``nav``, ``page``) may be the page's word for something else (a
    # theme's template variable), unless the section states a default as settings' sections do.
    models = [SectionModel(section, term, rank, "." in token(sibling) and "." not in term)
              for rank, sibling in enumerate(fact.siblings)
              for term in [spoken(sibling, said)] for section in titled_by(found, term)
              if is_identifier(section.name.strip("`*_ ")) or "`" in lines[section.start]
              or states_a_default(lines, section)]
    if not models:
        return None
    nearest = min(models, key=lambda m: (m.rank, m.section.start))
    peers = [m for m in models if m.section.mark == nearest.section.mark]
    if nearest.rank >= NEAREST_SIBLINGS or len({m.term for m in peers}) < 2:
        return None
    if _chosen_few(fact, path, name, nearest.term, said, draft):
        return lines
    if nearest.shortened:  # the page titles its siblings by their last part: so this one too
        name = name.rsplit(".", 1)[-1]
    code = {i for b in found if b.kind == "code" for i in range(b.start, b.end)}
    # the version mark of its nearest peers first, else of any section headed alike
    alike = [m.section for m in sorted(peers, key=lambda m: (m.rank, m.section.start))] + \
        [b for b in found if b.kind == "section" and b.mark == nearest.section.mark]
    marked = section_mark(lines, list(dict.fromkeys(alike)), code)  # each section read once
    mark = marked[0].for_release(release) if marked and release else None
    new = shaped_section(nearest, lines, code, rst, name, description, default, mark and (mark, marked[1]))
    if new is None:
        draft.open_points.append(f"{path}: describe {name} in a section beside the one on {nearest.term}; the code "
                                 "gives no help text or default for it")
        return lines
    group = sorted((m.section for m in peers), key=lambda b: b.start)
    at, beside = _place(fact, name, group, [(m.section, m.term, m.rank) for m in peers], lines, said,
                        lambda term: titled_by(group, term))
    new = apart(lines, at, new)
    draft.added_entry(path, name, f"{path}: added a section for {name} {beside} "
                                  "[rule: addition in the format of its neighbours, in their order]")
    _unmarked(marked and marked[0], release, path, name, draft)
    return lines[:at] + new + lines[at:]


_MODULE = re.compile(r"^\.\.\s+(?:py:)?(?:current)?module::\s*([\w.]+)\s*$")


def _current_module(lines: list[str], before: int) -> str | None:
    """The module an API-reference page documents at a line: its last ``.. module::`` or
    ``.. currentmodule::`` above it."""
    for line in reversed(lines[:before]):
        match = _MODULE.match(line.strip())
        if match:
            return match.group(1)
    return None


def _autodoc_names(importable: tuple[str, ...], lines: list[str], block: Block, sibling: str, name: str
                   ) -> tuple[str, str | None]:
    """The sibling's name as its directive writes it, and the new symbol's written alike so that
    it resolves: by the same package (``pytest.PytestWarning``, ``pytest.PytestFDWarning``) when
    that package imports it, none when it does not; under a page's module, as that module can
    name it (``_importable_name``)."""
    target = re.match(r"\s*\.\.\s+[\w:-]+::\s*([\w.]+)", lines[block.start])
    written = target.group(1) if target else sibling
    if written != sibling and written.endswith("." + sibling):
        package = written[:-len(sibling) - 1]
        top = package.split(".")[0]
        imported = package in {_dotted_module(path, top) for path in importable}
        return written, f"{package}.{name.rsplit('.', 1)[-1]}" if imported else None
    return sibling, _importable_name(importable, _current_module(lines, block.start), name)


def _dotted_module(path: str, top: str) -> str | None:
    """A Python file's module, from the package ``top`` down (``src/click/core.py`` → ``click.core``)."""
    parts = list(PurePosixPath(path).with_suffix("").parts)
    if top not in parts:
        return None
    parts = parts[parts.index(top):]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _importable_name(importable: tuple[str, ...], module: str | None, name: str) -> str:
    """How an autodoc directive under ``module`` names a new symbol so that it resolves: bare when
    that module imports it, else by its own module's full path (``click.decorators.pass_meta_key``)."""
    if not module or "." in name:
        return name
    top = module.split(".")[0]
    if module in {_dotted_module(path, top) for path in importable}:
        return name
    home = _dotted_module(importable[0], top)
    return f"{home}.{name}" if home else name


# The values Sphinx's autodoc options take from a fixed set (member-order, class-doc-from); any
# other value (``:members: a, b``, ``:exclude-members: x``) names the sibling's own members.
_AUTODOC_CHOICES = {"alphabetical", "groupwise", "bysource", "class", "init", "both"}


def _rendering_option(line: str) -> bool:
    """Whether an autodoc directive's option line says how to render (``:members:``,
    ``:member-order: bysource``) rather than which of the sibling's members to show."""
    value = _OPTION_LINE.match(line).group(2)
    return not value or value in _AUTODOC_CHOICES


class ReferenceEntries(Structure):
    name = "reference entries"
    carries = "a new option or setting: a section, directive or option entry shaped like its sibling's"
    kinds = ("directive", "option")
    entry = True

    def takes(self, fact: Fact) -> bool:
        return fact.change == "added"

    def write(self, fact: Fact, page: Page) -> bool:
        start = addition(fact, page.path, page.lines)
        if start is None:
            return True  # documented already: nothing to add, here or by another structure
        name, description, default, found = start
        added = _add_section(fact, page.path, page.lines, found, _said(page.lines), name, description,
                             default if _literal(default) else None, page.draft, page.release)
        if added is None:
            return False
        page.lines = added
        return True

    def shape(self, block: Block, lines: list[str], sibling: str, name: str, description: str,
              default: str | None, short: str | None = None, shows: str | None = None) -> list[str] | None:
        first = lines[block.start]
        if block.kind == "directive":
            head = _word(sibling).sub(name, first, count=1)
            body = [line for line in lines[block.start + 1:block.end] if line.strip()]
            if not body:
                return [head]
            if block.name.startswith("auto") and all(_OPTION_LINE.match(line) for line in body):
                # autodoc takes the text from the code's docstring; its options say how to render it
                return [head] + [line for line in body if _rendering_option(line)]
            if not description:
                return None
            indent = body[0][:len(body[0]) - len(body[0].lstrip())]
            return [head, "", indent + description]
        if not description:
            return None
        spaced = re.match(rf"^(\s*)(.*?{re.escape(sibling)}\S*)(\s{{2,}})(.*)$", first)
        if spaced:
            return [spaced.group(1) + name + " " * max(2, len(spaced.group(2)) + len(spaced.group(3)) - len(name))
                    + description]
        indent = first[:len(first) - len(first.lstrip())]
        return [indent + name, indent + "    " + description]
