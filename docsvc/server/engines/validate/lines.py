"""Lines of many JSON pointers at once.

``specload.Locator`` finds one pointer by descending from the top, skipping siblings; for thousands
of findings in a 13 MB JSON document that re-reads the same prefixes thousands of times. Here the
pointers are put in a trie and the text is descended once: siblings no pointer goes into are
skipped, members that some pointer goes into are entered. YAML texts use ``Locator`` (its composed
tree makes each look-up cheap).

A large skipped object or array is stepped over bracket by bracket with one regular expression
(strings and scalars between brackets are passed inside the regex engine), not decoded: decoding
would build the whole subtree only to drop it, and the largest skipped sibling (GitHub's
``examples``: tens of MiB of objects) set the peak memory of the lint; small ones still go
through the C decoder, which is faster. Offsets become lines at the end, by counting
newlines between the sorted offsets, instead of through a table of every newline's offset.
"""

from __future__ import annotations

import json
import re
from typing import Iterable

from ....specload import Locator

_WS = re.compile(r"[ \t\n\r]*")
# everything up to and including the next bracket outside a string; group 1 is that bracket
_TO_BRACKET = re.compile(r'[^\[\]{}"]*+(?:"(?:[^"\\]++|\\.)*+"[^\[\]{}"]*+)*+([\[\]{}])', re.DOTALL)
_SMALL = 1 << 16  # characters: a container shorter than this is decoded (fast, a small transient)


def _skip(text: str, pos: int, decoder: json.JSONDecoder, indented: bool) -> int:
    """The offset just past the JSON value that starts at ``pos``.

    ``indented``: the text is exactly ``json.dumps(indent=2)``'s layout. There a container's
    closing bracket is the first one after it at the start of a line indented as the line it opens
    on (everything inside is indented deeper; strings hold no raw newline), so one ``find`` is the
    whole skip.

    Strings, scalars and small containers go through the C decoder. A container that may be large
    is stepped over bracket by bracket instead, building nothing. "May be large": its closing
    bracket is not found, at its opening line's indentation, within ``_SMALL`` characters (how
    pretty-printed JSON lays containers out; this only picks the method, either gives the same
    offset).
    """
    if text[pos] not in "{[":
        return decoder.raw_decode(text, pos)[1]
    close = "}" if text[pos] == "{" else "]"
    if text.startswith(close, pos + 1):  # "{}" / "[]"
        return pos + 2
    newline = text.rfind("\n", max(0, pos - 1024), pos)  # bounded: long lines must not go quadratic
    if newline >= 0 or pos <= 1024:  # the line's start is known
        indent_end = newline + 1
        while text[indent_end] in " \t":
            indent_end += 1
        closing = "\n" + text[newline + 1:indent_end] + close
        if indented:
            end = text.find(closing, pos)
            if end >= 0:
                return end + len(closing)
        elif text.find(closing, pos, pos + _SMALL) >= 0:
            return decoder.raw_decode(text, pos)[1]
    depth = 0
    match = _TO_BRACKET.match
    while True:
        m = match(text, pos)
        if m is None:
            raise ValueError("unbalanced brackets")
        pos = m.end()
        depth += 1 if m.group(1) in "{[" else -1
        if depth == 0:
            return pos


def _lines_of(text: str, offsets: Iterable[int]) -> dict[int, int]:
    """1-based line of each offset: newlines counted between consecutive sorted offsets."""
    out: dict[int, int] = {}
    line, last = 1, 0
    for offset in sorted(set(offsets)):
        line += text.count("\n", last, offset)
        last = offset
        out[offset] = line
    return out


def _parts(pointer: str) -> list[str]:
    return [p.replace("~1", "/").replace("~0", "~") for p in pointer.split("/")[1:]] if pointer else []


def lines_for(text: str, syntax: str, pointers: Iterable[str], *, indented: bool = False) -> dict[str, int | None]:
    """The line of each pointer (its deepest existing ancestor's when it does not exist), None when
    not even the top is found. ``indented``: the caller knows the JSON text is laid out exactly as
    ``json.dumps(indent=2)`` writes it (see :func:`_skip`)."""
    pointers = set(pointers)
    if syntax != "json":
        locator = Locator(text)
        return {p: _nearest(locator, p) for p in pointers}
    newline = text.find("\n")
    if newline < 0 or newline == len(text) - 1:
        # one line (minified JSON, as most published descriptions are): every value is on line 1
        return {p: 1 for p in pointers}
    trie: dict = {}
    for p in pointers:
        node = trie
        for part in _parts(p):
            node = node.setdefault(part, {})
        node.setdefault(None, []).append(p)
    found: dict[str, int] = {}  # pointer -> offset (lines at the end)
    reached: dict[int, int] = {}  # id(trie node) -> offset
    decoder = json.JSONDecoder()

    start = _WS.match(text, 0).end()
    if text.startswith("\ufeff", start):
        start = _WS.match(text, start + 1).end()
    # iterative descent: (trie node, offset of the value, offset to report)
    stack = [(trie, start, start)]
    try:
        while stack:
            node, pos, report_at = stack.pop()
            reached[id(node)] = report_at
            for p in node.get(None, ()):
                found[p] = reached[id(node)]
            children = {k: v for k, v in node.items() if k is not None}
            if not children:
                continue
            ch = text[pos]
            if ch == "{":
                pos = _WS.match(text, pos + 1).end()
                remaining = len(children)
                while text[pos] != "}" and remaining:
                    key_at = pos
                    key, pos = json.decoder.scanstring(text, pos + 1)
                    pos = _WS.match(text, pos).end() + 1
                    pos = _WS.match(text, pos).end()
                    if key in children:
                        stack.append((children[key], pos, key_at))
                        remaining -= 1
                    pos = _skip(text, pos, decoder, indented)
                    pos = _WS.match(text, pos).end()
                    if text[pos] == ",":
                        pos = _WS.match(text, pos + 1).end()
            elif ch == "[":
                pos = _WS.match(text, pos + 1).end()
                index = 0
                wanted = {int(k): v for k, v in children.items() if k.isdigit()}
                last = max(wanted) if wanted else -1
                while text[pos] != "]" and index <= last:
                    if index in wanted:
                        stack.append((wanted[index], pos, pos))
                    pos = _skip(text, pos, decoder, indented)
                    pos = _WS.match(text, pos).end()
                    if text[pos] == ",":
                        pos = _WS.match(text, pos + 1).end()
                    index += 1
    except (ValueError, IndexError):
        pass
    line = _lines_of(text, reached.values())
    reached = {k: line[v] for k, v in reached.items()}
    found = {p: line[v] for p, v in found.items()}
    out: dict[str, int | None] = {}
    for p in pointers:
        if p in found:
            out[p] = found[p]
        else:  # the deepest existing ancestor's line
            node, value = trie, reached.get(id(trie))
            for part in _parts(p):
                node = node.get(part)
                if node is None or id(node) not in reached:
                    break
                value = reached[id(node)]
            out[p] = value
    return out


def _nearest(locator: Locator, pointer: str) -> int | None:
    parts = pointer.split("/")
    while True:
        line = locator.line("/".join(parts))
        if line is not None or len(parts) <= 1:
            return line
        parts.pop()
