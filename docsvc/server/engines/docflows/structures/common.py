"""What the Writer's structures share: how a page names a term, where a block's group and the
changed file's home section are, where a new block goes among its siblings, and how a default is
written the way the page writes its values."""

from __future__ import annotations

import re
from pathlib import PurePosixPath
from typing import Callable

from ..evidence.docs import mentions, plain, prose, spoken
from ..facts_model import Fact, token
from ..structure import Block, blocks, is_underline
from .base import Draft
from ..new_section import heading_start, section_end


_SEPARATOR_ROW = re.compile(r"^\s*\|[\s:|-]+\|\s*$")


def _said(lines: list[str]):
    """``said(term)`` for ``spoken``: whether the page mentions the term."""
    text = "\n".join(lines)
    return lambda term: bool(mentions(text, term))


def _word(term: str) -> re.Pattern:
    return re.compile(rf"(?<![\w-]){re.escape(term)}(?![\w-])")


_SHORT = r"(?:-\w,\s*)?"  # an option's short form before its long one
# the value an option line shows it takes: ``TEXT``, ``<file>``, ``[a|b]``, ``=NAME``
_PLACEHOLDER = r"(?:[ =](?:[A-Z][A-Z0-9_]*|<[^<>]+>|\[[^\[\]]+\]))?"


def _about(line: str, name: str) -> bool:
    """Whether a block's first line is about ``name``: a row whose first cell is it, an item that
    starts with it, a directive that names it."""
    escaped = re.escape(name)
    # a table of contents' link to its entry (``- [FST_ERR_X](#fst_err_x)``); a row whose first
    # cell is the name with its anchor (``| <a id="x">FST_ERR_X</a> |``)
    linked = rf"\[[`*_]*{escaped}[`*_]*\]\(#[^)\s]*\)\s*$"
    anchored = rf"<a\s+(?:id|name)=\"[^\"]*\">[`*_]*{escaped}[`*_]*</a>"
    return bool(re.match(rf"^\s*\|\s*[`*_]*{escaped}[`*_]*\s*(\||[,/(=\s])", line)
                or re.match(rf"^\s*\|\s*{anchored}\s*\|", line)
                or re.match(rf"^\s*(?:[-*+]|\d+[.)])\s+{linked}", line)
                # ``config.assetsInclude`` is about assetsInclude, not about config
                or re.match(rf"^\s*(?:[-*+]|\d+[.)])\s+[`*_]*{escaped}(?![\w-]|\.\w)", line)
                or re.match(rf"^\s*(?:\.\.\s+[\w:]+::|:::)\s+(\S*[.:])?{escaped}(?![\w-])\s*$", line)
                # an option line: ``--name``, ``-n, --name``, ``--name TEXT``, ``--name=<value>``, then its help
                or re.match(rf"^\s*{_SHORT if name.startswith('--') else ''}{escaped}(?![\w-])(\s*,\s*-\S+)*"
                            rf"{_PLACEHOLDER}(\s{{2,}}|$)", line))


def _noun(block: Block) -> str:
    return {"row": "table row", "item": "list item", "option": "option entry", "section": "section"}.get(
        block.kind, f"{block.name} directive")


NEAREST_SIBLINGS = 3  # an addition joins a group holding one of its three nearest siblings in the code


def _chosen_few(fact: Fact, path: str, name: str, beside: str, said: Callable[[str], bool], draft: Draft) -> bool:
    """Whether the page documents only some of a new symbol's siblings, and so is left as it is
    with an open point: a reference that leaves some of a file's public classes (functions) out
    chose the ones it shows, and whether the new one belongs among them is for a person to say."""
    left_out = [s for s in fact.siblings if not said(spoken(s, said))] if fact.kind == "symbol" else []
    if left_out:
        draft.open_points.append(f"{path}: {name} is new; the page documents some of its siblings in {fact.path} "
                                 f"and not others ({', '.join(left_out[:3])}): add it beside {beside} if it "
                                 "belongs with them")
    return bool(left_out)


def _loose(found: list[Block], lines: list[str], group: list[Block]) -> bool:
    """Whether a Markdown list is loose: a blank line between its items or inside one (outside
    code), which is how CommonMark tells a list whose items stand apart; one stray blank line in a
    long list of tight items is no style to follow (blank lines between half its items at least)."""
    code = {i for b in found if b.kind == "code" for i in range(b.start, b.end)}
    blank = sum(1 for i in range(group[0].start, group[-1].end) if not lines[i].strip() and i not in code)
    # a stray blank line in a long tight list (a table of contents) is a slip, not the list's style
    return blank > 0 and blank * 2 >= len(group) - 1


def _about_blocks(found: list[Block], lines: list[str], term: str) -> list[Block]:
    """The rows, items, directives and option entries about ``term``."""
    return [b for b in found if b.kind in ("row", "item", "directive", "option") and _about(lines[b.start], term)
            and not (b.kind == "row" and _SEPARATOR_ROW.match(lines[b.start]))]


ALPHABETICAL = 4  # siblings listed in alphabetical order, at least this many: the list is kept so


def _place(fact: Fact, name: str, group: list[Block], members: list[tuple[Block, str, int]], lines: list[str],
           said: Callable[[str], bool], about: Callable[[str], list[Block]] | None = None) -> tuple[int, str]:
    """Where in its group a new block goes, and how the note says it: in alphabetical order when
    the documented siblings are so listed (one slip in ten pairs allowed); else after the nearest name above it in the code that
    the group documents (its whole block); else after the group's last block."""
    def after(block: Block) -> int:
        if block.kind == "section":
            return section_end(lines, block)
        return _after_description(lines, block) if block.kind == "directive" else block.end

    def before(block: Block) -> int:
        return heading_start(lines, block) if block.kind == "section" else block.start

    listed = sorted({(b.start, t): b for b, t, _ in members}.items())  # ((line, name), block), in page order
    keys = [_sort_key(t) for (_, t), _ in listed]
    # A long list kept alphabetical by hand has a slip or two (pytest's confvals): still alphabetical.
    slips = sum(a > b for a, b in zip(keys, keys[1:]))
    if len(set(keys)) >= ALPHABETICAL and slips <= len(keys) // 10:
        later = next((m for m, key in zip(listed, keys) if key > _sort_key(name)), None)
        if later is not None:
            return before(later[1]), f"before the one on {later[0][1]} (alphabetical)"
        return after(group[-1]), f"after the one on {listed[-1][0][1]} (alphabetical)"
    for above in fact.follows:
        term = spoken(above, said)
        held = about(term) if about else _about_blocks(group, lines, term)
        if held:
            return after(held[0]), f"after the one on {term}, as in the code"
    return after(group[-1]), f"after the one on {min(members, key=lambda m: m[2])[1]}"


def _sort_key(name: str) -> str:
    return name.lstrip("-").lower()


def _home_depth(found: list[Block], lines: list[str], path: str) -> Callable[[int], int]:
    """For a line of the page, how deep in the changed file's path lies the part that a heading
    over it names (0: none): a setting of ``themes/readthedocs/theme.yml`` belongs in the section
    headed "readthedocs" rather than "mkdocs", an option of ``commands/install.py`` under
    "## install" rather than "## update"."""
    parts = [p.lower() for p in PurePosixPath(path).with_suffix("").parts]
    named: list[tuple[Block, int]] = []
    for section in (b for b in found if b.kind == "section"):
        title = lines[section.start].lower()
        depths = [k + 1 for k, part in enumerate(parts)
                  if re.search(rf"(?<![a-z0-9]){re.escape(part)}(?![a-z0-9])", title)]
        if depths:
            named.append((section, max(depths)))
    return lambda line: max((depth for section, depth in named if line in section), default=0)


def _at_home(depth: Callable[[int], int], hits: list[int], at_least: int = 0) -> list[int]:
    """The lines of ``hits`` to edit: where the page speaks of a name in several sections, those
    under the heading that names the deepest part of the changed file's path; all when no heading
    names any. An option ``--sync`` of ``commands/install.py`` is reworded under "## install",
    not under "## update", whose own ``--sync`` did not change. ``depth``: ``_home_depth``'s."""
    top = max([at_least, *map(depth, hits)])  # at_least: how deep the edits made so far went
    return [i for i in hits if depth(i) == top]


def _after_description(lines: list[str], block: Block) -> int:
    """Where a directive's block ends, its description included. A page may describe bodiless
    directives by the paragraph under each (``.. envvar:: X``, a blank line, what X does, then the
    next ``.. envvar::``): a new sibling goes after that paragraph, not between the two."""
    if any(line.strip() for line in lines[block.start + 1:block.end]):
        return block.end
    head = re.match(r"\s*\.\.\s+[\w:-]+::", lines[block.start])
    if head is None:
        return block.end

    def paragraph(i: int, step: int) -> tuple[int, int] | None:
        """From line ``i`` (a blank next to the directive), walking by ``step``: the paragraph's
        far end and the first non-blank line beyond it, if a paragraph comes first."""
        while 0 <= i < len(lines) and not lines[i].strip():
            i += step
        if not 0 <= i < len(lines) or lines[i].lstrip().startswith(".."):
            return None
        heading = False  # the next section's title, not a description
        while 0 <= i < len(lines) and lines[i].strip():
            heading = heading or is_underline(lines[i])
            i += step
        if heading:
            return None
        far = i
        while 0 <= i < len(lines) and not lines[i].strip():
            i += step
        return far, i

    def sibling_at(i: int) -> bool:
        return 0 <= i < len(lines) and lines[i].startswith(head.group(0))

    after = paragraph(block.end, 1)
    before = paragraph(block.start - 1, -1)
    if after and (sibling_at(after[1]) or (before and sibling_at(before[1]))):
        return after[0]
    return block.end


def renamed_in(text: str, sibling: str, name: str, short: str | None = None) -> str | None:
    """``text`` (a sibling's name cell or entry) with the sibling's name, and the short form written
    beside it (``--headers, -h``, ``-h, --headers``, ``--headers (-h)``), made the new name's: its
    own short form where it has one, none where it has not (the sibling's is not the new one's);
    an anchor it carries made the new name's too (``anchored_as``; None when that cannot be said)."""
    escaped = re.escape(sibling)
    after = re.compile(rf"(?<![\w-]){escaped}(?P<sep>, ?| \()-\w(?P<close>\)?)(?![\w-])")
    before = re.compile(rf"(?<![\w-])-\w(?P<sep>, ?| ){escaped}(?![\w-])")
    if (match := after.search(text)) is not None:
        return text[:match.start()] + name + (f"{match.group('sep')}{short}{match.group('close')}" if short else "") \
            + text[match.end():]
    if (match := before.search(text)) is not None:
        return text[:match.start()] + (f"{short}{match.group('sep')}" if short else "") + name + text[match.end():]
    if re.search(r"<a\s+(?:id|name)=", text):  # the anchor a row carries is the new name's too
        return anchored_as(text, sibling, name)
    return _word(sibling).sub(name, text, count=1)


_CONTENTS_LINK = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+\[[^\[\]]+\]\(#[^)\s]+\)\s*$")


def contents_link(line: str) -> bool:
    """Whether the line is a table of contents' item: a link to an anchor on the page, nothing else."""
    return _CONTENTS_LINK.match(line) is not None


def _slug(text: str) -> str:
    """A heading's anchor as GitHub and MkDocs make it: lower case, spaces as hyphens, other marks dropped."""
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


_ANCHOR = re.compile(r"<a\s+(?:id|name)=\"([^\"]+)\"|\{\s*#([\w.:-]+)[^}]*\}|^\s*\.\.\s+_([^:`]+):\s*$|"
                     r"^\s*\(([\w.:-]+)\)=\s*$")
_MD_TITLE = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$")


def anchors(lines: list[str]) -> set[str]:
    """The anchors a link on the page may lead to, lower-cased: ids and labels written out (``<a
    id="x">``, ``{#x}``, ``.. _x:``, ``(x)=``) and the slugs of its Markdown headings."""
    out = {a.lower() for line in lines for m in _ANCHOR.finditer(line) for a in m.groups() if a}
    return out | {_slug(re.sub(r"[`*_]", "", m.group(1))) for line in lines if (m := _MD_TITLE.match(line))}


def anchored_as(text: str, sibling: str, name: str) -> str | None:
    """``text`` (a row's name cell, a table of contents' link) with the sibling's name and its
    anchor made the new name's, the anchor spelled as the sibling's is (as written, lower case,
    slugged); None when the sibling's anchor is none of those spellings of its name."""
    out = _word(sibling).sub(name, text)
    for anchor in re.findall(r"(?:\(#|(?:id|name)=\")([^)\"]+)", text):
        form = next((f for f in (lambda x: x, str.lower, _slug) if f(sibling) == anchor), None)
        if form is None:
            return None
        out = out.replace(f"#{name}" if anchor == sibling else f"#{anchor}", f"#{form(name)}")
        out = out.replace(f'="{name}"' if anchor == sibling else f'="{anchor}"', f'="{form(name)}"')
    return out


def _name_markup(term: str) -> re.Pattern:
    """``term`` with the markup around it (group ``open`` opens it), the value it shows it takes
    inside that markup, if any (``value``: `` `--port <int>` ``), and the separator after it, if any
    (``separator``): how a list item names its subject (`` `x`: ``, ``**x** —``, ``__`x`__:``)."""
    # ``--output (-o)``, ``--output, -o``: a short form beside the name, inside its markup
    return re.compile(r"(?P<open>[`*_]*)" + re.escape(term) + r"(?: ?\(-\w\)|, ?-\w)?"
                      r"(?P<value>[ =](?:<[^<>`*]+>|[A-Z][A-Z0-9_]*)(?=[`*_]))?"
                      r"(?P<close>[`*_]*)(?P<separator>[ \t]*[:—–-][ \t]*)?")


def _plainly_named(line: str, term: str) -> bool:
    """Whether the line names ``term`` with nothing but markup between it and its separator (a
    clean model to copy; ``__`x`__{ #anchor }:`` is not)."""
    return any(m.group("separator") for m in _name_markup(term).finditer(line))


def _group_of(found: list[Block], block: Block, lines: list[str]) -> list[Block]:
    """The group ``block`` stands in, in page order: the blocks of its kind at its indentation
    that follow one another with only blank lines between (a list's items, a table's rows, a run
    of directives; reST and CommonMark read two blank lines as one)."""
    def indent(b: Block) -> int:
        return len(lines[b.start]) - len(lines[b.start].lstrip())

    same = sorted((b for b in found if b.kind == block.kind and indent(b) == indent(block)), key=lambda b: b.start)
    group = [block]
    for other in reversed([b for b in same if b.end <= block.start]):
        if any(lines[i].strip() for i in range(other.end, group[0].start)):
            break
        group.insert(0, other)
    for other in (b for b in same if b.start >= block.end):
        if any(lines[i].strip() for i in range(group[-1].end, other.start)):
            break
        group.append(other)
    return group


_OPTION_LINE = re.compile(r"^\s+:([\w-]+):(?:\s+(.*?))?\s*$")


_BOOLEANS = {"true": "True", "false": "False"}


def _as_the_page_writes(value: str | None, text: str) -> str | None:
    """A boolean as the page writes its booleans in code: a YAML ``false`` is ```False``` on a page
    that says ```True``` and ```False``` and never ```true``` (a Python project's docs)."""
    if value is None or value.lower() not in _BOOLEANS:
        return value
    python, plain_ = re.search(r"`(True|False)`", text), re.search(r"`(true|false)`", text)
    return _BOOLEANS[value.lower()] if python and not plain_ else value.lower() if plain_ and not python else value


def _literal(value: str | None) -> bool:
    """A default a reader can use as written (a string, a number, a boolean), not an expression
    such as ``auto()`` or ``Mode.SUPPRESS``."""
    return bool(value) and value not in ("None", "null") and re.fullmatch(r"[\w./:@+-]+", value) is not None \
        and re.fullmatch(r"[A-Z]\w*\.[A-Z_]+", value) is None


# A value a message fills in when it is raised (printf's ``%s``, Go's ``%v``, ``%q``), quoted or not,
# with the colon or equals sign that introduces it: the docs describe the message without it.
_FILLED_IN = re.compile(r"""\s*[:=]?\s*(?P<quote>['"`]?)(?<![\w%])%[-+ #0-9.]*[sdifjoOvqxX](?P=quote)(?![\w(])""")


def described(help_text: str | None) -> str:
    """A help text or message as a page describes it: on one line (``prose``), without the values a
    message fills in when it is raised (``Invalid listen options: '%s'`` says ``Invalid listen
    options``)."""
    text = prose(help_text)
    if not _FILLED_IN.search(text):
        return text
    return re.sub(r"\s+([.,;!?])", r"\1", _FILLED_IN.sub("", text)).strip().rstrip(":,;").strip()


def addition(fact: Fact, path: str, lines: list[str]) -> tuple[str, str, str | None, list[Block]] | None:
    """What every structure that writes a new name starts from: its name, its help text on one
    line, its default as the page writes values, and the page's blocks; None when the page
    documents the name already."""
    name = token(fact.name)
    text = "\n".join(lines)
    if any(mentions(text, n) for n in {name, name.rsplit(".", 1)[-1]}):
        return None  # already documented here
    return name, described(fact.note), _as_the_page_writes(plain(fact.new), text), blocks(path, text)


def apart(lines: list[str], at: int, new: list[str]) -> list[str]:
    """A new block that stands apart (a section, a directive, a loose list's item), with a blank
    line on each side where its neighbours at ``at`` have none."""
    return ([""] if at > 0 and lines[at - 1].strip() else []) + new + \
        ([""] if at < len(lines) and lines[at].strip() else [])


def restate(page, at: list[int], restated: Callable[[str], str], note: str) -> bool:
    """Rewrite the page's lines ``at`` (0-based) with ``restated``, noting ``note`` once (with the
    first line and how many) when any line changed; True then. For the structures that restate
    what a fact makes stale in place (a requirement, a version, a link)."""
    changed = [i for i in at if restated(page.lines[i]) != page.lines[i]]
    for i in changed:
        page.lines[i] = restated(page.lines[i])
    if changed:
        page.draft.notes.append(f"{page.path}: {note} (line {changed[0] + 1}; {len(changed)} line(s))")
    return bool(changed)
