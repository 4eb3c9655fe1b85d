"""Generated references: the parts of a page that the docs build makes from the code, which need
no edit (sphinx-click's ``.. click::``, sphinx-argparse's ``.. argparse::``, ``.. autoprogram::``,
sphinxcontrib-typer's ``.. typer::``, mkdocs-click and mkdocstrings' ``::: module``, autodoc's
``.. automodule::``/``.. autoclass::`` with ``:members:``). mkdocstrings' ``::: a.b.c`` renders a
module's members when ``a.b.c`` is a module or package of the repository (``structure.renders_module``),
else the one object it names (``::: a.b.func``, ``::: a.Class``): that one renders its own members and
parameters, not a new name beside it.

Carries: a new option, argument, setting, member or symbol on a page where such a directive renders
its kind: the page gets no entry written by hand (the build shows the new name by itself); the
Writer says so instead, as an open point, and the structures after it leave the fact.
"""

from __future__ import annotations

import re
from typing import Container

from ..facts_model import Fact, owner_of, token
from ..structure import RENDERED, renders_module
from .base import Page, Structure

__all__ = ["GeneratedReference", "generator_of"]

# A directive that renders a command's options from the code, and one that renders a module's or
# class's members (only with :members:, else it shows the docstring alone).
_CLI = re.compile(r"^\s*(?:\.\.\s+(click|argparse|autoprogram|typer)::\s*\S|:::\s*mkdocs-click\b|:::\s*mkdocs_click\b)")
_MEMBERS = re.compile(r"^\s*\.\.\s+(auto(?:module|class))::\s*(\S+)")
_CLI_KINDS = ("flag", "argument")
_MEMBER_KINDS = ("symbol", "config", "parameter", "enum")


def _renders(target: str, fact: Fact, modules: Container[str] | None) -> bool:
    """Whether mkdocstrings' ``::: target`` renders the fact's name: a module's members (also when
    nothing tells what the target is), or one object's own (``Option.flag_value``, ``func(param)``)."""
    if renders_module(target, fact.path, modules) is not False:
        return True
    owner = owner_of(fact.name) or (fact.name.rpartition(".")[0] if fact.kind != "parameter" else "")
    # a class renders its members, theirs too (``Class.method(param)``); a function its parameters
    return bool(owner) and (owner.split(".")[0] == target.rpartition(".")[2] or f".{target}".endswith(f".{owner}"))


def generator_of(fact: Fact, lines: list[str], modules: Container[str] | None = None) -> str | None:
    """The directive line that renders the fact's kind on this page, if any; ``modules``: the
    repository's Python modules (``structure.python_modules``), when known."""
    for i, line in enumerate(lines):
        if fact.kind in _CLI_KINDS and _CLI.match(line):
            return line.strip()
        if fact.kind in _MEMBER_KINDS:
            rendered = RENDERED.match(line)
            if rendered and not rendered["heading"] and not _CLI.match(line) and \
                    _renders(rendered["name"], fact, modules):  # (mkdocs_click renders a command)
                return line.strip()
            match = _MEMBERS.match(line)
            # a class's members render its methods and fields, not a new class beside it
            renders = match and (match.group(1) == "automodule" or fact.kind != "symbol" or "." in fact.name)
            if renders and any(re.match(r"^\s+:members:", body) for body in lines[i + 1:i + 8] if body.strip()):
                return line.strip()
    return None


class GeneratedReference(Structure):
    name = "generated references"
    carries = "a new name a directive of the docs build renders from the code: no edit, said so"
    entry = True

    def takes(self, fact: Fact) -> bool:
        return fact.change == "added" and fact.kind in _CLI_KINDS + _MEMBER_KINDS

    def write(self, fact: Fact, page: Page) -> bool:
        directive = generator_of(fact, page.lines, page.modules)
        if directive is None:
            return False
        page.draft.open_points.append(f"{page.path}: no edit for {token(fact.name)}: the docs build generates this "
                                      f"reference from the code ({directive})")
        return True
