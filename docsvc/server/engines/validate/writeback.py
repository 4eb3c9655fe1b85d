"""Changed data written back into the YAML text it was read from, in that text's own form.

A fixed spec goes back to its repository as a pull request, and its reviewer must see the fixed
lines and nothing else. So a YAML spec is not re-serialised: ruamel.yaml's round trip keeps
comments, key order, quoting and flow or block style, the indentation is the file's own (guessed
from its lines), and only the nodes that differ between ``before`` (the data as read) and
``after`` (as the stages left it) are touched. Both are as ``specload`` reads them, so its YAML 1.1
reading and ruamel's 1.2 one never meet on an untouched value. Where ruamel's output of the
untouched text still differs from the text (odd spacing), only the changed lines are carried
into the original.

The result must read back as ``after``; when it does not, or the text is too large for a pure
Python round trip, ``rewrite`` answers ``None`` and the caller writes the data out plainly.
"""

from __future__ import annotations

import difflib
import io
import re
from collections import Counter
from typing import Any

__all__ = ["rewrite", "MAX_CHARS"]

MAX_CHARS = 4_000_000  # ruamel's round trip is pure Python: larger specs are written plainly


class _CannotKeep(Exception):
    """The change cannot be placed in the text's own nodes."""


def rewrite(text: str, before: Any, after: Any) -> str | None:
    """``text`` changed from ``before`` to ``after``, in the text's own form; None when it cannot."""
    if before == after:
        return text
    if len(text) > MAX_CHARS:
        return None
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    from ....specload import SpecError, load

    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.width = 1 << 16  # never re-wrap a long line
    mapping, offset = _indents(text)
    yaml.indent(mapping=mapping, sequence=offset + 2, offset=offset)
    try:
        tree = yaml.load(text)
        untouched = _dump(yaml, tree)
        tree = _apply(tree, before, after)
        changed = _dump(yaml, tree)
    except (_CannotKeep, YAMLError, RecursionError, TypeError, ValueError):
        return None
    out = changed if untouched == text else _carry(text, untouched, changed)
    try:
        return out if out is not None and load(out).data == after else None
    except SpecError:
        return None


def _dump(yaml, tree) -> str:
    stream = io.StringIO()
    yaml.dump(tree, stream)
    return stream.getvalue()


def _indents(text: str) -> tuple[int, int]:
    """(mapping indent, offset of a sequence's dash under its key), the ones the file uses most."""
    maps: Counter[int] = Counter()
    dashes: Counter[int] = Counter()
    previous = None
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        indent = len(line) - len(line.lstrip(" "))
        if previous is not None and re.match(r"^[^#'\"\[{-][^#]*:\s*(#.*)?$", previous[1]):
            step = indent - previous[0]
            if stripped == "-" or stripped.startswith("- "):
                dashes[step] += 1
            elif step > 0:
                maps[step] += 1
        previous = (indent, stripped)
    return (maps.most_common(1)[0][0] if maps else 2), (dashes.most_common(1)[0][0] if dashes else 0)


def _as_key(key: Any) -> str:
    """A mapping key as specload makes it: ``200`` -> "200", ``true`` -> "true", ``~`` -> "null"."""
    return "null" if key is None else (str(key).lower() if isinstance(key, bool) else str(key))


def _apply(node: Any, before: Any, after: Any) -> Any:
    """``node`` (ruamel's) changed where ``before`` and ``after`` differ; the node itself when it
    can be changed in place, else what replaces it."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq
    from ruamel.yaml.scalarstring import ScalarString

    if before == after:
        return node
    if isinstance(node, CommentedMap) and isinstance(before, dict) and isinstance(after, dict):
        _apply_map(node, before, after)
        return node
    if isinstance(node, CommentedSeq) and isinstance(before, list) and isinstance(after, list):
        shared = min(len(before), len(after))
        if len(node) != len(before):
            raise _CannotKeep("the sequence differs from what was read")
        for i in range(shared):
            node[i] = _apply(node[i], before[i], after[i])
        del node[shared:]
        node.extend(after[shared:])
        return node
    if isinstance(node, ScalarString) and isinstance(after, str):
        return type(node)(after)  # the same quoting
    return after


def _apply_map(node, before: dict, after: dict) -> None:
    real = {}
    for key in node:
        real.setdefault(_as_key(key), key)
    removed = [k for k in before if k not in after]
    added = [k for k in after if k not in before]
    old_order, new_order = list(before), list(after)
    for new in list(added):  # a key renamed in place (a path's trailing slash): same value, or same spot
        old = next((k for k in removed if before[k] == after[new]), None) or next(
            (k for k in removed if old_order.index(k) == new_order.index(new)), None)
        if old is None or old not in real:
            continue
        real_old = real.pop(old)
        position = list(node).index(real_old)
        value = node.pop(real_old)
        comment = node.ca.items.pop(real_old, None)
        node.insert(position, new, _apply(value, before[old], after[new]))
        if comment is not None:
            node.ca.items[new] = comment
        removed.remove(old)
        added.remove(new)
        real[new] = new
    for key in removed:
        if key not in real:
            raise _CannotKeep(f"no key {key!r} in the text")
        del node[real.pop(key)]
    order = list(after)
    for key in added:
        earlier = [k for k in order[:order.index(key)] if k in real]
        position = list(node).index(real[earlier[-1]]) + 1 if earlier else 0
        node.insert(position, key, after[key])
        real[key] = key
    for key in after:
        if key in before and key not in added and before[key] != after[key]:
            if key not in real:
                raise _CannotKeep(f"no key {key!r} in the text")
            node[real[key]] = _apply(node[real[key]], before[key], after[key])


def _carry(original: str, untouched: str, changed: str) -> str | None:
    """The edits from ``untouched`` to ``changed`` made on ``original`` (which differs from
    ``untouched`` by spacing only): each changed run of lines must sit where both agree."""
    a, b, o = (s.splitlines(keepends=True) for s in (untouched, changed, original))
    where: dict[int, int] = {}  # line of ``untouched`` -> the same line of ``original``
    for tag, i1, i2, j1, _ in difflib.SequenceMatcher(None, a, o, autojunk=False).get_opcodes():
        if tag == "equal":
            where.update({i1 + k: j1 + k for k in range(i2 - i1)})
    out, done = [], 0
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        if i1 < i2:
            if any(i not in where for i in range(i1, i2)) or where[i2 - 1] - where[i1] != i2 - i1 - 1:
                return None
            start, end = where[i1], where[i2 - 1] + 1
        elif i1 - 1 in where:
            start = end = where[i1 - 1] + 1
        elif i1 in where:
            start = end = where[i1]
        else:
            return None
        if start < done:
            return None
        out += o[done:start] + b[j1:j2]
        done = end
    return "".join(out + o[done:])
