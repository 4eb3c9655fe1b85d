"""``docsvc login``, ``logout`` and ``whoami`` [additions]: a key kept per user, as gh keeps a token.

``login`` checks the key with ``GET /me`` before it saves anything, so a typo never replaces a
working key. The key is read without echo, or from stdin with ``--with-token`` (never from a flag:
flags end up in shell history and process lists).
"""

from __future__ import annotations

import click

from .. import exit_codes
from ..config import USER_SOURCE, ConfigError, key_problem, mask_key, read_user_config, write_user_config
from .context import CliExit, client, read_text_input, set_flag, settings, writing
from .examples import examples
from .output import emit, json_option, status, stdin_is_tty

ROLE_NAMES = {"admin": "System Administrator", "writer": "Writer"}


def _read_key(with_token: bool) -> str:
    if with_token:
        key = read_text_input("-", "--with-token").strip()
    elif stdin_is_tty():
        key = click.prompt("API key", hide_input=True, err=True).strip()
    else:
        raise CliExit("no terminal to ask for the key on; pipe it in with --with-token "
                      "(docsvc login --with-token < key.txt)", exit_codes.USAGE)
    if not key:
        raise CliExit("the API key is empty", exit_codes.USAGE)
    if (problem := key_problem(key)) is not None:
        raise CliExit(f"the API key read from {'stdin' if with_token else 'the prompt'} {problem}", exit_codes.USAGE)
    return key


def _stored() -> tuple:
    """The user config's path and its values (empty when there is none)."""
    try:
        return read_user_config()
    except ConfigError as exc:
        raise CliExit(str(exc), exit_codes.USAGE) from None


def _shadowing(current) -> str | None:
    """The stronger source that hides a key stored by login, if any."""
    source = current.source("api_key")
    return source if source != "default" and not source.startswith(USER_SOURCE) else None


@examples(
    "docsvc login",
    "docsvc login --with-token < key.txt",
    "docsvc login --base-url https://docs.example.com",
)
@click.command()
@click.option("--with-token", is_flag=True, help="read the key from stdin instead of asking for it")
@click.option("--base-url", default=None, metavar="URL",
              help="the service to log in to (default: the configured one, else http://127.0.0.1:8080)")
@json_option
def login(with_token: bool, base_url: str | None, as_json: bool) -> None:
    """[addition] Check an API key with the service and save it for your user (mode 0600)."""
    set_flag("base_url", base_url)
    current = settings()
    key = _read_key(with_token)
    try:
        me = client(api_key=key).me.get()
    except Exception as exc:
        from ..client.errors import AuthenticationError

        if isinstance(exc, AuthenticationError):
            raise CliExit(f"{current.base_url} refused the key ({exc}); nothing was saved", exit_codes.AUTH) from None
        raise
    path, stored = _stored()
    with writing(path, "", saved="the key was not saved"):
        write_user_config(path, {**stored, "api_key": key, "base_url": current.base_url})
    status(f"Logged in to {current.base_url} as {me.name or me.email or me.id} "
           f"({ROLE_NAMES.get(me.role or '', me.role)}, {me.organization}); key saved in {path}")
    if (stronger := _shadowing(current)) is not None:
        status(f"Note: {stronger} sets a key too and takes precedence over the saved one")
    if as_json:
        emit({"user": me, "base_url": current.base_url, "config_path": str(path)}, True, lambda d: [])


@examples("docsvc logout", "docsvc logout && docsvc login --with-token < new-key.txt")
@click.command()
def logout() -> None:
    """[addition] Remove the API key that `docsvc login` saved for your user."""
    path, stored = _stored()
    if not stored.get("api_key"):
        raise CliExit(f"not logged in: no key saved in {path}", exit_codes.FAILED)
    with writing(path, "", saved="the key is still there"):
        write_user_config(path, {k: v for k, v in stored.items() if k != "api_key"})
    status(f"Logged out: removed the key from {path}")


@examples("docsvc whoami", "docsvc whoami --json")
@click.command()
@json_option
def whoami(as_json: bool) -> None:
    """[addition] Show who the key belongs to: user, organisation, role, base URL and the key's source."""
    current = settings()
    me = client().me.get()
    data = {
        "user": me,
        "base_url": current.base_url,
        "base_url_source": current.source("base_url"),
        "api_key": mask_key(current.api_key),
        "api_key_source": current.source("api_key"),
    }

    def render(_) -> list[str]:
        who = " ".join(part for part in (me.name, f"<{me.email}>" if me.email else None) if part)
        return [
            f"User: {who or me.id} (id {me.id})",
            f"Organisation: {me.organization or '-'}",
            f"Role: {ROLE_NAMES.get(me.role or '', me.role or '-')}",
            f"Base URL: {current.base_url} (from {current.source('base_url')})",
            f"API key: {mask_key(current.api_key)} (from {current.source('api_key')})",
        ]

    emit(data, as_json, render)


def register(cli: click.Group) -> None:
    for command in (login, logout, whoami):
        cli.add_command(command)
