"""The project's own repository on its code host, as its manifests name it (``project_urls``,
``[project.urls]``, ``package.json``'s ``repository``, ``go.mod``'s module path), and the docs'
links to it.

A pull request that moves the repository (renamed, or to another owner: ``github.com/httpie/httpie``
→ ``github.com/httpie/cli``) leaves every link to the old address pointing at the old name. The
move is certain when the manifests named one repository before and name another one instead
after; the links (``github.com/httpie/httpie/issues``, ``…/blob/master/LICENSE``) then take the new
address, the rest of each link as it was. Shared by the facts (``moved``), the planner and the
Writer's ``repository_links`` structure (``linked``, ``relinked``).
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Callable

__all__ = ["MANIFESTS", "roots", "moved", "branches", "branch_moved", "linked", "relinked"]

MANIFESTS = ("pyproject.toml", "setup.cfg", "setup.py", "package.json", "Cargo.toml", "go.mod")
_HOSTS = r"(?:github\.com|gitlab\.com|bitbucket\.org|codeberg\.org)"
# A repository's address: its host, owner and name (no ``.git``), as a URL or ``git@host:`` writes it.
_ROOT = re.compile(rf"(?<![\w.-])(?P<root>{_HOSTS}[/:][\w-][\w.-]*/[\w-][\w.-]*?)(?:\.git)?(?![\w.-]*[\w-])")


def _named(text: str) -> list[str]:
    """The repository addresses a text names (``github.com/owner/name``), once a mention."""
    return [m.group("root").replace(":", "/", 1) for m in _ROOT.finditer(text)]


def roots(text: str) -> set[str]:
    """The repository addresses a text names (``github.com/owner/name``)."""
    return set(_named(text))


def moved(text_at: Callable[[str, str], str | None], base: str, head: str) -> tuple[str, str, str] | None:
    """``(old, new, manifest)``: the one repository the top-level manifests stop naming, the one
    they name instead and the first manifest that does; None when they name the same, or the
    change is no clear move."""
    before: Counter[str] = Counter()
    after: dict[str, str] = {}
    for manifest in MANIFESTS:
        before.update(_named(text_at(base, manifest) or ""))
        for root in roots(text_at(head, manifest) or ""):
            after.setdefault(root, manifest)
    gone, new = set(before) - set(after), set(after) - set(before)
    if len(gone) != 1 or len(new) != 1:
        return None
    old = gone.pop()
    # the project's own: named more often than any other (its homepage, source, issues), not a
    # dependency's address that a pin moved
    if any(count >= before[old] for root, count in before.items() if root != old):
        return None
    root = new.pop()
    return old, root, after[root]


# A link into one branch of a repository: ``<root>/blob/master/CHANGES.md``, ``/tree/main``, ``/archive/master.tar.gz``
_INTO = r"/(?:blob|tree|edit|raw|commits|archive)/"


def branches(text: str, root: str) -> set[str]:
    """The branches a text's links into the repository at ``root`` lead into."""
    return set(re.findall(rf"(?<![\w.-]){re.escape(root)}{_INTO}([\w-]+)(?=[/.#)\s'\"]|$)", text))


def branch_moved(text_at: Callable[[str, str], str | None], base: str, head: str
                 ) -> tuple[str, str, str, str] | None:
    """``(root, old, new, manifest)``: the repository's manifests' links led into one branch and
    now lead into another (``master`` → ``main``); None otherwise."""
    for manifest in MANIFESTS:
        before, after = text_at(base, manifest) or "", text_at(head, manifest) or ""
        for root in roots(before) & roots(after):
            old, new = branches(before, root), branches(after, root)
            if len(old) == 1 and len(new) == 1 and old != new:
                return root, old.pop(), new.pop(), manifest
    return None


def _link(old: str) -> re.Pattern:
    if "@" in old:  # a branch of the repository: root@branch
        root, branch = old.split("@", 1)
        return re.compile(rf"(?P<into>(?<![\w.-]){re.escape(root)}{_INTO}){re.escape(branch)}(?=[/.#)\s'\"]|$)")
    host, path = old.split("/", 1)
    # GitHub's API addresses the same repository as api.github.com/repos/owner/name
    api = rf"(?P<api>(?<![\w.-])api\.github\.com/repos/){re.escape(path)}|" if host == "github.com" else ""
    return re.compile(rf"(?:{api}(?<![\w.-]){re.escape(old)})(?![\w-]|\.(?!git\b)\w)")


def linked(text: str, old: str) -> list[int]:
    """The lines (0-based) that link to the repository at ``old`` (``host/owner/name``, or
    ``host/owner/name@branch``: into that branch)."""
    pattern = _link(old)
    return [i for i, line in enumerate(text.split("\n")) if pattern.search(line)]


def relinked(line: str, old: str, new: str) -> str:
    """The line with its links to ``old`` leading to ``new`` (for a branch, ``root@branch``: the
    links into the old branch lead into the new one)."""
    branch = new.split("@", 1)[-1]

    def moved(match: re.Match) -> str:
        if "@" in old:
            return match.group("into") + branch
        return match.group("api") + new.split("/", 1)[1] if match.groupdict().get("api") else new
    return _link(old).sub(moved, line)
