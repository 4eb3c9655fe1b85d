"""RFC 9457 problem details, the body of every error answer."""

from __future__ import annotations

from typing import Any

from ._base import WireModel


class FieldError(WireModel):
    loc: list[Any] = []
    msg: str = ""


class Problem(WireModel):
    type: str = "about:blank"
    title: str = ""
    status: int | None = None
    detail: str | None = None
    errors: list[FieldError] | None = None
