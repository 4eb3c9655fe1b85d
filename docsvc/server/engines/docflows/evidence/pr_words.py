"""Pull-request-words evidence: what the title and body say (``words.said_in``), weighed against
the docs. A name the author wrote as code that a page documents, with the code changing it too,
plans the page for review; the prose words, weighed by BM25, single out at most one page for
review and point at a few more as worth a look. Words alone never edit a page."""

from __future__ import annotations

from typing import Iterable

from ..changed_names import NameChanges
from ..facts_model import Fact, owner_of, token
from ..words import MIN_WORDS, Bm25, Said
from .docs import Docs, is_identifier
from .model import Add, Look, PlannedPage
from .pages import is_release_page

__all__ = ["plan_by_words", "WORDS"]

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


def _names_on(path: str, names: Iterable[str], docs: Docs) -> str | None:
    """Why the page is about the code's changed names: the first specific one it speaks of as code,
    or names in prose while the name is shaped as code (``MultiMarkdown``, ``dev_addr``)."""
    for name in sorted(names, key=lambda n: (-docs.weight(n), n)):
        if docs.specific(name):
            ev = docs.pages(name).get(path)
            if ev is not None and (ev.as_code or is_identifier(name)):
                return f"it names {name} (line {ev.line}), a name the pull request's code changes"
    return None


def plan_by_words(said: Said, words: Bm25, docs: Docs, facts: list[Fact], changed_names: NameChanges | None,
                   planned: dict[str, PlannedPage], weak: dict[str, list[str]], add: Add, look: Look) -> None:
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
