"""The names a pull request's code changes: identifiers on the lines its user-facing code files
lose or gain, lines it only moved left aside (``--flag``, ``ENV_VAR``, ``snake_case``, ``camelCase``,
``PascalCase``).

A second kind of evidence beside the facts: a release reworks behaviour the syntax tree does not
show as an option or a setting (how ``default_map`` is read, what ``flag_value`` means), and the
pages that speak of several such names as code are the ones a writer opens. The planner decides
what is specific enough to count; here is only what changed, and of it only the project's own
names: those its code defines somewhere (a function, class, variable, key, attribute, parameter
or method; before or after the change), with options and upper-case names always its own. What
the change only calls (``readFileSync``, ``addEventListener``, ``WeakMap``) is another library's,
and a page that speaks of it says nothing about this change.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import PurePosixPath
from typing import Callable

from .facts import CODE_SUFFIXES, speaks_to_users

__all__ = ["changed_names", "names_in"]

_NAME = re.compile(r"""(?x)
    (?<![\w-])--[A-Za-z][\w-]+           # an option
  | \b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b        # ENV_VAR, A_CONSTANT
  | \b[a-z][a-z0-9]*_[a-z0-9_]+\b        # snake_case
  | \b[a-z]+[A-Z]\w*\b                   # camelCase
  | \b[A-Z][a-z0-9]+[A-Z]\w*\b           # PascalCase with an inner capital
""")
MIN_LENGTH = 4  # shorter names (``x_y``, ``--ab``) say too little


def names_in(lines: list[str]) -> Counter[str]:
    """How many changed lines each identifier-shaped name stands on."""
    counts: Counter[str] = Counter()
    for line in lines:
        counts.update({n for n in _NAME.findall(line) if len(n.lstrip("-")) >= MIN_LENGTH})
    return counts


def changed_names(mirror, base: str, head: str, documented: Callable[[str], bool] | None = None,
                  mentioned: Callable[[str], bool] | None = None) -> Counter[str]:
    """The names on the changed lines of the code files that speak to users (no tests, no
    infrastructure unless the docs document it), from ``base`` to ``head`` in a git mirror, that
    are the project's own. ``mentioned(name)``: whether the docs mention it (only those are looked
    up in the code; the others are no evidence anyway)."""
    def wanted(path: str) -> bool:
        return PurePosixPath(path).suffix.lower() in CODE_SUFFIXES and speaks_to_users(path, documented)

    names = names_in(_not_moved(mirror.changed_lines(base, head, wanted)))
    unsure = [n for n in names if not _ALWAYS_OWN.fullmatch(n) and (mentioned is None or mentioned(n))]
    own = _defined(mirror, head, unsure, wanted)
    own |= _defined(mirror, base, [n for n in unsure if n not in own], wanted)  # the ones the change removes
    return Counter({n: c for n, c in names.items() if n not in unsure or n in own})


# Options and upper-case names (environment variables, constants) are the project's when its code
# uses them: it reads a variable it does not define.
_ALWAYS_OWN = re.compile(r"--[\w-]+|[A-Z][A-Z0-9]*_[A-Z0-9_]+")
_WORD = re.compile(r"[A-Za-z_$][\w$]*")


def _definition(name: str) -> re.Pattern:
    n = re.escape(name)
    return re.compile(rf"""(?x)
        \b(?:def|class|function\*?|func|type|interface|enum|struct|const|let|var|val|fn|namespace)\s+
            (?:\([^)]*\)\s*)?{n}\b                            # def name, func (r *T) Name
      | (?:(?<![\w.$])|(?<=\bself\.)|(?<=\bthis\.)){n}\??\s*(?::(?!:)|=(?![=>]))  # key:, name =, self.x =, x?:
      | ^\s*(?:(?:async|static|get|set|public|private|protected|readonly|override)\s+)*
            {n}\s*(?:<[^>]*>)?\([^()]*\)\s*(?::[^{{]*)?\{{         # a method: name(args) {{
    """)


def _defined(mirror, head: str, names: list[str], wanted: Callable[[str], bool]) -> set[str]:
    """The names the project's own code defines somewhere: a function, class, variable, key,
    attribute, parameter or method of that name. A name the change only uses is someone else's
    (``readFileSync``, ``addEventListener``): the docs of a project speak of it as they please, and
    a page that does is no sign the change is its subject."""
    wanted_names = set(names)
    candidates: dict[str, list[str]] = {}
    for path, line in mirror.grep_lines(head, names, _CODE_GLOBS):
        if wanted(path):
            for word in wanted_names.intersection(_WORD.findall(line)):
                candidates.setdefault(word, []).append(line)
    return {name for name, lines in candidates.items()
            if any(_definition(name).search(line) for line in lines[:MAX_LINES_READ])}


MAX_LINES_READ = 400  # lines looked at per name for a definition
_CODE_GLOBS = tuple(f"*{suffix}" for suffix in CODE_SUFFIXES)


def _not_moved(lines: list[str]) -> list[str]:
    """The changed lines (``-``/``+`` first, as ``Mirror.changed_lines`` gives them) without their
    signs and without the lines the change only moved: lost in one place and gained, the same but
    for spacing, in another (code moved to a new module changes nothing a page says)."""
    texts = [(line[0], " ".join(line[1:].split())) for line in lines]
    moved = Counter(t for sign, t in texts if sign == "-") & Counter(t for sign, t in texts if sign == "+")
    left = {"-": moved.copy(), "+": moved}
    kept = []
    for line, (sign, text) in zip(lines, texts):
        if left[sign][text] > 0:
            left[sign][text] -= 1
        else:
            kept.append(line[1:])
    return kept
