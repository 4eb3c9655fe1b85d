"""Lines of many JSON pointers at once.

``specload.Locator`` finds one pointer by descending from the top, skipping siblings; for thousands
of findings in a 13 MB JSON document that re-reads the same prefixes thousands of times. Here the
pointers are put in a trie and the text is descended once: siblings no pointer goes into are
skipped with the C decoder, members that some pointer goes into are entered. YAML texts use
``Locator`` (its composed tree makes each look-up cheap).
"""

from __future__ import annotations

import bisect
import json
import re
from typing import Iterable

from ..specload import Locator

_WS = re.compile(r"[ \t\n\r]*")


def _parts(pointer: str) -> list[str]:
    return [p.replace("~1", "/").replace("~0", "~") for p in pointer.split("/")[1:]] if pointer else []


def lines_for(text: str, syntax: str, pointers: Iterable[str]) -> dict[str, int | None]:
    pointers = set(pointers)
    if syntax != "json":
        locator = Locator(text)
        return {p: _nearest(locator, p) for p in pointers}
    trie: dict = {}
    for p in pointers:
        node = trie
        for part in _parts(p):
            node = node.setdefault(part, {})
        node.setdefault(None, []).append(p)
    found: dict[str, int] = {}
    reached: dict[int, int] = {}
    newlines = [m.start() for m in re.finditer("\n", text)]
    decoder = json.JSONDecoder()

    def line(offset: int) -> int:
        return bisect.bisect_left(newlines, offset) + 1

    start = _WS.match(text, 0).end()
    if text.startswith("\ufeff", start):
        start = _WS.match(text, start + 1).end()
    # iterative descent: (trie node, offset of the value, offset to report)
    stack = [(trie, start, start)]
    try:
        while stack:
            node, pos, report_at = stack.pop()
            reached[id(node)] = line(report_at)
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
                    _, pos = decoder.raw_decode(text, pos)
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
                    _, pos = decoder.raw_decode(text, pos)
                    pos = _WS.match(text, pos).end()
                    if text[pos] == ",":
                        pos = _WS.match(text, pos + 1).end()
                    index += 1
    except (ValueError, IndexError):
        pass
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
