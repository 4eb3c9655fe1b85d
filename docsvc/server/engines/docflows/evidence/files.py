"""File evidence: the repository files the docs name by their path. A file the pull request
changes: the pages that show or link it, for review (the code they show changed; what to write is
a person's call). A file it adds: the pages that show files of the folder it joins, for review
(they may show the new one too). A renamed or deleted file is a name gone (``names.plan_gone``)."""

from __future__ import annotations

import re
from typing import Iterable

from ..facts import is_test_file
from ..facts_model import Fact
from .docs import Docs
from .model import MIN_SHOWN, Add
from .pages import is_release_page

__all__ = ["plan_changed_file", "plan_new_files"]

# A page that shows a file's content rather than naming it: Sphinx and MyST includes, FastAPI's
# {* file *}, pymdownx snippets, Jinja includes, an image, MDX raw imports, a fence's file=.
_EMBED = re.compile(r"literalinclude|\binclude::|\{\*|--8<--|\{%\s*include|!\[[^\]]*\]\(|raw-loader|\bfile=")


def plan_changed_file(fact: Fact, docs: Docs, add: Add) -> int:
    """The pages that show or link a file the pull request changes (a tooling file, only where a
    page shows its content), for review."""
    hits = 0
    position = re.compile(rf'{re.escape(fact.name)}(?:", line \d|:\d)')
    for path, ev in docs.pages(fact.name).items():
        if is_release_page(path):
            continue
        lines = (docs.read(path) or "").split("\n")
        # A traceback's frame or an error's place (`.../core.py", line 216`, `main.py:8`) is
        # where an example's run went, in its output: no reference to the file.
        kept = [n for n in ev.lines if not position.search(lines[n - 1])]
        if fact.tooling:
            kept = [n for n in kept if _EMBED.search(lines[n - 1])]
        if not kept:
            continue
        add(path, "related", 0.5, f"shows or links {fact.name} (line {kept[0]}), which the pull request "
                                  f"changes [{fact.rule}]", None)
        hits += 1
    return hits


def plan_new_files(added: Iterable[str], docs: Docs, add: Add) -> None:
    """Plan for review the pages that show (include, embed) files of the folder a new file joins
    (an example ``docs_src/arguments/optional/tutorial000_an_py39.py`` beside the
    ``tutorial000_py39.py`` a page includes): the page may show the new one too. Not a folder
    ``MIN_SHOWN`` pages or more show files of: the docs' common folder of examples tells none apart."""
    for path in sorted(set(added)):
        folder = path.rpartition("/")[0]
        if not folder or is_test_file(path):
            continue
        shown: dict[str, int] = {}
        for page in dict.fromkeys(docs.find(folder + "/")):
            if is_release_page(page):
                continue
            lines = (docs.read(page) or "").split("\n")
            line = next((n for n, text in enumerate(lines, 1) if _EMBED.search(text) and
                         re.search(rf"{re.escape(folder)}/[^/\s]+(?:\s|$|[^\w/.-])", text)), None)
            if line is not None:
                shown[page] = line
        if len(shown) < MIN_SHOWN:
            for page, line in sorted(shown.items()):
                add(page, "related", 0.5, f"shows a file of {folder}/ (line {line}), where the pull request adds "
                                          f"{path.rpartition('/')[2]} [git: file added]", None)
