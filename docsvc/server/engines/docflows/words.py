"""The pull request's own words as evidence: what its title and body name, and which docs pages
their words are specific to.

Two kinds of evidence come out of a pull request's text:

- **names** (``Said.names``): what the author wrote as code — a backticked name (`` `site_url` ``),
  an option (``--preview``), an environment variable (``HTTPIE_CONFIG_DIR``), a config key or a
  dotted name (``theme.analytics``), a file path (``docs/gen_ref.py``). A page that speaks of such
  a name as code is strong evidence, as the facts' names are (the planner decides how strong).
- **words** (``Said.words``): the prose, stemmed. They are weighed with BM25 over the docs pages
  (``Bm25``): a word on few pages (``lunr``, ``frontmatter``) says which page is about the change;
  a word on many (``option``, ``file``) says nothing, and a stop word or the boilerplate of pull
  requests (``fix``, ``closes``, a checklist) is never read. Words alone never edit a page: the
  planner lists the pages they point at as worth a look, and the one page they single out
  (``Bm25.clear_winner``: far above every other) for review.

Pure: the docs' texts come in, the statistics are made here.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Mapping

__all__ = ["Said", "Bm25", "WordMatch", "said_in", "stem", "words_of", "MIN_WORDS", "WIN_RATIO"]

K1, B = 1.2, 0.75  # BM25's usual constants: term-frequency saturation, length normalisation
MIN_WORDS = 2  # specific words a page must share with the pull request: one shared word is chance
MAX_WORD_SHARE = 0.125  # of the pages: a word on more of them is everybody's (the planner's plain-word share)
MAX_TERMS = 40  # the most specific words of a long body are what it is about; the rest is noise
WIN_RATIO = 2.0  # the best page's score over the next one's, at least, for the words to single it out
MIN_RANKED = 5  # pages the docs hold, at least, for the best of them to say anything: of two, one is best

# English function words and the boilerplate of pull requests and commit messages: never evidence,
# however rare a page makes them (a docs tree rarely says "closes", so its IDF would be high).
_STOP = frozenset("""
a about above after again against all also am an and any are as at be because been before being below
between both but by can could did do does doing done down during each either else even ever every few
for from further get gets got had has have having he her here hers him his how however i if in into is
isn't it its itself don doesn didn isn aren wasn weren won can't shouldn wouldn couldn haven hasn just let lets like may me might more most much must my no nor not now of off on
once one only or other our ours out over own per perhaps please quite rather same see seem seems she
should since so some still such than that the their them then there these they this those though
through thus to too under until up upon us use used uses using very via was we well were what when
where whether which while who whom whose why will with within without would yet you your yours
add added adding adds address addressed allow allows bump bumped change changed changes changing
chore close closed closes commit commits correct corrected correctly did didn't don't doesn't fix fixed
fixes fixing follow followup get handle handled improve improved improvement issue issues make makes
merge merged minor new now okay pr prs pull refactor refactored related remove removed removes request
resolve resolved resolves revert small support supported supports test tested testing tests thanks
tweak tweaks typo update updated updates wip work works
""".split())
_TRAILER = re.compile(r"(?im)^\s*(co-authored-by|signed-off-by|reviewed-by|acked-by|refs?|see also|"
                      r"fixes|closes|resolves)\b.*$")
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_FENCED = re.compile(r"(?ms)^\s*(```|~~~).*?^\s*\1[^\n]*$")
_CHECKBOX = re.compile(r"(?m)^\s*[-*+]\s+\[[ xX]\]\s.*$")  # a template's checklist: the same in every PR
_URL = re.compile(r"(?i)\b(?:https?://|www\.)\S+")
_REFERENCE = re.compile(r"(?<![\w/])(?:GH-|#)\d+\b|\b[0-9a-f]{7,40}\b|@[\w-]+")
_BACKTICKED = re.compile(r"``?([^`\n]{1,80})``?")
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*")
# What prose shows as code without backticks: an option, an ENV_VAR, a snake_case or dotted key,
# a path with a file's extension, a call ``name()``.
# The extensions of files a pull request names (a bare ``pre-commit.com`` is a web site, not a file).
_EXTENSIONS = ("py|pyi|toml|cfg|ini|ya?ml|json|md|mdx|rst|txt|js|mjs|cjs|ts|tsx|jsx|go|mod|rs|rb|java|kt|sh|"
               "lock|spec|html|css|scss|tmpl|j2|jinja|in")
_CODE_LIKE = re.compile(rf"""(?x)
    (?<![\w./-])(?:[\w-]+/)*[\w-]+\.(?:{_EXTENSIONS})(?![\w.])   # a file: pyproject.toml, docs/x.md
  | (?<![\w-])--?[A-Za-z][\w-]*[A-Za-z0-9]       # --flag, -x
  | \b[A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9]\b        # ENV_VAR
  | \b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b            # snake_case
  | (?<![\w.-])[a-z_]\w+(?:\.[a-z_]\w+)+\b          # dotted.name (not "e.g")
  | \b[A-Za-z_]\w*\(\)                           # call()
""")
_NAME_CHARS = re.compile(r"^[\w.:/@+=-]+(\(\))?$")


def stem(word: str) -> str:
    """A light English stem, the same for the docs and the pull request: ``completions`` and
    ``completion``, ``ignoring`` and ``ignore`` meet; enough for matching, not a linguist's stem."""
    w = word.lower()
    for suffix, keep in (("ies", "y"), ("sses", "ss"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3 and not (suffix == "s" and w.endswith(("ss", "us", "is"))):
            w = w[: len(w) - len(suffix)] + keep
            break
    return w[:-1] if len(w) > 4 and w.endswith("e") else w


def words_of(text: str) -> list[str]:
    """The stemmed words of a text (identifiers split into theirs: ``ignore_unknown_options``
    gives ``ignor``, ``unknown``, ``option``), stop words and words under three letters left out."""
    out = []
    for match in _WORD.finditer(text):
        for part in re.findall(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])", match.group(0)):
            low = part.lower()
            if len(low) >= 3 and not low.isdigit() and low not in _STOP:
                out.append(stem(low))
    return out


@dataclass(frozen=True)
class Said:
    """What a pull request's title and body say: the names written as code (in order, once
    each, from the title first) and the stemmed prose words with how often each is said (a word
    of the title counts twice: it is the author's summary)."""

    names: tuple[str, ...]
    words: Mapping[str, int]
    in_title: frozenset[str] = frozenset()  # the names the title says (the others, only the body)

    def __bool__(self) -> bool:
        return bool(self.names or self.words)


def _prose(text: str) -> str:
    """A body without what every pull request carries and no page is about: HTML comments (a
    template's hints), fenced code (a traceback, a before/after sample), checklists, trailers,
    links, issue and commit references, mentions."""
    for pattern in (_COMMENT, _FENCED, _CHECKBOX, _TRAILER, _URL, _REFERENCE):
        text = pattern.sub(" ", text)
    return text


def _names(text: str) -> list[str]:
    names = []
    for span in _BACKTICKED.findall(text):
        span = span.strip().rstrip(":,.")
        if _NAME_CHARS.match(span) and len(span) >= 2:
            names.append(span.removesuffix("()"))
        else:  # `black --preview file.py`: the code-like parts of a command line
            names += [n.removesuffix("()") for n in _CODE_LIKE.findall(span)]
    outside = _BACKTICKED.sub(" ", text)
    names += [n.removesuffix("()") for n in _CODE_LIKE.findall(outside)]
    return [n for n in names if len(n.lstrip("-")) >= 2]


def said_in(title: str | None, body: str | None) -> Said:
    """The names and words of a pull request's title and body (``Said``)."""
    title, body = _prose(title or ""), _prose(body or "")
    in_title = _names(title)
    names = list(dict.fromkeys(in_title + _names(body)))
    words: Counter[str] = Counter()
    title_words = words_of(_BACKTICKED.sub(" ", title))
    for word in title_words:
        words[word] += 2
    words.update(words_of(_BACKTICKED.sub(" ", body)))
    return Said(tuple(names), dict(words), frozenset(in_title))


@dataclass(frozen=True)
class WordMatch:
    """A page the pull request's words point at: its BM25 score, and the specific words it shares
    with the pull request, each with the first line that says it."""

    path: str
    score: float
    words: tuple[tuple[str, int], ...]  # (the word as the page writes it, 1-based line)
    stems: tuple[str, ...] = ()  # the same words, stemmed


class Bm25:
    """BM25 statistics of the docs pages: how often each stemmed word stands on each page, and on
    how many pages (its document frequency)."""

    def __init__(self, texts: Mapping[str, str]) -> None:
        self.texts = dict(texts)
        self.counts = {path: Counter(words_of(text)) for path, text in self.texts.items()}
        self.lengths = {path: sum(c.values()) for path, c in self.counts.items()}
        self.average = sum(self.lengths.values()) / max(len(self.lengths), 1) or 1.0
        self.df: Counter[str] = Counter()
        for found in self.counts.values():
            self.df.update(found.keys())

    def __len__(self) -> int:
        return len(self.texts)

    def idf(self, word: str) -> float:
        """BM25's inverse document frequency (the ``+ 1`` form: never negative)."""
        n, df = len(self.texts), self.df.get(word, 0)
        return math.log(1 + (n - df + 0.5) / (df + 0.5))

    def specific(self, word: str) -> bool:
        """A word on at least one page and on few of them: at most ``MAX_WORD_SHARE`` of the
        pages, or a single page however few there are."""
        df = self.df.get(word, 0)
        return 0 < df and (df <= len(self.texts) * MAX_WORD_SHARE or df == 1)

    def score(self, path: str, query: Mapping[str, int]) -> float:
        found, length = self.counts.get(path, Counter()), self.lengths.get(path, 0)
        total = 0.0
        for word, weight in query.items():
            tf = found.get(word, 0)
            if tf:
                total += weight * self.idf(word) * tf * (K1 + 1) / (tf + K1 * (1 - B + B * length / self.average))
        return total

    def matches(self, words: Mapping[str, int], candidates: Iterable[str] | None = None) -> list[WordMatch]:
        """The pages that share at least ``MIN_WORDS`` specific words with the pull request, the
        best BM25 score first. Only the ``MAX_TERMS`` most specific words are read."""
        query = {w: n for w, n in words.items() if self.specific(w)}
        query = dict(sorted(query.items(), key=lambda kv: (-self.idf(kv[0]), kv[0]))[:MAX_TERMS])
        out = []
        for path in (candidates if candidates is not None else self.texts):
            shared = [w for w in query if self.counts.get(path, Counter()).get(w)]
            if len(shared) < MIN_WORDS:
                continue
            shared.sort(key=lambda w: (-self.idf(w), w))
            out.append(WordMatch(path, self.score(path, query), tuple(self._where(path, w) for w in shared),
                                 tuple(shared)))
        return sorted(out, key=lambda m: (-m.score, m.path))

    def clear_winner(self, matches: list[WordMatch]) -> WordMatch | None:
        """The page the words single out (``matches``' first): in docs of ``MIN_RANKED`` pages at
        least, scored ``WIN_RATIO`` times the next page (or alone in sharing ``MIN_WORDS`` words).
        On the shared pull requests and the held-out projects' such a page was a page the
        maintainers changed 10 times in 13; the best of several close ones, 4 times in 13."""
        if not matches or len(self.texts) < MIN_RANKED:
            return None
        runner_up = matches[1].score if len(matches) > 1 else 0.0
        return matches[0] if matches[0].score >= WIN_RATIO * runner_up else None

    def _where(self, path: str, word: str) -> tuple[str, int]:
        """The word as the page first writes it, and that line."""
        for n, line in enumerate(self.texts[path].split("\n"), 1):
            for match in _WORD.finditer(line):
                for part in re.findall(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])", match.group(0)):
                    if stem(part.lower()) == word:
                        return part.lower(), n
        return word, 0
