"""The DocOps Assistant's ``chat.answer`` job: answer a question from the organisation's docs
index and save it as the caller's ``chats`` item.

Rule-based and extractive, not a language model: the question's content words pick passages from
the full-text index (any word may match); a passage is used when it holds at least half of those
words (at least one); from the used passages, the sentences holding the most question words (at
least half as many as the best sentence) are quoted in reading order, up to four sentences and a
few hundred characters. Each used passage is cited by path and the line
range of the sentences taken from it. With no such passage the answer says the docs have none;
the chat is saved either way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

METHOD = ("extractive: sentences quoted from the indexed docs that hold the most words of the question "
          "(rule-based, no language model)")
NO_DOCS = "The docs have no answer to this question: nothing is indexed yet (sync a repository first)."
NO_ANSWER = "The docs have no answer to this question: no indexed passage holds enough of its words."
_MAX_SENTENCES = 4
_MAX_CHARS = 700
PASSAGES_READ = 12
_WORD = re.compile(r"[\w][\w\-]*", re.UNICODE)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[]?[A-Z0-9`])")
# Markup at the start of a line that is not part of a sentence: list bullets, quote marks, table
# bars, numbered items.
_LEAD = re.compile(r"^\s*(?:[-*+>|]\s*|\d+[.)]\s+)+")
_STOPWORDS = frozenset("""
a about after all also an and any are as at be been before but by can could did do does doing done for
from get gets got had has have how i if in into is it its me my no not of on or our should so some
than that the their them then there these they this to too us use used using was we what when where
which who whom why will with would you your yours please tell explain show give need needs want
""".split())


def question_terms(question: str) -> list[str]:
    """The question's content words, lower-case, in order, without repeats or stop words."""
    seen: list[str] = []
    for word in _WORD.findall(question.lower()):
        word = word.strip("-_")
        if len(word) > 1 and word not in _STOPWORDS and word not in seen:
            seen.append(word)
    return seen


def _matches(term: str, words: set[str]) -> bool:
    """The word itself, its plural, or a word sharing its stem (``configure`` finds
    ``configuring``; short words only match whole, or with a plural ``s``)."""
    if term in words or term + "s" in words or term + "es" in words or term.rstrip("s") in words:
        return True
    stem = term[: max(3, len(term) - 2)]
    return len(term) > 4 and any(w.startswith(stem) for w in words)


def covered(terms: list[str], text: str) -> set[str]:
    words = {w.lower() for w in _WORD.findall(text)}
    return {t for t in terms if _matches(t, words)}


@dataclass
class Sentence:
    text: str
    first_line: int
    last_line: int


def sentences(text: str, first_line: int) -> list[Sentence]:
    """Sentences of a passage with the file lines they span. Headings, code fences and their
    contents are left out: they are not prose to quote."""
    out: list[Sentence] = []
    paragraph: list[tuple[int, str]] = []
    in_code = False

    def flush() -> None:
        if not paragraph:
            return
        joined, starts = "", []
        for line_no, part in paragraph:
            starts.append((len(joined), line_no))
            joined += part + " "
        position = 0
        for piece in _SENTENCE_END.split(joined.strip()):
            start = joined.index(piece, position)
            end = start + len(piece)
            position = end
            first = max(n for offset, n in starts if offset <= start)
            last = max(n for offset, n in starts if offset < end)
            if piece.strip():
                out.append(Sentence(piece.strip(), first, last))
        paragraph.clear()

    for n, raw in enumerate(text.split("\n")):
        line = raw.strip()
        if line.startswith(("```", "~~~")):
            in_code = not in_code
            flush()
            continue
        if in_code or not line or line.startswith(("#", "..", "=", ":")) or set(line) <= set("=-~^*+#`'\"|: "):
            flush()  # blank lines, headings and rst/adoc markup end a paragraph
            continue
        if _LEAD.match(raw):
            flush()  # each list item or table row is its own paragraph
        paragraph.append((first_line + n, _LEAD.sub("", raw).strip()))
    flush()
    return out


@dataclass
class Answer:
    answer: str
    citations: list[dict] = field(default_factory=list)
    terms: list[str] = field(default_factory=list)


def compose(question: str, passages: list, *, indexed: bool = True) -> Answer:
    """The extractive answer from ``passages`` (best first; each with ``path``, ``line``, ``text``,
    ``title``, ``integration_id``)."""
    terms = question_terms(question)
    if not indexed:
        return Answer(NO_DOCS, [], terms)
    needed = max(1, (len(terms) + 1) // 2)
    candidates = []  # (score, passage rank, order in passage, sentence, passage index)
    for rank, passage in enumerate(passages):
        if len(covered(terms, passage.text)) < needed:
            continue
        for order, sentence in enumerate(sentences(passage.text, passage.line)):
            hits = covered(terms, sentence.text)
            if hits:
                candidates.append((len(hits), rank, order, sentence))
    candidates.sort(key=lambda c: (-c[0], c[1], c[2]))
    # Sentences holding at least half as many question words as the best one: the rest are asides.
    floor = (candidates[0][0] + 1) // 2 if candidates else 1
    chosen, size, seen = [], 0, set()
    for score, rank, order, sentence in candidates:
        if score < floor or len(chosen) == _MAX_SENTENCES or (chosen and size + len(sentence.text) > _MAX_CHARS):
            break
        if sentence.text.lower() in seen:
            continue
        seen.add(sentence.text.lower())
        chosen.append((rank, order, sentence))
        size += len(sentence.text)
    if not chosen:
        return Answer(NO_ANSWER, [], terms)
    # Quote in reading order: by passage rank, then place in the passage; one citation per passage.
    chosen.sort(key=lambda c: (c[0], c[1]))
    numbers: dict[int, int] = {}
    citations: list[dict] = []
    parts = []
    for rank, _order, sentence in chosen:
        passage = passages[rank]
        if rank not in numbers:
            numbers[rank] = len(citations) + 1
            citations.append({"n": numbers[rank], "path": passage.path, "title": passage.title,
                              "integration_id": passage.integration_id, "start_line": sentence.first_line,
                              "end_line": sentence.last_line, "passage": passage.text})
        citation = citations[numbers[rank] - 1]
        citation["start_line"] = min(citation["start_line"], sentence.first_line)
        citation["end_line"] = max(citation["end_line"], sentence.last_line)
        parts.append(f"{sentence.text} [{numbers[rank]}]")
    return Answer(" ".join(parts), citations, terms)
