"""The docs pages the changed code links to.

A warning, an error message or a comment beside a change often sends its reader to the page that
documents it (``"See https://docs.pytest.org/en/stable/deprecations.html#callspec2-renamed"``,
``https://vite.dev/guide/troubleshooting.html#...``): when the statement around the link changes,
that page is the one a writer opens. The project's own docs are told from other sites by the path:
a link counts when its path ends as one docs page's path does (``guide/troubleshooting`` for
``docs/guide/troubleshooting.md``), by two folders or names at least, or by the page's name alone
when the page also holds the link's anchor (a heading or label). Nothing here decides whether that
is reason enough to plan the page: that is the planner's call.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Iterable
from urllib.parse import unquote, urlsplit

from .changed_names import CONTEXT
from .structure import blocks

__all__ = ["Link", "links_near_changes", "linked_pages", "anchors"]

_URL = re.compile(r"https?://[^\s\"'`<>()\[\]{}\\|^]+")
_PAGE_SUFFIX = re.compile(r"(?i)\.(html?|md|mdx|markdown|rst|txt|adoc)$")
_INDEX = {"index", "readme", "_index"}
_RST_LABEL = re.compile(r"^\s*\.\.\s+_([^:`]+|`[^`]+`):\s*$")
_EXPLICIT_ID = re.compile(r"""\{\s*#([\w.:-]+)|\b(?:id|name)=["']([^"']+)["']""")


@dataclass(frozen=True)
class Link:
    url: str
    page: str
    line: int | None  # 1-based: where the page holds the link's anchor, when it has one


def links_near_changes(hunks: Iterable[list[str]], reach: int = CONTEXT) -> list[str]:
    """The URLs on a changed line, or within ``reach`` lines of one with no blank line between
    (the rest of the message or comment the change is part of), in the order met."""
    found: dict[str, None] = {}
    for hunk in hunks:
        for i, line in enumerate(hunk):
            if "://" in line and any(_changed_within(hunk, i, step, reach) for step in (0, -1, 1)):
                found.update(dict.fromkeys(url.rstrip(".,;:!?") for url in _URL.findall(line)))
    return list(found)


def _changed_within(hunk: list[str], i: int, step: int, reach: int) -> bool:
    """Whether a changed line stands ``step`` by ``step`` from line ``i`` (itself for 0), at most
    ``reach`` lines away, before a blank line."""
    for k in range(i, i + step * reach + step, step) if step else (i,):
        if not 0 <= k < len(hunk) or (k != i and not hunk[k][1:].strip()):
            return False
        if hunk[k][:1] in "+-":
            return True
    return False


def _segments(path: str) -> list[str]:
    parts = [unquote(p).lower() for p in path.split("/") if p]
    if parts:
        parts[-1] = _PAGE_SUFFIX.sub("", parts[-1])
        if parts[-1] in _INDEX:
            parts.pop()
    return parts


def _shared_tail(a: list[str], b: list[str]) -> int:
    n = 0
    while n < len(a) and n < len(b) and a[-1 - n] == b[-1 - n]:
        n += 1
    return n


def _key(text: str) -> str:
    """An anchor as compared: letters and digits only (``#_431-request-header...`` and the
    heading "431 Request Header ..." agree; ``callspec2-renamed`` and the label ``callspec2-renamed``)."""
    return re.sub(r"[^0-9a-z]+", "", text.lower())


def anchors(path: str, text: str) -> dict[str, int]:
    """The anchors a page holds, as ``_key`` gives them -> their line (1-based): its section titles
    (``structure`` finds them: Markdown through markdown-it, reStructuredText by its underlines),
    reStructuredText labels, explicit ``{#id}`` and ``id=``/``name=`` attributes; nothing in a
    code block (a ``# comment`` in a fence is no heading)."""
    found = blocks(path, text)
    named = [(b.start, b.name) for b in found if b.kind == "section"]
    code = [b for b in found if b.kind == "code"]
    for n, line in enumerate(text.split("\n")):
        label = _RST_LABEL.match(line)
        names = ([label.group(1).strip("`")] if label else []) + [a or b for a, b in _EXPLICIT_ID.findall(line)]
        if names and not any(n in b for b in code):
            named += [(n, name) for name in names]
    out: dict[str, int] = {}
    for n, name in sorted(named):
        out.setdefault(_key(name), n + 1)
    out.pop("", None)
    return out


def linked_pages(urls: Iterable[str], paths: Iterable[str], read: Callable[[str], str | None]) -> list[Link]:
    """The docs pages (``paths``) the URLs lead to, one link a page: the page whose path ends as
    the URL's does by two parts at least, the only one of them; or by its name, when it is the one
    such page that holds the URL's anchor."""
    keys = {path: _segments(path) for path in paths}
    held_by: dict[str, dict[str, int]] = {}  # page -> its anchors, read once however many links lead there
    found: dict[str, Link] = {}
    for url in urls:
        parts = urlsplit(url)
        wanted = _segments(parts.path)
        if not wanted:
            continue
        shared = {path: n for path, key in keys.items() if (n := _shared_tail(wanted, key))}
        if not shared:
            continue
        best = max(shared.values())
        candidates = sorted(path for path, n in shared.items() if n == best)
        anchor = _key(unquote(parts.fragment))
        held: dict[str, int] = {}
        for path in candidates if anchor else ():
            if path not in held_by:
                held_by[path] = anchors(path, read(path) or "")
            if (line := held_by[path].get(anchor)) is not None:
                held[path] = line
        if best >= 2 and len(candidates) == 1:
            page = candidates[0]
        elif len(held) == 1:
            page = next(iter(held))
        else:
            continue
        found.setdefault(page, Link(url, page, held.get(page)))
    return list(found.values())
