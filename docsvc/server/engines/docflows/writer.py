"""The Writer stage of Docflows: edits the planned pages, structure by structure.

Rule-based (a language model may replace it later); every edit is noted with the rule that made
it, and what no rule covers is said plainly and left for a person. The page is read as blocks
(``structure``: table rows, list items, directives, option entries, code blocks, sections), and
each fact planned for a page is handed to every page structure that carries it (``structures``:
one module each, behind one interface, as linters keep one rule per module): names where the page
speaks of them (``mentions``: renamed, default changed, help text reworded), the blocks about a
name that is gone (``removals``), a new name's line where the page renders its sibling from the code by
its import path (``rendered_entries``), a new name's section or directive (``reference_entries``) or its
row, item or entry among its siblings (``siblings``, shaped by ``table_rows`` and
``reference_entries``), with the version mark its siblings carry (``version_marks``), or its
example after its nearest sibling's where the page shows options by examples (``option_examples``); a new
function's section where each sibling function has one (``function_sections``); the calls a page shows that pass a
parameter the signature drops (``signatures``); a new option's
line in the help output the docs show (``help_blocks``), the block's column moved as the
framework moves it (``help_columns``); a deprecation mark (``version_marks``); the
supported language version (``requirements``); the version the project's program prints
(``version_output``); the links to the project's repository when it moves (``repository_links``);
no entry by hand where the docs build renders
the name from the code (``generated``); the output the page's examples show where the tests
now expect it otherwise (``expected_output``), and the line numbers it includes a changed file by
(``included_lines``). The Editor checks every draft (``editor``, ``draft_checks``).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import PurePosixPath
from typing import Callable, Iterable, Mapping

from .expected_output import OutputChange, example_lines
from .evidence.model import Plan, PlannedPage
from .facts_model import Fact, token
from .structure import python_modules
from .structures import STRUCTURES, Draft, Page
from .structures.common import _word
from .structures.expected_output import OUTPUT_REASON, output_fact
from .titled import described_by_title

__all__ = ["Draft", "write", "reword"]


def reword(line: str, old: str, new: str) -> str:
    """The line with the old name, as a whole word, renamed (the Writer's answer to the Editor's
    'leftover-name' comment)."""
    return _word(old).sub(new, line)


def _shown(outputs: list[OutputChange], page: PlannedPage, text: str) -> list:
    """The output facts of the spans the tests expect otherwise that the page's examples show, on
    a page planned for showing such output (a span the planner found on too many pages to tell
    one apart plans none)."""
    if not outputs or not any(r.endswith(OUTPUT_REASON) for r in page.reasons):
        return []
    examples = "\n".join(example_lines(page.path, text).values())
    return [output_fact(change) for change in outputs if change.old in examples]


def _included(files: Mapping[str, tuple[str, str]], text: str) -> list[Fact]:
    """The file facts of the changed files whose name the page says (``included_lines`` looks for
    the lines it includes them by)."""
    return [Fact(kind="file", change="changed", name=path, path=path, rule="git: file changed")
            for path in files if PurePosixPath(path).name in text]


def write(plan: Plan, read: Callable[[str], str | None], release: str | None = None,
          title: str | None = None, outputs: Iterable[OutputChange] = (),
          files: Mapping[str, tuple[str, str]] | None = None, code_files: Iterable[str] | None = None) -> Draft:
    """The planned pages edited; ``release``: the release the change ships in, when the code says
    (``release.release_between``), for the version marks of new items; ``title``: the pull
    request's, the description of the one name it adds without help text where it says that name
    (``titled``); ``outputs``: what the tests now expect the program to print otherwise
    (``expected_output.outputs_between``), shown anew where a planned page's examples show it;
    ``files``: the text before and after of the repository files the pull request changes that the
    docs name (``file`` facts), for the line numbers a page includes them by; ``code_files``: the
    code repository's paths at the pull request's head, for what a name a page renders from the code
    is (a module, whose new members the build renders, or one function or class)."""
    draft = Draft()
    modules = python_modules(code_files) if code_files is not None else None
    planned = [f for page in plan.pages for f in page.facts]
    outputs = list(outputs)
    for page in plan.pages:
        text = read(page.path)
        if text is None:
            draft.open_points.append(f"{page.path}: could not be read")
            continue
        known = {(f.kind, f.change, f.name) for f in page.facts}
        facts = page.facts + [f for f in _shown(outputs, page, text) + _included(files or {}, text)
                              if (f.kind, f.change, f.name) not in known]
        by_hand = f"{page.path}: review by hand — " + "; ".join(page.reasons)
        if not facts:  # planned on the names it speaks of: for a person to review
            draft.open_points.append(by_hand)
            continue
        editing = Page(page.path, text.split("\n"), draft, release, files or {}, modules)
        for fact in facts:
            taken = False
            notes, points = len(draft.notes), len(draft.open_points)
            described = described_by_title(fact, title, planned)
            titled = replace(fact, note=described) if described else fact
            for structure in STRUCTURES:
                if not structure.takes(fact) or (structure.entry and taken):
                    continue
                # what the program prints is not the title: only the structures that describe take it
                took = structure.write(titled if structure.describes else fact, editing)
                taken = taken or (structure.entry and took)
                # One line an element for the next look at the page, whatever an edit inserted.
                editing.lines = "\n".join(editing.lines).split("\n")
            if described and len(draft.notes) > notes:
                draft.notes.append(f"{page.path}: {token(fact.name)} described by the pull request's title, as the "
                                   "code gives it no help text: check the wording [rule: a pull request's title "
                                   "that names the one name it adds]")
            if fact.change == "added" and len(draft.notes) > notes:
                # One structure wrote the new name here (a help block's line): another's "no place
                # for it" (no table of its siblings) is no open point of the page.
                new = f"{page.path}: {token(fact.name)} is new;"
                draft.open_points[points:] = [p for p in draft.open_points[points:] if not p.startswith(new)]
        new_text = "\n".join(editing.lines)
        if new_text != text:
            draft.files[page.path] = new_text
        elif not page.facts:  # what the tests print or the lines it includes: nothing to write after all
            draft.open_points.append(by_hand)
    # Two facts of one name (``convert`` removed from two classes) leave the same point twice.
    draft.open_points = list(dict.fromkeys(draft.open_points))
    return draft
