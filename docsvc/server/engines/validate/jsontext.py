"""The pre-processed JSON text (``json.dumps(data, indent=2, ensure_ascii=False) + "\\n"``), built
faster and without the peak memory ``json.dumps`` needs.

With ``indent`` Python 3.11's ``json`` runs its pure-Python encoder: a generator per container
yielding one small string per token, which ``dumps`` joins from a list (for GitHub's 13 MB
description that list costs more than the text itself, ~100 MiB at the peak).

Here the same text is written by :func:`_encode` — one recursive call per container, scalars
through the same C string escaper and ``repr``s ``json`` uses, siblings joined in C — in pieces
of a few levels (:func:`_pieces`). The pieces are compared with the text the document was read
from; most published descriptions are already written this way, and then the answer *is* that
text (or that text plus the final newline): no second copy is built. From the first difference on,
the pieces go into a ``StringIO``. Anything :func:`_encode` does not write exactly like ``json``
(a key that is not a string, a value that is not JSON, nesting too deep for it, a circular
structure) sends the whole document through ``json`` itself, so the result is always the string
``json.dumps`` gives.
"""

from __future__ import annotations

import io
import json
from itertools import islice
from json.encoder import encode_basestring  # the C escaper json uses with ensure_ascii=False
from typing import Any, Iterator

_BATCH = 4096  # json's chunks joined at a time on the fallback path
_PIECE_DEPTH = 3  # levels split into separate pieces; below them a subtree is one string
_INF = float("inf")


class _NotPlain(Exception):
    """The value needs json's own handling (non-string key, non-JSON type)."""


def _float(o: float) -> str:
    if o != o:
        return "NaN"
    if o == _INF:
        return "Infinity"
    if o == -_INF:
        return "-Infinity"
    return float.__repr__(o)


def _encode(o: Any, level: int) -> str:
    """``o`` as json.dumps(indent=2) writes it at nesting ``level``."""
    if isinstance(o, str):
        return encode_basestring(o)
    if o is None:
        return "null"
    if o is True:
        return "true"
    if o is False:
        return "false"
    if isinstance(o, int):
        return int.__repr__(o)
    if isinstance(o, float):
        return _float(o)
    if isinstance(o, (list, tuple)):
        if not o:
            return "[]"
        inner = "\n" + "  " * (level + 1)
        return "[" + inner + ("," + inner).join([_encode(v, level + 1) for v in o]) + "\n" + "  " * level + "]"
    if isinstance(o, dict):
        if not o:
            return "{}"
        inner = "\n" + "  " * (level + 1)
        return "{" + inner + ("," + inner).join([_key(k) + ": " + _encode(v, level + 1) for k, v in o.items()]) \
            + "\n" + "  " * level + "}"
    raise _NotPlain


def _key(k: Any) -> str:
    if isinstance(k, str):
        return encode_basestring(k)
    raise _NotPlain  # json converts int/float/bool/None keys: let it


def _pieces(o: Any, level: int, depth: int) -> Iterator[str]:
    """Strings whose concatenation is ``_encode(o, level)``; the top ``depth`` levels split."""
    if depth == 0 or not o or not isinstance(o, (dict, list, tuple)):
        yield _encode(o, level)
        return
    inner = "\n" + "  " * (level + 1)
    if isinstance(o, dict):
        yield "{"
        separator = inner
        for k, v in o.items():
            yield separator + _key(k) + ": "
            separator = "," + inner
            yield from _pieces(v, level + 1, depth - 1)
        yield "\n" + "  " * level + "}"
    else:
        yield "["
        separator = inner
        for v in o:
            yield separator
            separator = "," + inner
            yield from _pieces(v, level + 1, depth - 1)
        yield "\n" + "  " * level + "]"


def written_as_json(data: Any, original: str) -> bool:
    """Whether ``original`` is exactly ``json.dumps(data, indent=2, ensure_ascii=False)``, with or
    without the final newline: then it is the pre-processed text itself (or that plus "\\n"), and
    the caller can let go of ``data`` before building it."""
    try:
        return _matched(_pieces(data, 0, _PIECE_DEPTH), original)[0]
    except (_NotPlain, RecursionError):
        return False  # such data is left to json (dumps_indented)


def dumps_indented(data: Any, original: str | None = None) -> str:
    """``json.dumps(data, indent=2, ensure_ascii=False) + "\\n"``; ``original`` is the text ``data``
    was parsed from (or None), returned itself when it already is that string."""
    try:
        return _write(_pieces(data, 0, _PIECE_DEPTH), original)
    except (_NotPlain, RecursionError):
        chunks = json.JSONEncoder(indent=2, ensure_ascii=False).iterencode(data)
        return _write(("".join(batch) for batch in iter(lambda: list(islice(chunks, _BATCH)), [])), original)


def _matched(pieces: Iterator[str], original: str) -> tuple[bool, int, str]:
    """(every piece matched and only a final newline or nothing is left, offset reached, the first
    piece that did not match or "")."""
    pos = 0
    for piece in pieces:
        if not original.startswith(piece, pos):
            return False, pos, piece
        pos += len(piece)
    return len(original) == pos or (len(original) == pos + 1 and original.endswith("\n")), pos, ""


def _write(pieces: Iterator[str], original: str | None) -> str:
    """The pieces plus a newline, as ``original`` itself while they match its start."""
    pos, piece = 0, ""
    if original is not None:
        same, pos, piece = _matched(pieces, original)
        if same:
            return original if len(original) == pos + 1 else original + "\n"
        if not piece:  # all pieces matched but more text follows: the answer is a prefix of it
            return original[:pos] + "\n"
    out = io.StringIO()
    if pos:
        out.write(original[:pos])  # type: ignore[index]
    out.write(piece)
    for piece in pieces:
        out.write(piece)
    out.write("\n")
    return out.getvalue()
