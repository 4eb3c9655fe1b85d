"""Exit codes of the CLI and the CI entrypoint (DESIGN.md), and the one rule that turns a client
error into a one-line message and its code; the CLI and the CI layer both use it."""

from __future__ import annotations

OK = 0
FAILED = 1  # the operation failed: an API error, a failed job
USAGE = 2  # bad usage or bad input (click's own code for usage errors)
AUTH = 4  # authentication or permission
TIMEOUT = 8  # a job was still running when --timeout ran out


def for_error(exc: BaseException) -> tuple[str, int] | None:
    """(message, exit code) for a known client exception, or None when it is not one of ours."""
    from .client import errors as e

    if isinstance(exc, e.JobTimeoutError):
        return str(exc), TIMEOUT
    if isinstance(exc, (e.ClientSetupError, e.UnencodableTextError)):  # bad input: nothing was sent
        return str(exc), USAGE
    if isinstance(exc, (e.AuthenticationError, e.PermissionDeniedError)):
        return _status_message(exc), AUTH
    if isinstance(exc, e.APIStatusError):
        return _status_message(exc), FAILED
    if isinstance(exc, e.DocsvcError):  # a refused connection, a malformed answer, ...
        return str(exc), FAILED
    return None


def _status_message(exc) -> str:
    problem = getattr(exc, "problem", None)
    detail = getattr(problem, "detail", None) if problem is not None else None
    return detail or str(exc)
