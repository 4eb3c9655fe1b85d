"""What a Go file offers its users, read from its syntax tree (tree-sitter):

- command-line flags: the standard ``flag`` package and pflag/cobra (``String``, ``StringVar``,
  ``StringP``, ``StringVarP`` and every other type; ``Func``), urfave/cli flag literals
  (``&cli.StringFlag{Name: "lang", Value: "en", EnvVars: []string{"APP_LANG"}}``);
- environment variables (``os.Getenv``, ``os.LookupEnv``, ``viper.BindEnv``, struct tags
  ``env:"X" envDefault:"y"``);
- the exported fields of exported structs users fill in (``cli.App{Suggest: true}``), with their doc
  comment as their description;
- settings: fields of configuration structs by the name their file format gives them (``yaml:``,
  ``toml:``, ``mapstructure:``, ``koanf:``, else ``json:``) with a ``default:`` tag and the field's
  doc comment as its description, in structs named
  like settings or tagged for a configuration format, and ``viper.SetDefault("key", value)``;
- HTTP routes (``http.HandleFunc``, ``mux.Handle``, gin/echo/chi ``GET``/``Get``; Go 1.22 patterns
  ``"GET /users/{id}"``);
- exported functions, methods (``Type.Method``), types, constants and variables of packages users
  import: not ``package main``, nothing under ``internal/``.

Deprecated, as the code declares it: a flag named by pflag's ``MarkDeprecated``, a settings field
or exported function whose doc comment has a ``Deprecated:`` paragraph.
"""

from __future__ import annotations

import re
from dataclasses import replace

from . import syntax
from .facts_model import Item
from .facts_python import is_imported
from .syntax import Node

__all__ = ["go_items", "setting_key"]

# What pflag's (cobra's) help shows for a flag's value, by its function's type (``UnquoteUsage``);
# a type not listed shows its own name lower-cased (``Duration``: ``duration``), camel-cased ones as written
_PFLAG_SHOWS = {"Bool": "", "BoolFunc": "", "Int64": "int", "Uint64": "uint", "Float64": "float",
                "StringSlice": "strings", "IntSlice": "ints", "UintSlice": "uints", "BoolSlice": "bools",
                "StringArray": "stringArray", "Int32Slice": "int32Slice", "Int64Slice": "int64Slice",
                "Float64Slice": "float64Slice", "DurationSlice": "durationSlice", "StringToString": "stringToString",
                "StringToInt": "stringToInt", "IPMask": "ipMask", "IPNet": "ipNet", "BytesHex": "bytesHex",
                "BytesBase64": "bytesBase64", "IP": "ip"}
_PFLAG_UNKNOWN = {"Count", "Text", "Func"}  # shown otherwise, or as the code's own type says
_FLAG = re.compile(r"(Bool|Int|Int8|Int16|Int32|Int64|Uint|Uint8|Uint16|Uint32|Uint64|Float32|Float64|String|"
                   r"Duration|StringSlice|StringArray|IntSlice|Int32Slice|Int64Slice|UintSlice|Float64Slice|"
                   r"BoolSlice|DurationSlice|StringToString|StringToInt|Count|IP|IPMask|IPNet|BytesHex|"
                   r"BytesBase64|Text|Func|BoolFunc)(Var)?(P)?")
_ROUTE = {"HandleFunc", "Handle", "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "Any", "Get", "Post",
          "Put", "Patch", "Delete", "Head", "Options"}
_TAG = re.compile(r'(\w+):"((?:[^"\\]|\\.)*)"')
_FORMAT_TAGS = ("yaml", "toml", "mapstructure", "koanf", "ini", "hcl")
_SETTINGS_TYPE = re.compile(r"(Config|Configuration|Options|Settings|Opts|Conf)$")


def go_items(text: str, path: str = "") -> list[Item] | None:
    """Every item of one Go file; None when it does not parse."""
    root = syntax.parse("go", text)
    if root is None:
        return None
    package = next((syntax.text(c.named_children[0]) for c in root.named_children
                    if c.type == "package_clause" and c.named_children), "")
    nodes = list(syntax.walk(root))  # one walk: the sections are wanted before the structs are read
    reader = _Reader(package != "main" and "internal" not in path.split("/")[:-1] and is_imported(path),
                     _sections(nodes))
    for node in nodes:
        reader.read(node)
    return [replace(i, deprecated=True) if i.kind == "flag" and i.name in reader.deprecated_flags else i
            for i in reader.items]


def _exported(name: str) -> bool:
    return name[:1].isupper()


def _keyed(literal: Node) -> dict[str, Node]:
    """A composite literal's ``Key: value`` elements."""
    body = literal.child_by_field_name("body")
    found = {}
    for element in body.named_children if body is not None else ():
        if element.type == "keyed_element" and len(element.named_children) == 2:
            key, value = element.named_children
            found[syntax.text(key)] = value.named_children[0] if value.type == "literal_element" and \
                value.named_children else value
    return found


_DEPRECATED = re.compile(r"(?:^|\s)Deprecated:")


def _undeprecated(doc: str) -> tuple[str, bool]:
    """A doc comment without its ``Deprecated:`` paragraph (which is no description), and whether
    it has one: Go's convention for a deprecated function, type or struct field."""
    deprecated = _DEPRECATED.search(doc)
    return (doc[:deprecated.start()].strip() if deprecated else doc), deprecated is not None


def _described(name: str, doc: str) -> tuple[str, bool]:
    """A function's doc comment as its description, without the name Go's convention starts it
    with ("NoArgs returns an error if ..." → "returns an error if ..."), and whether it says the
    function is deprecated (``_undeprecated``)."""
    text, deprecated = _undeprecated(doc)
    return re.sub(rf"^(?:An?\s+|The\s+)?{re.escape(name)}\s+", "", text), deprecated


def _strings(node: Node | None) -> list[str]:
    """Every string literal in ``node`` (``[]string{"A", "B"}``, ``cli.EnvVars("A")``)."""
    if node is None:
        return []
    return [s for n in syntax.walk(node) if (s := syntax.string(n)) is not None]


def _tags(field: Node) -> dict[str, str]:
    tag = field.child_by_field_name("tag")
    return dict(_TAG.findall(syntax.string(tag) or "")) if tag is not None else {}


def setting_key(field: Node) -> str | None:
    """The key a configuration file gives a struct field (``yaml:"name,omitempty"`` → ``name``; a
    format's tag before ``json:``); None when untagged, "-" when the format skips it."""
    tags = _tags(field)
    return next((tags[t].split(",")[0] for t in _FORMAT_TAGS + ("json",) if t in tags), None)


def _struct_fields(spec: Node) -> list[Node]:
    body = spec.child_by_field_name("type")
    return [f for declarations in body.named_children if declarations.type == "field_declaration_list"
            for f in declarations.named_children if f.type == "field_declaration"] \
        if body is not None and body.type == "struct_type" else []


def _is_settings(name: str, fields: list[Node]) -> bool:
    """A struct read from a configuration file: named like settings, or tagged for a format."""
    return _SETTINGS_TYPE.search(name) is not None or any(set(_tags(f)) & set(_FORMAT_TAGS) for f in fields)


def _sections(nodes: list[Node]) -> dict[str, tuple[str, ...]]:
    """Each settings struct held by fields of others -> the keys of those fields (``Sign []Sign
    `yaml:"signs"``` → ``Sign``: ``("signs",)``). A struct also embedded or inlined somewhere has
    keys at its holder's level too: none then, as for one no field holds."""
    keys: dict[str, list[str]] = {}
    inlined: set[str] = set()
    for spec in (n for n in nodes if n.type == "type_spec"):
        fields = _struct_fields(spec)
        if not _is_settings(syntax.text(spec.child_by_field_name("name")), fields):
            continue
        for field in fields:
            kind = field.child_by_field_name("type")
            held = {syntax.text(n) for n in syntax.walk(kind) if n.type == "type_identifier"} if kind else set()
            key = setting_key(field)
            names = [syntax.text(n) for n in field.children_by_field_name("name")]
            if key == "-":
                continue
            if not names or key == "" or "inline" in _tags(field).get("yaml", ""):
                inlined |= held
                continue
            for type_name in held:
                keys.setdefault(type_name, []).extend([key] if key else names)
    return {name: tuple(dict.fromkeys(found)) for name, found in keys.items() if name not in inlined}


class _Reader(syntax.Reader):
    """One file's items, node by node (``syntax.walk``): each kind of node tells what to look for."""

    def __init__(self, public: bool, sections: dict[str, tuple[str, ...]]) -> None:
        super().__init__(public)
        self.sections = sections  # a settings struct -> the keys it stands under (``_sections``)
        self.deprecated_flags: set[str] = set()  # flags a ``MarkDeprecated`` call names

    def read(self, node: Node) -> None:
        kind = node.type
        if kind == "call_expression":
            self._call(node)
        elif kind == "composite_literal":
            self._flag_literal(node)
        elif kind == "type_spec":
            self._type(node)
        elif self.public and kind in ("function_declaration", "method_declaration") and \
                node.parent is not None and node.parent.type == "source_file":
            self._function(node)
        elif self.public and kind in ("const_spec", "var_spec") and node.parent is not None and \
                node.parent.parent is not None and node.parent.parent.type == "source_file":
            for name in node.children_by_field_name("name"):
                if _exported(syntax.text(name)):
                    self.add("symbol", syntax.text(name), f"go: exported {kind.split('_')[0]}", None, name)

    def _call(self, call: Node) -> None:
        function = call.child_by_field_name("function")
        if function is None or function.type != "selector_expression":
            return
        name = syntax.text(function.child_by_field_name("field"))
        target = syntax.text(function.child_by_field_name("operand"))
        args = syntax.arguments(call)
        first = syntax.string(args[0]) if args else None
        if name == "MarkDeprecated" and first:  # pflag: the flag stays, its use warns
            self.deprecated_flags.add(f"--{first}")
        elif (match := _FLAG.fullmatch(name)) and args:
            self._flag(match, args, call)
        elif target == "os" and name in ("Getenv", "LookupEnv") and first:
            self.add("env", first, f"go: os.{name}", None, call)
        elif name == "BindEnv" and len(args) > 1:
            for env in (syntax.string(a) for a in args[1:]):
                if env:
                    self.add("env", env, "go: viper.BindEnv", None, call)
        elif name == "SetDefault" and first and len(args) == 2:
            self.add("config", first, "go: viper.SetDefault", args[1], call)
        elif name in _ROUTE and first and len(args) >= 2:
            method = "ANY" if name in ("HandleFunc", "Handle", "Any") else name.upper()
            route = first
            if re.fullmatch(r"[A-Z]+ /\S*", first):  # Go 1.22: "GET /users/{id}"
                method, route = first.split(" ", 1)
            if route.startswith("/"):
                self.add("route", f"{method} {route}", "go: router registration", None, call)

    def _flag(self, match: re.Match, args: list[Node], call: Node) -> None:
        """``String(name, default, usage)``; ``Var`` takes a pointer first, ``P`` a shorthand
        after the name; ``Func(name, usage, fn)`` has no default."""
        if match.group(2):
            args = args[1:]
        if not args or (name := syntax.string(args[0])) is None or not re.fullmatch(r"[A-Za-z][\w.-]*", name):
            return
        rest = args[2:] if match.group(3) else args[1:]
        if match.group(1) in ("Func", "BoolFunc"):
            default, usage = None, rest[0] if rest else None
        else:
            default, usage = (rest[0] if rest else None), (rest[1] if len(rest) > 1 else None)
        help_text = syntax.string(usage) or ""
        quoted = re.search(r"`([^`]+)`", help_text)  # pflag shows a name in backquotes as the value's
        shows = quoted.group(1) if quoted else _PFLAG_SHOWS.get(match.group(1), match.group(1).lower())
        self.add("flag", f"--{name}", "go: flag/pflag definition", default, call, help_text,
                 shows=None if match.group(1) in _PFLAG_UNKNOWN else shows)
        short = syntax.string(args[1]) if match.group(3) and len(args) > 1 else None
        if short and re.fullmatch(r"[A-Za-z0-9]", short):  # StringP("output", "o", ...): -o, --output
            self.items[-1] = replace(self.items[-1], short=f"-{short}")

    def _flag_literal(self, literal: Node) -> None:
        """``&cli.StringFlag{Name: "lang", Value: "en", Usage: "...", EnvVars: []string{"LANG"}}``."""
        kind = syntax.text(literal.child_by_field_name("type"))
        if not kind.endswith("Flag") or kind.endswith("[]"):
            return
        fields = _keyed(literal)
        name = syntax.string(fields.get("Name"))
        if not name:
            return
        usage = syntax.string(fields.get("Usage")) or ""
        # urfave/cli's help shows the value a flag takes as its usage's `PLACEHOLDER`, else "value"; a
        # boolean flag takes none. One alias of one letter is the flag's short form (``-l``).
        quoted = re.search(r"`([^`]+)`", usage)
        shows = "" if kind.rsplit(".", 1)[-1].startswith("Bool") else quoted.group(1) if quoted else "value"
        self.add("flag", f"--{name}", f"go: {kind} literal", fields.get("Value"), literal, usage, shows=shows)
        short = next((a for a in _strings(fields.get("Aliases")) if re.fullmatch(r"[A-Za-z0-9]", a)), None)
        if short:
            self.items[-1] = replace(self.items[-1], short=f"-{short}")
        for env in _strings(fields.get("EnvVars") or fields.get("EnvVar") or fields.get("Sources")):
            self.add("env", env, f"go: {kind} environment variable", None, literal)

    def _type(self, spec: Node) -> None:
        name = syntax.text(spec.child_by_field_name("name"))
        top = spec.parent is not None and spec.parent.parent is not None and spec.parent.parent.type == "source_file"
        fields = _struct_fields(spec)
        tagged = [(f, _tags(f)) for f in fields]
        # A struct read from a configuration file is documented by its keys, not by its Go name.
        read_from_file = any(set(t) & set(_FORMAT_TAGS) for _, t in tagged)
        if self.public and top and _exported(name) and not read_from_file:
            self.add("symbol", name, "go: exported type", None, spec)
        settings = _is_settings(name, fields)
        for field, tags in tagged:
            if "env" in tags and (env := tags["env"].split(",")[0]):
                self.add("env", env, f"go: env tag of struct {name}", tags.get("envDefault"), field, owner=name)
            if not settings:
                if self.public and top and _exported(name):
                    self._field(name, field)
                continue
            key = setting_key(field)
            for identifier in field.children_by_field_name("name"):
                if key == "-" or not (key or _exported(syntax.text(identifier))):
                    continue
                described, deprecated = _undeprecated(syntax.doc_comment(field)[0])
                self.add("config", key or syntax.text(identifier), f"go: field of settings struct {name}",
                         tags.get("default"), field, described, owner=name,
                         context=self.sections.get(name, ()), deprecated=deprecated)

    def _field(self, struct: str, field: Node) -> None:
        """An exported field of an exported struct of a package users import: what they set in a
        struct literal (``cli.Command{Suggest: true}``, ``cobra.Command{ValidArgsFunction: f}``),
        described by its doc comment, deprecated where that says so."""
        for identifier in field.children_by_field_name("name"):
            if _exported(syntax.text(identifier)):
                described, deprecated = _undeprecated(syntax.doc_comment(field)[0])
                self.add("config", syntax.text(identifier), f"go: field of exported struct {struct}", None, field,
                         described, owner=struct, deprecated=deprecated)

    def _function(self, node: Node) -> None:
        name = syntax.text(node.child_by_field_name("name"))
        if not _exported(name):
            return
        if node.type == "method_declaration":
            receiver = node.child_by_field_name("receiver")
            owner = next((syntax.text(n) for n in syntax.walk(receiver) if n.type == "type_identifier"), "") \
                if receiver is not None else ""
            if _exported(owner):
                self.add("symbol", f"{owner}.{name}", "go: exported method", None, node, owner=owner)
        else:
            described, deprecated = _described(name, syntax.doc_comment(node)[0])
            self.add("symbol", name, "go: exported function", None, node, described, deprecated=deprecated)
