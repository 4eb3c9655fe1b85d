"""Typed client of the docsvc HTTP API.

    from docsvc.client import Client

    with Client(api_key, "https://docsvc.example.com") as client:
        ref = client.repos.sync(integration_id=7)
        job = client.jobs.wait(ref.job_id, timeout=600)

Importing this package loads httpx and the client machinery only; pydantic and the wire
models of a resource group load when that group is first used.
"""

from .. import _httpx_cli  # noqa: F401  (first: before anything imports httpx)
from ._base import DEFAULT_TIMEOUT
from ._client import Client
from ._types import NOT_GIVEN, NotGiven
from .errors import (
    APIConnectionError,
    APIResponseValidationError,
    APIStatusError,
    APITimeoutError,
    AuthenticationError,
    BadRequestError,
    ClientSetupError,
    ConflictError,
    DocsvcError,
    InsufficientCreditsError,
    InternalServerError,
    JobTimeoutError,
    NotFoundError,
    NotImplementedByServiceError,
    PayloadTooLargeError,
    PermissionDeniedError,
    RateLimitError,
    UnencodableTextError,
    UnprocessableEntityError,
    error_for_status,
)

__all__ = [
    "Client",
    "DEFAULT_TIMEOUT",
    "NOT_GIVEN",
    "NotGiven",
    "DocsvcError",
    "ClientSetupError",
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
    "UnencodableTextError",
    "UnprocessableEntityError",
    "RateLimitError",
    "NotImplementedByServiceError",
    "InternalServerError",
    "JobTimeoutError",
    "error_for_status",
]
