"""Settings and the API client for a command, built on first use so that ``--help`` and usage
errors never need a key, and a missing key stops every command before any network call."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Iterator

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


def check_writable(path: Path, name: str) -> None:
    """Stop with one ``Error: NAME PATH: cannot be written: why`` line, exit 2, when the file the user
    named with ``name`` (``--output``; "" for a path that speaks for itself) cannot be written: before
    the work that would fill it is done."""
    from ..files import unwritable

    if (why := unwritable(path)) is not None:
        raise CliExit(f"{_named(name, path)}: cannot be written: {why}", exit_codes.USAGE)


@contextlib.contextmanager
def writing(path: Path, name: str, saved: str | None = None) -> Iterator[None]:
    """``with writing(path, "--output"):`` around a write of a file the user named: an OSError is one
    line naming it and why, and what was ``saved`` anyway; exit 2 when the path itself is the
    cause, else 1 (a full disk). Every command that writes a user's file goes through here."""
    from ..files import unwritable

    try:
        yield
    except OSError as exc:
        why = unwritable(path)
        code = exit_codes.USAGE if why is not None else exit_codes.FAILED
        why = why or exc.strerror or str(exc)
        raise CliExit(f"{_named(name, path)}: cannot be written: {why}" + (f"; {saved}" if saved else ""),
                      code) from None


def _named(name: str, path: Path) -> str:
    return f"{name} {path}" if name else str(path)


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
