"""The names a pull request's code changes: identifiers on the lines its user-facing code files
lose or gain, lines it only moved left aside (``--flag``, ``ENV_VAR``, ``snake_case``, ``camelCase``,
``PascalCase``, a numbered code ``FSTDEP010``).

A second kind of evidence beside the facts: a release reworks behaviour the syntax tree does not
show as an option or a setting (how ``default_map`` is read, what ``flag_value`` means), and the
pages that speak of several such names as code are the ones a writer opens. The planner decides
what is specific enough to count; here is only what changed. Names the change only uses (another
library's ``readFileSync``, ``TypeError``) count too: keeping to the names the project's code
defines lost more right pages than wrong ones (measured on three corpora), since the pages about a
change speak of what it calls as well. The names only the gained lines hold are told apart
(``NameChanges.gained``): a new error code is known by the family it joins.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Callable, Iterable, Mapping

from .facts import CODE_SUFFIXES, speaks_to_users

__all__ = ["NameChanges", "beside", "changed_code", "code_hunks", "diff_of", "is_example", "name_changes", "names_in",
           "user_code"]

_NAME = re.compile(r"""(?x)
    (?<![\w-])--[A-Za-z][\w-]+           # an option
  | \b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b        # ENV_VAR, A_CONSTANT
  | \b[a-z][a-z0-9]*_[a-z0-9_]+\b        # snake_case
  | \b[a-z]+[A-Z]\w*\b                   # camelCase
  | \b[A-Z][a-z0-9]+[A-Z]\w*\b           # PascalCase with an inner capital
  | \b[A-Z]{3,}\d{2,}\b                  # a numbered code: FSTDEP010, PLW0120
""")
_QUOTED = re.compile(r"""(['"`])([\w-]+)\1""")  # a whole string literal of one name
MIN_LENGTH = 4  # shorter names (``x_y``, ``--ab``) say too little
# A folder of example programs (``examples/tutorial``, FastAPI's and Typer's ``docs_src``)
_EXAMPLES = re.compile(r"(?i)(^|/)_?(examples?|samples?|demos?|docs_src)/")


def names_in(lines: list[str]) -> Counter[str]:
    """How many changed lines each identifier-shaped name stands on."""
    counts: Counter[str] = Counter()
    for line in lines:
        counts.update({n for n in _NAME.findall(line) if len(n.lstrip("-")) >= MIN_LENGTH})
    return counts


@dataclass(frozen=True)
class NameChanges:
    counts: Counter[str]  # each name on the changed lines: how many lines it stands on
    gained: frozenset[str]  # the names only gained lines hold: new to the code, or newly used
    # the names only lost lines hold, one of them as a whole string (``code: 'FSTDEP010'``): a code
    # whose registration goes, not one a changed line merely stops raising
    dropped: frozenset[str] = frozenset()
    # a setting-shaped name a gained line holds (``--flag``, ``A_KEY``) -> the names of its shape on
    # the unchanged lines beside it: its neighbours in a table of settings (``beside``)
    beside: Mapping[str, frozenset[str]] = field(default_factory=dict)


CONTEXT = 2  # lines of context kept beside each change: what a changed statement links to (``linked_pages``)


def diff_of(mirror, base: str, head: str) -> list[tuple[str, list[str]]]:
    """The hunks of every file the change from ``base`` to ``head`` in a git mirror
    (``engines.git.Mirror``) touches, with ``CONTEXT`` lines of context: one diff read for the code
    (``code_hunks``) and for the tests (``expected_output.outputs_between``)."""
    return mirror.file_hunks(base, head, CONTEXT)


def changed_code(mirror, base: str, head: str, documented: Callable[[str], bool] | None = None) -> list[list[str]]:
    """``code_hunks`` of the change from ``base`` to ``head`` in a git mirror."""
    return code_hunks(diff_of(mirror, base, head), documented)


def is_example(path: str) -> bool:
    """Whether a file is an example program (under ``examples/``, ``docs_src/``, ...)."""
    return _EXAMPLES.search(path) is not None


def user_code(diff: Iterable[tuple[str, list[str]]], documented: Callable[[str], bool] | None = None
              ) -> list[tuple[str, list[str]]]:
    """The hunks, each with its path, of the code files that speak to users (no tests, no
    infrastructure unless the docs document it) among a diff's (``diff_of``)."""
    return [(path, hunk) for path, hunk in diff
            if PurePosixPath(path).suffix.lower() in CODE_SUFFIXES and speaks_to_users(path, documented)]


def code_hunks(diff: Iterable[tuple[str, list[str]]], documented: Callable[[str], bool] | None = None,
               examples: bool = True) -> list[list[str]]:
    """The hunks of ``user_code``; without example programs' unless ``examples``.

    An example's changed lines name what it calls of the project's API (``url_for``,
    ``current_app``), which pages all over the docs speak of: no sign of which page the change is
    about (flask's rewritten tutorial example planned 9 wrong pages of 10 on them). The pages that
    show the example itself are found by its path (a changed file the docs name)."""
    return [hunk for path, hunk in user_code(diff, documented) if examples or not is_example(path)]


def name_changes(hunks: list[list[str]]) -> NameChanges:
    """The names on the changed lines of ``changed_code``'s hunks."""
    lines = _not_moved([line for hunk in hunks for line in hunk if line[0] in "-+"])
    lost = names_in([line[1:] for line in lines if line[0] == "-"])
    gained = names_in([line[1:] for line in lines if line[0] == "+"])
    quoted = {m.group(2) for line in lines if line[0] == "-" for m in _QUOTED.finditer(line[1:])}
    return NameChanges(lost + gained, frozenset(gained.keys() - lost.keys()),
                       frozenset(name for name in lost.keys() - gained.keys() if name in quoted),
                       {name: near for hunk in hunks for name, near in beside(hunk).items()})


_SETTING_SHAPES = (re.compile(r"(?<![\w-])--[A-Za-z][\w-]+"), re.compile(r"\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b"))


def beside(hunk: list[str], reach: int = CONTEXT) -> dict[str, frozenset[str]]:
    """The setting-shaped names a hunk's gained lines hold (an option ``--flag``, a key
    ``MAX_COOKIE_SIZE``), each with the names of the same shape on the unchanged lines within
    ``reach`` of it: the entries of the table, dict or list it joins (``"PROVIDE_AUTOMATIC_OPTIONS":
    True,`` below ``"MAX_COOKIE_SIZE": 4093,``), which the docs list where the new one belongs."""
    found: dict[str, set[str]] = {}
    for i, line in enumerate(hunk):
        if not line.startswith("+"):
            continue
        near = [other[1:] for other in hunk[max(0, i - reach - 1):i + reach + 2] if other.startswith(" ")]
        for shape in _SETTING_SHAPES:
            for name in shape.findall(line[1:]):
                neighbours = {n for text in near for n in shape.findall(text) if n != name}
                if neighbours:
                    found.setdefault(name, set()).update(neighbours)
    return {name: frozenset(near) for name, near in found.items()}


def _not_moved(lines: list[str]) -> list[str]:
    """The changed lines (``-``/``+`` first, as in ``Mirror.file_hunks``) without the
    lines the change only moved: lost in one place and gained, the same but for spacing, in
    another (code moved to a new module changes nothing a page says)."""
    texts = [(line[0], " ".join(line[1:].split())) for line in lines]
    moved = Counter(t for sign, t in texts if sign == "-") & Counter(t for sign, t in texts if sign == "+")
    left = {"-": moved.copy(), "+": moved}
    kept = []
    for line, (sign, text) in zip(lines, texts):
        if left[sign][text] > 0:
            left[sign][text] -= 1
        else:
            kept.append(line)
    return kept
