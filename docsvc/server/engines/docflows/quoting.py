"""Where a page quotes a help text, and the page's line with the help text's new words.

Docs rarely copy a help text character for character: they capitalise its first word, write its
``'quoted'`` values as ```code```, drop the ``[boolean]`` tag some CLI frameworks start it with and
add their own type after it. So a quote is found word by word, with case, quotes, backticks and
emphasis aside, and a reworded help text is applied as the words it changed (``esbuild`` →
``Rolldown``), each written as the page writes its neighbours, the rest of the line kept as it is.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher

__all__ = ["find_quote", "requote", "worded_like"]

_TAG = re.compile(r"^\[[\w |.-]+\]\s*")  # cac's "[boolean] use the x": a type, not words
MIN_WORDS = 4  # a shorter help text is too common a phrase to call a quote


def _words(text: str) -> list[re.Match]:
    return list(re.finditer(r"\S+", text))


def _key(word: str) -> str:
    """A word as compared: without quotes and backticks anywhere, emphasis around it, case."""
    return re.sub(r"[`'\"]", "", word).strip("*_").lower()


def _help_words(help_text: str) -> list[str]:
    """A help text's words, its ``[type]`` tag left out."""
    return _TAG.sub("", " ".join(help_text.split())).split()


def find_quote(line: str, help_text: str) -> tuple[int, int] | None:
    """The words of ``line`` (first index, one past the last) that quote ``help_text``; None
    when the line does not quote all of it."""
    wanted = [_key(w) for w in _help_words(help_text)]
    if len(wanted) < MIN_WORDS:
        return None
    have = [_key(m.group()) for m in _words(line)]
    for start in range(len(have) - len(wanted) + 1):
        if have[start:start + len(wanted)] == wanted:
            return start, start + len(wanted)
    return None


def requote(line: str, old: str, new: str) -> str | None:
    """``line`` with the words ``old`` changed into ``new`` where it quotes ``old``; None when it
    does not quote it."""
    span = find_quote(line, old)
    if span is None:
        return None
    page = _words(line)[span[0]:span[1]]
    old_words, new_words = _help_words(old), _help_words(new)
    out: list[str] = []
    matcher = SequenceMatcher(None, [_key(w) for w in old_words], [_key(w) for w in new_words], autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":  # the page's own words, but for a capital it gave the help text's first word
            out += [m.group() if (i == 0) == (j == 0) else _as_page_writes(new_words[j], old_words, page, first=j == 0)
                    for i, j, m in zip(range(i1, i2), range(j1, j2), page[i1:i2])]
        else:
            out += [_as_page_writes(w, old_words, page, first=(j == 0)) for j, w in enumerate(new_words[j1:j2], j1)]
    text = " ".join(out)
    return line[:page[0].start()] + text + line[page[-1].end():]


def _as_page_writes(word: str, old_words: list[str], page: list[re.Match], first: bool) -> str:
    """A new word marked up as the page marks up the help text's words: its quotes as the page
    turned them (``'bundle'`` → ```bundle```), the first word's capital as the page's."""
    for said, written in zip(old_words, (m.group() for m in page)):
        if said[:1] in "'\"" and said[:1] == said[-1:] and written[:1] != said[:1] and \
                word[:1] == said[:1] and word.rstrip(",.;:)")[-1:] == said[:1]:
            mark = written[0]
            core = word.rstrip(",.;:)")
            return mark + core[1:-1] + mark + word[len(core):]
    if first and page and page[0].group()[:1].isupper() and word[:1].islower():
        return word[:1].upper() + word[1:]
    return word


def worded_like(help_text: str, sibling: str) -> str:
    """A help text written as the page writes a sibling's: the ``[boolean]`` tag some CLI
    frameworks start it with dropped, or moved to the end as ``(`boolean`)`` where the sibling ends
    so; a capital first letter where the sibling starts with one, unless the text starts with a
    camel- or snake-cased name; a full stop where the sibling ends with one and the text with a word."""
    tag = _TAG.match(help_text)
    text = help_text[tag.end():] if tag else help_text
    sibling = sibling.strip()
    if tag and re.search(r"\(`[^`]+`\)$", sibling):
        text += f" (`{tag.group().strip()[1:-1]}`)"
    # (a name it starts with keeps its case: ``disableRequestLogging option is ...``)
    if sibling[:1].isupper() and text[:1].islower() and not re.match(r"[a-z]+[A-Z_]\w*", text):
        text = text[:1].upper() + text[1:]
    if sibling.endswith(".") and re.search(r"[\w`]$", text):
        text += "."
    return text
