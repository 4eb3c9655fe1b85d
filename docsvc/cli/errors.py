"""Client exceptions become one ``Error: ...`` line and a typed exit code; never a traceback.

At a terminal a bare "401 Unauthorized" leaves a person guessing, so each kind of failure that has
an obvious next step gets it appended, as gh and glab do. The CI layer shares the message and the
exit code (``docsvc.exit_codes``) but not these hints, which speak of commands a pipeline won't run.
"""

from __future__ import annotations

from ..client import errors as e
from ..exit_codes import for_error
from .context import CliExit

__all__ = ["hint_for", "to_cli_exit"]


def hint_for(exc: Exception) -> str | None:
    """The next step for a failure, or None when the message says all there is to say."""
    if isinstance(exc, e.AuthenticationError):
        return "check DOCSVC_API_KEY or run `docsvc login`"
    if isinstance(exc, e.PermissionDeniedError) and not exc.problem.detail:
        return "your role may not do this; ask a System Administrator"
    if isinstance(exc, e.NotFoundError) and (exc.problem.detail or "").strip().lower() in ("", "not found"):
        # No detail of its own ("Item 12 not found" names a record): no such route, or not the
        # service at all (no problem+json) -- the base URL's path is the usual cause.
        return "is the base URL the service's address? see `docsvc config list`"
    if isinstance(exc, e.APIConnectionError) and exc.unreachable:
        return "is the service running? `docsvc-server run` starts the local one"
    return None


def _argument_holding(text: str) -> str | None:
    """The command-line argument or option (``'NEW_TITLE'``, ``'--note'``) whose value holds
    ``text`` or is held in it, in the command that used the client or its groups; None if none.
    (When the error reaches the root group the command's context has ended: ``client()`` kept it.)"""
    import click

    root = click.get_current_context(silent=True)
    ctx = (root.find_root().obj or {}).get("command_context") if root is not None else None
    while ctx is not None:
        for param in ctx.command.params:
            value = ctx.params.get(param.name)
            values = value if isinstance(value, (list, tuple)) else [value]
            if any(isinstance(v, str) and v and (v in text or text in v) for v in values):
                return param.get_error_hint(ctx)
        ctx = ctx.parent
    return None


def to_cli_exit(exc: Exception) -> CliExit | None:
    """The CliExit for a known client exception, or None when it is not one of ours."""
    failure = for_error(exc)
    if failure is None:
        return None
    message, code = failure
    if isinstance(exc, e.UnencodableTextError) and exc.value:
        # Name what the user typed, not the request field it became.
        if (argument := _argument_holding(exc.value)) is not None:
            message = f"{argument} is {exc.reason}"
    hint = hint_for(exc)
    return CliExit(f"{message} ({hint})" if hint else message, code)
