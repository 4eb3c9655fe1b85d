"""Turning an ``httpx.Response`` into data, a typed model or an exception.

Pydantic is imported here only inside the functions, the first time an answer is cast or an
error body is parsed, so importing the client does not pay for it.
"""

from __future__ import annotations

import functools
import json
from typing import Any

import httpx

from .errors import APIResponseValidationError, APIStatusError, error_for_status

__all__ = ["read_body", "cast_to", "status_error", "next_link", "describe"]

# How much of a non-problem error body goes into the synthesised problem detail.
_MAX_BODY_TEXT = 500


def describe(response: httpx.Response) -> str:
    """``GET /api/v1/items/docflows``: which call an answer belongs to, for messages.

    Only the method and path: the query string could carry user data and never helps here.
    """
    return f"{response.request.method} {response.request.url.path}"


def read_body(response: httpx.Response, *, raw_text: bool = False) -> Any:
    """The decoded body of a success answer: text, parsed JSON, or None when empty (204)."""
    if raw_text:
        return response.text
    if response.status_code == 204 or not response.content:
        return None
    try:
        return response.json()
    except ValueError:
        content_type = response.headers.get("content-type", "no content type")
        raise APIResponseValidationError(
            f"{describe(response)}: the answer is not JSON ({content_type}); "
            "is the base URL that of the docsvc service?"
        ) from None


@functools.lru_cache(maxsize=None)
def _adapter(tp: Any) -> Any:
    from pydantic import TypeAdapter

    return TypeAdapter(tp)


def cast_to(cast: Any, data: Any, *, what: str, empty_ok: bool = False) -> Any:
    """Validate ``data`` as ``cast`` (a model class or a type such as ``list[Item]``).

    ``cast=None`` returns the data unchanged. No data (an empty or ``null`` body) is returned
    as None only when ``empty_ok`` (an endpoint documented to answer 204); otherwise it is an
    APIResponseValidationError, as a method typed to return a model must not return None.
    Unknown fields are kept: every wire model allows extras, because the hosted service may
    send fields we do not know.
    """
    if cast is None:
        return data
    if data is None:
        if empty_ok:
            return None
        raise APIResponseValidationError(f"{what}: an empty answer where data was expected")
    from pydantic import ValidationError

    try:
        return _adapter(cast).validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "body"
        raise APIResponseValidationError(
            f"{what}: unexpected answer shape ({exc.error_count()} error(s); "
            f"first at {where}: {first['msg']})"
        ) from None


def status_error(response: httpx.Response, *, secret: str | None = None) -> APIStatusError:
    """The exception for an error answer, with its problem+json parsed.

    Answers that are not problem+json (a proxy's HTML page, plain text) become a problem whose
    detail is the body text, shortened. ``secret`` (the API key) is blanked out of the body
    first, in case a server echoes it back.
    """
    from pydantic import ValidationError

    from docsvc.models.problem import Problem

    status = response.status_code
    text = response.text
    if secret:
        text = text.replace(secret, "[redacted]")
    problem = None
    try:
        data = json.loads(text) if text.strip() else None
    except ValueError:
        data = None
    if isinstance(data, dict):
        try:
            problem = Problem.model_validate({"status": status, **data})
        except ValidationError:
            problem = None
    if problem is None:
        body = " ".join(text.split())
        if len(body) > _MAX_BODY_TEXT:
            body = body[: _MAX_BODY_TEXT - 1] + "…"
        problem = Problem(status=status, title="", detail=body or None)
    return error_for_status(status)(status, problem, response.headers)


def next_link(response: httpx.Response) -> httpx.URL | None:
    """The absolute URL of the RFC 8288 ``rel="next"`` link, or None."""
    for link in response.links.values():
        if "next" in (link.get("rel") or "").lower().split() and link.get("url"):
            return response.url.join(link["url"])
    return None
