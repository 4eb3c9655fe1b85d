"""The DocOps Assistant's extractive answer: passages chosen by the question's words, sentences
quoted with the file lines they span, no answer when nothing fits."""

from __future__ import annotations

from docsvc.server.engines.chat import NO_ANSWER, NO_DOCS, compose, question_terms, sentences
from docsvc.server.services.search import Passage

KEYS = """## Rotating API keys

API keys expire after 90 days. To rotate an API key, open Settings
and click Generate New Key.
The old key stops working one hour later.

```
docsvc keys rotate --force
```
- Keys are shown only once."""


def passage(text: str, line: int = 10, path: str = "docs/keys.md") -> Passage:
    return Passage(1, path, "Keys", line, text, 1.0)


def test_question_terms_drop_stop_words_and_repeats():
    assert question_terms("How do I rotate an API key, and the key's expiry?") == ["rotate", "api", "key", "expiry"]


def test_sentences_carry_the_lines_they_span_and_skip_headings_and_code():
    found = sentences(KEYS, 10)
    texts = [s.text for s in found]
    assert texts[0] == "API keys expire after 90 days."
    assert "To rotate an API key, open Settings and click Generate New Key." in texts
    rotate = found[texts.index("To rotate an API key, open Settings and click Generate New Key.")]
    assert (rotate.first_line, rotate.last_line) == (12, 13)  # wrapped over two lines of the file
    assert not any("docsvc keys rotate" in t or t.startswith("#") for t in texts)
    assert found[-1].text == "Keys are shown only once." and found[-1].first_line == 19


def test_answer_quotes_the_best_sentences_and_cites_path_and_lines():
    other = passage("Billing happens monthly. Invoices are emailed.", line=1, path="docs/billing.md")
    answer = compose("How do I rotate an API key?", [passage(KEYS), other])
    # The best sentence (all three words) and one with two; asides with one word are left out.
    assert answer.answer == ("API keys expire after 90 days. [1] "
                             "To rotate an API key, open Settings and click Generate New Key. [1]")
    assert len(answer.citations) == 1
    cite = answer.citations[0]
    assert (cite["path"], cite["start_line"], cite["end_line"]) == ("docs/keys.md", 12, 13)


def test_each_passage_used_gets_its_own_number():
    first = passage("Webhooks retry failed deliveries three times.", line=4, path="docs/webhooks.md")
    second = passage("A webhook delivery that fails is retried after a minute.", line=30, path="docs/retry.md")
    answer = compose("webhook delivery retry", [first, second])
    assert [c["path"] for c in answer.citations] == ["docs/webhooks.md", "docs/retry.md"]
    assert answer.answer.endswith("[2]") and "[1]" in answer.answer
    assert answer.citations[1]["start_line"] == 30


def test_no_matching_passage_says_the_docs_have_no_answer():
    weak = passage("Keys are shown only once.")  # one word of four: not enough
    answer = compose("How do I configure single sign-on with SAML?", [weak])
    assert answer.answer == NO_ANSWER and answer.citations == []
    assert compose("anything", [], indexed=False).answer == NO_DOCS


def test_index_pieces_of_a_long_paragraph_start_on_their_own_line():
    from docsvc.server.engines.indexer import passages as index_passages

    lines = ["# Title", ""] + [f"Line {n} " + "x" * 990 for n in range(3, 12)]  # ~9 KB: split by size
    pieces = index_passages(lines)
    assert len(pieces) == 3 and pieces[0].line == 1
    assert [p.line for p in pieces[1:]] == [6, 11]  # not 1: each piece starts where its first character is
    for piece in pieces:
        assert piece.text.split("\n", 1)[0] in lines[piece.line - 1]
