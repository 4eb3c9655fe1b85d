"""The generated reference pages of the docs site (scripts/docsgen) hold what the code says: every
command and option of both CLIs, every CI input in its four spellings and every output, every
setting the service reads from the environment. And the README stays a front door, and the docs
true to the CLI: each ``docsvc`` command they show exists as written, each diagram parses."""

from __future__ import annotations

import itertools
import re
import shlex
import sys
import warnings
from pathlib import Path

import click
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))


def _commands(group: click.Group, path: str):
    ctx = click.Context(group, info_name=path)
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        yield f"{path} {name}", command
        if isinstance(command, click.Group):
            yield from _commands(command, f"{path} {name}")


@pytest.mark.parametrize("program", ["docsvc", "docsvc-server"])
def test_every_command_and_option_is_in_the_cli_reference(program):
    from docsgen import cli_reference

    from docsvc.cli.main import cli

    if program == "docsvc":
        root = cli
    else:
        pytest.importorskip("fastapi", reason="docsvc-server needs the server extra")
        from docsvc.server.admin import main as root
    pages = cli_reference.pages(root, program, "ref", "t", "i")
    text = "\n".join(pages.values())
    for path, command in _commands(root, program):
        if command.hidden:
            continue
        assert f"# `{path}`" in text, path
        for param in command.params:
            if getattr(param, "hidden", False):  # internal plumbing (worker --parent-pid), not for users
                continue
            for opt in getattr(param, "opts", []):
                if opt.startswith("-"):
                    assert f"`{opt}`" in text, f"{path} {opt}"
        for example in command.__dict__.get("_examples", ()):
            assert example in text, example


def test_every_ci_input_and_output_is_in_the_ci_reference():
    from docsgen import ci_reference

    from docsvc.ci.settings import INPUTS, OPERATIONS, OUTPUTS

    text = ci_reference.page()
    for spec in INPUTS:
        assert f"| `{spec.kebab}` |" in text and f"`{spec.env}`" in text and f"`{spec.flag}`" in text, spec.name
    for output in OUTPUTS:
        assert f"| `{output}` |" in text
    assert all(f"`{op}`" in text for op in OPERATIONS)


def test_every_variable_of_the_service_is_in_the_settings_reference():
    pytest.importorskip("fastapi", reason="the server extra")
    from docsgen import settings_reference

    text = settings_reference.page()
    source = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "docsvc" / "server").rglob("*.py"))
    for name in set(re.findall(r'"(DOCSVC_SERVER_[A-Z0-9_]+)"', source)):
        assert f"`{name}`" in text, name
    assert "| `DOCSVC_SERVER_JOB_LEASE_SECONDS` | `30` |" in text
    assert "| `DOCSVC_SERVER_MAX_BODY_MB` | `128` |" in text
    assert "| `DOCSVC_SERVER_PUBLIC_URL` |  |" in text  # unset is None: no code expression shown


def test_the_readme_is_a_front_door():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    lines = readme.splitlines()
    assert len(lines) <= 300
    assert "scripts/demo " in "\n".join(lines[:6]) and "scripts/test " in "\n".join(lines[:6])
    for system in ("github", "gitlab", "jenkins"):
        marker = f"<!-- example: {system} -->\n```"
        assert readme.count(marker) == 1, system
    gitlab = readme.split("<!-- example: gitlab -->\n```yaml\n", 1)[1].split("```", 1)[0]
    assert "- local: templates/docsvc.yml" in gitlab and "operation: sync" in gitlab


def _shell_blocks(text: str) -> list[str]:
    return re.findall(r"```(?:sh|bash|shell|console)\n(.*?)```", text, re.S)


def _docsvc_lines() -> list[tuple[str, list[str]]]:
    """Every ``docsvc ...`` command line of the README's and the docs' shell blocks, as its words
    up to the first shell operator, with ``[optional]`` parts left out."""
    found = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        for block in _shell_blocks(path.read_text(encoding="utf-8")):
            for line in block.replace("\\\n", " ").splitlines():
                line = line.strip().removeprefix("$ ")
                if not line.startswith("docsvc "):
                    continue
                lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
                lexer.whitespace_split, lexer.commenters = True, "#"
                words = list(itertools.takewhile(lambda w: w not in (">", ">>", "|", "&&", ";", "&", "<"), lexer))
                found.append((f"{path.relative_to(ROOT)}: {line}", _without_optional_parts(words)))
    return found


def _without_optional_parts(words: list[str]) -> list[str]:
    """``items dismiss docflows 12 --yes [--done]``: the words in brackets are a choice shown, not typed."""
    kept, optional = [], False
    for word in words:
        optional = optional or word.startswith("[")
        if not optional:
            kept.append(word)
        optional = optional and not word.endswith("]")
    return kept


def test_every_docsvc_command_in_the_readme_and_docs_is_one_the_cli_has():
    """Each names commands and options that exist, with values their types take (files aside: a
    reader has them), so a renamed command or option cannot leave a guide behind."""
    from docsvc.cli.main import cli

    lines = _docsvc_lines()
    assert len(lines) > 50
    wrong = []
    for where, words in lines:
        command, args, name = cli, words[1:], "docsvc"
        try:
            while True:
                ctx = command.make_context(name, list(args), parent=None if command is cli else ctx)
                if not isinstance(command, click.Group):
                    break
                with warnings.catch_warnings():  # Click 9 leaves them all in ctx.args
                    warnings.simplefilter("ignore", DeprecationWarning)
                    args = [*getattr(ctx, "protected_args", []), *ctx.args]
                if not args:
                    break
                name, command, args = command.resolve_command(ctx, args)
        except click.exceptions.Exit:
            continue  # --help, --version
        except click.BadParameter as bad:
            if not isinstance(getattr(bad.param, "type", None), click.Path):
                wrong.append(f"{where}\n  {bad.format_message()}")
        except click.ClickException as bad:
            wrong.append(f"{where}\n  {bad.format_message()}")
    assert not wrong, "\n".join(wrong)


def test_every_mermaid_diagram_in_the_readme_and_docs_parses():
    from tests import formats

    diagrams = [(path, block) for path in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
                for block in re.findall(r"```mermaid\n(.*?)```", path.read_text(encoding="utf-8"), re.S)]
    assert diagrams
    for path, block in diagrams:
        assert formats.check_mermaid(block)["type"], path
