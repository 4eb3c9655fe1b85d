"""``docsvc completion SHELL`` [addition]: the shell completion script, from click's own completion."""

from __future__ import annotations

import click

from .examples import examples

SHELLS = ("bash", "zsh", "fish")


@examples(
    "docsvc completion bash > ~/.local/share/bash-completion/completions/docsvc",
    'docsvc completion zsh > "${fpath[1]}/_docsvc"',
    "docsvc completion fish > ~/.config/fish/completions/docsvc.fish",
)
@click.command()
@click.argument("shell", type=click.Choice(SHELLS))
@click.pass_context
def completion(ctx: click.Context, shell: str) -> None:
    """[addition] Print the completion script for SHELL (bash, zsh or fish); load it in your shell's rc file."""
    from click.shell_completion import get_completion_class

    cls = get_completion_class(shell)
    root = ctx.find_root()
    click.echo(cls(root.command, {}, root.info_name or "docsvc", "_DOCSVC_COMPLETE").source())


def register(cli: click.Group) -> None:
    cli.add_command(completion)
