"""What a Python file offers its users, read from its syntax tree (``ast``), not from text.

- command-line options and arguments: click and typer (``@click.option``, ``click.Option``,
  ``typer.Option``, ``@click.argument``), argparse and optparse (``add_argument``, ``add_option``),
  pytest plugins (``addoption``) and cleo (``option("x", "s", "help", flag=True)``, dashes
  implied); ``--x/--no-x`` is one boolean flag ``--x``, not two names;
- settings declared as classes: dataclasses, attrs classes, pydantic models and ``BaseSettings``,
  classes whose base is named like a config (``*Config``, ``*Settings``, ``*Options``), and class
  attributes a registry collects (``name = c.Type(str, default=...)``), each described by its
  ``help=``/``description=`` or else by the string that follows it (an attribute docstring, as
  autodoc reads it); a settings class held by another's field (``database: Database``) gives its
  fields that section as context;
- settings added through a registry call with a string name (``add_config("x", default=1)``,
  ``register("x", ...)``, pytest's ``addini("x", "help", default=...)``) or listed as ``("name",
  Option(...))`` pairs; settings held in a defaults dict outside any function (``default_config =
  {"cache-dir": ..., "virtualenvs": {"create": True}}``: ``virtualenvs.create``, a nested key by its
  dotted path); variables and options listed with their help (``("PYTEST_ADDOPTS", "Extra command
  line options")``, as a help screen's table is written);
- enum members; environment variables read (``os.environ``, ``os.getenv``);
- public functions and classes of public modules (and of private ones, when a top-level package
  imports them: ``pytest`` from ``_pytest``), public classes' public methods (``Response.iter_lines``),
  and the parameters (with their defaults) of public functions and of public classes' ``__init__``
  and public methods (``METHOD_SIGNATURE``: only one that goes is a fact, ``facts``);
  web routes (``@app.get("/x")``).

Deprecated, as the code declares it: an option given ``deprecated=`` (click 8.2), a setting
wrapped in ``Deprecated(...)`` (mkdocs' config options; its default read from the option it wraps)
or given ``deprecated=`` (pydantic's ``Field``).

A default is compared as a parsed value (``ast.dump``), so ``'a'`` → ``"a"`` or a reformatted
call is no change. Each item names the rule that found it.
"""

from __future__ import annotations

import ast
import inspect
import re
import warnings
from functools import cached_property
from typing import Callable, Iterator

from .facts_model import METHOD_SIGNATURE, Item

__all__ = ["python_items", "imported_names", "is_imported", "module_names", "registry_callee"]

# Leading underscores dropped: pytest's own options come through ``group._addoption``.
_OPTION_CALLS = {"option", "Option", "add_argument", "add_option", "addoption", "argument", "Argument"}
_ENUM_BASES = {"Enum", "IntEnum", "StrEnum", "Flag", "IntFlag"}
_SETTINGS_DECORATORS = re.compile(r"(^|\.)(dataclass|dataclasses\.dataclass|s|define|frozen|attrs|mutable)$")
_SETTINGS_BASES = re.compile(r"(BaseModel|BaseSettings|Config|Settings|Options|Schema)$")
_REGISTRY_RULE = "python: registry call {}()"


def registry_callee(rule: str) -> str | None:
    """The function a registry fact's rule names (``addini`` of "python: registry call addini()")."""
    match = re.fullmatch(re.escape(_REGISTRY_RULE).replace(r"\{\}", r"(\w+)"), rule)
    return match.group(1) if match else None


_REGISTRY_CALL = re.compile(r"^(add_\w+|addini|register\w*|define\w*|declare\w*|setting|config_option)$")
_SENTENCE = re.compile(r"^[A-Za-z(`'\"][^%{}]*?\s\S+\s\S+")  # words, not a value: a help text given second
_ROUTE_METHODS = {"get", "post", "put", "patch", "delete", "route", "api_route"}
# A dict of settings' defaults, by the name it is bound to: default_config, DEFAULTS, SETTINGS.
_DEFAULTS_NAME = re.compile(r"(?i)(?:^|_)(?:defaults?|config|configuration|settings|options)(?:_|$)")
_KEY = re.compile(r"[A-Za-z][\w.-]*")
_ENV_NAME = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+")


def _name_of(node: ast.AST) -> str:
    """The last name of a callee or base: ``click.option`` → ``option``."""
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return ""


def _dotted(node: ast.AST) -> str:
    try:
        return ast.unparse(node.func if isinstance(node, ast.Call) else node)
    except Exception:  # noqa: BLE001  (a node ast cannot print: no name)
        return ""


def _text(node: ast.AST | None) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def _value(node: ast.AST | None) -> tuple[str | None, str]:
    """(what a person reads, what is compared) for a default; (None, "") when there is none."""
    if node is None:
        return None, ""
    try:
        shown = ast.unparse(node)
    except Exception:  # noqa: BLE001
        return None, ""
    return shown, ast.dump(node, annotate_fields=False, include_attributes=False)


def _kwarg(call: ast.Call, *names: str) -> ast.AST | None:
    for keyword in call.keywords:
        if keyword.arg in names:
            return keyword.value
    return None


def _strings(nodes: list[ast.AST]) -> list[str]:
    out = []
    for node in nodes:
        if isinstance(node, (ast.List, ast.Tuple)):
            out += _strings(list(node.elts))
        elif (text := _text(node)) is not None:
            out.append(text)
    return out


def _flag_names(declarations: list[str]) -> tuple[list[str], bool]:
    """Long (else short) option names of the declarations, and whether one is a ``--x/--no-x``
    boolean switch; ``--x/--no-x`` gives the single name ``--x``."""
    names, switch = [], False
    for declaration in declarations:
        for part in declaration.split("/"):
            part = part.strip()
            if not part.startswith("-"):
                continue
            if "/" in declaration:
                switch = True
                if names and part.startswith("--no-") and part[5:] == names[-1].lstrip("-"):
                    continue
            names.append(part)
    longs = [n for n in names if n.startswith("--")]
    return (longs or names), switch


def _option(call: ast.Call, callee: str, line: int, text: Callable[[ast.AST | None], str | None] = _text
             ) -> Item | None:
    help_text = text(_kwarg(call, "help")) or ""
    positional = list(call.args)
    if callee == "Option" and positional and not (_text(positional[0]) or "").startswith("-") and \
            not isinstance(positional[0], (ast.List, ast.Tuple)):
        default_node = positional.pop(0)  # typer.Option(default, "--name")
    else:
        default_node = _kwarg(call, "default")
    declarations = _strings(positional)
    flags, switch = _flag_names(declarations)
    shown, key = _value(default_node)
    if flags:
        rule = "python: click/typer/argparse option" + (" (boolean --x/--no-x switch)" if switch else "")
        short = next((d for d in declarations if re.fullmatch(r"-\w", d)), None) if flags[0].startswith("--") else None
        return Item("flag", flags[0], rule, shown, line, help_text, key, short=short,
                    shows=_shows(call, callee, flags[0], default_node, switch),
                    deprecated=_truthy(_kwarg(call, "deprecated")))
    if callee == "option" and declarations and re.fullmatch(r"[A-Za-z][\w-]*", declarations[0]) and \
            (len(call.args) >= 2 or _kwarg(call, "flag", "value_required", "multiple", "description")):
        # cleo: option("dry-run", "d", "Description.", flag=True) is --dry-run
        described = text(_kwarg(call, "description")) or (text(call.args[2]) if len(call.args) > 2 else None)
        return Item("flag", f"--{declarations[0]}", "python: cleo option", shown, line, help_text or described or "",
                    key)
    names = [d for d in declarations if d.isidentifier()]
    if names and callee in ("argument", "Argument", "add_argument"):
        return Item("argument", names[0], "python: click/typer/argparse argument", shown, line, help_text, key)
    return None


# What click's help screen shows for the value of an option of a type (``click.types``' names).
_CLICK_TYPES = {"int": "INTEGER", "float": "FLOAT", "str": "TEXT", "bool": "BOOLEAN", "Path": "PATH",
                "File": "FILENAME", "IntRange": "INTEGER RANGE", "FloatRange": "FLOAT RANGE", "UUID": "UUID",
                "INT": "INTEGER", "FLOAT": "FLOAT", "STRING": "TEXT", "BOOL": "BOOLEAN"}
_VALUELESS_ACTIONS = {"store_true", "store_false", "store_const", "count", "help", "version", "append_const",
                      "BooleanOptionalAction"}


def _shows(call: ast.Call, callee: str, flag: str, default: ast.AST | None, switch: bool) -> str | None:
    """How the framework's help screen shows the value an option takes, as it renders it itself:
    click's and typer's type names (``TEXT``, ``INTEGER``, ``[a|b]``), argparse's and optparse's
    upper-cased destination (``--max-size`` → ``MAX_SIZE``) or choices (``{a,b}``); "" for a flag
    that takes none; None when the code does not say (a type click cannot name)."""
    metavar = _text(_kwarg(call, "metavar"))
    if metavar is not None:
        return metavar
    flag_like = _kwarg(call, "is_flag", "count")
    if switch or (isinstance(flag_like, ast.Constant) and flag_like.value is True) or \
            (isinstance(default, ast.Constant) and isinstance(default.value, bool)):
        return ""
    if callee in ("add_argument", "add_option", "addoption"):
        action = _kwarg(call, "action")
        if _text(action) in _VALUELESS_ACTIONS or _name_of(action or ast.Constant(None)) in _VALUELESS_ACTIONS:
            return ""
        choices = _kwarg(call, "choices")
        if isinstance(choices, (ast.List, ast.Tuple)) and (named := _strings(list(choices.elts))):
            return "{" + ",".join(named) + "}"
        dest = _text(_kwarg(call, "dest")) or flag.lstrip("-").replace("-", "_")
        return dest.upper()
    kind = _kwarg(call, "type")
    if kind is None:  # click infers the type from the default
        if default is None or isinstance(default, ast.Constant) and default.value is None:
            return "TEXT"
        return {int: "INTEGER", float: "FLOAT", str: "TEXT"}.get(type(getattr(default, "value", None)))
    if isinstance(kind, ast.Call) and _name_of(kind.func) == "Choice" and kind.args and \
            isinstance(kind.args[0], (ast.List, ast.Tuple)) and (named := _strings(list(kind.args[0].elts))):
        return "[" + "|".join(named) + "]"
    return _CLICK_TYPES.get(_name_of(kind.func if isinstance(kind, ast.Call) else kind))


_UNSAID = "\0"  # where an f-string's value is not known from the file
_SENTENCES = re.compile(r"(?<=[.!?])\s+")


def _formatted(node: ast.JoinedStr, named: dict[str, str]) -> str | None:
    """An f-string help text as the program prints it, as far as the file says: a value named by
    a string the file binds filled in; the sentences holding any other value left out (httpie's
    ``f"Print only the response metadata. Shortcut for --print={OUT_RESP_META}."``)."""
    parts = []
    for part in node.values:
        if isinstance(part, ast.Constant) and isinstance(part.value, str):
            parts.append(part.value)
        elif isinstance(part, ast.FormattedValue) and isinstance(part.value, ast.Name) and \
                part.value.id in named and part.conversion == -1 and part.format_spec is None:
            parts.append(named[part.value.id])
        else:
            parts.append(_UNSAID)
    kept = [s for s in _SENTENCES.split(" ".join("".join(parts).split())) if _UNSAID not in s]
    return " ".join(kept) or None


def _named_strings(tree: ast.AST) -> dict[str, str]:
    """The names the file binds to one string only (``help_timeout = ("Dump the traceback ...")``):
    a help text is often held so and passed by name."""
    seen: dict[str, set[str | None]] = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                if isinstance(target, ast.Name):
                    seen.setdefault(target.id, set()).add(_text(node.value))
    return {name: next(iter(values)) for name, values in seen.items() if len(values) == 1 and None not in values}


class _Reader(ast.NodeVisitor):
    def __init__(self, public_module: bool, exported: frozenset[str] = frozenset(),
                 sections: dict[str, tuple[str, ...]] | None = None, tree: ast.AST | None = None) -> None:
        self.items: list[Item] = []
        self._tree = tree  # the file's, read for names bound to strings only when a call passes one
        self.public_module = public_module
        self.exported = exported  # a private module's names that a public package imports
        self.sections = sections or {}  # a settings class -> the fields it stands under (``_sections``)
        self._depth = 0  # 0: module level
        self._functions = 0  # inside how many functions: a dict made there holds no one's settings

    def _public(self, name: str) -> bool:
        """A module-level function or class users reach: in a public module, or imported by one."""
        return self._depth == 0 and not name.startswith("_") and (self.public_module or name in self.exported)

    def add(self, *args, **named) -> None:
        self.items.append(Item(*args, **named))

    def text(self, node: ast.AST | None) -> str | None:
        """A string given as such, by a name bound to one, or as an f-string (``_formatted``)."""
        if isinstance(node, ast.JoinedStr):
            return _formatted(node, self._named)
        return self._named.get(node.id) if isinstance(node, ast.Name) else _text(node)

    @cached_property
    def _named(self) -> dict[str, str]:
        return _named_strings(self._tree) if self._tree is not None else {}

    # -- calls anywhere: options, environment, registries -----------------------------------
    def visit_Call(self, node: ast.Call) -> None:
        callee = _name_of(node).lstrip("_")
        dotted = _dotted(node)
        option = _option(node, callee, node.lineno, self.text) if callee in _OPTION_CALLS else None
        if option is not None:
            self.items.append(option)
        elif callee in ("getenv", "get") and re.search(r"(^|\.)(environ\.get|getenv)$", dotted) and node.args:
            name = _text(node.args[0])
            if name:
                shown, key = _value(node.args[1] if len(node.args) > 1 else _kwarg(node, "default"))
                self.add("env", name, "python: os.environ / os.getenv", shown, node.lineno, "", key)
        elif _REGISTRY_CALL.match(callee) and node.args and (name := _text(node.args[0])) and \
                re.fullmatch(r"[A-Za-z_][\w.-]*", name):
            second = node.args[1] if len(node.args) > 1 else None
            described = self.text(second) if _SENTENCE.match(self.text(second) or "") else None
            default = _kwarg(node, "default") or (None if described else second)
            shown, key = _value(default)
            help_text = self.text(_kwarg(node, "help", "description", "doc")) or described or ""
            self.add("config", name, _REGISTRY_RULE.format(callee), shown, node.lineno, help_text, key)
        self.generic_visit(node)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        if re.search(r"(^|\.)environ$", _dotted(node.value)) and (name := _text(node.slice)):
            self.add("env", name, "python: os.environ[...]", None, node.lineno, "", "")
        self.generic_visit(node)

    def visit_Tuple(self, node: ast.Tuple) -> None:
        name = _text(node.elts[0]) if len(node.elts) == 2 else None
        if name and isinstance(node.elts[1], ast.Call) and re.fullmatch(r"[A-Za-z_][\w.-]*", name):
            # ("site_name", config_options.Type(str, default=...)) in a registry list
            option, deprecated = _undeprecated(node.elts[1])
            shown, key = _value(_kwarg(option, "default"))
            self.add("config", name, "python: (name, option) registry pair", shown, node.lineno, "", key,
                     deprecated=deprecated)
        elif name and _SENTENCE.match(described := _text(node.elts[1]) or ""):
            # ("PYTEST_ADDOPTS", "Extra command line options"): a help screen's list of variables
            kind = "env" if _ENV_NAME.fullmatch(name) else "flag" if re.fullmatch(r"--[A-Za-z][\w-]+", name) else None
            if kind:
                self.add(kind, name, "python: (name, help) pair", None, node.lineno, described, "")
        self.generic_visit(node)

    def visit_Assign(self, node: ast.Assign | ast.AnnAssign) -> None:
        if not self._functions:
            for target, value in _assignments(node):
                if _DEFAULTS_NAME.search(target):
                    self._defaults(target, value, "")
        self.generic_visit(node)

    visit_AnnAssign = visit_Assign

    def _defaults(self, holder: str, value: ast.AST | None, prefix: str) -> None:
        """The settings of a defaults dict (``{"key": default}`` or ``dict(key=default)``), a nested
        dict's by their dotted path, with their section as context (``Item.context``). A dict
        literal handed to a mapping type (flask's ``ImmutableDict({...})``, ``MappingProxyType``)
        is the defaults dict all the same."""
        if isinstance(value, ast.Call) and len(value.args) == 1 and not value.keywords and \
                isinstance(value.args[0], ast.Dict):
            value = value.args[0]
        if isinstance(value, ast.Dict):
            pairs = [(_text(k), v) for k, v in zip(value.keys, value.values) if k is not None]
        elif isinstance(value, ast.Call) and _dotted(value) == "dict" and not value.args:
            pairs = [(k.arg, k.value) for k in value.keywords if k.arg]
        else:
            return
        for key, default in pairs:
            if not key or not _KEY.fullmatch(key):
                continue
            if isinstance(default, ast.Dict) or isinstance(default, ast.Call) and _dotted(default) == "dict":
                self._defaults(holder, default, f"{prefix}{key}.")
            else:
                shown, compared = _value(default)
                # a nested key counts on the pages that speak of its section (``solver``), as in Go
                section = (prefix.rstrip("."),) if prefix else ()
                self.add("config", prefix + key, f"python: defaults dict {holder}", shown, default.lineno, "",
                         compared, "", section)

    # -- definitions ---------------------------------------------------------------------------
    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        for decorator in node.decorator_list:
            if isinstance(decorator, ast.Call) and _name_of(decorator) in _ROUTE_METHODS and decorator.args and \
                    (path := _text(decorator.args[0])) and path.startswith("/"):
                method = _name_of(decorator).upper()
                if method in ("ROUTE", "API_ROUTE"):
                    methods = _strings([_kwarg(decorator, "methods")] if _kwarg(decorator, "methods") else [])
                    method = (methods[0] if methods else "GET").upper()
                self.add("route", f"{method} {path}", "python: route decorator", None, node.lineno, "", "")
        if self._public(node.name):
            args = node.args
            bare = len(args.defaults) == len(args.posonlyargs + args.args) and all(args.kw_defaults)
            self.add("symbol", node.name, "python: public function", None, node.lineno, "", "",
                     doc=ast.get_docstring(node) or "", bare=bare)
            self._parameters(node.name, node)
        self._depth += 1
        self._functions += 1
        self.generic_visit(node)
        self._functions -= 1
        self._depth -= 1

    visit_FunctionDef = visit_AsyncFunctionDef = _function

    def _parameters(self, owner: str, node: ast.FunctionDef | ast.AsyncFunctionDef,
                    rule: str = "python: public signature") -> None:
        args = node.args
        positional = args.posonlyargs + args.args
        defaults: list[ast.AST | None] = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
        pairs = list(zip(positional, defaults)) + list(zip(args.kwonlyargs, args.kw_defaults))
        for arg, default in pairs:
            if arg.arg in ("self", "cls") or arg.arg.startswith("_"):
                continue
            shown, key = _value(default)
            self.add("parameter", f"{owner}({arg.arg})", rule, shown, node.lineno, "", key, owner)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        bases = {_name_of(b) for b in node.bases}
        if self._public(node.name):
            self.add("symbol", node.name, "python: public class", None, node.lineno, "", "")
            init = next((s for s in node.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))
                         and s.name == "__init__"), None)
            if init is not None:
                self._parameters(node.name, init)
            for method in node.body:  # what its users call on it: Response.iter_lines
                if isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)) and not method.name.startswith("_"):
                    self.add("symbol", f"{node.name}.{method.name}", "python: public method", None, method.lineno,
                             "", "", node.name)
                    self._parameters(f"{node.name}.{method.name}", method, METHOD_SIGNATURE)
        if node.name.startswith("_"):
            pass  # a private class: its members and settings are no one's to set
        elif bases & _ENUM_BASES:
            for statement in node.body:
                for target, value in _assignments(statement):
                    if not target.startswith("_"):
                        shown, key = _value(value)
                        self.add("enum", target, f"python: member of enum {node.name}", shown, statement.lineno,
                                 "", key, node.name)
        else:
            settings = _is_settings(node)
            for at, statement in enumerate(node.body):
                for target, value in _assignments(statement):
                    if target.startswith("_") or target.isupper() and not settings:
                        continue
                    value, deprecated = _undeprecated(value)
                    registered = isinstance(value, ast.Call) and any(
                        k.arg in ("default", "name", "cli") for k in value.keywords)
                    if not (settings or registered):
                        continue
                    default = _kwarg(value, "default") if isinstance(value, ast.Call) and (
                        registered or _name_of(value) in ("Field", "field", "attrib", "ib")) else value
                    shown, key = _value(default)
                    help_text = _text(_kwarg(value, "description", "help")) if isinstance(value, ast.Call) else None
                    self.add("config", target, f"python: setting of class {node.name}", shown, statement.lineno,
                             help_text or _attribute_doc(node.body, at) or "", key, node.name,
                             self.sections.get(node.name, ()), deprecated=deprecated)
        self._depth += 1
        self.generic_visit(node)
        self._depth -= 1


def _truthy(node: ast.AST | None) -> bool:
    """A keyword given a value that is not ``False``/``None`` (a message counts)."""
    return node is not None and not (isinstance(node, ast.Constant) and node.value in (False, None))


def _undeprecated(value: ast.AST | None) -> tuple[ast.AST | None, bool]:
    """A setting's declaration without its deprecation wrapper, and whether it is declared
    deprecated: wrapped in ``Deprecated(..., option_type=Type(...))`` (mkdocs' config options), or
    given ``deprecated=True``/a message (pydantic's ``Field``, attrs-like declarations)."""
    if not isinstance(value, ast.Call):
        return value, False
    if _name_of(value) == "Deprecated":
        return _kwarg(value, "option_type") or value, True
    return value, _truthy(_kwarg(value, "deprecated"))


def _attribute_doc(body: list[ast.stmt], at: int) -> str | None:
    """The first paragraph of the string that follows the attribute at ``body[at]``: its docstring,
    as Sphinx's autodoc and pydantic read it (mkdocs documents its settings so)."""
    following = body[at + 1] if at + 1 < len(body) else None
    text = _text(following.value) if isinstance(following, ast.Expr) else None
    if not text or not text.strip():
        return None
    return " ".join(inspect.cleandoc(text).split("\n\n")[0].split())


def _is_settings(node: ast.ClassDef) -> bool:
    """A class whose fields are settings: a dataclass or attrs class, or one based on a model or
    config class (pydantic's ``BaseModel``/``BaseSettings``, ``*Config``, ``*Settings``, ...)."""
    return any(_SETTINGS_DECORATORS.search(_dotted(d)) for d in node.decorator_list) or \
        any(_SETTINGS_BASES.search(b) for b in (_name_of(b) for b in node.bases) if b)


def _sections(tree: ast.Module) -> dict[str, tuple[str, ...]]:
    """Each settings class of the module held by fields of others -> those fields' names
    (``database: Database`` or ``list["Database"]`` → ``Database``: ``("database",)``), as Go's
    structs have (``facts_go._sections``). A class another one extends has its fields at that
    one's level too: none then, as for one no field holds."""
    classes = [node for node in tree.body if isinstance(node, ast.ClassDef)]
    settings = {node.name for node in classes if _is_settings(node)}
    keys: dict[str, list[str]] = {}
    extended: set[str] = set()
    for node in classes:
        extended |= {_name_of(base) for base in node.bases} & settings
        if node.name not in settings:
            continue
        for statement in node.body:
            if not (isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name)) or \
                    statement.target.id.startswith("_"):
                continue
            named = {n.id if isinstance(n, ast.Name) else n.value for n in ast.walk(statement.annotation)
                     if isinstance(n, ast.Name) or isinstance(n, ast.Constant) and isinstance(n.value, str)}
            for held in (named & settings) - {node.name}:
                keys.setdefault(held, []).append(statement.target.id)
    return {name: tuple(dict.fromkeys(found)) for name, found in keys.items() if name not in extended}


def _assignments(statement: ast.stmt) -> Iterator[tuple[str, ast.AST | None]]:
    if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
        yield statement.target.id, statement.value
    elif isinstance(statement, ast.Assign):
        for target in statement.targets:
            if isinstance(target, ast.Name):
                yield target.id, statement.value


# Top-level folders of code users run or read but never import (``examples/``, ``docs_src/``):
# its functions are no API.
_NOT_IMPORTED = re.compile(r"(?i)(examples?|samples?|demos?|playgrounds?|sandbox(es)?|benchmarks?|bench|scripts|tools|docs?|"
                           r"documentation)"
                           r"([-_.]\w+)?")


def is_imported(path: str) -> bool:
    """A module users may import, publicly or not: not in an examples, scripts or benchmarks
    folder at the top of the tree."""
    parts = path.split("/")
    return not (len(parts) > 1 and _NOT_IMPORTED.fullmatch(parts[0]))


def _public_module(path: str) -> bool:
    """A module users import: none of its parts private (``_compat.py``, ``_internal/``)."""
    return is_imported(path) and not any(p.startswith("_") and p not in ("__init__.py", "__main__.py")
                                         for p in path.split("/"))


def _parsed(text: str) -> ast.Module | None:
    """The file's syntax tree; None when it does not parse. Quietly: a pull request's odd code
    (``1abc``) is not the service's warning to print."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)
        try:
            return ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return None


def python_items(text: str, path: str = "", exported: frozenset[str] = frozenset()) -> list[Item] | None:
    """Every item of one Python file; None when it does not parse. ``exported``: the
    names public packages import from elsewhere (``pytest`` imports ``fixture`` from
    ``_pytest.fixtures``): in a private module, those are public too."""
    tree = _parsed(text)
    if tree is None:
        return None
    public = _public_module(path)
    reader = _Reader(public, exported if not public and is_imported(path) else frozenset(), _sections(tree),
                     tree)
    try:
        reader.visit(tree)
    except RecursionError:
        return None
    return reader.items


def module_names(text: str | None) -> frozenset[str]:
    """The names a module binds at its top level by assignment or import (``skip = _Skip()``,
    ``from ._impl import skip``): a function whose ``def`` is gone but whose name is bound so is
    still there for its users."""
    tree = _parsed(text or "")
    if tree is None:
        return frozenset()
    names = {target for statement in tree.body for target, _ in _assignments(statement)}
    names |= {(alias.asname or alias.name).split(".")[0] for statement in tree.body
              if isinstance(statement, (ast.Import, ast.ImportFrom)) for alias in statement.names}
    return frozenset(names)


def imported_names(text: str) -> frozenset[str]:
    """The names a module (a package's ``__init__.py``) imports under their own name, so users can
    import them from there: ``from .core import name`` or ``from x import name as name``."""
    tree = _parsed(text)
    if tree is None:
        return frozenset()
    return frozenset(alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                     for alias in node.names if alias.asname in (None, alias.name))


def parameter_use(text: str | None, owner: str, parameter: str) -> tuple[bool, tuple[str, ...]] | None:
    """Whether the function ``owner`` (``run``, ``Class.method``; a class: its ``__init__``) still
    takes or uses ``parameter`` (an argument, a name it reads, a keyword it passes, a string of its
    own: ``kwargs.pop("old")``), and the parameters it takes by name; None when the file or the function is
    not found. A dropped parameter is still there only if its own function says so: a common word
    (``args``) turns up elsewhere in any code."""
    scope: list[ast.stmt] = (_parsed(text or "") or ast.Module(body=[], type_ignores=[])).body
    node: ast.AST | None = None
    for part in owner.split("."):
        node = next((s for s in scope if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                     and s.name == part), None)
        if node is None:
            return None
        scope = node.body
    if isinstance(node, ast.ClassDef):
        node = next((s for s in node.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))
                     and s.name == "__init__"), None)
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    args = node.args
    taken = [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs if a.arg not in ("self", "cls")]
    rest = [a.arg for a in (args.vararg, args.kwarg) if a is not None]
    used = parameter in taken + rest or any(
        (isinstance(n, ast.Name) and n.id == parameter) or (isinstance(n, ast.keyword) and n.arg == parameter)
        or (isinstance(n, ast.Constant) and n.value == parameter) for n in ast.walk(node))
    return used, tuple(taken)
