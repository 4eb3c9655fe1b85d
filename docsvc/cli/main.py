"""The ``docsvc`` root command: global options, error mapping, and the command groups."""

from __future__ import annotations

import atexit
import importlib
import os
import sys
from typing import NoReturn

import click

from .. import __version__
from .context import set_flag
from .examples import examples

# The modules of docsvc.cli that register commands, in registration order, and the top-level
# commands each registers or adds subcommands to (docflows adds ``items approve`` and more). A
# command loads only the modules that name it (``docsvc mywork`` need not import the other
# eighteen); ``--help``, completion and ``cli.commands`` load them all. A unit test keeps this
# table equal to what the modules do.
COMMAND_MODULES: dict[str, tuple[str, ...]] = {
    "auth": ("login", "logout", "whoami"),
    "config": ("config",),
    "items": ("items",),
    "releases": ("releases",),
    "admin": ("admin",),
    "repos": ("repos", "search", "sync"),
    "ci": ("ci",),
    "docflows": ("docflow", "items"),
    "work": ("mywork",),
    "convert": ("convert",),
    "bundle": ("bundle",),
    "api_readiness": ("api-scan", "validate"),
    "captures": ("capture",),
    "dashboard": ("dashboard",),
    "chat": ("chat",),
    "feature_drafts": ("feature-drafts",),
    "release_notes": ("release-notes",),
    "diagrams": ("diagram",),
    "completion": ("completion",),
}
_MODULES_OF: dict[str, list[str]] = {}
for _module, _commands in COMMAND_MODULES.items():
    for _command in _commands:
        _MODULES_OF.setdefault(_command, []).append(_module)


class DocsvcGroup(click.Group):
    """The root group: error mapping, and commands registered module by module when first needed."""

    def __init__(self, *args, **kwargs) -> None:
        self._pending: list[str] = []  # modules not registered yet (set by ``lazy_modules``)
        self._registering = False
        super().__init__(*args, **kwargs)

    def lazy_modules(self, modules) -> None:
        self._pending = list(modules)

    @property
    def commands(self) -> dict[str, click.Command]:  # type: ignore[override]
        if self._pending and not self._registering:
            self._register(*self._pending)
        return self._commands

    @commands.setter
    def commands(self, value: dict[str, click.Command]) -> None:
        self._commands = value

    def _register(self, *modules: str) -> None:
        for module in modules:
            if module not in self._pending:
                continue
            self._pending.remove(module)
            self._registering = True
            try:
                importlib.import_module(f"{__package__}.{module}").register(self)
            finally:
                self._registering = False

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        modules = _MODULES_OF.get(cmd_name)
        if modules:
            self._register(*modules)
            if cmd_name in self._commands:
                return self._commands[cmd_name]
        return super().get_command(ctx, cmd_name)  # every module, then the name

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except click.exceptions.Exit:
            raise
        except click.ClickException:
            raise
        except Exception as exc:
            from .errors import to_cli_exit

            cli_exit = to_cli_exit(exc)
            if cli_exit is None:
                raise
            raise cli_exit from None


@examples("docsvc login", "docsvc sync --integration-id 1", "docsvc items list docflows --writer me")
@click.group(cls=DocsvcGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="docsvc")
@click.option("--base-url", default=None, metavar="URL",
              help="the service's address (beats DOCSVC_BASE_URL, docsvc.yaml and the user config)")
@click.pass_context
def cli(ctx: click.Context, base_url: str | None) -> None:
    """docsvc: trigger and review documentation operations from scripts and CI.

    Settings, first found wins: flags, the environment (DOCSVC_API_KEY, DOCSVC_BASE_URL),
    ./docsvc.yaml (api_key, base_url, integration_id), the key saved by `docsvc login`;
    `docsvc config list` shows where each came from. Exit codes: 0 ok, 1 failed, 2 bad usage
    or input, 4 authentication or permission, 8 a job still running when --timeout ran out.
    """
    ctx.ensure_object(dict)
    set_flag("base_url", base_url)


cli.lazy_modules(COMMAND_MODULES)


def main() -> NoReturn:
    """The ``docsvc`` command (the console script and ``python -m docsvc``)."""
    try:
        cli.main(prog_name="docsvc")
    except KeyboardInterrupt:  # pragma: no cover - interactive
        click.echo("Interrupted", err=True)
        _exit(130)
    except SystemExit as exc:
        _exit(exc.code)
    _exit(0)


def _exit(code: int | str | None) -> NoReturn:
    """End the process as ``sys.exit(code)`` would, without the interpreter's teardown.

    Freeing every module's objects one by one (pydantic's schemas, httpx, click) takes ~25 ms, a
    fifth of a quick command such as ``docsvc mywork`` and as long as sending a 13 MB spec. What
    must still happen does: atexit handlers run and the standard streams are flushed (a failed
    write fails the command); files are closed by the code that wrote them, sockets by the OS.
    The CLI starts no threads that could still be working."""
    if code is None:
        code = 0
    elif not isinstance(code, int):  # sys.exit("message"): the message on stderr, status 1
        print(code, file=sys.stderr)
        code = 1
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BrokenPipeError:  # the reader went away (docsvc ... | head): nothing left to tell it
            pass
        except (OSError, ValueError):
            code = code or 1
    os._exit(code)
