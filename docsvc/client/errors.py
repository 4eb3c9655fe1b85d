"""Exceptions raised by the client.

Every exception derives from ``DocsvcError`` so callers can catch the whole family at once.
An HTTP error answer becomes the ``APIStatusError`` subclass for its status, carrying the
RFC 9457 problem the service sent. None of them holds the request (whose headers carry the
API key), so no message, repr or traceback can show the key.

This module imports neither pydantic nor the wire models: ``import docsvc.client`` stays light,
and the ``Problem`` model is loaded only when an error is actually built from a mapping.
"""

from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING, Any, Mapping

from ._retry import parse_retry_after

if TYPE_CHECKING:
    from docsvc.models.jobs import Job
    from docsvc.models.problem import Problem

__all__ = [
    "DocsvcError",
    "ClientSetupError",
    "UnencodableTextError",
    "APIConnectionError",
    "APITimeoutError",
    "APIResponseValidationError",
    "APIStatusError",
    "BadRequestError",
    "AuthenticationError",
    "InsufficientCreditsError",
    "PermissionDeniedError",
    "NotFoundError",
    "ConflictError",
    "PayloadTooLargeError",
    "UnprocessableEntityError",
    "RateLimitError",
    "NotImplementedByServiceError",
    "InternalServerError",
    "JobTimeoutError",
    "error_for_status",
]

# Longest detail kept in a one-line message; the full problem stays on the exception.
_MAX_DETAIL = 300


class DocsvcError(Exception):
    """Base of every error raised by the docsvc client."""


class ClientSetupError(DocsvcError, ValueError):
    """The client cannot be set up as configured: a malformed base URL, or a proxy or CA-bundle
    variable of the environment that names nothing usable. Bad input, not a failed request: the
    message names the setting and never a secret in it (a proxy URL's password)."""


class UnencodableTextError(DocsvcError, ValueError):
    """A text of the request cannot be sent: it holds lone surrogates, which is how Python keeps
    bytes that were not UTF-8 (in a command-line argument, say). Bad input, found before anything
    is sent. ``field`` says where in the request (``title``, ``steps[0].text``; None if unknown);
    ``value`` is the text, for a caller that can name where it came from. The message never
    shows the text."""

    reason = "not UTF-8 text (it holds bytes that are not valid UTF-8)"

    def __init__(self, field: str | None, value: str | None = None) -> None:
        super().__init__(f"{field or 'the request'}: {self.reason}")
        self.field = field
        self.value = value


class APIConnectionError(DocsvcError):
    """The service could not be reached, or the connection broke (after all retries).

    ``unreachable`` is True when no connection was made at all (refused, unknown host): the
    service is not there, rather than slow or cut off mid-answer.
    """

    def __init__(self, message: str = "Connection error.", *, unreachable: bool = False) -> None:
        super().__init__(message)
        self.unreachable = unreachable


class APITimeoutError(APIConnectionError):
    """A connect, read, write or pool time-out ran out (after all retries), or the client's
    ``deadline()`` did (``deadline`` is True then: the time limit of the whole block, not one
    slow request)."""

    def __init__(self, message: str = "Request timed out.", *, deadline: bool = False) -> None:
        super().__init__(message)
        self.deadline = deadline


class APIResponseValidationError(DocsvcError):
    """A success answer whose body is not what the endpoint returns (not JSON, wrong shape).

    Usually a proxy or a wrong base URL answering in the service's place.
    """


def _one_line(text: str, limit: int = _MAX_DETAIL) -> str:
    text = re.sub(r"\s+", " ", text).strip()
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _reason_phrase(status_code: int) -> str:
    from http import HTTPStatus

    try:
        return HTTPStatus(status_code).phrase
    except ValueError:
        return ""


class APIStatusError(DocsvcError):
    """The service answered with a non-2xx status.

    ``problem`` is the parsed ``application/problem+json`` body (synthesised from the reason
    phrase and the body text when the answer was not problem+json); ``headers`` are the
    answer's headers; ``retry_after`` is the server's ``Retry-After`` in seconds, or None.
    ``str()`` is one line: ``404 Not Found: Item 12 not found``.
    """

    def __init__(
        self,
        status_code: int,
        problem: Problem | Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        if problem is None or isinstance(problem, Mapping):
            from docsvc.models.problem import Problem  # lazy: pydantic only on this path

            problem = Problem.model_validate({"status": status_code, **(problem or {})})
        self.status_code = status_code
        self.problem = problem
        self.headers: Mapping[str, str] = headers if headers is not None else {}
        # Measured now: an HTTP-date Retry-After means less and less as time passes.
        self.retry_after: float | None = parse_retry_after(
            self.headers.get("retry-after"), now=time.time()
        )
        super().__init__(self._message())

    @property
    def title(self) -> str:
        return self.problem.title or _reason_phrase(self.status_code)

    @property
    def detail(self) -> str | None:
        """The problem's detail; for a validation problem without one, its field errors."""
        if self.problem.detail:
            return self.problem.detail
        errors = self.problem.errors or []
        if errors:
            return "; ".join(
                (".".join(str(part) for part in error.loc) + f": {error.msg}")
                if error.loc
                else error.msg
                for error in errors
            )
        return None

    def _message(self) -> str:
        head = f"{self.status_code} {_one_line(self.title)}".rstrip()
        detail = self.detail
        return f"{head}: {_one_line(detail)}" if detail else head

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self})"

    def __reduce__(self) -> Any:  # picklable (e.g. raised in a multiprocessing worker)
        return type(self), (self.status_code, self.problem, dict(self.headers))


class BadRequestError(APIStatusError):
    """400: the request body is malformed."""


class AuthenticationError(APIStatusError):
    """401: the API key is missing or unknown."""


class InsufficientCreditsError(APIStatusError):
    """402: the organisation does not have enough credits for the action."""


class PermissionDeniedError(APIStatusError):
    """403: the caller's role may not do this."""


class NotFoundError(APIStatusError):
    """404: no such record (or one of another organisation, which is not revealed)."""


class ConflictError(APIStatusError):
    """409: the record's state does not allow the action (e.g. a dismissed suggestion)."""


class PayloadTooLargeError(APIStatusError):
    """413: the body (e.g. uploaded screenshots) is larger than the service accepts."""


class UnprocessableEntityError(APIStatusError):
    """422: a value is invalid; ``problem.errors`` lists the fields."""


class RateLimitError(APIStatusError):
    """429: too many requests; ``retry_after`` says when to come back."""


class NotImplementedByServiceError(APIStatusError):
    """501: this service does not implement the endpoint."""


class InternalServerError(APIStatusError):
    """A 5xx other than 501: the service or a gateway in front of it failed."""


_BY_STATUS: dict[int, type[APIStatusError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    402: InsufficientCreditsError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    413: PayloadTooLargeError,
    422: UnprocessableEntityError,
    429: RateLimitError,
    501: NotImplementedByServiceError,
}


def error_for_status(status_code: int) -> type[APIStatusError]:
    """The exception class for an HTTP status; ``APIStatusError`` for the unlisted ones."""
    if status_code in _BY_STATUS:
        return _BY_STATUS[status_code]
    if 500 <= status_code <= 599:
        return InternalServerError
    return APIStatusError


class JobTimeoutError(DocsvcError):
    """The job was still running when the wait time-out ran out; ``job`` is its last state.

    The job itself goes on running on the service: wait again, or poll ``jobs.get``.
    """

    def __init__(self, job: Job, timeout: float | None = None) -> None:
        self.job = job
        self.timeout = timeout
        after = f" after {timeout:g} s" if timeout is not None else ""
        super().__init__(f"job {job.job_id} is still {job.status}; stopped waiting{after}")

    def __reduce__(self) -> Any:
        return type(self), (self.job, self.timeout)
