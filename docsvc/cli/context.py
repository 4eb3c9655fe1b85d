"""Settings and the API client for a command, built on first use so that ``--help`` and usage
errors never need a key, and a missing key stops every command before any network call."""

from __future__ import annotations

from pathlib import Path

import click

from ..config import ConfigError, Settings, git_tracks, load_settings
from .. import exit_codes
from .output import say, status


class CliExit(click.ClickException):
    """A one-line ``Error: ...`` with a chosen exit code."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.exit_code = code

    def show(self, file=None) -> None:
        say(f"Error: {self.message}", err=True)


def read_text_input(source: str | Path, name: str) -> str:
    """The text of a file the user named with ``name`` (``--brief-file``), ``-`` for stdin, as one
    ``Error: NAME SOURCE: why`` line, exit 2, when it cannot be read or is not UTF-8. Every
    command that reads a user's text file goes through here."""
    from ..files import Unreadable, decode_text, read_text

    try:
        if str(source) == "-":
            import sys

            return decode_text(sys.stdin.buffer.read())  # bytes: stdin's own decoding would raise
        return read_text(source)
    except Unreadable as exc:
        raise CliExit(f"{name} {'stdin' if str(source) == '-' else source}: {exc}", exit_codes.USAGE) from None


def settings() -> Settings:
    ctx = click.get_current_context()
    root = ctx.find_root()
    root.ensure_object(dict)
    if "settings" not in root.obj:
        try:
            loaded = load_settings(flags=root.obj.get("flags"))
        except ConfigError as exc:
            raise CliExit(str(exc), exit_codes.USAGE) from None
        if loaded.config_path is not None and git_tracks(loaded.config_path):
            status(f"Warning: git tracks {loaded.config_path.name}, which holds a secret; "
                   f"remove it (git rm --cached {loaded.config_path.name}) and add it to .gitignore")
        root.obj["settings"] = loaded
    return root.obj["settings"]


def set_flag(name: str, value: str | None) -> None:
    """A command-line value for a setting (the strongest source); before the settings are read."""
    root = click.get_current_context().find_root()
    root.ensure_object(dict)
    if value is not None:
        root.obj.setdefault("flags", {})[name] = value


def client(api_key: str | None = None):
    """The API client for this command (closed by the root group when the command ends).
    ``api_key`` overrides the configured key (``login`` checks a key before saving it)."""
    ctx = click.get_current_context()
    root = ctx.find_root()
    root.ensure_object(dict)
    # The command's own context outlives it here: an error met later names its arguments (errors.py).
    root.obj["command_context"] = ctx
    current = settings()
    key = api_key or current.api_key
    if not key:
        # Exactly this line, exit 4, before any network call (interface: Errors).
        click.echo("Error: DOCSVC_API_KEY missing", err=True)
        ctx.exit(exit_codes.AUTH)
    if "client" not in root.obj:
        from ..client import Client

        made = root.with_resource(Client(key, current.base_url))
        root.with_resource(made.deadline(root.obj.get("deadline")))  # --timeout bounds every request
        root.obj["client"] = made
    return root.obj["client"]


def my_user_id() -> int:
    """The caller's own user id (for ``--claim`` and ``--writer me``)."""
    ctx = click.get_current_context().find_root()
    if "me" not in ctx.obj:
        ctx.obj["me"] = client().me.get()
    return ctx.obj["me"].id
