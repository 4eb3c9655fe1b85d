"""RFC 9457 problem+json errors: services raise ``Problem``; the app renders it.

Status codes are DESIGN.md's: 400 malformed body, 401 missing or unknown key, 403 role not allowed,
404 unknown id or an id of another organisation (never leak existence), 409 state conflict,
422 invalid value, 402 not enough credits, 413 body too large, 429 rate limited.
"""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

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


def invalid(field: str, msg: str) -> Problem:
    return Problem(422, f"{field}: {msg}", errors=[{"loc": ["body", field], "msg": msg}])


def forbidden(detail: str) -> Problem:
    return Problem(403, detail)


def conflict(detail: str) -> Problem:
    return Problem(409, detail)
