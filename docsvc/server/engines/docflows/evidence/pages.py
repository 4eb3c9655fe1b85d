"""The docs pages the planner reads: which files are pages, which pages are history (release
notes, the docs of releases gone by), and an index of their words (``PageIndex``)."""

from __future__ import annotations

import re
from typing import Iterable

from ..words import Bm25

__all__ = ["PageIndex", "PAGE_SUFFIXES", "family_prefixes", "is_release_page", "superseded"]

PAGE_SUFFIXES = (".md", ".mdx", ".markdown", ".rst", ".rest", ".txt", ".adoc", ".asciidoc")

_RELEASE_PAGE = re.compile(r"(?i)(^|/)[^/]*(change[-_]?log|changes|histor(?:y|ical)|news|release[-_]?notes?|"
                           r"whats[-_]?new|upgrading|migrat\w*|release-v?\d[\w.-]*)[^/]*$"
                           r"|(^|/)(changelog|changes|news|releases?|announce\w*|blog|_?posts)(\.d)?/"
                           r"|(^|/)[^/]*\d{4}-\d\d-\d\d[^/]*$")  # a blog post, a dated article: history
_TOKEN = re.compile(r"[\w-]+")


def is_release_page(path: str) -> bool:
    """Changelog, news, release-notes, history and upgrading pages: never planned."""
    return _RELEASE_PAGE.search(path) is not None


class PageIndex:
    """The docs pages' text with an index of their words, so the planner can tell which pages
    mention a term, and on how many of all pages it stands (how common it is). The docs of
    releases gone by are not among them (``superseded``)."""

    def __init__(self, texts: dict[str, str]) -> None:
        old = superseded(texts)
        self.texts = {p: t for p, t in texts.items() if p.lower().endswith(PAGE_SUFFIXES) and p not in old}
        self._words = {path: set(_TOKEN.findall(text)) for path, text in self.texts.items()}
        self._families: dict[str, dict[str, set[str]]] | None = None  # made on the first look
        self._bm25: Bm25 | None = None

    @property
    def bm25(self) -> Bm25:
        """BM25 statistics of the pages' words (``words.Bm25``), made on first use."""
        if self._bm25 is None:
            self._bm25 = Bm25(self.texts)
        return self._bm25

    def find(self, term: str) -> list[str]:
        if _TOKEN.fullmatch(term):
            return [p for p, words in self._words.items() if term in words]
        return [p for p, text in self.texts.items() if term in text]

    def read(self, path: str) -> str | None:
        return self.texts.get(path)

    def family(self, prefix: str) -> dict[str, set[str]]:
        """The pages that name members of a family of codes (``family_prefixes``): page -> the
        members it names."""
        if self._families is None:
            self._families = {}
            for path, words in self._words.items():
                for word in words:
                    for start in family_prefixes(word):
                        self._families.setdefault(start, {}).setdefault(path, set()).add(word)
        return self._families.get(prefix, {})

    def __len__(self) -> int:
        return len(self.texts)


# v3, version-2.1, 2.x, 1.4: a version (a bare "2" may be a tutorial's second step)
_VERSION_FOLDER = re.compile(r"(?i)(?:v|version-)(\d+(?:\.\d+)*)(?:\.x)?|(\d+(?:\.\d+)+|\d+(?=\.x$))(?:\.x)?")


def _version(folder: str) -> tuple[int, ...] | None:
    match = _VERSION_FOLDER.fullmatch(folder)
    return tuple(map(int, (match.group(1) or match.group(2)).split("."))) if match else None


_SNAKE_CODE = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+")  # FST_ERR_REP_ALREADY_SENT, APP_HOME
_NUMBERED_CODE = re.compile(r"([A-Z]{3,})\d{2,}")  # FSTDEP014, PLW0120


def family_prefixes(name: str) -> list[str]:
    """The families a code-like name belongs to, the narrowest first: ``FST_ERR_REP_SENT_VALUE``
    to ``FST_ERR_REP_``, ``FST_ERR_``, ``FST_``; ``FSTDEP014`` to ``FSTDEP``; none for other names."""
    if _SNAKE_CODE.fullmatch(name):
        parts = name.split("_")
        return [prefix + "_" for k in range(len(parts) - 1, 0, -1)
                if len((prefix := "_".join(parts[:k])).replace("_", "")) >= 3]
    numbered = _NUMBERED_CODE.fullmatch(name)
    return [numbered.group(1)] if numbered else []


def superseded(paths: Iterable[str]) -> set[str]:
    """The pages that document a release gone by: under a version's folder (``v1/``,
    ``version-2.1/``, ``2.x/``) beside the folder of a later version (urfave/cli keeps ``docs/v1``,
    ``docs/v2`` and ``docs/v3``; a change to the code is a change to the newest), and Docusaurus'
    ``versioned_docs/`` snapshots."""
    # each page's version folders: (the folder they stand in, the version)
    placed = {path: [("/".join(parts[:depth]), version) for depth, part in enumerate(parts[:-1])
                     if (version := _version(part)) is not None]
              for path in paths for parts in [path.split("/")]}
    versions: dict[str, set[tuple[int, ...]]] = {}  # a folder -> the versions its subfolders name
    for found in placed.values():
        for parent, version in found:
            versions.setdefault(parent, set()).add(version)
    newest = {folder: max(found) for folder, found in versions.items() if len(found) > 1}
    return {path for path, found in placed.items()
            if "versioned_docs" in path.split("/")[:-1] or any(version < newest.get(parent, version)
                                                                for parent, version in found)}
