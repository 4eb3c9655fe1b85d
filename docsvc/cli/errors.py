"""Client exceptions become one ``Error: ...`` line and a typed exit code; never a traceback."""

from __future__ import annotations

from ..exit_codes import for_error
from .context import CliExit


def to_cli_exit(exc: Exception) -> CliExit | None:
    """The CliExit for a known client exception, or None when it is not one of ours."""
    failure = for_error(exc)
    return CliExit(*failure) if failure is not None else None
