"""Client exceptions become one ``Error: ...`` line and a typed exit code; never a traceback."""

from __future__ import annotations

from . import exit_codes
from .context import CliExit


def to_cli_exit(exc: Exception) -> CliExit | None:
    """The CliExit for a known client exception, or None when it is not one of ours."""
    from ..client import errors as e

    if isinstance(exc, e.JobTimeoutError):
        return CliExit(str(exc), exit_codes.TIMEOUT)
    if isinstance(exc, (e.AuthenticationError, e.PermissionDeniedError)):
        return CliExit(_status_message(exc), exit_codes.AUTH)
    if isinstance(exc, e.APIStatusError):
        return CliExit(_status_message(exc), exit_codes.FAILED)
    if isinstance(exc, e.APIConnectionError):
        return CliExit(str(exc), exit_codes.FAILED)
    if isinstance(exc, e.DocsvcError):
        return CliExit(str(exc), exit_codes.FAILED)
    return None


def _status_message(exc) -> str:
    problem = getattr(exc, "problem", None)
    detail = getattr(problem, "detail", None) if problem is not None else None
    return detail or str(exc)
