"""The Editor stage of Docflows (and of Feature Author drafts): concrete checks of edited docs.

Each comment names the check that made it: broken relative links and image paths, unbalanced
code fences, heading levels that skip, duplicate headings, and old names left behind by a rename.
The draft passes when there is no comment. Markdown and MDX are checked; other formats get the
checks that do not depend on Markdown syntax (leftover names).

Given the pages as they were (``originals``), the Editor also checks what the draft itself did
(``DROPS``): the page still parses as well as it did (docutils for reST, markdown-it-py for
Markdown: no new error or warning), a table row has its table's columns, no row, item, directive
or option entry stands twice, and no reference target the page still refers to was removed. A
draft that fails one of these is dropped (``dropped``): its page is worth a look, with the reason.

The Editor also suggests a release-notes entry for a change (``suggest_release_notes``): include
or skip, section, category and a one-line note, each with the rule that chose it.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Callable, Container, Iterable, Mapping

from .draft_checks import DROPS, draft_checks
from .evidence.docs import code_lines
from .facts_model import Fact, token
from .structure import FENCE

__all__ = ["Comment", "Review", "review", "dropped", "check_draft", "checked_against", "DROPS",
           "suggest_release_notes"]

_LINK = re.compile(r"(!?)\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
_MARKDOWN = (".md", ".markdown", ".mdx")


@dataclass(frozen=True)
class Comment:
    path: str
    line: int
    check: str  # broken-link | broken-image | code-fence | heading-level | duplicate-heading | leftover-name
    #             | parse | table-columns | duplicate-item | removed-target (DROPS: the draft is dropped)
    message: str


@dataclass(frozen=True)
class Review:
    comments: tuple[Comment, ...]

    @property
    def passed(self) -> bool:
        return not self.comments


def review(files: dict[str, str], exists: Callable[[str], bool], renames: Iterable[tuple[str, str]] = (),
           originals: Mapping[str, str] | None = None) -> Review:
    """Check edited files (path in the docs repository -> new text).

    ``exists(path)`` tells whether a repository path exists (in the working copy being edited);
    ``renames`` are (old name, new name) pairs whose old names must not be left behind;
    ``originals`` (path -> the page before the draft), when given, for the checks of what the
    draft did (``DROPS``)."""
    comments: list[Comment] = []
    renames = list(renames)
    for path, text in sorted(files.items()):
        lines = text.split("\n")
        if PurePosixPath(path).suffix.lower() in _MARKDOWN:
            code = {i + 1 for i in code_lines(lines)}  # (1-based, as the comments' lines)
            comments += _links(path, lines, code, exists)
            comments += _fences(path, lines)
            comments += _headings(path, lines, code)
        comments += _leftovers(path, lines, renames)
        if originals is not None and path in originals:
            comments += [Comment(path, *found) for found in draft_checks(path, originals[path], text)]
    return Review(tuple(comments))


def dropped(result: Review) -> dict[str, str]:
    """The pages whose draft fails a check of what it did (``DROPS``), each with the first reason."""
    out: dict[str, str] = {}
    for comment in result.comments:
        if comment.check in DROPS:
            out.setdefault(comment.path, f"the Writer's draft was dropped: {comment.message} "
                                         f"(line {comment.line}) [Editor: {comment.check}]")
    return out


def checked_against(facts: Iterable[Fact], *paths: Container[str]
                    ) -> tuple[list[tuple[str, str]], Callable[[str], bool]]:
    """What the Editor checks a draft against, for the first suggestion and for Sync Latest Code
    alike: the renames among ``facts`` (old name, new name), whose old names must not be left
    behind, and whether a path exists: in any of ``paths`` (the docs tree, the pages a draft
    writes; a container read when asked, so pages written later count)."""
    renames = [(token(f.old), token(f.name)) for f in facts if f.change == "renamed"]
    return renames, lambda path: any(path in known for known in paths)


def check_draft(draft, originals: Mapping[str, str], exists: Callable[[str], bool],
                renames: Iterable[tuple[str, str]] = ()) -> tuple[Review, dict[str, str]]:
    """The Editor on a Writer's draft (``structures.Draft``): every check, with ``originals`` (path
    -> the page before this draft) for what the draft did; a page's draft that fails one of
    ``DROPS`` leaves the draft, with the Writer's notes of it (they describe edits no one will
    see). Returns the review of the draft as written and the dropped pages, each with its reason
    (for the suggestion's worth-a-look list)."""
    checked = review(draft.files, exists, renames, originals=originals)
    drops = dropped(checked)
    for path in drops:
        del draft.files[path]
    draft.notes = [n for n in draft.notes if n.split(":", 1)[0] not in drops]
    return checked, drops


def _fence(line: str) -> re.Match | None:
    """A code fence as CommonMark reads one at the top level: indented 3 spaces at most."""
    match = FENCE.match(line)
    return match if match and len(match["indent"]) <= 3 else None


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
        match = _fence(line)
        if not match:
            continue
        fence = match["fence"]
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


# The release-notes rules, first match wins; each is (section, pattern, what the rule says).
_SECTION_RULES = (
    ("known-issue", re.compile(r"\bknown (?:issue|problem|limitation)s?\b|\bworkaround\b", re.I),
     "names a known issue or a workaround"),
    ("bug", re.compile(r"\b(?:fix(?:es|ed)?|bug(?:fix)?s?|crash(?:es|ed)?|regression|no longer fails?)\b", re.I),
     "names a fix"),
    ("enhancement", re.compile(r"\b(?:improve[sd]?|improvements?|faster|quicker|speeds? up|better|enhance[sd]?|"
                               r"reduces?|performance)\b", re.I), "says it improves something that exists"),
    ("developer", re.compile(r"\b(?:APIs?|SDKs?|(?i:webhooks?|endpoints?|for developers))\b"),
     "is about an API, SDK, webhook or endpoint"),
)
_SKIP = re.compile(r"\b(?:internal(?:ly)? only|refactor(?:ing|ed)?|no user[- ]facing change|not user[- ]facing)\b",
                   re.I)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`\"'(])")
_MARKUP = re.compile(r"^\s*(?:#{1,6}\s+|[-*+]\s+|\d+[.)]\s+|>\s*)")


def _first_sentence(text: str) -> str:
    """The first sentence of the first prose line (headings, list markers and code fences skipped)."""
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or _fence(line) or _HEADING.match(stripped) or stripped.startswith("|"):
            continue
        return _SENTENCE_END.split(_MARKUP.sub("", stripped), 1)[0].strip()
    return ""


def suggest_release_notes(title: str, text: str, categories: Iterable[str]) -> dict:
    """The Editor's release-notes suggestion for a change described by ``title`` and ``text``.

    Section: the first of known-issue, bug, enhancement, developer whose words the title names,
    else the text, else ``feature`` (a new capability). Skip only when the text says the change is
    internal. Category: the first of the organisation's ``categories`` the title names, else the
    first the text names, else ``Other``. Note: the text's first sentence, else the title, on one
    line. ``rules`` says which rule made each choice."""
    rules = []
    section = None
    for where, source in (("title", title), ("text", text)):
        for name, pattern, says in _SECTION_RULES:
            match = pattern.search(source)
            if match:
                section = name
                rules.append(f"section {name}: the {where} {says} ('{match.group(0)}')")
                break
        if section:
            break
    if section is None:
        section = "feature"
        rules.append("section feature: no words of a fix, an improvement, a known issue or an API, so a new "
                     "capability")
    skip = _SKIP.search(f"{title}\n{text}")
    release_notes = "skip" if skip else "include"
    rules.append(f"skip: it says '{skip.group(0)}'" if skip else "include: nothing says the change is internal")
    category = None
    for where, source in (("title", title), ("text", text)):
        found = []
        for name in categories:
            match = re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", source, re.I)
            if match:
                found.append((match.start(), name))
        if found:
            category = min(found)[1]
            rules.append(f"category {category}: the {where} names it")
            break
    if category is None:
        category = "Other"
        rules.append("category Other: no product category of the organisation is named")
    note = " ".join((_first_sentence(text) or title).split())
    if len(note) > 300:
        note = note[:299].rstrip() + "…"
    rules.append("note: the first sentence of the text" if _first_sentence(text) else "note: the title")
    return {"release_notes": release_notes, "rn_section": section, "rn_category": category, "rn_note": note,
            "rules": rules}
