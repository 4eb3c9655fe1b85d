"""RFC 9457 problem+json errors: services raise ``Problem``; the app renders it.

Status codes are DESIGN.md's: 400 malformed body, 401 missing or unknown key, 403 role not allowed,
404 unknown id or an id of another organisation (never leak existence), 409 state conflict,
422 invalid value, 402 not enough credits, 413 body too large, 429 rate limited.
"""

from __future__ import annotations

from http import HTTPStatus
from typing import Any, Callable

from ..credentials import hidden
from ..models.limits import MAX_ID  # 2**31-1: PostgreSQL's Integer, on both databases

PROBLEM_JSON = "application/problem+json"


class Problem(Exception):
    def __init__(
        self,
        status: int,
        detail: str,
        *,
        title: str | None = None,
        type: str = "about:blank",
        errors: list[dict[str, Any]] | None = None,
        headers: dict[str, str] | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        detail = hidden(detail)  # a detail may quote a repository's URL, token and all
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.title = title or HTTPStatus(status).phrase
        self.type = type
        self.errors = errors
        self.headers = headers or {}
        self.extra = extra or {}

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"type": self.type, "title": self.title, "status": self.status, "detail": self.detail}
        if self.errors is not None:
            body["errors"] = self.errors
        return {**body, **self.extra}


def not_found(what: str, ident: object) -> Problem:
    return Problem(404, f"{what} {ident} not found")


def invalid(field: str, msg: str, where: str = "body") -> Problem:
    """422 for one field; ``where`` is its place in the request (FastAPI's first ``loc`` element):
    ``body``, ``query`` or ``path``."""
    return Problem(422, f"{field}: {msg}", errors=[{"loc": [where, field], "msg": msg}])


def forbidden(detail: str) -> Problem:
    return Problem(403, detail)


def conflict(detail: str) -> Problem:
    return Problem(409, detail)


_MAX_ID_DIGITS = len(str(MAX_ID))
OUT_OF_RANGE = f"a number beyond {MAX_ID} is out of range"


def is_int(value: object) -> bool:
    """A JSON integer as given: not ``true`` (Python's bool is an int), not ``"2"``, not ``2.0``."""
    return isinstance(value, int) and not isinstance(value, bool)


def as_id(text: str) -> int | None:
    """A record id written in a query or a name: ASCII digits only (not ``²``, not ``1_0``), at
    least 1 and at most MAX_ID; None for anything else."""
    text = text.strip()
    if not (text.isascii() and text.isdigit()) or written_beyond_max(text):
        return None
    value = int(text)
    return value if value > 0 else None


def written_beyond_max(text: str) -> bool:
    """Whether ``text`` writes an integer (ASCII digits, a minus before them allowed) beyond MAX_ID,
    judged by its length first: Python's int() refuses more than 4,300 digits (a ValueError, so a
    500), and a path or a query may hold any number of them."""
    digits = text.removeprefix("-")
    if not (digits.isascii() and digits.isdigit()):
        return False
    digits = digits.lstrip("0")
    return len(digits) > _MAX_ID_DIGITS or (len(digits) == _MAX_ID_DIGITS and int(digits) > MAX_ID)


def check_in_range(body: Any) -> None:
    """422 naming the first integer in a parsed JSON body beyond MAX_ID, before anything stores it."""
    if _locate(body, _beyond_max) is not None:
        raise _in_body(OUT_OF_RANGE, body, _beyond_max)


def _locate(value: Any, bad: Callable[[Any], bool], loc: tuple = ()) -> tuple | None:
    """Where in a parsed JSON body (its keys and indexes) the first value that is ``bad`` lies."""
    if bad(value):
        return loc
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        found = _locate(item, bad, (*loc, key))
        if found is not None:
            return found
    return None


def _in_body(msg: str, body: Any, bad: Callable[[Any], bool]) -> Problem:
    """422 naming the body's field that holds a ``bad`` value, or the body when none is found (a
    value the service made from it)."""
    loc = _locate(body, bad) or ()
    where = ".".join(map(str, loc))
    return Problem(422, f"{where}: {msg}" if where else msg, errors=[{"loc": ["body", *loc], "msg": msg}])


def _beyond_max(value: Any) -> bool:
    return is_int(value) and abs(value) > MAX_ID


def _not_unicode(value: Any) -> bool:
    if not isinstance(value, str):
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def for_bad_input(exc: BaseException, params: dict[str, dict[str, Any]], body: Any = None) -> Problem | None:
    """The 4xx a request deserves when it made the service fail on its input rather than on a
    fault of the service: JSON nested too deep to read, a number beyond MAX_ID that a reader let
    through, text the database cannot store (a NUL character, a lone surrogate). ``params`` are the
    request's parameters by place (``{"path": {...}, "query": {...}}``) and ``body`` its JSON body
    as read, to name the field. None: a real fault (500)."""
    cause = getattr(exc, "orig", None) or exc.__cause__ or exc
    reason = f"{type(cause).__name__}: {cause}"
    if isinstance(exc, RecursionError):
        return Problem(400, "The request nests too deeply to be read")
    if (isinstance(cause, OverflowError) or "out of range" in reason or "NumericValueOutOfRange" in reason
            or "integer string conversion" in reason):  # int() of more than 4,300 digits
        for where, values in params.items():
            field = next((k for k, v in values.items() if written_beyond_max(str(v))), None)
            if field:
                return invalid(field, OUT_OF_RANGE, where)
        return _in_body(OUT_OF_RANGE, body, _beyond_max)
    if "NUL" in reason or "\\x00" in reason or "0x00" in reason:
        return _in_body("text may not contain NUL characters", body, lambda v: isinstance(v, str) and "\0" in v)
    if isinstance(cause, UnicodeEncodeError) or "surrogate" in reason:
        return _in_body("text is not valid Unicode (a lone surrogate)", body, _not_unicode)
    return None
