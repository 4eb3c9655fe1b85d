"""The Information Architect stage of Docflows: which docs pages change, why, and how surely.

Rule-based (a language model may replace it later), and planned on evidence only. A page is
planned when it speaks of a fact's own token as code or option text (a backticked name, a table
cell or list item that starts with it, an option directive, a code block) and that token is
specific across the docs: a token on many pages, or a plain word mentioned as prose, is no
evidence. Per change:

- renamed, removed or deprecated: the pages that speak of the old name (direct);
- default changed: the pages that speak of the name with its old value beside it (direct);
- added: the pages that document siblings of the new name (other options of the same command,
  other settings of the same class or file) in such a structure (conceptual; for a new method of
  a type, the one page documenting most of its methods, for review); a new setting, the
  pages that document its namesake of another kind (``--strict-markers`` for ``strict_markers``:
  related, for review);
- a file the docs name by its path (an included example, a linked script): renamed or deleted,
  the pages that name it (direct; the reference follows a rename); changed, the same pages for
  review (related: the code they show changed, what to write is a person's call);
- a deprecation warning added (``deprecations``): the project's deprecations page, for review;
  a public function that now warns (``warned``): the pages that name it (direct; pointed out);
- a link to a section of a docs page in or beside the changed code (a warning's "see
  https://…/deprecations.html#x"): that page, for review (``linked_pages``); a link to a whole page
  is worth a look;
- output the tests' expectations lose (``expected_output``: a help screen's ``[NAME]`` now
  ``name``): the pages whose examples (code blocks) show it, for review, unless it is shown on a
  quarter of the pages or more.

A parameter counts only where the page also speaks of its function or class: its bare name
(``src``, ``default``) is everybody's word.

Beside the facts, the names on the code's changed lines (``changed_names``): a page that speaks
of at least ``MIN_NAMES`` of them as code, each specific, is planned for review (related) and not
edited, since no fact says what to write; with one fewer it is worth a look. The pull request's
title and body (``words``): the one page their words single out is planned for review too; the
others they point at are worth a look. A new code-like
name no page mentions yet (an error code ``FST_ERR_X_Y``, a warning ``FSTDEP014``) plans, for
review, the pages that list at least ``MIN_FAMILY`` codes of its family (``FST_ERR_X_``, ``FSTDEP``);
a code the pull request drops (its registration goes), the pages that list it among its family.
A new option or ``ALL_CAPS`` key no page names yet plans, for review, the page documenting its
neighbours in the code (the dict of defaults it joins); a reworded help text that a help screen
wraps over its lines, the page showing it.

A weaker match (a specific token in prose, a default whose old value is not beside it, too few
siblings) is listed as "worth a look" with its reason, one entry a page, and is not edited; a
common word on a page is no match at all. Changelog, news, release-notes,
history and upgrading pages are never planned: release notes have their own tool. When no page
is affected the plan says "no documentation change needed", with a reason per fact.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from typing import Callable, Iterable, Mapping

from .changed_names import NameChanges
from .deprecations import is_deprecations_page, speaks_of_deprecations
from .expected_output import OutputChange, example_lines, shown_at
from .facts import is_test_file
from .facts_model import MOVED, WARNS, Fact, member_of, owner_of, token, written_as
from .linked_pages import Link
from .quoting import find_quote
from .requirements import LANGUAGES, minimum, stale, statements
from .repository import linked
from .version_output import shown
from .words import MIN_WORDS, Bm25, Said

__all__ = ["PlannedPage", "Plan", "PageIndex", "plan", "mentions", "token", "spoken", "plain", "prose",
           "is_release_page", "NO_CHANGE", "PAGE_SUFFIXES"]

NO_CHANGE = "no documentation change needed"
# Kinds whose siblings are documented together (a command's options, a class's settings, a
# module's public API in a reference page).
CONCEPTUAL_KINDS = ("flag", "argument", "env", "config", "enum", "route", "operation", "parameter", "symbol",
                    "extra")
MAX_SHARE = 0.25  # a token on more than this share of the pages is common: no evidence
MAX_CONCEPTUAL_PAGES = 3  # an added name belongs on the few pages that document most of its siblings
MAX_LOOKS = 3  # and is worth a look on the next few at most, the pages naming most of its siblings
FAMILY_LISTED = 3  # names of a registry's family a page lists, at least, to be its list
_DEPRECATION_WORDS = [w for stem in ("deprecation", "deprecations", "deprecated") for w in (stem, stem.capitalize())]
MIN_NAMES = 4  # specific changed names a page must speak of to be planned on them alone
MAX_SHOWN_SHARE = 0.25  # of the pages: a changed output span shown on more of them tells none apart
MIN_SHOWN = 3  # ... unless on this many pages at most
PAGE_SUFFIXES = (".md", ".mdx", ".markdown", ".rst", ".rest", ".txt", ".adoc", ".asciidoc")

_RELEASE_PAGE = re.compile(r"(?i)(^|/)[^/]*(change[-_]?log|changes|histor(?:y|ical)|news|release[-_]?notes?|"
                           r"whats[-_]?new|upgrading|migrat\w*|release-v?\d[\w.-]*)[^/]*$"
                           r"|(^|/)(changelog|changes|news|releases?|announce\w*|blog|_?posts)(\.d)?/"
                           r"|(^|/)[^/]*\d{4}-\d\d-\d\d[^/]*$")  # a blog post, a dated article: history
# A page that shows a file's content rather than naming it: Sphinx and MyST includes, FastAPI's
# {* file *}, pymdownx snippets, Jinja includes, an image, MDX raw imports, a fence's file=.
_EMBED = re.compile(r"literalinclude|\binclude::|\{\*|--8<--|\{%\s*include|!\[[^\]]*\]\(|raw-loader|\bfile=")
_IDENTIFIER = re.compile(r"^(--?[A-Za-z]|[A-Z][A-Z0-9]*_[A-Z0-9_]+$|.*[_.:/]|.*[a-z][A-Z]|.*\(\)$|[A-Z]\w*[A-Z])")
_FENCE = re.compile(r"^\s*(```|~~~)")
_RST_CODE_START = re.compile(r"(::\s*$|^\s*\.\.\s+(code-block|code|sourcecode|option|envvar|confval|"
                             r"auto\w+|py:\w+|function|class|data|attribute|method)::)")
_TOKEN = re.compile(r"[\w-]+")


def is_identifier(term: str) -> bool:
    """Whether a name looks like code (``--x``, ``ENV_VAR``, ``snake_case``, ``camelCase``, dotted),
    not like a word of prose (``nav``, ``page``)."""
    return _IDENTIFIER.match(term) is not None


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


def is_release_page(path: str) -> bool:
    """Changelog, news, release-notes, history and upgrading pages: never planned."""
    return _RELEASE_PAGE.search(path) is not None


@dataclass
class PlannedPage:
    path: str
    mode: str  # direct | conceptual | related (names the change touches; reviewed, not edited)
    confidence: float
    reasons: list[str] = field(default_factory=list)
    facts: list[Fact] = field(default_factory=list)


@dataclass
class Plan:
    pages: list[PlannedPage]
    unaffected: list[str]  # per fact with no page: why
    worth_a_look: list[dict] = field(default_factory=list)  # {path, reason}: weak matches, not edited

    @property
    def verdict(self) -> str:
        return "documentation change planned" if self.pages else NO_CHANGE


def spoken(name: str, said: Callable[[str], bool]) -> str:
    """The token the docs use for a name: a dotted setting (``theme.palette.primary``) as written
    when ``said`` finds it so, else its last part."""
    full = token(name)
    if "." in full and not full.startswith(".") and not said(full):
        return full.rsplit(".", 1)[-1]
    return full


def _pattern(term: str) -> re.Pattern:
    return re.compile(rf"(?<![\w-]){re.escape(term)}(?![\w-])")


def mentions(text: str, term: str) -> list[int]:
    """Lines (1-based) where ``term`` stands as a whole word (``--force`` but not ``--forced``)."""
    pattern = _pattern(term)
    return [n for n, line in enumerate(text.split("\n"), 1) if pattern.search(line)]


def plain(value: str | None) -> str | None:
    """A value as the docs write it: without the quotes code puts around a string."""
    if value is None:
        return None
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"`":
        value = value[1:-1]
    return value


def _structure(value: str | None) -> bool:
    """Whether a value holds mappings (a workflow's ``steps``, a navigation tree): structure, not a
    default a page states beside its name, so a page naming the key without it has nothing to correct."""
    if not value or value[:1] not in "[{":
        return False
    try:
        data = json.loads(value)
    except ValueError:
        return False
    return isinstance(data, dict) or (isinstance(data, list) and any(isinstance(v, (dict, list)) for v in data))


_CONSOLE_TAG = re.compile(r"<([a-z][\w-]*)(?:=[^<>]*)?>(.*?)</(?:\1)?>")


def prose(help_text: str | None) -> str:
    """A help text as the docs would say it: on one line, without the console markup some CLI
    frameworks style it with (cleo's ``<warning>Deprecated</warning>``, ``<c1>x</>``); a lone
    placeholder such as ``<key>=<value>`` stays."""
    text = " ".join((help_text or "").split())
    while (stripped := _CONSOLE_TAG.sub(r"\2", text)) != text:
        text = stripped
    return text


def _code_lines(lines: list[str]) -> set[int]:
    """0-based lines inside fenced (Markdown) or literal (reStructuredText) code blocks."""
    inside, fence, indent_block, out = False, "", None, set()
    for i, line in enumerate(lines):
        opened = _FENCE.match(line)
        if opened:
            if not inside:
                inside, fence = True, opened.group(1)
            elif opened.group(1) == fence:
                inside = False
            out.add(i)
            continue
        if inside:
            out.add(i)
            continue
        if indent_block is not None:
            if line.strip() == "" or len(line) - len(line.lstrip()) > indent_block:
                out.add(i)
                continue
            indent_block = None
        if _RST_CODE_START.search(line):
            indent_block = len(line) - len(line.lstrip())
            out.add(i)
    return out


def as_code(line: str, term: str) -> bool:
    """Whether the line speaks of ``term`` as code or option text."""
    escaped = re.escape(term)
    return bool(
        re.search(rf"`[^`\n]*(?<![\w-]){escaped}(?![\w-])[^`\n]*`", line)  # `term`, ``term``, :role:`term`
        or re.match(rf"^\s*\|\s*[`*_]*{escaped}(?![\w-])", line)  # a table row about it
        or re.match(rf"^\s*\|\s*<a\s+(?:id|name)=\"[^\"]*\">[`*_]*{escaped}[`*_]*</a>", line)  # its anchored cell
        or re.match(rf"^\s*(?:[-*+]|\d+[.)])\s+\[[`*_]*{escaped}[`*_]*\]\(#", line)  # a contents' link to its entry
        or re.match(rf"^\s*(?:[-*+]|\d+[.)])\s+[`*_]*{escaped}(?![\w-])", line)  # a list item about it
        or re.match(rf"^\s*\.\.\s+[\w:]+::\s+.*(?<![\w-]){escaped}(?![\w-])", line)  # .. option:: --x
        or re.match(rf"^\s*{escaped}(?![\w-])\s*(?:[:=]|,|\s{{2,}}|$)", line)  # key: value, an option list
        or re.match(rf"^#{{1,6}}\s+[`*_]*{escaped}(?![\w-])", line)  # a reference entry's heading: ### dev_addr
    )


@dataclass
class _Evidence:
    line: int  # 1-based, the first mention as code (else the first mention)
    as_code: bool  # spoken of as code somewhere on the page
    lines: list[int]  # every mention


def _without_references(line: str, term: str) -> str:
    """The line without its cross-references to ``term``'s documentation elsewhere: a Sphinx or
    MyST role (:func:`make_pass_decorator`, {class}`~click.Result`) and a Markdown link whose text
    names it ([`exclude_docs` config](configuration.md#exclude_docs))."""
    name = rf"[~.!]?(?:[\w.]*\.)?{re.escape(term)}(?:\(\))?"
    line = re.sub(rf"(?::[\w:-]+:|\{{[\w:-]+\}})`{name}`", "", line)
    return re.sub(rf"\[[^\]`]*`{name}`[^\]]*\]\([^)\s]+\)", "", line)


def _evidence(text: str, term: str) -> _Evidence | None:
    lines = text.split("\n")
    found = mentions(text, term)
    if not found:
        return None
    code = _code_lines(lines)
    coded = [n for n in found if n - 1 in code or as_code(lines[n - 1], term)]
    return _Evidence(coded[0] if coded else found[0], bool(coded), found)


class _Docs:
    """The docs as the planner sees them: pages found for a term, their evidence, and how common
    each term is."""

    def __init__(self, find: Callable[[str], list[str]], read: Callable[[str], str | None], total: int) -> None:
        self.find, self.read, self.total = find, read, total
        self._cache: dict[str, dict[str, _Evidence]] = {}

    def term(self, name: str) -> str:
        return spoken(name, lambda t: bool(self.pages(t)))

    def pages(self, term: str) -> dict[str, _Evidence]:
        if term not in self._cache:
            found = {}
            for path in dict.fromkeys(self.find(term)):
                text = self.read(path)
                evidence = _evidence(text, term) if text else None
                if evidence is not None:
                    found[path] = evidence
            self._cache[term] = found
        return self._cache[term]

    def about(self, fact: Fact, term: str) -> dict[str, _Evidence]:
        """The pages that speak of ``term`` for this fact: a parameter's bare name (``src``,
        ``default``), or a method's when it is a plain word (``main``, ``signal``: any page's
        example may call one so), only where the page also speaks of its function or class as code
        itself (``documented_at``: a page that only refers to ``Result`` has a ``runner`` of its own);
        a nested setting's (``args``, ``signing``: keys of many sections) only where the page also
        speaks of a key its section stands under."""
        found = self.pages(term)
        if fact.kind == "parameter":
            owner = owner_of(fact.name)
        else:
            owner = member_of(fact) if "." not in term and not is_identifier(term) else None
        if owner:
            holders = [owner.rsplit(".", 1)[-1]]
        else:
            holders = list(fact.context) if fact.kind == "config" else []
        if not holders:
            return found
        # the page documents the holder itself: a cross-reference to it is no context for a bare name
        documented = {path for holder in holders for path in self.pages(holder)
                      if self.documented_at(path, holder) is not None}
        return {path: ev for path, ev in found.items() if path in documented}

    def documented_at(self, path: str, term: str) -> int | None:
        """The first line (1-based) where the page documents ``term`` as code itself, not by a
        cross-reference to its documentation elsewhere (a page that only links ``exclude_docs``
        to the configuration's reference is no list of its siblings); None when it nowhere does."""
        ev = self.pages(term).get(path)
        lines = (self.read(path) or "").split("\n")
        code = _code_lines(lines)
        return next((n for n in (ev.lines if ev else ()) if n - 1 in code or
                     as_code(_without_references(lines[n - 1], term), term)), None)

    def of_deprecations(self, path: str) -> bool:
        """A page about deprecated things (``speaks_of_deprecations``): no place for a new name."""
        return speaks_of_deprecations(path, self.read(path) or "")

    def specific(self, term: str) -> bool:
        """A token rare enough to be evidence: on few pages, and not a bare common word."""
        if len(term) < 3 or len(term) < 4 and term.isupper():  # GET, NOT: words, not names
            return False
        count = len(self.pages(term))
        share = count / max(self.total, 1)
        if is_identifier(term):
            return share <= MAX_SHARE or count <= 2
        return share <= MAX_SHARE / 2 or count <= 1

    def weight(self, term: str) -> float:
        """Inverse document frequency: how much one mention says."""
        return math.log((self.total + 1) / (len(self.pages(term)) + 0.5))


def plan(facts: Iterable[Fact], find: Callable[[str], list[str]], read: Callable[[str], str | None],
         total_pages: int | None = None, names: NameChanges | None = None,
         family: Callable[[str], dict[str, set[str]]] | None = None, links: Iterable[Link] = (),
         outputs: Iterable[OutputChange] = (), said: Said | None = None, words: Bm25 | None = None,
         added: Iterable[str] = ()) -> Plan:
    """``find(term)`` gives candidate pages from the docs; ``read(path)`` their text;
    ``total_pages`` how many pages the docs hold (for how common a token is); ``names`` the
    identifiers on the code's changed lines (``changed_names``); ``family(prefix)`` the pages
    naming a family of codes (``PageIndex.family``); ``links`` the pages the changed code links
    to (``linked_pages``); ``outputs`` the output the tests' expectations lose (``expected_output``);
    ``said`` what the pull request's title and body say (``words.said_in``) and ``words`` the BM25
    statistics of the docs (``PageIndex.bm25``) to weigh its words with; ``added`` the files the
    pull request adds (``_plan_by_new_files``)."""
    facts = list(facts)
    docs = _Docs(find, read, total_pages or 0)
    if not total_pages:  # without a count, every page any term reaches stands for the docs
        docs.total = max(20, len({p for f in facts for p in docs.pages(docs.term(f.name))}))
    pages: dict[str, PlannedPage] = {}
    weak: dict[str, list[str]] = {}  # page -> why it is worth a look
    unaffected: list[str] = []

    def add(path: str, mode: str, confidence: float, reason: str, fact: Fact | None) -> None:
        page = pages.setdefault(path, PlannedPage(path, mode, confidence))
        if confidence > page.confidence:
            page.confidence, page.mode = confidence, mode
        if reason not in page.reasons:
            page.reasons.append(reason)
        if fact is not None and fact not in page.facts:
            page.facts.append(fact)

    def look(path: str, reason: str) -> None:
        reasons = weak.setdefault(path, [])
        if reason not in reasons:
            reasons.append(reason)

    # A name renamed and re-defaulted in one pull request: the pages still say the old name.
    was = {f.name: f.old for f in facts if f.change == "renamed" and f.old}

    for fact in facts:
        hits = 0
        if fact.kind == "repository":
            hits += _plan_repository(fact, docs, read, add)
        elif fact.change in ("renamed", "removed", "deprecated"):
            named = fact.old if fact.change == "renamed" else fact.name
            # A file's path, however a page writes it (an include, a link), is a reference to it.
            path_of_file = fact.kind == "file"
            old = written_as(named, lambda form: bool(docs.pages(form))) if path_of_file else docs.term(named)
            if fact.rule == MOVED and old != named:
                continue  # only the old dotted path is gone; the bare name is as right as before
            action = {"renamed": f"renames it to {token(fact.name)}", "removed": "removes it",
                      "deprecated": "makes it warn that it is deprecated" if fact.rule == WARNS
                      else "removes or deprecates it"}[fact.change]
            strong = path_of_file or docs.specific(old)
            # A function or setting found warning by where the warning stands, named by a plain
            # word (goreleaser's `formula` key, beside Homebrew's formulas): worth a look only.
            sure = fact.rule != WARNS or is_identifier(old)
            for path, ev in docs.about(fact, old).items():
                if is_release_page(path):
                    continue
                reason = f"mentions {old} (line {ev.line}); the pull request {action} [{fact.rule}]"
                if not strong:
                    continue  # a common word on a page is no sign, not even a weak one
                if (ev.as_code or path_of_file) and sure:
                    add(path, "direct", 0.9, reason, fact)
                    hits += 1
                else:
                    look(path, reason + (" — in prose only" if sure else " — a plain word"))
        elif fact.change == "changed" and fact.kind == "file":
            position = re.compile(rf'{re.escape(fact.name)}(?:", line \d|:\d)')
            for path, ev in docs.pages(fact.name).items():
                if is_release_page(path):
                    continue
                lines = (read(path) or "").split("\n")
                # A traceback's frame or an error's place (`.../core.py", line 216`, `main.py:8`) is
                # where an example's run went, in its output: no reference to the file.
                kept = [n for n in ev.lines if not position.search(lines[n - 1])]
                if fact.tooling:
                    kept = [n for n in kept if _EMBED.search(lines[n - 1])]
                if not kept:
                    continue
                ev = _Evidence(kept[0], ev.as_code, kept)
                add(path, "related", 0.5, f"shows or links {fact.name} (line {ev.line}), which the pull request "
                                          f"changes [{fact.rule}]", None)
                hits += 1
        elif fact.kind == "requirement" and fact.change == "default-changed":
            hits += _plan_requirement(fact, docs, read, add, look)
        elif fact.kind == "version":
            hits += _plan_version(fact, docs, read, add)
        elif fact.change == "default-changed":
            name, old = docs.term(was.get(fact.name, fact.name)), plain(fact.old)
            strong = docs.specific(name)
            for path, ev in docs.about(fact, name).items():
                if is_release_page(path):
                    continue
                lines = (read(path) or "").split("\n")
                beside = [n for n in ev.lines if old and _value_near(lines, n, old)]
                where = beside[0] if beside else ev.line
                reason = (f"documents {name} (line {where}); its default changes {_short(old)} → "
                          f"{_short(plain(fact.new))} [{fact.rule}]")
                if not strong:
                    continue
                if ev.as_code and beside:
                    add(path, "direct", 0.8, reason, fact)
                    hits += 1
                elif beside or not _structure(fact.old):
                    look(path, reason + (" — the old value is not beside it" if not beside else " — in prose only"))
        elif fact.change == "help-changed":
            name = docs.term(fact.name)
            for path, ev in docs.about(fact, name).items():
                where = quoted_line(read(path) or "", prose(fact.old))
                if is_release_page(path):
                    continue
                if where:
                    add(path, "direct", 0.8, f"documents {name} (line {where}) in the words of its help text; the "
                                             f"pull request rewords it [{fact.rule}]", fact)
                    hits += 1
                elif (where := wrapped_quote_line(read(path) or "", prose(fact.old))) is not None:
                    # A help screen wraps the text over its lines: for review, the Writer rewords one line.
                    add(path, "related", 0.55, f"quotes {name}'s help text over the lines from {where}; the pull "
                                               f"request rewords it [{fact.rule}]", None)
                    hits += 1
        elif fact.kind == "deprecation":
            for path in dict.fromkeys(p for word in _DEPRECATION_WORDS for p in docs.find(word)):
                if not is_release_page(path) and is_deprecations_page(path, read(path) or ""):
                    add(path, "related", 0.6, f"lists the project's deprecations; the pull request adds a "
                                              f"deprecation warning ({fact.path}, line {fact.line}) [{fact.rule}]", None)
                    hits += 1
        elif fact.change == "added" and fact.kind in CONCEPTUAL_KINDS:
            hits += _plan_addition(fact, docs, add, look) + _plan_namesakes(fact, docs, add)
        if not hits and fact.kind != "version":  # a new version is news only where the docs show it
            unaffected.append(f"{fact.describe()}: no docs page documents it"
                              + (" or its siblings" if fact.change == "added" else "") + " as specific code")
    if names is not None:
        _plan_by_names(names.counts, docs, pages, add, look)
        if family is not None:
            _plan_by_family(names.gained, docs, family, add)
            _plan_family_losses(names.dropped, family, add)
        _plan_by_neighbours(names.beside, docs, add)
    outputs = list(outputs)
    _plan_by_output(outputs, docs, add)
    _plan_by_new_files(added, docs, add)
    links = list(links)
    for link in links:
        if is_release_page(link.page):
            continue
        reason = f"the changed code links to it: {link.url}"
        # To a section the page holds: that section is the change's own; to the whole page (a
        # guide on fixtures), a pointer for the reader, as often as not left as it is.
        if link.line:
            add(link.page, "related", 0.55, f"{reason} (the section at line {link.line}) [changed lines]", None)
        else:
            look(link.page, f"{reason} [changed lines] — to the page, not to a section of it")
    # The author's words weigh only beside what the code says: a pull request whose code changes
    # nothing user-facing stays quiet however much its body tells.
    # A new version alone is no user-facing code: every release's pull request sets one.
    if said and words is not None and (any(f.kind != "version" for f in facts) or (names is not None and names.counts) or links or outputs):
        _plan_by_words(said, words, docs, facts, names, pages, weak, add, look)
    ordered = sorted(pages.values(), key=lambda p: (-p.confidence, p.path))
    planned = {p.path for p in ordered}
    # One entry a page, however many weak signs point at it: a list to read, not a log.
    looks = [{"path": path, "reason": reasons[0] + (f" (and {len(reasons) - 1} more)" if len(reasons) > 1 else "")}
             for path, reasons in weak.items() if path not in planned]
    return Plan(ordered, unaffected, looks)


def _plan_addition(fact: Fact, docs: _Docs, add, look) -> int:
    """Plan the pages that document the most siblings of an added name, as code and specifically;
    where none does, the one page that lists most of the names its registry call adds in other
    files (pytest's ini options: one reference, whatever plugin adds them)."""
    siblings = [docs.term(s) for s in fact.siblings]
    by_page = _documenting(fact, siblings, docs)
    # A lone documented sibling is enough only for a small family of options; a module's API is
    # documented as a reference, where several of its names stand.
    need = 2 if fact.kind == "symbol" or len(set(siblings)) >= 3 else 1
    first, looks = MAX_CONCEPTUAL_PAGES, MAX_LOOKS
    another = f"another {fact.kind} of {fact.path}"
    if not by_page and fact.family:
        siblings = [docs.term(s) for s in fact.family]
        by_page, need, first, looks = _documenting(fact, siblings, docs), FAMILY_LISTED, 1, 0
        another = f"another {fact.kind} its registry call adds elsewhere"
    if not by_page:
        return 0
    ranked = sorted(by_page.items(), key=lambda kv: (-sum(docs.weight(s) for s, _ in kv[1]), kv[0]))
    # A new method of a type (Go's ``Command.Path``, a member of what ``fastify()`` returns) goes into
    # the type's reference: the one page that documents most of its siblings, for review (no fact
    # says how the page lists methods). The pages after it are guides that call a few of them in
    # passing (all of them planned, on fastify's pull requests: 2 right pages of 7; the first only,
    # on the held-out projects' 2026-12-06: 2 of 2).
    method = member_of(fact) is not None
    hits = ranked_first = looked = 0
    name = docs.term(fact.name)
    for path, found in ranked:
        sibling, ev = found[0]
        reason = f"documents {sibling} (line {ev.line}), {another}; {name} is new beside it [{fact.rule}]"
        if len(found) >= need and ranked_first < (1 if method else first):
            ranked_first += 1
            if method:
                add(path, "related", 0.5, reason + "; of the pages, it documents most of the type's methods: "
                                                   "for review", None)
                hits += 1
                continue
            # The old keys a page about deprecations lists are siblings too, yet a new name is
            # deprecated nowhere. Its place among the first still counts: the pages after it
            # document fewer siblings than it does (promoted, they were wrong 4 times in 4).
            if docs.of_deprecations(path):
                look(path, reason + " — a page about deprecations: no place for a new name")
                continue
            add(path, "conceptual", 0.6, reason, fact)
            hits += 1
        elif looked < looks:  # the pages further down name fewer siblings: a long list is read by no one
            looked += 1
            look(path, reason + (" — a new method: another page documents more of its type's methods" if method
                                 else " — too few of its siblings documented here" if len(found) < need
                                 else " — other pages document more of its siblings"))
    return hits


def _plan_statements(fact: Fact, candidates: Iterable[str], found_in: Callable[[str], list[int]],
                     reason: Callable[[int], str], read: Callable[[str], str | None], add) -> int:
    """Plan as direct the candidate pages (release pages aside) where ``found_in(text)`` finds the
    lines (0-based) a fact makes stale; ``reason(line)`` says why, from the first of them."""
    hits = 0
    for path in dict.fromkeys(candidates):
        found = [] if is_release_page(path) else found_in(read(path) or "")
        if found:
            add(path, "direct", 0.8, f"{reason(found[0] + 1)} [{fact.rule}]", fact)
            hits += 1
    return hits


def _plan_requirement(fact: Fact, docs: _Docs, read: Callable[[str], str | None], add, look) -> int:
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
                                         f"requires {new}", read, add)
    for path in candidates:
        text = "" if is_release_page(path) else read(path) or ""
        earlier = [] if statements(text, fact.name, old) else stale(text, fact.name, old)
        if earlier:
            line, version = earlier[0]
            look(path, f"states {fact.name} {version} as the minimum (line {line + 1}), not {old}: stale before the "
                       f"pull request, which requires {new} [{fact.rule}]")
    return hits


def _plan_repository(fact: Fact, docs: _Docs, read: Callable[[str], str | None], add) -> int:
    """The pages that link to the project's repository at its old address (or into its old branch)
    when the pull request moves it (``repository``): direct, the Writer links them to the new one."""
    root, _, branch = (fact.old or "").partition("@")
    where = f"into its branch {branch} of {root}" if branch else f"to the repository at {root}"
    # by its owner/name: the API's address of it (api.github.com/repos/owner/name) too
    return _plan_statements(fact, docs.find(root.partition("/")[2]), lambda text: linked(text, fact.old or ""),
                            lambda line: f"links {where} (line {line}); the pull request moves it to "
                                         f"{fact.name.partition('@')[2] or fact.name}", read, add)


def _plan_version(fact: Fact, docs: _Docs, read: Callable[[str], str | None], add) -> int:
    """The pages that show what the project's own program prints when asked for its version
    (``version_output``) when the pull request sets a new version: direct, the Writer shows the new
    one."""
    return _plan_statements(fact, (p for name in fact.siblings for p in docs.find(name)),
                            lambda text: shown(text, fact.siblings),
                            lambda line: f"shows the version {fact.siblings[0]} prints (line {line}); the pull "
                                         f"request sets it to {fact.new}", read, add)


def _documenting(fact: Fact, names: list[str], docs: _Docs) -> dict[str, list[tuple[str, _Evidence]]]:
    """The pages (release pages aside) that document these names as code themselves (a
    cross-reference to a name's documentation elsewhere is not its documentation), with the
    evidence."""
    by_page: dict[str, list[tuple[str, _Evidence]]] = {}
    for name in dict.fromkeys(names):
        if not docs.specific(name):
            continue
        for path, ev in docs.about(fact, name).items():
            if ev.as_code and not is_release_page(path) and (line := docs.documented_at(path, name)) is not None:
                by_page.setdefault(path, []).append((name, _Evidence(line, True, ev.lines)))
    return by_page


_SETTING_KINDS = ("flag", "config", "env")


def spellings(name: str) -> list[str]:
    """A name's words spelled as each kind of setting, in one order for every name: the option
    (``--strict-markers``), snake and kebab case, the variable (``STRICT_MARKERS``); none for a
    one-word name."""
    words = [w.lower() for w in re.split(r"[-_.]+", name.lstrip("-")) if w]
    if len(words) < 2:
        return []
    return ["--" + "-".join(words), "_".join(words), "-".join(words), "_".join(words).upper()]


def namesakes(name: str) -> list[str]:
    """The same words spelled as the other kinds of setting: ``strict_markers`` as the option
    ``--strict-markers`` and the variable ``STRICT_MARKERS``; nothing for a one-word name."""
    return [form for form in dict.fromkeys(spellings(name)) if form != name]


def _plan_namesakes(fact: Fact, docs: _Docs, add) -> int:
    """A new setting named as an option or variable the docs document already (a configuration
    option ``strict_markers`` beside the documented ``--strict-markers``): the pages documenting
    that one may say it can now be set this way too. For review: what to say is a person's call."""
    if fact.kind not in _SETTING_KINDS:
        return 0
    name = token(fact.name)
    hits = 0
    for form in namesakes(name):
        if not docs.specific(form):
            continue
        for path, ev in docs.pages(form).items():
            if ev.as_code and not is_release_page(path) and not docs.of_deprecations(path) and \
                    path not in docs.pages(name):
                add(path, "related", 0.55, f"documents {form} (line {ev.line}), the same words as the new {fact.kind} "
                                           f"{name} [{fact.rule}]", None)
                hits += 1
    return hits


MIN_FAMILY = 3  # documented members that make a page the list of a family of codes


def _plan_by_family(gained: Iterable[str], docs: _Docs, family: Callable[[str], dict[str, set[str]]], add) -> None:
    """Plan for review the pages that list the family of a new code no page names yet: an error
    code ``FST_ERR_REP_BODY_CONSUMED`` beside ``FST_ERR_REP_ALREADY_SENT`` and two more, a
    warning ``FSTDEP014`` beside ``FSTDEP013``. The narrowest family that some page lists wins."""
    for name in sorted(gained):
        if docs.pages(name):
            continue  # documented already: the names on the changed lines cover it
        for prefix in family_prefixes(name):
            lists = {path: members for path, members in family(prefix).items()
                     if len(members) >= MIN_FAMILY and not is_release_page(path)}
            if not lists:
                continue
            for path, members in sorted(lists.items(), key=lambda kv: (-len(kv[1]), kv[0]))[:MAX_CONCEPTUAL_PAGES]:
                add(path, "related", 0.55, f"lists {len(members)} names of the {prefix} family (such as "
                                           f"{min(members)}); the pull request adds {name} [changed lines]", None)
            break


def _plan_family_losses(lost: Iterable[str], family: Callable[[str], dict[str, set[str]]], add) -> None:
    """Plan for review the pages that list a code the pull request drops (``NameChanges.dropped``:
    the warning ``FSTDEP010`` whose registration goes), among ``MIN_FAMILY`` names of its family at
    least: its entry there describes what is gone. The narrowest family that lists it wins."""
    for name in sorted(lost):
        for prefix in family_prefixes(name):
            lists = {path: members for path, members in family(prefix).items()
                     if name in members and len(members) >= MIN_FAMILY and not is_release_page(path)}
            for path, members in sorted(lists.items())[:MAX_CONCEPTUAL_PAGES]:
                add(path, "related", 0.55, f"lists {name} among {len(members)} names of the {prefix} family; the pull "
                                           f"request's code no longer holds it [changed lines]", None)
            if lists:
                break


MIN_NEIGHBOURS = 2  # of a new setting's neighbours in the code, a page documents this many at least


def _plan_by_neighbours(beside: Mapping[str, frozenset[str]], docs: _Docs, add) -> None:
    """Plan for review the page that documents most of a new setting's neighbours in the code
    (``NameChanges.beside``: the keys around ``"PROVIDE_AUTOMATIC_OPTIONS": True`` in a dict of
    defaults), ``MIN_NEIGHBOURS`` of them at least, as code and specifically, when no page names it
    yet: the list it joins. For review: no fact says what it is or how the page lists it."""
    for name, near in sorted(beside.items()):
        if docs.pages(name):
            continue  # documented already: the names on the changed lines cover it
        by_page: dict[str, list[str]] = {}
        for other in sorted(near):
            if not docs.specific(other):
                continue
            for path, ev in docs.pages(other).items():
                if ev.as_code and not is_release_page(path):
                    by_page.setdefault(path, []).append(other)
        ranked = sorted(((len(found), path, found) for path, found in by_page.items() if len(found) >= MIN_NEIGHBOURS),
                        key=lambda t: (-t[0], t[1]))
        for _, path, found in ranked[:1]:
            add(path, "related", 0.55, f"documents {', '.join(found[:3])}, beside which the pull request's code adds "
                                       f"{name} [changed lines]", None)


def _plan_by_names(names: Mapping[str, int], docs: _Docs, planned: dict[str, PlannedPage], add, look) -> None:
    """Plan for review the pages not planned yet that speak, as code, of several specific names
    the change touches: one shared name is chance, several are the page's subject."""
    by_page: dict[str, list[tuple[str, _Evidence]]] = {}
    for name in names:
        if not docs.specific(name):
            continue
        for path, ev in docs.pages(name).items():
            if ev.as_code and path not in planned and not is_release_page(path):
                by_page.setdefault(path, []).append((name, ev))
    for path, found in sorted(by_page.items()):
        if len(found) < MIN_NAMES - 1:
            continue
        found.sort(key=lambda f: (-docs.weight(f[0]), f[0]))
        listed = ", ".join(f"{name} (line {ev.line})" for name, ev in found[:5]) + (", …" if len(found) > 5 else "")
        reason = f"speaks of {len(found)} names the pull request's code changes, as code: {listed} [changed lines]"
        if len(found) >= MIN_NAMES:
            add(path, "related", 0.5, reason, None)
        else:
            look(path, reason + " — too few to plan it")


def _plan_by_new_files(added: Iterable[str], docs: _Docs, add) -> None:
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


def _plan_by_output(outputs: Iterable[OutputChange], docs: _Docs, add) -> None:
    """Plan for review the pages whose examples (code blocks) show output the tests no longer
    expect: what the program prints changed there, and how to show it now is a person's call. A
    span shown on more than ``MAX_SHOWN_SHARE`` of the pages (``MIN_SHOWN`` at least) is the
    whole docs' and tells no page apart."""
    examples: dict[str, dict[int, str]] = {}
    shown: dict[str, list[tuple[OutputChange, int]]] = {}
    for change in outputs:
        found = {}
        for path in dict.fromkeys(docs.find(change.old)):
            if is_release_page(path):
                continue
            if path not in examples:
                examples[path] = example_lines(path, docs.read(path) or "")
            line = shown_at(examples[path], change.old)
            if line is not None:
                found[path] = line
        if len(found) <= max(MIN_SHOWN, docs.total * MAX_SHOWN_SHARE):
            for path, line in found.items():
                shown.setdefault(path, []).append((change, line))
    for path, changes in sorted(shown.items()):
        listed = "; ".join(f"{c.old!r} (line {line}) is now {c.new!r} in {c.path}" for c, line in changes[:3]) + \
            ("; …" if len(changes) > 3 else "")
        add(path, "related", 0.5, f"shows output the tests now expect otherwise: {listed} [tests' expected output]",
            None)


def quoted_line(text: str, words: str) -> int | None:
    """The line (1-based) that quotes ``words`` (a help text), markup aside (``quoting``)."""
    return next((n for n, line in enumerate(text.split("\n"), 1) if find_quote(line, words)), None)


WRAPPED_LINES = 4  # a help text a help screen wraps, over this many lines at most


def wrapped_quote_line(text: str, words: str) -> int | None:
    """The line (1-based) where a quote of ``words`` starts that goes on over the next lines (a
    help screen's column of wrapped help text), read as one line, ``WRAPPED_LINES`` at most."""
    lines = text.split("\n")
    for n in range(len(lines)):
        joined = " ".join(line.strip() for line in lines[n:n + WRAPPED_LINES])
        span = find_quote(joined, words)
        if span and span[0] < len(lines[n].split()):
            return n + 1
    return None


def _value_near(lines: list[str], n: int, value: str) -> bool:
    """Whether the value stands on the line that mentions the name, or within the two after it."""
    pattern = re.compile(rf"(?<![\w.]){re.escape(value)}(?![\w.])")
    return any(pattern.search(lines[i]) for i in range(n - 1, min(len(lines), n + 2)))


def _short(value: str | None, limit: int = 60) -> str | None:
    if value is None or len(value) <= limit:
        return value
    return value[:limit - 1] + "…"


MAX_WORD_PAGES = 3  # pages the pull request's words alone may point at: a short list, read by a person
WORD_SCORE_SHARE = 0.5  # of the best page's BM25 score: a page far below it shares words by chance
WORDS = "pull request's words"


def _code_names(facts: Iterable[Fact], names: NameChanges | None) -> set[str]:
    """Every name the code side speaks of: the facts' names (old and new, their siblings'), and the
    names on the changed lines."""
    found = set(names.counts) if names is not None else set()
    for fact in facts:
        for name in filter(None, (fact.name, fact.old if fact.change == "renamed" else None)):
            found |= {name, token(name), token(name).rsplit(".", 1)[-1]}
    return found


def _owned_by(fact: Fact, names: set[str]) -> bool:
    """Whether a fact is a parameter of the function or method the names name (``shell_complete``,
    ``ParamType.shell_complete``): the change to that function's signature."""
    owner = owner_of(fact.name) if fact.kind == "parameter" else None
    return owner is not None and bool({owner, owner.rsplit(".", 1)[-1]} & names)


def _names_on(path: str, names: Iterable[str], docs: _Docs) -> str | None:
    """Why the page is about the code's changed names: the first specific one it speaks of as code,
    or names in prose while the name is shaped as code (``MultiMarkdown``, ``dev_addr``)."""
    for name in sorted(names, key=lambda n: (-docs.weight(n), n)):
        if docs.specific(name):
            ev = docs.pages(name).get(path)
            if ev is not None and (ev.as_code or is_identifier(name)):
                return f"it names {name} (line {ev.line}), a name the pull request's code changes"
    return None


def _plan_by_words(said: Said, words: Bm25, docs: _Docs, facts: list[Fact], changed_names: NameChanges | None,
                   planned: dict[str, PlannedPage], weak: dict[str, list[str]], add, look) -> None:
    """Weigh what the pull request's title and body say against the docs (``words``).

    A name the author wrote as code (``site_url``, ``--preview``, a path) that a page documents as
    code, and that is specific there, is strong evidence: with the code changing the same name,
    the page is planned for review (related: no fact says what to write); without, it is worth a
    look. The prose words are weighed by BM25: the pages sharing ``MIN_WORDS`` specific words with
    the pull request, the best few, are worth a look, with the code's weaker sign beside them when
    it points there too (a specific changed name the page speaks of as code); the one page the
    words single out (``Bm25.clear_winner``) is planned for review, not edited. A planned page the
    words also point at gains the reason. A common word is never read. A page planned on a name
    the words and the code share carries the facts of that name's own (a function's dropped
    parameter), for the Writer to draft from."""
    code = _code_names(facts, changed_names)
    names = changed_names.counts if changed_names is not None else ()
    from_code = {path: reasons[0] for path, reasons in weak.items()}  # before the words add theirs
    for name in said.names:
        term = docs.term(name)
        if not docs.specific(term):
            continue
        where = "title" if name in said.in_title else "body"
        # `config.from_file` in the words, `from_file` on the changed lines: the same name
        changed = bool({name, term, token(name), token(name).rsplit(".", 1)[-1]} & code)
        for path, ev in docs.pages(term).items():
            if is_release_page(path) or not (ev.as_code or "/" in term):
                continue
            reason = f"the pull request's {where} names {term}, which the page documents (line {ev.line})"
            if changed:
                add(path, "related", 0.55, f"{reason}; the code changes it too [{WORDS}]", None)
                for fact in (f for f in facts if _owned_by(f, {name, term})):
                    add(path, "related", 0.55, f"{reason}; the code changes it too [{WORDS}]", fact)
            else:
                look(path, f"{reason} [{WORDS}] — the code does not change it")
    matches = words.matches(said.words, [p for p in words.texts if not is_release_page(p)])
    if not matches:
        return
    best = matches[0].score
    winner = words.clear_winner(matches)
    for match in matches[:MAX_WORD_PAGES]:
        if match.score < best * WORD_SCORE_SHARE:
            break
        listed = ", ".join(f"{word} (line {line})" for word, line in match.words[:4]) + \
            (", …" if len(match.words) > 4 else "")
        said_here = f"the pull request's title and body speak of {listed}, words specific to this page"
        if match.path in planned:
            add(match.path, planned[match.path].mode, planned[match.path].confidence, f"{said_here} [{WORDS}]", None)
            continue
        named = _names_on(match.path, names, docs)
        if match is winner:
            # Singled out: for review (no fact says what to write), not edited. Such pages were
            # right 10 times in 13 on the shared pull requests and the held-out projects' (2026-12-06).
            runner_up = f"the next page's {matches[1].score:.1f}" if len(matches) > 1 else \
                f"no other page shares {MIN_WORDS} of them"
            add(match.path, "related", 0.5, f"{said_here}, far more than to any other (score {match.score:.1f}; "
                                            f"{runner_up}){f'; and {named}' if named else ''} [{WORDS}]", None)
            continue
        sign = from_code.get(match.path) or named
        # Prose words that several pages share about as much plan none of them, even beside a
        # weak sign of the code's: promoted, such pages were wrong 3 times in 3 on other projects'
        # pull requests (2026-11-29); a page whose words and a changed name meet is the first to look at.
        look(match.path, f"{said_here} [{WORDS}]" + (f" — and {sign}" if sign else " — words alone"))
