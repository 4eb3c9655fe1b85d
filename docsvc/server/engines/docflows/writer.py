"""The Writer stage of Docflows: edits the planned pages, block by block.

Rule-based (a language model may replace it later); every edit is noted with the rule that made
it, and what no rule covers is said plainly and left for a person. The page is read as blocks
(``structure``: table rows, list items, directives, option entries, code blocks, sections):

- renamed: the old name becomes the new one wherever the page speaks of it;
- default changed: the old value becomes the new one inside the block that documents the name
  (the row, the item, the directive; else the line and the two after it);
- removed: the block *about* the name (a row or item that starts with it, its option or envvar
  directive, a section titled by it alone) is deleted, only when the removal is certain (an
  option, setting or variable; for a function or class, which may have moved, only its autodoc
  directive) and the block speaks of that name alone; any other mention is listed as an open point;
- added: a new block in the group (a table, a list, a run of directives) that documents its
  nearest siblings, in their format (a table row, a list item, an option, envvar or autodoc
  directive) and their order: alphabetical when they are listed so, else after the whole block
  of the name above it in the code; described only by what the code says (its help text, its
  default, a boolean as the page writes booleans); never inside another block, never invented
  prose. Where two sections document its siblings alike, the one whose heading names the changed
  file's folder (``themes/readthedocs/``: "readthedocs") gets it. Where its siblings have no such
  group but a section each, headed alike (``### `installer.parallel```), it gets a section of its
  own in their order, shaped like the nearest one's, with only what the code says (``new_section``),
  its label or anchor made from its name as theirs are from theirs (``factory-handler-timeout``).
  Where its siblings say the release they came in ("*Introduced in 1.2.0*", ``.. versionadded::``),
  it gets that mark with the release the change ships in (``release``, ``version_marks``), or an
  open point where the code does not say which release that is.
  An autodoc directive needs no help text (autodoc reads the docstring): it copies its sibling's
  rendering options (``:members:``), and names the symbol as its siblings are named
  (``pytest.PytestFDWarning``). A page that documents only some of a new symbol's siblings chose
  them: it gets an open point, not the new one.

A page that speaks of the name under several headings may document several things of that name
(``--sync`` of ``install`` and of ``update``): a default, a reworded help text or a removal is
edited only under the heading that names the deepest part of the changed file's path, if any does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Callable

from .facts_model import WARNS, Fact, file_forms, written_as
from .new_section import (SectionModel, heading_start, section_end, section_mark, shaped_section, states_a_default,
                          titled_by)
from .planner import Plan, as_code, is_identifier, mentions, plain, prose, spoken, token
from .quoting import requote, worded_like
from .structure import Block, blocks, enclosing, is_rst, is_underline
from .version_marks import Mark, first_mark

__all__ = ["Draft", "write", "reword"]

_CERTAIN_REMOVALS = ("flag", "argument", "env", "config", "enum", "route", "operation")
_SEPARATOR_ROW = re.compile(r"^\s*\|[\s:|-]+\|\s*$")


@dataclass
class Draft:
    files: dict[str, str] = field(default_factory=dict)  # path -> new text (only changed files)
    notes: list[str] = field(default_factory=list)  # what was done, per edit, with its rule
    open_points: list[str] = field(default_factory=list)  # what the rules could not do


def _said(lines: list[str]):
    """``said(term)`` for ``spoken``: whether the page mentions the term."""
    text = "\n".join(lines)
    return lambda term: bool(mentions(text, term))


def _word(term: str) -> re.Pattern:
    return re.compile(rf"(?<![\w-]){re.escape(term)}(?![\w-])")


def reword(line: str, old: str, new: str) -> str:
    """The line with the old name, as a whole word, renamed (the Writer's answer to the Editor's
    'leftover-name' comment)."""
    return _word(old).sub(new, line)


def write(plan: Plan, read: Callable[[str], str | None], release: str | None = None) -> Draft:
    """The planned pages edited; ``release``: the release the change ships in, when the code says
    (``release.release_between``), for the version marks of new items."""
    draft = Draft()
    for page in plan.pages:
        text = read(page.path)
        if text is None:
            draft.open_points.append(f"{page.path}: could not be read")
            continue
        if not page.facts:  # planned on the names it speaks of: for a person to review
            draft.open_points.append(f"{page.path}: review by hand — " + "; ".join(page.reasons))
            continue
        lines = text.split("\n")
        for fact in page.facts:
            # One line an element for the next fact's look at the page, whatever an edit inserted.
            lines = "\n".join(_apply(fact, page.path, lines, draft, release)).split("\n")
        new_text = "\n".join(lines)
        if new_text != text:
            draft.files[page.path] = new_text
    # Two facts of one name (``convert`` removed from two classes) leave the same point twice.
    draft.open_points = list(dict.fromkeys(draft.open_points))
    return draft


def _apply(fact: Fact, path: str, lines: list[str], draft: Draft, release: str | None = None) -> list[str]:
    if fact.change == "renamed":
        return _rename(fact, path, lines, draft)
    if fact.change == "deprecated" and fact.rule == WARNS:
        return _warned(fact, path, lines, draft)
    if fact.change in ("removed", "deprecated"):
        return _remove(fact, path, lines, draft)
    if fact.change == "default-changed":
        return _redefault(fact, path, lines, draft)
    if fact.change == "added":
        return _add(fact, path, lines, draft, release)
    if fact.change == "help-changed":
        return _reword_help(fact, path, lines, draft)
    return lines


def _reword_help(fact: Fact, path: str, lines: list[str], draft: Draft) -> list[str]:
    """The page quotes the option's old help text: the words that changed change on that line,
    written as the page writes the rest (``quoting``)."""
    old, new = prose(fact.old), prose(fact.new)
    reworded = {i: quoted for i, line in enumerate(lines)
                if (quoted := requote(line, old, new)) is not None and quoted != line}
    changed = 0
    if reworded:  # the page's blocks only where it quotes the help text
        for i in _at_home(_home_depth(blocks(path, "\n".join(lines)), lines, fact.path), list(reworded)):
            lines[i], changed = reworded[i], changed + 1
    if changed:
        draft.notes.append(f"{path}: the help text of {token(fact.name)} in its new words ({changed} line(s)) "
                           "[rule: quoted help text]")
    return lines


def _redefault(fact: Fact, path: str, lines: list[str], draft: Draft) -> list[str]:
    name, old, new = spoken(fact.name, _said(lines)), plain(fact.old), plain(fact.new)
    found = blocks(path, "\n".join(lines))
    value = re.compile(rf"(?<![\w.]){re.escape(old)}(?![\w.])") if old and new is not None else None
    saying: list[int] = []  # per mention, the line that says its default
    for n in mentions("\n".join(lines), name) if value else ():
        span = _default_span(found, lines, n - 1, name)
        # the line that says the default, else one that does not list the allowed values (Type: a | b)
        fitting = [i for i in span if value.search(lines[i])]
        fitting = [i for i in fitting if _SAYS_DEFAULT.search(lines[i])] or \
            [i for i in fitting if not _SAYS_TYPE.search(lines[i])]
        if fitting and fitting[0] not in saying:
            saying.append(fitting[0])
    changed = 0
    for i in _at_home(_home_depth(found, lines, fact.path), saying):
        lines[i], changed = value.sub(new, lines[i]), changed + 1  # one value per mention
    if changed:
        draft.notes.append(f"{path}: default of {name} changed {old} → {new} ({changed} line(s)) "
                           "[rule: changed default, in the block that documents it]")
    else:
        draft.open_points.append(f"{path}: mentions {name}, but not its old default {old}: check whether "
                                 f"the page should say the new default {new}")
    return lines


_SAYS_DEFAULT = re.compile(r"(?i)\bdefaults?\b")
_SAYS_TYPE = re.compile(r"(?i)(^|[\s*_|:])types?\b[*_]*\s*:")
# A heading's title that names one option as code: `build.minify`, ``--port``, ``retries`` in backticks
_CODE_TITLE = re.compile(r"^\s*(?:#{1,6}\s+)?(?:`([\w.$-]+)`|([\w$-]*[._$][\w.$-]*|[a-z]+[A-Z][\w$]*|"
                         r"--?[A-Za-z][\w-]*))\s*#*\s*$")
SECTION_LINES = 10  # how far below a heading that names an option its default is looked for


def _default_span(found: list[Block], lines: list[str], at: int, name: str) -> range:
    """Where a mention's default is said: the row, item or directive holding it; under a heading
    that names the option, the top of its section; a definition that starts with the name, and
    the two lines after it; a sentence that gives it its default. Nothing for a mention in
    prose, amid a paragraph, or in a section a heading gives to another option
    (``build.cssMinify`` saying it defaults to what ``build.minify`` does)."""
    section = max((b for b in found if b.kind == "section" and at in b), key=lambda b: b.start, default=None)
    subject = _CODE_TITLE.match(lines[section.start]) if section else None
    title = subject and (subject.group(1) or subject.group(2))
    if section and section.start == at:  # the mention is the heading
        return range(at + 1, min(section.end, at + 1 + SECTION_LINES)) if title and _names(title, name) else range(0)
    if not as_code(lines[at], name) or title and not _names(title, name):
        return range(0)
    block = enclosing(found, at)
    if block:
        return range(block.start, block.end)
    # outside a row, item or directive: a line that starts with the name (a definition's term,
    # ``key: value``) and the two after it; amid a paragraph, only a line that gives the name its
    # default in the same clause ("`--max-conns` (default `100`)")
    term = rf"^\s*[`*_]*(?:[\w$-]+\.)*{re.escape(name)}(?![\w-])"
    if re.match(term, lines[at]):
        return range(at, min(len(lines), at + 3))
    beside = rf"(?<![\w-]){re.escape(name)}(?![\w-])[^.;]{{0,40}}?\bdefault"
    return range(at, at + 1) if re.search(beside, lines[at], re.IGNORECASE) else range(0)


def _names(title: str, name: str) -> bool:
    """Whether a heading's code-like title is the option: ``build.minify`` names ``minify``."""
    return title == name or title.endswith("." + name) or name.endswith("." + title)


def _about(line: str, name: str) -> bool:
    """Whether a block's first line is about ``name``: a row whose first cell is it, an item that
    starts with it, a directive that names it."""
    escaped = re.escape(name)
    return bool(re.match(rf"^\s*\|\s*[`*_]*{escaped}[`*_]*\s*(\||[,/(=\s])", line)
                # ``config.assetsInclude`` is about assetsInclude, not about config
                or re.match(rf"^\s*(?:[-*+]|\d+[.)])\s+[`*_]*{escaped}(?![\w-]|\.\w)", line)
                or re.match(rf"^\s*\.\.\s+[\w:]+::\s+(\S*[.:])?{escaped}(?![\w-])\s*$", line)
                or re.match(rf"^\s*{escaped}(?![\w-])(\s*,\s*-\S+)*(\s{{2,}}|$)", line))


MAX_BLOCK_LINES = 12  # a longer row, item or directive may say more than the removed name: a person decides
MAX_SECTION_LINES = 40  # a section titled by the name alone is about it, however many lines it takes
MAX_MENTIONS_LISTED = 5  # mentions left listed one by one (path:line), the rest in one point


def _rename(fact: Fact, path: str, lines: list[str], draft: Draft) -> list[str]:
    if fact.kind == "file":
        old = written_as(fact.old, _said(lines))  # a workflow's runs address renamed as its file is
        form, forms = file_forms(fact.old).index(old), file_forms(fact.name)
        if form >= len(forms):  # a workflow moved out of the workflows: its runs are nowhere now
            draft.open_points.append(f"{path}: {old} leads nowhere now; the pull request moves it to {fact.name}")
            return lines
        new = forms[form]
    else:
        old = spoken(fact.old, _said(lines))
        new = token(fact.name) if old == token(fact.old) else token(fact.name).rsplit(".", 1)[-1]
    pattern, count = _word(old), 0
    for i, line in enumerate(lines):
        lines[i], n = pattern.subn(new, line)
        count += n
    if count:
        draft.notes.append(f"{path}: renamed {old} to {new} ({count} place(s)) [rule: rename in place]")
    return lines


def _remove(fact: Fact, path: str, lines: list[str], draft: Draft) -> list[str]:
    name = written_as(fact.name, _said(lines)) if fact.kind == "file" else spoken(fact.name, _said(lines))
    # An option, setting or variable that is gone is gone; a function or class may have moved, but
    # its API-reference directive (autoclass, autofunction) cannot stand without it.
    kinds = () if fact.change == "deprecated" else ("row", "item", "directive", "option") \
        if fact.kind in _CERTAIN_REMOVALS else ("directive",) if fact.kind == "symbol" else ()
    went = 0  # how deep under headings naming the changed file the removals went
    if kinds:
        others = _word(name)
        found = blocks(path, "\n".join(lines))
        about = [b for b in found if b.kind in kinds and _about(lines[b.start], name)
                 and not (fact.kind == "symbol" and not b.name.startswith(("auto", "py:")))]
        if fact.change == "removed" and fact.kind in _CERTAIN_REMOVALS:
            going = [s for s in _sections_about(found, name) if _deletable(s, lines, others)]
            # a block inside a section that goes goes with it
            about = [b for b in about if not any(b.start in s for s in going)] + going
        depth = _home_depth(found, lines, fact.path)
        home = set(_at_home(depth, [b.start for b in about]))
        went = max(map(depth, home), default=0)
        for block in sorted((b for b in about if b.start in home), key=lambda b: -b.start):
            if not _deletable(block, lines, others):
                continue  # a long block, or one that keeps returning to it: a person decides
            body = lines[block.start:block.end]
            ended = block.end == len(lines)
            del lines[block.start:block.end]
            if ended:  # the page's last section: the blank lines before it end the page now
                while len(lines) > 1 and not lines[-1].strip() and not lines[-2].strip():
                    lines.pop()
                if lines and lines[-1].strip():
                    lines.append("")
            if block.kind != "row" and block.start < len(lines) and block.start > 0 and \
                    not lines[block.start].strip() and not lines[block.start - 1].strip():
                del lines[block.start]  # no double blank line where the block was
            draft.notes.append(f"{path}: removed the {_noun(block)} about {name} ({len(body)} line(s)) "
                               "[rule: removal of the block about it]")
        # by its whole name only: a nested key's bare one (``args``) may be another section's
        if fact.change == "removed" and fact.kind in _CERTAIN_REMOVALS and name == token(fact.name) and \
                (not fact.context or name.startswith(tuple(f"{c}." for c in fact.context))):
            listed = _listing_lines(blocks(path, "\n".join(lines)), lines, name)
            for at in reversed(listed):
                del lines[at]
            if listed:
                draft.notes.append(f"{path}: removed {name} from {len(listed)} settings listing(s) in code "
                                   "[rule: removal of the block about it]")
    left = [n - 1 for n in mentions("\n".join(lines), name)]
    home = _at_home(_home_depth(blocks(path, "\n".join(lines)), lines, fact.path), left, went) if left else []
    action = "removes it" if fact.change == "removed" else "removes or deprecates it"
    for at in home[:MAX_MENTIONS_LISTED]:
        draft.open_points.append(f"{path}:{at + 1}: {name} is still mentioned; the pull request {action}")
    if len(home) > MAX_MENTIONS_LISTED:  # a name on every other line: one point for the rest, not dozens
        more = home[MAX_MENTIONS_LISTED:]
        draft.open_points.append(f"{path}: {name} is still mentioned on {len(more)} more line(s) "
                                 f"({', '.join(str(at + 1) for at in more)}); the pull request {action}")
    if len(home) < len(left):
        elsewhere = ", ".join(str(at + 1) for at in left if at not in home)
        draft.open_points.append(f"{path}: {name} also stands under other headings (line(s) {elsewhere}), left as "
                                 f"it is: there it may be another command's or setting's own")
    return lines


def _warned(fact: Fact, path: str, lines: list[str], draft: Draft) -> list[str]:
    """A function that now warns is still there: the page is left as it is and the places it is
    documented are pointed out, for a person to say since when and what to use instead."""
    name = spoken(fact.name, _said(lines))
    left = mentions("\n".join(lines), name)
    if left:
        draft.open_points.append(f"{path}: {name} now warns that it is deprecated (line(s) "
                                 f"{', '.join(map(str, left))}): say so where it is documented, and what to use instead")
    return lines


def _noun(block: Block) -> str:
    return {"row": "table row", "item": "list item", "option": "option entry", "section": "section"}.get(
        block.kind, f"{block.name} directive")


def _deletable(block: Block, lines: list[str], others: re.Pattern) -> bool:
    """Whether the rule may delete a block about the name: short enough, and naming it (``others``)
    at most twice, a section three times (its title too); more, and it says more than that."""
    body = lines[block.start:block.end]
    section = block.kind == "section"
    return len(body) <= (MAX_SECTION_LINES if section else MAX_BLOCK_LINES) and \
        sum(len(others.findall(line)) for line in body) <= 2 + section


def _listing_lines(found: list[Block], lines: list[str], name: str) -> list[int]:
    """The lines of code blocks that set the name and nothing under it (``name = false`` in a
    listing of settings, ``name: 1`` in a YAML example): 0-based, in order."""
    setting = re.compile(rf"^(\s*)(?:[-*]\s+)?{re.escape(name)}\s*[=:](?!:)")
    out = []
    for block in (b for b in found if b.kind == "code"):
        content = [at for at in range(block.start, block.end)
                   if lines[at].strip() and not lines[at].lstrip().startswith(("```", "~~~"))]
        setting_lines = []
        for at in content:
            match = setting.match(lines[at])
            if not match:
                continue
            after = next((lines[n] for n in content if n > at), "")
            if len(after) - len(after.lstrip()) <= len(match.group(1)):
                setting_lines.append(at)  # nothing nested under it that would lose its key
        if len(setting_lines) < len(content):  # an example of nothing else is a person's to rework
            out += setting_lines
    return sorted(set(out))


def _sections_about(found: list[Block], name: str) -> list[Block]:
    """The sections whose title is the name alone (``### `no-setuptools```, ``--old-flag`` with its
    underline), holding no section of their own: the whole section is about it."""
    title = re.compile(rf"^[`*_]*{re.escape(name)}[`*_]*(?:\s*\{{[^}}]*\}})?$")
    sections = [b for b in found if b.kind == "section"]
    return [b for b in sections if title.match(b.name.strip())
            and not any(other.start in range(b.start + 1, b.end) for other in sections)]


NEAREST_SIBLINGS = 3  # an addition joins a group holding one of its three nearest siblings in the code


def _add(fact: Fact, path: str, lines: list[str], draft: Draft, release: str | None) -> list[str]:
    name = token(fact.name)
    text = "\n".join(lines)
    if any(mentions(text, n) for n in {name, name.rsplit(".", 1)[-1]}):
        return lines  # already documented here
    description = prose(fact.note)  # the help text, on one line
    default = _as_the_page_writes(plain(fact.new), text)
    found = blocks(path, text)
    said = _said(lines)
    # A section of its own where each of its nearest siblings has one: that is where the page
    # documents them (a list of their names beside is its table of contents).
    added = _add_section(fact, path, lines, found, said, name, description, default if _literal(default) else None,
                         draft, release)
    if added is not None:
        return added
    # Sibling blocks by the group they stand in (a list's items, a table's rows, a run of
    # directives), keyed by the group's last block: the new name joins the group of its nearest
    # siblings in the code (then the one with most of them), after that last block; never a group
    # of far ones only.
    def documented(names: list[tuple[int, str]]) -> dict[Block, list[tuple[Block, str, int]]]:
        """The groups holding blocks about these names, each with its members (block, term, rank)."""
        groups: dict[Block, list[tuple[Block, str, int]]] = {}
        for rank, sibling in names:
            term = spoken(sibling, said)
            for block in _about_blocks(found, lines, term):
                groups.setdefault(_group_of(found, block, lines)[-1], []).append((block, term, rank))
        return groups

    # Where none of its own file's siblings is documented, the names its registry call adds
    # elsewhere are (pytest's ini options, one list whatever plugin adds them): all as near. Names
    # the pull request adds just above it count once written in, as its nearest (two new options
    # keep their order in an alphabetical list).
    groups = documented(list(enumerate(fact.siblings))) or documented([(0, n) for n in fact.family])
    if groups:
        for key, members in documented([(0, n) for n in fact.follows if n not in fact.siblings]).items():
            groups.setdefault(key, []).extend(members)
    if not groups:
        draft.open_points.append(f"{path}: {name} is new; its siblings are not documented here in a table, "
                                 "list, directive or section of their own, so no place for it was found")
        return lines

    def nearest(members: list[tuple[Block, str, int]]) -> int:
        return min(rank for *_, rank in members)

    home = _home_depth(found, lines, fact.path)
    block, best = min(groups.items(), key=lambda g: (nearest(g[1]), -len({t for _, t, _ in g[1]}),
                                                     -home(g[0].start), g[1][0][0].start))
    if nearest(best) >= NEAREST_SIBLINGS:
        near = ", ".join(spoken(s, said) for s in fact.siblings[:NEAREST_SIBLINGS])
        draft.open_points.append(f"{path}: {name} is new; its nearest siblings in the code ({near}) are not "
                                 f"documented here in a table, list or directive, so it is not added beside "
                                 f"{best[0][1]}: describe it where they are")
        return lines
    if _chosen_few(fact, path, name, best[0][1], said, draft):
        return lines
    model_block, sibling = min(((b, t) for b, t, _ in best),
                               key=lambda m: (not _plainly_named(lines[m[0].start], m[1]), m[0].start))
    if "." not in sibling:  # the page names its siblings by their last part: so this one too
        name = name.rsplit(".", 1)[-1]
    if block.kind == "directive" and block.name.startswith(("auto", "py:")) and fact.importable:
        sibling, name = _autodoc_names(fact.importable, lines, model_block, sibling, name)
        if not name:
            draft.open_points.append(f"{path}: {token(fact.name)} is new; the page names its siblings by a "
                                     f"package ({sibling}) that does not import it: add it under the name "
                                     "users import it by")
            return lines
    new = _shaped(model_block, lines, sibling, name, description, default)
    if new is None:
        draft.open_points.append(f"{path}: describe {name} beside {sibling}; the code gives no help text for it")
        return lines
    group = _group_of(found, block, lines)
    marked = _directive_mark(lines, [b for b, _, _ in sorted(best, key=lambda m: m[2])] + group) \
        if block.kind == "directive" else None
    if marked and release:
        new = _with_mark(new, marked[0].for_release(release), marked[1])
    at, beside = _place(fact, name, group, best, lines, said)
    # Blocks that stand apart (directives, option entries, reST items, a loose list's items) keep a
    # blank line on each side; a table's rows and a tight list's items stand together.
    apart = block.kind in ("directive", "option") or (block.kind == "item" and is_rst(path)) or \
        (block.kind == "item" and _loose(found, lines, group))
    if apart:
        new = ([""] if at > 0 and lines[at - 1].strip() else []) + new + \
            ([""] if at < len(lines) and lines[at].strip() else [])
    draft.notes.append(f"{path}: added {_noun(block)} for {name} {beside} "
                       "[rule: addition in the format of its neighbours, in their order]")
    _unmarked(marked and marked[0], release, path, name, draft)
    return lines[:at] + new + lines[at:]


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
    new = ([""] if at > 0 and lines[at - 1].strip() else []) + new + \
        ([""] if at < len(lines) and lines[at].strip() else [])
    draft.notes.append(f"{path}: added a section for {name} {beside} "
                       "[rule: addition in the format of its neighbours, in their order]")
    _unmarked(marked and marked[0], release, path, name, draft)
    return lines[:at] + new + lines[at:]


def _unmarked(mark: Mark | None, release: str | None, path: str, name: str, draft: Draft) -> None:
    """An open point where the siblings of a new item mark the release they came in and the code
    does not say which release this change ships in (``release``)."""
    if mark is not None and release is None:
        draft.open_points.append(f"{path}: {name} is new and its siblings say the release they came in "
                                 f"({mark.text.strip()}): mark it with the release this change ships in")


def _loose(found: list[Block], lines: list[str], group: list[Block]) -> bool:
    """Whether a Markdown list is loose: a blank line between its items or inside one (outside
    code), which is how CommonMark tells a list whose items stand apart."""
    code = {i for b in found if b.kind == "code" for i in range(b.start, b.end)}
    return any(not lines[i].strip() and i not in code for i in range(group[0].start, group[-1].end))


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


def _name_markup(term: str) -> re.Pattern:
    """``term`` with the markup around it (group 1 opens it) and the separator after it, if any
    (group 3): how a list item names its subject (`` `x`: ``, ``**x** —``, ``__`x`__:``)."""
    # ``--output (-o)``, ``--output, -o``: a short form beside the name, inside its markup
    return re.compile(r"([`*_]*)" + re.escape(term) + r"(?: ?\(-\w\)|, ?-\w)?([`*_]*)([ \t]*[:—–-][ \t]*)?")


def _plainly_named(line: str, term: str) -> bool:
    """Whether the line names ``term`` with nothing but markup between it and its separator (a
    clean model to copy; ``__`x`__{ #anchor }:`` is not)."""
    return any(m.group(3) for m in _name_markup(term).finditer(line))


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


def _shaped(block: Block, lines: list[str], sibling: str, name: str, description: str, default: str | None
            ) -> list[str] | None:
    """The new block in the format of ``block`` (a sibling's own), or None when the format needs
    a description the code does not give."""
    first = lines[block.start]
    if block.kind == "row":
        return [_table_row(lines, block.start, sibling, name, description, default)] if description else None
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
    if block.kind == "option":
        if not description:
            return None
        spaced = re.match(rf"^(\s*)(.*?{re.escape(sibling)}\S*)(\s{{2,}})(.*)$", first)
        if spaced:
            return [spaced.group(1) + name + " " * max(2, len(spaced.group(2)) + len(spaced.group(3)) - len(name))
                    + description]
        indent = first[:len(first) - len(first.lstrip())]
        return [indent + name, indent + "    " + description]
    if not description and not _literal(default):
        return None
    model = "\n".join(lines[block.start:block.end])
    return [_list_item(model, sibling, name, description, default if _literal(default) else None)]


_OPTION_LINE = re.compile(r"^\s+:([\w-]+):(?:\s+(.*?))?\s*$")
# The values Sphinx's autodoc options take from a fixed set (member-order, class-doc-from); any
# other value (``:members: a, b``, ``:exclude-members: x``) names the sibling's own members.
_AUTODOC_CHOICES = {"alphabetical", "groupwise", "bysource", "class", "init", "both"}


def _directive_mark(lines: list[str], directives: list[Block]) -> tuple[Mark, bool] | None:
    """The first version mark in these directives' bodies (``.. versionadded:: 8.4``), and whether
    it stands before the body's text (its options aside)."""
    for block in directives:
        mark = first_mark(lines, range(block.start + 1, block.end))
        if mark is not None:
            return mark, not any(lines[i].strip() and not _OPTION_LINE.match(lines[i])
                                 for i in range(block.start + 1, mark.line))
    return None


def _with_mark(new: list[str], mark: str, before: bool) -> list[str]:
    """A new directive with its version mark in its body: before its text (after the blank line
    that ends its options) or after everything, as the sibling has it."""
    if before and "" in new:
        at = new.index("") + 1
        return new[:at] + [mark, ""] + new[at:]
    return new + ["", mark]


def _rendering_option(line: str) -> bool:
    """Whether an autodoc directive's option line says how to render (``:members:``,
    ``:member-order: bysource``) rather than which of the sibling's members to show."""
    value = _OPTION_LINE.match(line).group(2)
    return not value or value in _AUTODOC_CHOICES


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


_DEFAULT_SAID = re.compile(r"\bDefault(?:s to)?:?\s*`")


def _list_item(model: str, sibling: str, name: str, description: str, default: str | None) -> str:
    """A list item shaped like the sibling's item ``model``: the same marker, the name marked up
    the same, the same separator, the new name's own description, and its default said as the
    sibling says its own (``Default: `x`.``)."""
    prefix = re.match(r"^(\s*(?:[-*+]|\d+[.)])\s+)", model).group(1)
    styled = _name_markup(sibling).search(model)
    opening, separator = (styled.group(1), styled.group(3) or " — ") if styled else ("", " — ")
    closing = opening[::-1]  # the marks close as they open: `name`, **name**, __`name`__
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
    return prefix + opening + name + closing + separator + text


_BARE_ITEM = re.compile(r"\s*(?:[-*+]|\d+[.)])\s+[`*_]*[\w.$-]+[`*_]*\s*")
_PLACEHOLDER = re.compile(r"(?<=\S)[ =](?:<[^<>`|]*>|\[[^\[\]`|]*\])")


def _raw_cells(row: str) -> list[str]:
    """A table row's cells as written, padding included; an escaped ``\\|`` stays in its cell."""
    return re.split(r"(?<!\\)\|", row.strip().removeprefix("|").removesuffix("|"))


def _cells(row: str) -> list[str]:
    return [c.strip() for c in _raw_cells(row)]


def _table_row(lines: list[str], index: int, sibling: str, name: str, description: str, default: str | None) -> str:
    """A row shaped like the sibling's: the name cell styled the same, description and default
    placed under the headers that name them."""
    header, aligned = None, False
    for j in range(index, -1, -1):  # the header is the row above the |---| separator
        if j > 0 and _SEPARATOR_ROW.match(lines[j]) and lines[j - 1].lstrip().startswith("|"):
            header = [h.lower() for h in _cells(lines[j - 1])]
            aligned = len(lines[j].rstrip()) == len(lines[index].rstrip())  # columns padded to one width
            break
    cells = _cells(lines[index])
    out = []
    for k, cell in enumerate(cells):
        title = header[k] if header and k < len(header) else ""
        if k == 0 or sibling in cell:
            # the sibling's own value placeholder (`--host [host]`) is not the new option's
            out.append(_PLACEHOLDER.sub("", _word(sibling).sub(name, cell), count=1) if sibling in cell else name)
        elif "default" in title:
            out.append(f"`{default}`" if default and "`" in cell else (default or "—"))
        elif any(word in title for word in ("description", "meaning", "help", "what", "purpose")) or \
                (not title and k == len(cells) - 1):  # an untitled last column describes
            out.append(worded_like(description, cell))
        else:
            out.append("—")
    if aligned:  # padded as the sibling's cells are, where the new text fits
        out = [text.ljust(len(raw) - 2) for text, raw in zip(out, _raw_cells(lines[index]))]
    return "| " + " | ".join(out) + " |"
