"""A spec sent as a multipart file part (convert, validate): the name the service calls it by in
its answers, and the 422s that refuse it, worded alike on both endpoints."""

from __future__ import annotations

from pathlib import PurePosixPath

from ...specload import SpecError
from ..problems import Problem, invalid

__all__ = ["upload_name", "not_utf8", "spec_refused"]


def upload_name(filename: str | None, fallback: str) -> str:
    """The file part's own name, without any folder the client sent and bounded, to show in answers."""
    return PurePosixPath((filename or "").replace("\\", "/")).name.strip()[:200] or fallback


def not_utf8(name: str, exc: UnicodeDecodeError) -> Problem:
    return invalid("file", f"{name}: not UTF-8 text (byte {exc.start}); is it a spec?")


def spec_refused(field: str, exc: SpecError, name: str | None = None) -> Problem:
    """The 422 for a spec that does not load (with its line where known), on ``field``."""
    shown = f"{name}: {exc}" if name else str(exc)
    return Problem(422, f"{field}: {shown}", errors=[{"loc": ["body", field], "msg": str(exc)}],
                   extra={"line": exc.line} if exc.line else None)
