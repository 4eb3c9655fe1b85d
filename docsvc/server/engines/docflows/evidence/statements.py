"""Statement evidence: the pages that state what a fact makes stale, found by what the statement
says rather than by a name — the language's minimum version ("Python 3.8+"), a link to the
project's repository at its old address, the version the program prints. Direct: the Writer
restates each."""

from __future__ import annotations

from typing import Callable, Iterable

from ..facts_model import Fact
from ..repository import linked
from ..requirements import LANGUAGES, minimum, stale, statements
from ..version_output import shown
from .docs import Docs
from .model import Add, Look
from .pages import is_release_page

__all__ = ["plan_requirement", "plan_repository", "plan_version"]


def _plan_statements(fact: Fact, candidates: Iterable[str], found_in: Callable[[str], list[int]],
                     reason: Callable[[int], str], docs: Docs, add: Add) -> int:
    """Plan as direct the candidate pages (release pages aside) where ``found_in(text)`` finds the
    lines (0-based) a fact makes stale; ``reason(line)`` says why, from the first of them."""
    hits = 0
    for path in dict.fromkeys(candidates):
        found = [] if is_release_page(path) else found_in(docs.read(path) or "")
        if found:
            add(path, "direct", 0.8, f"{reason(found[0] + 1)} [{fact.rule}]", fact)
            hits += 1
    return hits


def plan_requirement(fact: Fact, docs: Docs, add: Add, look: Look) -> int:
    """The pages that state the old minimum version of the language (``requirements``: "Python
    3.8+", "requires Python 3.8") when the manifest raises or lowers it: direct, the Writer
    restates it. A page that states a lower minimum only, stale before the pull request, is worth
    a look."""
    old, new = minimum(fact.old), minimum(fact.new)
    if not old or not new or old == new:
        return 0
    words = LANGUAGES.get(fact.name, ("", (fact.name,)))[1]
    candidates = list(dict.fromkeys(p for word in words for p in docs.find(word)))
    hits = _plan_statements(fact, candidates, lambda text: statements(text, fact.name, old),
                            lambda line: f"states {fact.name} {old} as the minimum (line {line}); the pull request "
                                         f"requires {new}", docs, add)
    for path in candidates:
        text = "" if is_release_page(path) else docs.read(path) or ""
        earlier = [] if statements(text, fact.name, old) else stale(text, fact.name, old)
        if earlier:
            line, version = earlier[0]
            look(path, f"states {fact.name} {version} as the minimum (line {line + 1}), not {old}: stale before the "
                       f"pull request, which requires {new} [{fact.rule}]")
    return hits


def plan_repository(fact: Fact, docs: Docs, add: Add) -> int:
    """The pages that link to the project's repository at its old address (or into its old branch)
    when the pull request moves it (``repository``): direct, the Writer links them to the new one."""
    root, _, branch = (fact.old or "").partition("@")
    where = f"into its branch {branch} of {root}" if branch else f"to the repository at {root}"
    # by its owner/name: the API's address of it (api.github.com/repos/owner/name) too
    return _plan_statements(fact, docs.find(root.partition("/")[2]), lambda text: linked(text, fact.old or ""),
                            lambda line: f"links {where} (line {line}); the pull request moves it to "
                                         f"{fact.name.partition('@')[2] or fact.name}", docs, add)


def plan_version(fact: Fact, docs: Docs, add: Add) -> int:
    """The pages that show what the project's own program prints when asked for its version
    (``version_output``) when the pull request sets a new version: direct, the Writer shows the new
    one."""
    return _plan_statements(fact, (p for name in fact.siblings for p in docs.find(name)),
                            lambda text: shown(text, fact.siblings),
                            lambda line: f"shows the version {fact.siblings[0]} prints (line {line}); the pull "
                                         f"request sets it to {fact.new}", docs, add)
