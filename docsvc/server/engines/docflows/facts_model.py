"""The two records of the facts stage: an ``Item`` (one thing one version of a file offers: an
option, a setting, a function) and a ``Fact`` (how the pull request changed one)."""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Fact", "Item", "file_forms", "member_of", "owner_of", "token", "WARNS", "MARKED", "METHOD_SIGNATURE",
           "MOVED", "written_as"]

WARNS = "deprecation warning added in its body"  # the rule of a function deprecated where it stands
MARKED = "marked deprecated in its definition"  # the rule of an option the code now declares deprecated
MOVED = "python: moved to another module"  # the rule of a dotted path renamed as its function moved
# the rule of a public method's parameter: only one that goes is a fact (the calls the docs show
# break); a new or re-defaulted one leaves them working, and a bare name renamed is no page's word
METHOD_SIGNATURE = "python: public method signature"

_PARAMETER = re.compile(r"([\w.]+)\((\w+)\)")  # a Python parameter: owner(name)
_WORKFLOW = re.compile(r"\.github/workflows/([^/]+\.ya?ml)")


def token(name: str) -> str:
    """What a page would say for a fact's name: a route's path (``GET /users`` → ``/users``), an
    OpenAPI parameter's name, a Python parameter's name (``func(param)`` → ``param``), else the
    name itself."""
    if " " in name:
        last = name.split(" ")[-1]
        return last.split(":", 1)[-1] if ":" in last else last
    match = _PARAMETER.fullmatch(name)
    return match.group(2) if match else name


def owner_of(name: str) -> str | None:
    """The function or class a Python parameter's name belongs to (``Option(flag_value)`` →
    ``Option``); None for any other name."""
    match = _PARAMETER.fullmatch(name)
    return match.group(1) if match else None


@dataclass(frozen=True)
class Fact:
    kind: str  # flag | argument | env | config | enum | route | operation | parameter | symbol | extra
    #          | file (a repository file the docs name by its path)
    #          | deprecation (a deprecation warning added; its name is the file that gained it)
    #          | version (the project's declared version: old → new; siblings: its programs' names)
    #          | repository (the project's repository moved: old → new address, host/owner/name)
    change: str  # added | removed | renamed | default-changed
    #              | deprecated (gone, yet still named in the code; or a function that now warns)
    #              | help-changed (its help text reworded: old and new are the texts) | changed (a file's content)
    name: str  # the new name (the old one for removals)
    path: str
    rule: str
    old: str | None = None  # renamed: the old name; default-changed: the old value
    new: str | None = None  # default-changed and added: the (new) value
    line: int | None = None  # in the new text (the old text for removals)
    note: str | None = None  # added: the help text found beside the definition
    siblings: tuple[str, ...] = ()  # added: other names of the same kind and owner, nearest in the code first;
    #                                a removed Python parameter: the ones its function still takes
    follows: tuple[str, ...] = ()  # added: the names of its kind and owner above it in the code, nearest first
    importable: tuple[str, ...] = ()  # an added Python symbol: its file and each package __init__ that imports it
    tooling: bool = False  # a file fact about a CI, build or test file: only a page showing its content is about it
    context: tuple[str, ...] = ()  # a nested setting: the keys its section stands under (Item.context)
    family: tuple[str, ...] = ()  # added through a registry call: what the same call names in other files
    shows: str | None = None  # an option: how a help screen shows the value it takes (Item.shows)
    short: str | None = None  # an option: its short form (``-m``), when it has one (Item.short)
    doc: str | None = None  # an added Python function: its docstring (Item.doc)
    bare: bool = False  # an added Python function: it can be called with no argument (Item.bare)

    def describe(self) -> str:
        if self.change == "renamed":
            return f"{self.kind} {self.old} renamed to {self.name}"
        if self.change == "default-changed":
            return f"{self.kind} {self.name} default {self.old} → {self.new}"
        if self.change == "help-changed":
            return f"{self.kind} {self.name} help text reworded"
        if self.kind == "parameter" and self.change == "removed" and owner_of(self.name):
            return f"parameter {token(self.name)} dropped from the signature of {owner_of(self.name)}"
        if self.kind == "deprecation":
            return f"a deprecation warning added in {self.path}"
        if self.change == "deprecated" and self.rule.endswith(MARKED):
            return f"{self.kind} {self.name} deprecated: its definition says so"
        if self.change == "deprecated" and self.rule == WARNS:
            return f"{self.kind} {self.name} deprecated: it now warns"
        if self.change == "deprecated":
            return f"{self.kind} {self.name} removed from its definition, still named in the code (deprecated or moved)"
        return f"{self.kind} {self.name} {self.change}"


@dataclass(frozen=True)
class Item:
    """One thing found in one version of a file: its name, a default when it has one (as shown,
    and ``value_key``, the form compared), the line, and a signature (its help text) used to pair
    a removal with an addition as a rename."""

    kind: str
    name: str
    rule: str
    default: str | None = None
    line: int | None = None
    signature: str = ""
    value_key: str = ""
    owner: str = ""  # what it belongs to: a parameter's function, a setting's or member's class
    # a setting of a nested section: the keys the section stands under in the configuration
    # (goreleaser's ``CommitAuthor`` struct is the ``commit_author:`` of others); none at the top
    context: tuple[str, ...] = ()
    # an option: how a help screen shows the value it takes (``TEXT``, ``INTEGER``, ``[a|b]``,
    # ``FOO_BAR``; "" for a flag that takes none); None when the code does not say
    shows: str | None = None
    deprecated: bool = False  # an option its definition declares deprecated (click's ``deprecated=True``)
    short: str | None = None  # an option's short form beside its long one (``-m`` of ``--meta``)
    doc: str = ""  # a function's docstring, cleaned (a new one's section is made from it)
    bare: bool = False  # a function every parameter of which has a default: ``f()`` calls it

    @property
    def compared(self) -> str | None:
        """The default as compared: the parsed form when the reader gave one."""
        return self.value_key or self.default


def member_of(fact: Fact) -> str | None:
    """The type or factory a method belongs to (``Stream.read`` → ``Stream``, ``fastify.addHook`` →
    ``fastify``); None for any other fact."""
    return fact.name.rsplit(".", 1)[0] if fact.kind == "symbol" and "." in fact.name else None


def file_forms(path: str) -> list[str]:
    """How pages name a repository file: by its path, and a GitHub Actions workflow also by the
    address of its runs (``https://github.com/o/r/actions/workflows/release.yml``, a badge's)."""
    workflow = _WORKFLOW.fullmatch(path)
    return [path, f"actions/workflows/{workflow.group(1)}"] if workflow else [path]


def written_as(path: str, said) -> str:
    """The form of a file's path (``file_forms``) that ``said(form)`` finds on the page, else the path."""
    return next((form for form in file_forms(path) if said(form)), path)
