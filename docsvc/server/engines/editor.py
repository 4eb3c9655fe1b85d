"""The Editor stage of Docflows (and of Feature Author drafts): concrete checks of edited docs.

Each comment names the check that made it: broken relative links and image paths, unbalanced
code fences, heading levels that skip, duplicate headings, and old names left behind by a rename.
The draft passes when there is no comment. Markdown and MDX are checked; other formats get the
checks that do not depend on Markdown syntax (leftover names).
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Callable, Iterable

__all__ = ["Comment", "Review", "review"]

_LINK = re.compile(r"(!?)\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
_MARKDOWN = (".md", ".markdown", ".mdx")


@dataclass(frozen=True)
class Comment:
    path: str
    line: int
    check: str  # broken-link | broken-image | code-fence | heading-level | duplicate-heading | leftover-name
    message: str


@dataclass(frozen=True)
class Review:
    comments: tuple[Comment, ...]

    @property
    def passed(self) -> bool:
        return not self.comments


def review(files: dict[str, str], exists: Callable[[str], bool], renames: Iterable[tuple[str, str]] = ()
           ) -> Review:
    """Check edited files (path in the docs repository -> new text).

    ``exists(path)`` tells whether a repository path exists (in the working copy being edited);
    ``renames`` are (old name, new name) pairs whose old names must not be left behind."""
    comments: list[Comment] = []
    renames = list(renames)
    for path, text in sorted(files.items()):
        lines = text.split("\n")
        if PurePosixPath(path).suffix.lower() in _MARKDOWN:
            code = _code_lines(lines)
            comments += _links(path, lines, code, exists)
            comments += _fences(path, lines)
            comments += _headings(path, lines, code)
        comments += _leftovers(path, lines, renames)
    return Review(tuple(comments))


def _code_lines(lines: list[str]) -> set[int]:
    """Line numbers (1-based) inside fenced code blocks, fences included."""
    inside, marker, code = False, "", set()
    for n, line in enumerate(lines, 1):
        match = _FENCE.match(line)
        if match and (not inside or match.group(1)[0] == marker[0] and len(match.group(1)) >= len(marker)):
            inside, marker = (not inside), match.group(1)
            code.add(n)
        elif inside:
            code.add(n)
    return code


def _links(path: str, lines: list[str], code: set[int], exists: Callable[[str], bool]) -> list[Comment]:
    folder = posixpath.dirname(path)
    out = []
    for n, line in enumerate(lines, 1):
        if n in code:
            continue
        for match in _LINK.finditer(re.sub(r"`[^`]*`", "", line)):
            target = match.group(2)
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I) or target.startswith(("#", "/", "{")):
                continue  # absolute URLs, anchors, site-absolute paths and templated links
            file_part = target.split("#", 1)[0].split("?", 1)[0]
            if not file_part:
                continue
            resolved = posixpath.normpath(posixpath.join(folder, file_part))
            if resolved.startswith("../") or not exists(resolved):
                kind = "broken-image" if match.group(1) else "broken-link"
                what = "image" if match.group(1) else "link"
                out.append(Comment(path, n, kind, f"{what} target {target} does not exist ({resolved})"))
    return out


def _fences(path: str, lines: list[str]) -> list[Comment]:
    open_at, marker = None, ""
    for n, line in enumerate(lines, 1):
        match = _FENCE.match(line)
        if not match:
            continue
        fence = match.group(1)
        if open_at is None:
            open_at, marker = n, fence
        elif fence[0] == marker[0] and len(fence) >= len(marker) and not line.strip()[len(fence):].strip():
            open_at = None
    if open_at is not None:
        return [Comment(path, open_at, "code-fence", f"the code fence opened on line {open_at} is never closed")]
    return []


def _headings(path: str, lines: list[str], code: set[int]) -> list[Comment]:
    out, previous, seen = [], 0, {}
    for n, line in enumerate(lines, 1):
        if n in code:
            continue
        match = _HEADING.match(line)
        if not match:
            continue
        level, title = len(match.group(1)), match.group(2).strip()
        if previous and level > previous + 1:
            out.append(Comment(path, n, "heading-level",
                               f"heading level {level} follows level {previous}: a level is skipped"))
        key = (level, title.lower())
        if key in seen:
            out.append(Comment(path, n, "duplicate-heading",
                               f"heading '{title}' repeats the one on line {seen[key]}"))
        seen.setdefault(key, n)
        previous = level
    return out


def _leftovers(path: str, lines: list[str], renames: list[tuple[str, str]]) -> list[Comment]:
    out = []
    for old, new in renames:
        pattern = re.compile(rf"(?<![\w-]){re.escape(old)}(?![\w-])")
        for n, line in enumerate(lines, 1):
            if pattern.search(line):
                out.append(Comment(path, n, "leftover-name", f"'{old}' is still here; it was renamed to '{new}'"))
    return out
