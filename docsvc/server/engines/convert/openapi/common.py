"""Limits, the labels every page repeats, and small text helpers (Markdown-ish descriptions
to blocks, values and types as words, curl quoting) shared by the parts of the OpenAPI builder.
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import quote

from ..doc import Admonition, Block, BulletList, Code, CodeBlock, Inline, Para, Strong
from ..examples import to_json


METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


_METHOD_SET = frozenset(METHODS)


MAX_TABLE_ROWS = 300  # rows of one properties table; the rest is counted in a last row


MAX_ENUM_VALUES = 10  # enum values shown in a table cell (a model's own enum shows up to 200)


MAX_ALTERNATIVES = 12  # oneOf/anyOf alternatives named in a type cell


MAX_NAMED_EXAMPLES = 10  # named examples shown per media type


NESTED_LEVELS = 2  # an operation's inline nested objects become dotted rows this many levels deep


MODEL_NESTED_LEVELS = 1  # the same in the models, where inline objects nest deepest (GitHub: 1/3 of all rows)


_MAX_MERGE_DEPTH = 64  # allOf members (and refs) followed when merging properties


_TYPE_DEPTH = 4  # how deep a type summary looks into arrays, combinations and local non-component refs


_MISSING = object()


# Inline parts are immutable: the same one may stand in many places (MS Graph makes 22,361 of each).
_SECURITY, _WEBHOOK, _PARAMETERS = Strong("Security"), Strong("Webhook"), Strong("Parameters")


_EXAMPLE_REQUEST, _REQUEST_BODY, _RESPONSES = Strong("Example request"), Strong("Request body"), Strong("Responses")


_CALLBACKS = Strong("Callbacks")


_FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def _line(value: Any) -> str:
    """One line of plain text: descriptions in cells and short paragraphs (the document's own string
    when it is one already, so that it is not copied)."""
    if value is None:
        return ""
    text = value if isinstance(value, str) else str(value)
    # Nearly always one line already: no whitespace but single spaces inside (all other whitespace
    # is unprintable), which two C scans tell quicker than splitting and joining.
    if text.isprintable() and "  " not in text and text[:1] != " " and text[-1:] != " ":
        return text
    joined = " ".join(text.split())
    return text if joined == text else joined


_FENCE = re.compile(r"^\s*(```|~~~)")


_BULLET = re.compile(r"^\s*[-*+]\s+")


_QUOTE = re.compile(r"^\s{0,3}>\s?")


_ALERT = re.compile(r"^\s*\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]\s*", re.I)


def _quote_block(lines: list[str]) -> Block:
    """A block quote; GitHub's alerts (``> [!NOTE]``, ``> [!WARNING]``) become admonitions."""
    alert = _ALERT.match(lines[0]) if lines else None
    kind = "note"
    if alert:
        kind = "warning" if alert.group(1).upper() in ("WARNING", "CAUTION") else "note"
        lines = [lines[0][alert.end():]] + lines[1:]
    paragraphs, current = [], []
    for line in lines:
        if line.strip():
            current.append(line.strip())
        elif current:
            paragraphs.append(" ".join(current))
            current = []
    if current:
        paragraphs.append(" ".join(current))
    text = "\n\n".join(" ".join(p.split()) for p in paragraphs)
    return Admonition(kind, [text]) if alert else Para([text])


def _text_blocks(text: Any) -> list[Block]:
    """A (CommonMark) description as paragraphs, bullet lists and code blocks of plain text."""
    if text is None:
        return []
    text = str(text).strip()
    if not text:
        return []
    if "\n" not in text:
        return [Para([text])]
    blocks: list[Block] = []
    lines = text.replace("\r\n", "\n").split("\n")
    i, n = 0, len(lines)
    paragraph: list[str] = []
    bullets: list[str] = []

    def flush() -> None:
        if paragraph:
            blocks.append(Para([" ".join(" ".join(paragraph).split())]))
            paragraph.clear()
        if bullets:
            blocks.append(BulletList([[b] for b in bullets]))
            bullets.clear()

    while i < n:
        line = lines[i]
        if _QUOTE.match(line):
            flush()
            quoted = []
            while i < n and _QUOTE.match(lines[i]):
                quoted.append(_QUOTE.sub("", lines[i], count=1))
                i += 1
            blocks.append(_quote_block(quoted))
            continue
        fence = _FENCE.match(line)
        if fence:
            flush()
            marker = fence.group(1)
            language = line.strip()[3:].strip().split(" ")[0] or "text"
            body = []
            i += 1
            while i < n and not lines[i].strip().startswith(marker):
                body.append(lines[i])
                i += 1
            i += 1
            blocks.append(CodeBlock(re.sub(r"[^a-z0-9+-]", "", language.lower()) or "text", "\n".join(body)))
            continue
        stripped = line.strip()
        if not stripped:
            flush()
        elif _BULLET.match(line):
            if paragraph:
                blocks.append(Para([" ".join(" ".join(paragraph).split())]))
                paragraph.clear()
            bullets.append(" ".join(_BULLET.sub("", line, count=1).split()))
        elif bullets and line[:1] in (" ", "\t"):
            bullets[-1] += " " + " ".join(stripped.split())
        else:
            if bullets:
                blocks.append(BulletList([[b] for b in bullets]))
                bullets.clear()
            paragraph.append(stripped)
        i += 1
    flush()
    return blocks


_TYPE_WORDS: dict[tuple[str, str], str] = {}


def _type_word(kind: str, fmt: str) -> str:
    """``string (date-time)``: one string object for each pair, however often it is shown."""
    word = _TYPE_WORDS.get((kind, fmt))
    if word is None:
        word = f"{kind} ({fmt})"
        if len(_TYPE_WORDS) < 10_000:
            _TYPE_WORDS[(kind, fmt)] = word
    return word


def _value_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, ensure_ascii=False, default=str)
    except (ValueError, TypeError):
        return str(value)


def _send(where: str | None, name: str, value: str, query: list[str], options: list[str]) -> None:
    """``name`` = ``value`` in a curl command, where an OpenAPI parameter or API key says: query
    (percent-encoded into ``query``), cookie, or else a header (options)."""
    if where == "query":
        query.append(f"{quote(name, safe='$')}={quote(value, safe='')}")
    elif where == "cookie":
        options.append(f"-b {_shell_quote(f'{name}={value}')}")
    else:
        options.append(f"-H {_shell_quote(f'{name}: {value}')}")


def _shell_quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def _is_json_media(media: str) -> bool:
    media = media.lower().split(";")[0].strip()
    return media.endswith("json") or "+json" in media or media in ("*/*", "application/*", "")


def _code_language(media: str) -> str:
    media = media.lower()
    if _is_json_media(media):
        return "json"
    if "xml" in media:
        return "xml"
    if "yaml" in media:
        return "yaml"
    return "text"


def _joined(items: list[list[Inline]], sep: str) -> list[Inline]:
    out: list[Inline] = []
    for i, item in enumerate(items):
        if i:
            out.append(sep)
        out.extend(item)
    return out


def _codes(values: list, limit: int = MAX_ENUM_VALUES, code=Code) -> list[Inline]:
    out: list[Inline] = []
    for i, value in enumerate(values[:limit]):
        if i:
            out.append(", ")
        out.append(code(_value_text(value) or '""'))
    if len(values) > limit:
        out.append(f", … and {len(values) - limit} more")
    return out


def _media_lead(medias: list[str]) -> list[Inline]:
    return ["Media type" + ("s " if len(medias) > 1 else " ")] + _joined([[Code(m)] for m in medias], ", ")


def _example_text(value: Any, language: str) -> str:
    if isinstance(value, str):
        return value
    return to_json(value)
