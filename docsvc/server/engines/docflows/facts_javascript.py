"""What a JavaScript or TypeScript file offers its users, read from its syntax tree (tree-sitter):

- command-line options: commander and cac (``.option("-p, --port <n>", "help", 3000)``,
  ``.requiredOption``, ``new Option(...).default(v)``, ``.argument("<file>")``), yargs
  (``.option("port", {default, describe})``, ``.options({...})``, ``.positional``) and
  ``util.parseArgs({options: {...}})``;
- environment variables read (``process.env.X``, ``process.env["X"]``, destructured from
  ``process.env`` with defaults, ``import.meta.env.X``, ``Deno.env.get("X")``), with the fallback
  after ``||``/``??`` as the default;
- settings: the members of an object of defaults (``const defaults = {timeout: 0}``), of exported
  interfaces and types named like options (``interface ServerOptions``, each with the description
  and ``@default`` of its doc comment), and enum members, an exported union of string literals's
  too (``type ApplicationHook = 'onReady' | 'onClose'``);
- error and warning codes a factory defines with their message (``createError("FST_ERR_X", "msg")``,
  ``createWarning({code: "FSTDEP010", message})``), grouped by the factory;
- web routes: express/koa/fastify/hono calls (``app.get("/x", handler)``, ``fastify.route({method,
  url})``) and NestJS decorators (``@Controller("users")`` with ``@Get(":id")``);
- exported functions, classes, constants, interfaces and types (``export``, ``export {a as b}``,
  ``module.exports``), with the parameters and defaults of exported functions and constructors,
  and the members of the object an exported function builds and returns (``fastify()`` returns
  ``{route, get, addHook, ...}``: ``fastify.addHook``), which its users call.
  Which of them are a package's API, ``package_api`` tells from its entry points (``facts``
  keeps only those).

A default is compared by its parsed value (``syntax.value``): a quote style is no change.
"""

from __future__ import annotations

import json
import posixpath
import re
from dataclasses import replace
from pathlib import PurePosixPath
from typing import Callable, Iterable

from . import syntax
from .facts_model import Item
from .facts_python import is_imported
from .syntax import Node

__all__ = ["javascript_items", "package_api"]

_HTTP = {"get", "post", "put", "patch", "delete", "options", "head", "all"}
_NEST_ROUTES = {"Get", "Post", "Put", "Patch", "Delete", "Options", "Head", "All"}
_ENV_OBJECTS = {"process.env", "import.meta.env", "Bun.env"}
_DEFAULTS_NAME = re.compile(r"(?i)default")  # defaults, DEFAULT_OPTIONS, defaultConfig
_OPTIONS_TYPE = re.compile(r"(Options|Config|Configuration|Settings|Opts|Props)$")
_FUNCTIONS = ("function_declaration", "generator_function_declaration", "function_signature", "function_expression",
              "arrow_function", "function")
_CLASSES = ("class_declaration", "abstract_class_declaration", "class")
_HELP_KEYS = ("describe", "description", "desc", "help")
_MEMBER = "js: member of the object an exported function returns"
_JS_NAME = re.compile(r"[A-Za-z_$][\w$]*")
# an error or warning code: FST_ERR_NOT_FOUND, ERR_INVALID_ARG, FSTDEP010 (capitals, then words or digits)
_CODE = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Z]{2,}\d{2,}")
_CODE_FACTORY = re.compile(r"(?i)error|warning|deprecat")  # createError, createWarning, createDeprecation


def javascript_items(text: str, path: str = "") -> list[Item] | None:
    """Every item of one JavaScript/TypeScript file; None when it does not parse."""
    read = _read(text, path)
    return None if read is None else read[1]


def _read(text: str, path: str) -> tuple[Node, list[Item]] | None:
    """A file's syntax tree and its items."""
    root = syntax.parse(syntax.LANGUAGES.get(PurePosixPath(path).suffix.lower(), "javascript"), text)
    if root is None:
        return None
    reader = _Reader(is_imported(path))
    for node in syntax.walk(root):
        reader.read(node)
    # What a function returns is API only when the function is: known once the whole file is read.
    exported = {i.name for i in reader.items if i.kind == "symbol" and i.rule != _MEMBER}
    return root, [i for i in reader.items if i.rule != _MEMBER or i.owner in exported]


def _callee(call: Node) -> tuple[str, str]:
    """(the called name, the text of what it is called on): ``app.get`` → ("get", "app")."""
    function = call.child_by_field_name("function") or call.child_by_field_name("constructor")
    if function is None:
        return "", ""
    if function.type == "member_expression":
        return syntax.text(function.child_by_field_name("property")), syntax.text(function.child_by_field_name("object"))
    return syntax.text(function), ""


def _pairs(node: Node | None) -> dict[str, Node | None]:
    """An object literal's keys and values (a shorthand ``{a}`` has no value node)."""
    found: dict[str, Node | None] = {}
    if node is None or node.type != "object":
        return found
    for child in node.named_children:
        if child.type == "pair":
            key = child.child_by_field_name("key")
            name = syntax.string(key) if key is not None and key.type == "string" else syntax.text(key)
            found[name] = child.child_by_field_name("value")
        elif child.type == "shorthand_property_identifier":
            found[syntax.text(child)] = None
    return found


def _help(pairs: dict[str, Node | None]) -> str:
    return next((syntax.string(pairs[k]) or "" for k in _HELP_KEYS if k in pairs), "")


class _Reader(syntax.Reader):
    """One file's items, node by node (``syntax.walk``): each kind of node tells what to look for."""

    def read(self, node: Node) -> None:
        kind = node.type
        if kind == "call_expression":
            self._call(node)
        elif kind == "new_expression" and _callee(node)[0] == "Option":
            self._commander_option(node)
        elif kind in ("member_expression", "subscript_expression"):
            self._env_access(node)
        elif kind == "variable_declarator":
            self._declarator(node)
        elif kind == "export_statement" and self.public:
            self._export(node)
        elif kind == "assignment_expression" and self.public:
            self._module_exports(node)
        elif kind in _CLASSES:
            self._controller(node)
        elif kind == "function_declaration" and node.parent is not None and \
                node.parent.type in ("program", "export_statement") and self.public:
            self._factory(node)

    # -- calls: options, routes, env lookups ------------------------------------------------------
    def _call(self, call: Node) -> None:
        name, target = _callee(call)
        args = syntax.arguments(call)
        first = syntax.string(args[0]) if args else None
        if name in ("option", "requiredOption") and first is not None:
            if first.startswith("-"):
                self._flag_spec(first, args[1:], call, "js: commander/cac .option()")
            elif len(args) > 1 and args[1].type == "object":
                self._named_flags({first: args[1]}, call, "js: yargs .option()")
        elif name == "options" and args and args[0].type == "object" and target:
            self._named_flags(_pairs(args[0]), call, "js: yargs .options()")
        elif name == "positional" and first is not None and len(args) > 1:
            pairs = _pairs(args[1])
            self.add("argument", first, "js: yargs .positional()", pairs.get("default"), call, _help(pairs))
        elif name == "argument" and first is not None and target:
            argument = first.strip("<>[]. ")
            if re.fullmatch(r"[\w-]+", argument):
                self.add("argument", argument, "js: commander .argument()", args[2] if len(args) > 2 else None, call,
                         syntax.string(args[1]) or "" if len(args) > 1 else "")
        elif name == "parseArgs" and args:
            self._named_flags(_pairs(_pairs(args[0]).get("options")), call, "js: util.parseArgs options")
        elif name in _HTTP and first is not None and first.startswith("/") and len(args) >= 2 and target:
            self.add("route", f"{name.upper()} {first}", "js: express-style route", None, call)
        elif name == "route" and args and args[0].type == "object":
            pairs = _pairs(args[0])
            url = syntax.string(pairs.get("url") or pairs.get("path"))
            method = syntax.string(pairs.get("method"))
            if url and url.startswith("/") and method:
                self.add("route", f"{method.upper()} {url}", "js: fastify .route()", None, call)
        elif name == "get" and target == "Deno.env" and first:
            self.add("env", first, "js: Deno.env.get", None, call)
        else:
            self._code(f"{target}.{name}" if target else name, args, call)

    def _code(self, factory: str, args: list[Node], call: Node) -> None:
        """An error or warning code a factory defines with its message: ``createError("FST_ERR_X",
        "message", 500)``, ``createWarning({code: "FSTDEP010", message: "..."})``,
        ``warning.create("FastifyDeprecation", "FSTDEP001", "message")``. Users look codes up in
        the docs (a table of codes, a section each); the factory groups a code with its siblings
        (errors beside errors, warnings beside warnings)."""
        if not _CODE_FACTORY.search(factory):
            return
        pairs = _pairs(args[0]) if len(args) == 1 else {}
        if pairs:
            code, message = syntax.string(pairs.get("code")), syntax.string(pairs.get("message"))
        else:  # the code among the first two strings (a warning's name may come first), then its message
            strings = [syntax.string(a) for a in args[:3]]
            at = next((i for i, text in enumerate(strings[:2]) if text and _CODE.fullmatch(text)), None)
            code = strings[at] if at is not None else None
            message = strings[at + 1] if at is not None and at + 1 < len(strings) else None
        if code and message and _CODE.fullmatch(code):
            self.add("enum", code, f"js: code defined by {factory}()", None, call, message, owner=factory)

    def _named_flags(self, specs: dict[str, Node | None], node: Node, rule: str) -> None:
        """Options named without dashes, each with an object of its details (yargs, parseArgs):
        ``{port: {default: 3000, describe: "..."}}`` is ``--port``."""
        for flag, spec in specs.items():
            if re.fullmatch(r"[A-Za-z][\w-]*", flag):
                pairs = _pairs(spec)
                self.add("flag", f"--{flag}", rule, pairs.get("default"), node, _help(pairs))

    def _flag_spec(self, spec: str, rest: list[Node | None], node: Node, rule: str) -> None:
        """``"-p, --port <n>"`` and what follows it: help text, then a default (commander takes a
        parser function before the default; cac an object with ``default``)."""
        longs = re.findall(r"--[A-Za-z][\w-]*", spec) or re.findall(r"(?<![\w-])-[A-Za-z]\b", spec)
        if not longs:
            return
        help_text = syntax.string(rest[0]) or "" if rest else ""
        default = rest[1] if len(rest) > 1 else None
        if default is not None and default.type in _FUNCTIONS + ("identifier",) and len(rest) > 2:
            default = rest[2]  # .option(flags, help, parseInt, 3)
        elif default is not None and default.type in _FUNCTIONS:
            default = None
        elif default is not None and default.type == "object":
            default = _pairs(default).get("default")
        # the help screen prints the spec as written: the value placeholder (``<n>``, ``[dir]``; none
        # for a flag that takes no value) and the short form beside the long one
        placeholder = re.search(r"[<\[][^<>\[\]]*[>\]]", spec)
        short = re.search(r"(?<![\w-])-[A-Za-z](?![\w-])", spec) if longs[0].startswith("--") else None
        self.add("flag", longs[0], rule, default, node, help_text, shows=placeholder.group(0) if placeholder else "")
        self.items[-1] = replace(self.items[-1], short=short.group(0) if short else None)

    def _commander_option(self, new: Node) -> None:
        args = syntax.arguments(new)
        spec = syntax.string(args[0]) if args else None
        if spec is None or not spec.startswith("-"):
            return
        default = None
        parent = new.parent
        while parent is not None and parent.type in ("member_expression", "call_expression", "parenthesized_expression"):
            if parent.type == "call_expression" and _callee(parent)[0] == "default":
                default = (syntax.arguments(parent) or [None])[0]
            parent = parent.parent
        rest = [args[1] if len(args) > 1 else None] + ([default] if default is not None else [])
        self._flag_spec(spec, rest, new, "js: commander new Option()")

    def _env_access(self, node: Node) -> None:
        target = node.child_by_field_name("object")
        if syntax.text(target) not in _ENV_OBJECTS:
            return
        if node.type == "member_expression":
            name = syntax.text(node.child_by_field_name("property"))
        else:
            name = syntax.string(node.child_by_field_name("index")) or ""
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
            return
        default = None
        parent = node.parent
        if parent is not None and parent.type == "binary_expression" and \
                syntax.text(parent.child_by_field_name("operator")) in ("||", "??") and \
                parent.child_by_field_name("left") == node:
            default = parent.child_by_field_name("right")
        self.add("env", name, f"js: {syntax.text(target)}", default, node)

    def _declarator(self, node: Node) -> None:
        name, value = node.child_by_field_name("name"), node.child_by_field_name("value")
        if name is None or value is None:
            return
        if name.type == "object_pattern" and syntax.text(value) in _ENV_OBJECTS:
            for part in name.named_children:  # const {PORT = 3000, HOST} = process.env
                if part.type == "shorthand_property_identifier_pattern":
                    self.add("env", syntax.text(part), "js: destructured from the environment", None, part)
                elif part.type == "object_assignment_pattern":
                    left = part.child_by_field_name("left")
                    self.add("env", syntax.text(left), "js: destructured from the environment",
                             part.child_by_field_name("right"), part)
        elif name.type == "identifier" and value.type == "object" and _DEFAULTS_NAME.search(syntax.text(name)) \
                and node.parent is not None and node.parent.parent is not None \
                and node.parent.parent.type in ("program", "export_statement"):
            self._settings(value, syntax.text(name))

    def _settings(self, obj: Node, owner: str, depth: int = 0) -> None:
        for key, value in _pairs(obj).items():
            if not re.fullmatch(r"[A-Za-z_$][\w$-]*", key):
                continue
            nested = value is not None and value.type == "object"
            self.add("config", key, f"js: member of defaults object {owner}", None if nested else value,
                     value or obj, owner=owner)
            if nested and depth < 2:
                self._settings(value, f"{owner}.{key}", depth + 1)

    # -- exports ------------------------------------------------------------------------------
    def _export(self, node: Node) -> None:
        for child in node.named_children:
            if child.type == "ambient_declaration":
                child = next((c for c in child.named_children), child)
            self._exported(child)

    def _exported(self, node: Node) -> None:
        kind = node.type
        name = syntax.text(node.child_by_field_name("name"))
        if kind in _FUNCTIONS and name:
            self.add("symbol", name, "js: exported function", None, node)
            self._parameters(name, node)
        elif kind in _CLASSES and name:
            self.add("symbol", name, "js: exported class", None, node)
            body = node.child_by_field_name("body")
            for member in body.named_children if body is not None else ():
                if member.type == "method_definition" and syntax.text(member.child_by_field_name("name")) == \
                        "constructor":
                    self._parameters(name, member)
        elif kind in ("lexical_declaration", "variable_declaration"):
            for declarator in node.named_children:
                target = declarator.child_by_field_name("name")
                if declarator.type == "variable_declarator" and target is not None and target.type == "identifier":
                    self.add("symbol", syntax.text(target), "js: exported constant", None, declarator)
                    value = declarator.child_by_field_name("value")
                    if value is not None and value.type in _FUNCTIONS:
                        self._parameters(syntax.text(target), value)
        elif kind in ("interface_declaration", "type_alias_declaration") and name:
            self.add("symbol", name, f"js: exported {kind.split('_')[0]}", None, node)
            for member in _literal_union(node.child_by_field_name("value")):
                self.add("enum", syntax.string(member) or "", f"js: member of string union type {name}", None,
                         member, owner=name)
            if _OPTIONS_TYPE.search(name):
                body = node.child_by_field_name("body") or node.child_by_field_name("value")
                for member in body.named_children if body is not None else ():
                    if member.type == "property_signature":
                        described, default = syntax.doc_comment(member)  # /** ... @default 'dist' */
                        self.add("config", syntax.text(member.child_by_field_name("name")),
                                 f"js: member of options type {name}", default, member, described, owner=name)
        elif kind == "enum_declaration" and name:
            self.add("symbol", name, "js: exported enum", None, node)
            body = node.child_by_field_name("body")
            for member in body.named_children if body is not None else ():
                if member.type == "enum_assignment":
                    self.add("enum", syntax.text(member.child_by_field_name("name")), f"js: member of enum {name}",
                             member.child_by_field_name("value"), member, owner=name)
                elif member.type == "property_identifier":
                    self.add("enum", syntax.text(member), f"js: member of enum {name}", None, member, owner=name)
        elif kind == "export_clause":
            for specifier in node.named_children:
                alias = specifier.child_by_field_name("alias") or specifier.child_by_field_name("name")
                exported = syntax.string(alias) if alias is not None and alias.type == "string" else syntax.text(alias)
                if specifier.type == "export_specifier" and exported != "default" and \
                        re.fullmatch(r"[A-Za-z_$][\w$]*", exported or ""):  # not export {x as "estree-json"}
                    self.add("symbol", exported, "js: export { }", None, specifier)

    def _module_exports(self, node: Node) -> None:
        left, right = syntax.text(node.child_by_field_name("left")), node.child_by_field_name("right")
        if left == "module.exports" and right is not None and right.type == "object":
            for key in _pairs(right):
                self.add("symbol", key, "js: module.exports", None, node)
        elif match := re.fullmatch(r"(?:module\.)?exports\.([A-Za-z_$][\w$]*)", left):
            self.add("symbol", match.group(1), "js: exports.name", None, node)

    def _parameters(self, owner: str, function: Node) -> None:
        parameters = function.child_by_field_name("parameters")
        for parameter in parameters.named_children if parameters is not None else ():
            pattern = parameter.child_by_field_name("pattern") if parameter.type.endswith("_parameter") else parameter
            default = parameter.child_by_field_name("value") if parameter.type.endswith("_parameter") else None
            if pattern is not None and pattern.type == "assignment_pattern":
                pattern, default = pattern.child_by_field_name("left"), pattern.child_by_field_name("right")
            if pattern is not None and pattern.type == "identifier":
                self.add("parameter", f"{owner}({syntax.text(pattern)})", "js: exported signature", default,
                         parameter, owner=owner)
            elif pattern is not None and pattern.type == "object_pattern":  # f({timeout = 0} = {})
                for part in pattern.named_children:
                    if part.type == "object_assignment_pattern":
                        self.add("parameter", f"{owner}({syntax.text(part.child_by_field_name('left'))})",
                                 "js: exported signature (options object)", part.child_by_field_name("right"), part,
                                 owner=owner)
                    elif part.type == "shorthand_property_identifier_pattern":
                        self.add("parameter", f"{owner}({syntax.text(part)})",
                                 "js: exported signature (options object)", None, part, owner=owner)

    def _factory(self, function: Node) -> None:
        """The members of the object literal a top-level function returns, directly or through a
        local name (``const fastify = {...}; ...; return fastify``), as ``fastify.member``."""
        name, body = syntax.text(function.child_by_field_name("name")), function.child_by_field_name("body")
        if not name or body is None:
            return
        objects: dict[str, Node] = {}
        returned = None
        for statement in body.named_children:
            if statement.type in ("lexical_declaration", "variable_declaration"):
                for declarator in statement.named_children:
                    target, value = declarator.child_by_field_name("name"), declarator.child_by_field_name("value")
                    if target is not None and value is not None and target.type == "identifier" and value.type == "object":
                        objects[syntax.text(target)] = value
            elif statement.type == "return_statement" and statement.named_children:
                value = statement.named_children[0]
                returned = value if value.type == "object" else objects.get(syntax.text(value))
        if returned is None:
            return
        members = [(key, value or returned) for key, value in _pairs(returned).items()]
        members += [(syntax.text(m.child_by_field_name("name")), m) for m in returned.named_children
                    if m.type == "method_definition"]  # get prefix () {...}, listen () {...}
        for key, node in dict(members).items():
            if _JS_NAME.fullmatch(key):
                self.add("symbol", f"{name}.{key}", _MEMBER, None, node, owner=name)

    # -- NestJS controllers ---------------------------------------------------------------------
    def _controller(self, node: Node) -> None:
        decorators = [c for c in node.children if c.type == "decorator"]
        if node.parent is not None and node.parent.type == "export_statement":
            decorators += [c for c in node.parent.children if c.type == "decorator"]
        prefix = next((_decorator_path(d) for d in decorators if _decorator_name(d) == "Controller"), None)
        if prefix is None:
            return
        pending: list[Node] = []
        body = node.child_by_field_name("body")
        for member in body.named_children if body is not None else ():
            if member.type == "decorator":
                pending.append(member)
                continue
            for decorator in pending + [c for c in member.children if c.type == "decorator"]:
                if member.type == "method_definition" and _decorator_name(decorator) in _NEST_ROUTES:
                    route = "/" + "/".join(p.strip("/") for p in (prefix, _decorator_path(decorator)) if p.strip("/"))
                    self.add("route", f"{_decorator_name(decorator).upper()} {route}", "js: NestJS route decorator",
                             None, member)
            pending = []


def _literal_union(node: Node | None) -> list[Node]:
    """The string literals a union type of them alone names (``'onRoute' | 'onReady' | 'onClose'``:
    TypeScript's enum of names); none for a union with any other type (``string | 'auto'``)."""
    if node is None or node.type != "union_type":
        return []
    parts, queue = [], [node]
    while queue:
        part = queue.pop(0)
        if part.type == "union_type":
            queue[:0] = part.named_children
        elif part.type == "literal_type" and part.named_children and part.named_children[0].type == "string":
            parts.append(part.named_children[0])
        else:
            return []
    return parts if len(parts) >= 2 and all(_JS_NAME.fullmatch(syntax.string(p) or "") for p in parts) else []


def _decorator_name(decorator: Node) -> str:
    call = decorator.named_children[0] if decorator.named_children else None
    if call is not None and call.type == "call_expression":
        return _callee(call)[0]
    return syntax.text(call)


def _decorator_path(decorator: Node) -> str:
    call = decorator.named_children[0] if decorator.named_children else None
    if call is None or call.type != "call_expression":
        return ""
    args = syntax.arguments(call)
    return (syntax.string(args[0]) or "") if args else ""


# -- a package's public API: what its entry points export ------------------------------------------
_SOURCE_SUFFIXES = (".ts", ".tsx", ".mts", ".cts", ".js", ".mjs", ".cjs", ".jsx")
_BUILT = {"dist", "lib", "build", "out", "esm", "cjs", "types"}  # folders of built output, made from src/
MAX_API_FILES = 200  # entry points and the modules they re-export, read per package


def package_api(manifest: str, folder: str, tree: Iterable[str] | set[str],
                read: Callable[[str], str | None]) -> frozenset[str] | None:
    """The names a JavaScript/TypeScript package exports to its users: what its entry points
    (``package.json``'s ``exports``, ``main``, ``module``, ``types``) export, following ``export *
    from``. An entry that names built output (``dist/index.js``) is read from its source
    (``src/index.ts``). None when no entry resolves to a source file here (then nothing tells API
    from internals, and every export counts)."""
    try:
        data = json.loads(manifest)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    files = set(tree)
    entries = [found for spec in _entry_specs(data) if (found := _source_of(folder, spec, files))]
    if not entries:
        return None
    names: set[str] = set()
    queue, seen = list(dict.fromkeys(entries)), set()
    while queue and len(seen) < MAX_API_FILES:
        path = queue.pop(0)
        if path in seen:
            continue
        seen.add(path)
        read_file = _read(read(path) or "", path)
        if read_file is None:
            continue
        root, items = read_file
        names.update(i.name for i in items if i.kind == "symbol")
        for node in root.named_children:  # export * from "./x" (export * as ns from: ns is an item)
            source = node.child_by_field_name("source") if node.type == "export_statement" else None
            if source is not None and not any(c.type in ("export_clause", "namespace_export") for c in node.children):
                target = _source_of(posixpath.dirname(path), syntax.string(source) or "", files)
                if target:
                    queue.append(target)
    return frozenset(names)


def _entry_specs(data: dict) -> list[str]:
    """The relative paths ``package.json`` gives for its entry points (``exports`` however nested)."""
    found: list[str] = []

    def walk(value) -> None:
        if isinstance(value, str):
            found.append(value)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(data.get("exports"))
    for key in ("main", "module", "types", "typings"):
        walk(data.get(key))
    # "main": "fastify.js" is as relative as "./fastify.js" (in package.json, unlike in an import)
    return [spec if spec.startswith(".") else "./" + spec for spec in found
            if "*" not in spec and ":" not in spec and not spec.startswith("/")]


_STEM = re.compile(r"(\.d)?\.[cm]?[jt]sx?$")


def _source_of(folder: str, spec: str, files: set[str]) -> str | None:
    """The source file a relative module path from ``folder`` ("" at the top) names, in the tree:
    itself, with a source suffix, its ``index``, a ``.js`` written for a ``.ts`` (TypeScript's ESM
    imports), and for built output (``dist/x.js``) its source (``src/x.ts``)."""
    path = posixpath.normpath(posixpath.join(folder, spec))
    if not spec.startswith(".") or path == ".." or path.startswith("../"):
        return None
    stems = [_STEM.sub("", path)]
    top, _, rest = (path[len(folder) + 1:] if folder else path).partition("/")
    if top in _BUILT and rest:
        stems.append(_STEM.sub("", posixpath.join(folder, "src", rest)))
    for stem in stems:
        for candidate in [path] + [stem + s for s in _SOURCE_SUFFIXES] + [f"{stem}/index{s}" for s in _SOURCE_SUFFIXES]:
            if candidate in files and candidate.endswith(_SOURCE_SUFFIXES):  # a hand-written .d.ts too
                return candidate
    return None
