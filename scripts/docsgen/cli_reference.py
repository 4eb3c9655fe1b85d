"""The CLI reference, one Markdown page per top-level command, read from the click commands themselves.

Every command and subcommand gets a heading (its whole command line, so the site's search finds it
by name), its usage line, its help text, a table of its arguments and options (names, type or
choices, default, help) and its examples (the ``@examples`` block ``docsvc.cli.examples`` attaches,
which a meta test parses with the command's own parser). Nothing here is written by hand: a new
option appears on the next build.
"""

from __future__ import annotations

import inspect

import click

from .markdown import cell, slug


def _type_text(param: click.Parameter) -> str:
    kind = param.type
    if isinstance(kind, click.Choice):
        return " \\| ".join(f"`{choice}`" for choice in kind.choices)
    if getattr(param, "is_flag", False):
        return "flag"
    name = getattr(kind, "name", "") or type(kind).__name__
    metavar = param.metavar if isinstance(param, click.Option) and param.metavar else None
    return f"`{metavar}`" if metavar else name.lower()


def _default_text(param: click.Parameter) -> str:
    default = param.default
    # click 8.3's UNSET sentinel, a default computed at run time, or none at all
    if type(default).__name__ == "Sentinel" or callable(default) or default is None or default in ((), [], ""):
        return ""
    if isinstance(param, click.Option) and param.is_flag and not param.secondary_opts:
        return ""  # a plain flag is off unless given
    if isinstance(default, (list, tuple)):
        return ", ".join(f"`{value}`" for value in default)
    return f"`{default}`"


def _names(param: click.Parameter) -> str:
    if isinstance(param, click.Argument):
        return f"`{param.human_readable_name}`"
    names = list(param.opts) + list(param.secondary_opts)
    return " / ".join(f"`{name}`" for name in names)


def _help_of(command: click.Command) -> str:
    text = inspect.cleandoc(command.help or "")
    # click's "\b" marks a block it must not re-wrap; in Markdown a block stays as written anyway.
    return "\n".join(line for line in text.splitlines() if line.strip() != "\b")


def _usage(command: click.Command, path: str) -> str:
    ctx = click.Context(command, info_name=path)
    return " ".join(command.collect_usage_pieces(ctx))


def command_section(command: click.Command, path: str, level: int) -> list[str]:
    """The Markdown of one command and, below it, each of its subcommands."""
    lines = [f"{'#' * level} `{path}`", ""]
    if command.deprecated:
        lines += ["!!! warning \"Deprecated\"", ""]
    help_text = _help_of(command)
    if help_text:
        lines += [help_text, ""]
    lines += ["```text", f"{path} {_usage(command, path)}".rstrip(), "```", ""]
    params = [p for p in command.params if not getattr(p, "hidden", False)]
    if params:
        lines += ["| Argument or option | Type | Default | Description |", "|---|---|---|---|"]
        for param in params:
            help_text = param.help if isinstance(param, click.Option) else ""
            extra = []
            if param.required:
                extra.append("required")
            if getattr(param, "multiple", False) or (isinstance(param, click.Argument) and param.nargs == -1):
                extra.append("repeatable")
            if isinstance(param, click.Option) and param.envvar:
                extra.append(f"env `{param.envvar}`")
            description = cell(help_text or "") + (f" ({', '.join(extra)})" if extra else "")
            lines.append(f"| {_names(param)} | {_type_text(param)} | {_default_text(param)} | {description} |")
        lines.append("| `-h`, `--help` | flag | | show the help and exit |")
        lines.append("")
    examples = command.__dict__.get("_examples", ())
    if examples:
        lines += ["Examples:", "", "```sh", *examples, "```", ""]
    if isinstance(command, click.Group):
        ctx = click.Context(command, info_name=path)
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is not None and not sub.hidden:
                lines += command_section(sub, f"{path} {name}", min(level + 1, 6))
    return lines


def pages(root: click.Group, program: str, folder: str, title: str, intro: str) -> dict[str, str]:
    """``{path: markdown}``: an index of ``program``'s commands, then one page per top-level command."""
    ctx = click.Context(root, info_name=program)
    out: dict[str, str] = {}
    index = [f"# {title}", "", intro, "", "```text", f"{program} {_usage(root, program)}", "```", "",
             _help_of(root), ""]
    params = [p for p in root.params if not getattr(p, "hidden", False)]
    if params:
        index += ["| Global option | Description |", "|---|---|"]
        index += [f"| {_names(p)} | {cell(getattr(p, 'help', '') or '')} |" for p in params]
        index.append("")
    index += ["| Command | What it does |", "|---|---|"]
    for name in root.list_commands(ctx):
        command = root.get_command(ctx, name)
        if command is None or command.hidden:
            continue
        page = f"{folder}/{slug(name)}.md"
        index.append(f"| [`{program} {name}`]({slug(name)}.md) | {cell(command.get_short_help_str(120))} |")
        out[page] = "\n".join(command_section(command, f"{program} {name}", 1)) + "\n"
    out[f"{folder}/index.md"] = "\n".join(index) + "\n"
    return out
