"""Facts that documentation talks about, found by comparing a changed file's old and new text:
command-line flags, environment variables, configuration keys, HTTP routes, OpenAPI operations and
parameters, public functions and classes, and changed defaults (``old → new``).

Rule-based (Docflows' first stage; a language model may replace it later): every fact names the
rule that found it. Sources: Python, JavaScript/TypeScript and Go; config files by format (YAML,
JSON, TOML, .env, Helm values); OpenAPI documents.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any, Callable, Iterable

__all__ = ["Fact", "facts_of_change", "facts_between", "Item"]


@dataclass(frozen=True)
class Fact:
    kind: str  # flag | env | config | route | operation | parameter | symbol
    change: str  # added | removed | renamed | default-changed
    name: str  # the new name (the old one for removals)
    path: str
    rule: str
    old: str | None = None  # renamed: the old name; default-changed: the old value
    new: str | None = None  # default-changed: the new value
    line: int | None = None  # in the new text (the old text for removals)
    note: str | None = None  # added: the help text found beside the definition
    siblings: tuple[str, ...] = ()  # added: other names of the same kind in the same file

    def describe(self) -> str:
        if self.change == "renamed":
            return f"{self.kind} {self.old} renamed to {self.name}"
        if self.change == "default-changed":
            return f"{self.kind} {self.name} default {self.old} → {self.new}"
        return f"{self.kind} {self.name} {self.change}"


@dataclass(frozen=True)
class Item:
    """One thing found in one version of a file: its name, a default when it has one, the line,
    and a signature used to pair a removal with an addition as a rename."""

    kind: str
    name: str
    rule: str
    default: str | None = None
    line: int | None = None
    signature: str = ""


_Q = r"""(?:"([^"\n]*)"|'([^'\n]*)'|`([^`\n]*)`)"""  # a quoted string, any of three quotes


def _unq(match: re.Match, first: int) -> str:
    return next(g for g in match.groups()[first:first + 3] if g is not None)


def _line_of(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def _call_args(text: str, start: int, limit: int = 2000) -> str:
    """The text inside the parentheses that open at or after ``start`` (balanced, bounded)."""
    open_at = text.find("(", start)
    if open_at < 0:
        return ""
    depth = 0
    for i in range(open_at, min(len(text), open_at + limit)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return text[open_at + 1:i]
    return text[open_at + 1:open_at + limit]


def _split_args(args: str) -> list[str]:
    """Top-level arguments of a call: commas inside quotes, brackets or braces do not split."""
    parts, depth, quote, current = [], 0, None, []
    for char in args:
        if quote:
            quote = None if char == quote else quote
        elif char in "\"'`":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append("".join(current).strip())
            current = []
            continue
        current.append(char)
    if "".join(current).strip():
        parts.append("".join(current).strip())
    return parts


def _kwarg(args: str, name: str) -> str | None:
    match = re.search(rf"\b{name}\s*=\s*({_Q[3:-1]}|[^,)\n]+)", args)
    if not match:
        return None
    return match.group(1).strip()


# --- Python -----------------------------------------------------------------------------------

_PY_FLAG = re.compile(r"\.(?:add_argument|option)\s*\(|@click\.option\s*\(|typer\.Option\s*\(")
_PY_ENV = re.compile(r"os\.(?:environ\.get|getenv)\(\s*" + _Q + r"(?:\s*,\s*([^)\n]+))?\)|os\.environ\[\s*" + _Q +
                     r"\s*\]")
_PY_ROUTE = re.compile(r"@\w+(?:\.\w+)*\.(get|post|put|patch|delete|route)\(\s*" + _Q)
_PY_SYMBOL = re.compile(r"^(?:async\s+)?(def|class)\s+([A-Za-z]\w*)", re.MULTILINE)


def _python(text: str) -> list[Item]:
    items = []
    for match in _PY_FLAG.finditer(text):
        args = _call_args(text, match.end() - 1)
        flags = re.findall(r"""["'](--?[A-Za-z][\w-]*)["']""", args)
        longs = [f for f in flags if f.startswith("--")] or flags
        if longs:
            help_text = _kwarg(args, "help") or ""
            items.append(Item("flag", longs[0], "python: argparse/click option", _kwarg(args, "default"),
                              _line_of(text, match.start()), help_text.strip("'\"")))
    for match in _PY_ENV.finditer(text):
        name = _unq(match, 0) if any(match.groups()[0:3]) else _unq(match, 4)
        default = match.group(4).strip() if match.group(4) else None
        items.append(Item("env", name, "python: os.environ / os.getenv", default, _line_of(text, match.start())))
    for match in _PY_ROUTE.finditer(text):
        method = match.group(1).upper()
        if method == "ROUTE":
            methods = re.findall(r"['\"](GET|POST|PUT|PATCH|DELETE)['\"]", _call_args(text, match.start(1)).upper())
            method = methods[0] if methods else "GET"
        items.append(Item("route", f"{method} {_unq(match, 1)}", "python: route decorator", None,
                          _line_of(text, match.start())))
    for match in _PY_SYMBOL.finditer(text):
        if not match.group(2).startswith("_"):
            items.append(Item("symbol", match.group(2), f"python: top-level {match.group(1)}", None,
                              _line_of(text, match.start())))
    return items


# --- JavaScript / TypeScript ------------------------------------------------------------------

_JS_FLAG = re.compile(r"\.(?:requiredOption|option)\(\s*" + _Q)
_JS_ENV = re.compile(r"process\.env(?:\.([A-Z_][A-Z0-9_]*)|\[\s*" + _Q + r"\s*\])(?:\s*(?:\|\||\?\?)\s*([^;,)\n]+))?")
_JS_ROUTE = re.compile(r"\b(?:app|router|server|fastify)\.(get|post|put|patch|delete)\(\s*" + _Q)
_JS_SYMBOL = re.compile(r"^export\s+(?:default\s+)?(?:async\s+)?(function|class|const|let|interface|type)\s+"
                        r"([A-Za-z_$][\w$]*)", re.MULTILINE)


def _javascript(text: str) -> list[Item]:
    items = []
    for match in _JS_FLAG.finditer(text):
        spec = _unq(match, 0)
        longs = re.findall(r"--[A-Za-z][\w-]*", spec)
        if not longs:
            continue
        args = _call_args(text, match.start())
        parts = _split_args(args)
        default = parts[2] if len(parts) > 2 and parts[2] else None
        items.append(Item("flag", longs[0], "js: commander .option()", default, _line_of(text, match.start()),
                          parts[1].strip("'\"`") if len(parts) > 1 else ""))
    for match in _JS_ENV.finditer(text):
        name = match.group(1) or _unq(match, 1)
        items.append(Item("env", name, "js: process.env", match.group(5).strip() if match.group(5) else None,
                          _line_of(text, match.start())))
    for match in _JS_ROUTE.finditer(text):
        items.append(Item("route", f"{match.group(1).upper()} {_unq(match, 1)}", "js: express-style route", None,
                          _line_of(text, match.start())))
    for match in _JS_SYMBOL.finditer(text):
        items.append(Item("symbol", match.group(2), f"js: export {match.group(1)}", None,
                          _line_of(text, match.start())))
    return items


# --- Go ---------------------------------------------------------------------------------------

_GO_FLAG = re.compile(r"\b(?:flag|\w*[Ff]lags\(\)|fs|flags)\.(String|Bool|Int|Int64|Uint|Float64|Duration)"
                      r"(Var)?(P)?\(")
_GO_ENV = re.compile(r"os\.(?:Getenv|LookupEnv)\(\s*" + _Q + r"\s*\)")
_GO_ROUTE = re.compile(r"\.(HandleFunc|Handle|GET|POST|PUT|PATCH|DELETE|Get|Post|Put|Patch|Delete)\(\s*" + _Q)
_GO_SYMBOL = re.compile(r"^(?:func\s+(?:\([^)]*\)\s*)?|type\s+)([A-Z]\w*)", re.MULTILINE)


def _go(text: str) -> list[Item]:
    items = []
    for match in _GO_FLAG.finditer(text):
        args = _split_args(_call_args(text, match.end() - 1))
        if match.group(2):  # StringVar(&x, "name", default, usage)
            args = args[1:]
        if match.group(3):  # StringP("name", "n", default, usage)
            args = args[:1] + args[2:]
        if not args or not re.fullmatch(r'"[^"]+"', args[0]):
            continue
        items.append(Item("flag", "--" + args[0].strip('"'), "go: flag/pflag definition",
                          args[1] if len(args) > 1 else None, _line_of(text, match.start()),
                          args[2].strip('"') if len(args) > 2 else ""))
    for match in _GO_ENV.finditer(text):
        items.append(Item("env", _unq(match, 0), "go: os.Getenv", None, _line_of(text, match.start())))
    for match in _GO_ROUTE.finditer(text):
        route = _unq(match, 1)
        method = match.group(1).upper()
        method = "ANY" if method in ("HANDLEFUNC", "HANDLE") else method
        if " " in route:  # Go 1.22 patterns: "GET /users/{id}"
            method, route = route.split(" ", 1)
        if not route.startswith("/"):
            continue
        items.append(Item("route", f"{method} {route}", "go: router registration", None,
                          _line_of(text, match.start())))
    for match in _GO_SYMBOL.finditer(text):
        items.append(Item("symbol", match.group(1), "go: exported identifier", None, _line_of(text, match.start())))
    return items


# --- configuration and OpenAPI ---------------------------------------------------------------

def _flatten(value: Any, prefix: str = "") -> dict[str, str]:
    if isinstance(value, dict):
        out: dict[str, str] = {}
        for key, inner in value.items():
            out.update(_flatten(inner, f"{prefix}.{key}" if prefix else str(key)))
        if not value and prefix:
            out[prefix] = "{}"
        return out
    return {prefix: json.dumps(value, ensure_ascii=False)} if prefix else {}


def _load_structured(path: str, text: str) -> Any:
    suffix = PurePosixPath(path).suffix.lower()
    name = PurePosixPath(path).name
    if suffix in (".yaml", ".yml"):
        import yaml

        return yaml.safe_load(text)
    if suffix == ".json":
        return json.loads(text)
    if suffix == ".toml":
        try:
            import tomllib
        except ModuleNotFoundError:  # Python 3.10
            return None
        return tomllib.loads(text)
    if name == ".env" or name.startswith(".env.") or suffix == ".env":
        pairs = {}
        for line in text.splitlines():
            match = re.match(r"\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)", line)
            if match:
                pairs[match.group(1)] = match.group(2).strip().strip("'\"")
        return {"__env__": pairs}
    return None


def _structured(path: str, text: str) -> list[Item]:
    try:
        data = _load_structured(path, text)
    except Exception:  # a broken config file in a PR: no facts from it, never a crash
        return []
    if not isinstance(data, dict):
        return []
    if "__env__" in data:
        return [Item("env", k, ".env file", json.dumps(v), _key_line(text, k)) for k, v in data["__env__"].items()]
    if "openapi" in data or "swagger" in data:
        return _openapi(data, text)
    kind_rule = "helm values" if re.match(r"values([.-][\w.-]+)?\.ya?ml$", PurePosixPath(path).name) else \
        f"{PurePosixPath(path).suffix.lstrip('.') or 'config'} keys"
    return [Item("config", key, kind_rule, value, _key_line(text, key.split(".")[-1]))
            for key, value in _flatten(data).items()]


def _key_line(text: str, key: str) -> int | None:
    match = re.search(rf"""^\s*["']?{re.escape(key)}["']?\s*[:=]""", text, re.MULTILINE)
    return _line_of(text, match.start()) if match else None


_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


def _openapi(spec: dict, text: str) -> list[Item]:
    items = []
    for route, operations in (spec.get("paths") or {}).items():
        if not isinstance(operations, dict):
            continue
        shared = operations.get("parameters") or []
        for method, op in operations.items():
            if method not in _METHODS or not isinstance(op, dict):
                continue
            name = f"{method.upper()} {route}"
            items.append(Item("operation", name, "openapi: paths", None, _key_line(text, route),
                              str(op.get("operationId") or op.get("summary") or "")))
            for param in list(shared) + list(op.get("parameters") or []):
                if isinstance(param, dict) and "name" in param:
                    schema = param.get("schema") or {}
                    default = schema.get("default", param.get("default"))
                    items.append(Item("parameter", f"{name} {param.get('in', '')}:{param['name']}",
                                      "openapi: parameters", json.dumps(default) if default is not None else None,
                                      _key_line(text, param["name"])))
    return items


_BY_SUFFIX: dict[str, Callable[[str], list[Item]]] = {
    ".py": _python, ".js": _javascript, ".mjs": _javascript, ".cjs": _javascript, ".ts": _javascript,
    ".tsx": _javascript, ".jsx": _javascript, ".go": _go,
}
_STRUCTURED = (".yaml", ".yml", ".json", ".toml", ".env")


def items_of(path: str, text: str | None) -> list[Item]:
    if not text:
        return []
    name = PurePosixPath(path).name
    suffix = PurePosixPath(path).suffix.lower()
    if suffix in _BY_SUFFIX:
        return _BY_SUFFIX[suffix](text)
    if suffix in _STRUCTURED or name == ".env" or name.startswith(".env."):
        return _structured(path, text)
    return []


def is_test_file(path: str) -> bool:
    """Tests change no documented behaviour: their facts are left out."""
    parts = PurePosixPath(path).parts
    name = PurePosixPath(path).name
    return (any(p in ("test", "tests", "__tests__", "testdata", "spec") for p in parts[:-1])
            or name.startswith("test_") or re.search(r"(_test\.go|\.test\.[jt]sx?|\.spec\.[jt]sx?|_test\.py)$", name)
            is not None)


def facts_of_change(path: str, old_text: str | None, new_text: str | None, old_path: str | None = None
                    ) -> list[Fact]:
    """The facts of one changed file (``old_text`` None: added file; ``new_text`` None: deleted)."""
    if is_test_file(path):
        return []
    before = _index(items_of(old_path or path, old_text))
    after = _index(items_of(path, new_text))
    facts: list[Fact] = []
    removed = [before[k] for k in before if k not in after]
    added = [after[k] for k in after if k not in before]
    for key in before.keys() & after.keys():
        old, new = before[key], after[key]
        if old.default is not None and new.default is not None and old.default != new.default:
            facts.append(Fact(new.kind, "default-changed", new.name, path, new.rule, old=old.default,
                              new=new.default, line=new.line))
    for old, new in _pair_renames(removed, added):
        facts.append(Fact(new.kind, "renamed", new.name, path, f"{new.rule}; rename paired by "
                          f"{'signature' if old.signature and old.signature == new.signature else 'position'}",
                          old=old.name, line=new.line))
        removed.remove(old)
        added.remove(new)
    facts += [Fact(i.kind, "removed", i.name, path, i.rule, line=i.line) for i in removed]
    for item in added:
        siblings = tuple(other.name for (kind, _), other in after.items()
                         if kind == item.kind and other.name != item.name and other not in added)
        facts.append(Fact(item.kind, "added", item.name, path, item.rule, new=item.default, line=item.line,
                          note=item.signature or None, siblings=siblings))
    return sorted(facts, key=lambda f: (f.line or 0, f.kind, f.name))


def _index(items: Iterable[Item]) -> dict[tuple[str, str], Item]:
    index: dict[tuple[str, str], Item] = {}
    for item in items:
        index.setdefault((item.kind, item.name), item)
    return index


def _words(name: str) -> set[str]:
    return {w.lower() for w in re.split(r"[^A-Za-z0-9]+|(?<=[a-z])(?=[A-Z])", name) if len(w) > 1}


def _pair_renames(removed: list[Item], added: list[Item]) -> list[tuple[Item, Item]]:
    """A removal and an addition of the same kind are a rename when they share a signature (the
    help text), or when each is the only one of its kind left, they stand on nearby lines and
    their names share a word (``OLD_FLAG`` and ``NEW_FLAG``; not ``--legacy`` and ``--dry-run``)."""
    pairs = []
    free = list(added)
    for old in removed:
        same = [new for new in free if new.kind == old.kind and old.signature and new.signature == old.signature]
        if same:
            pairs.append((old, same[0]))
            free.remove(same[0])
    for kind in {i.kind for i in removed} - {"symbol", "operation", "parameter", "route"}:
        olds = [o for o in removed if o.kind == kind and o not in [p[0] for p in pairs]]
        news = [n for n in free if n.kind == kind]
        if len(olds) == 1 and len(news) == 1 and abs((olds[0].line or 0) - (news[0].line or 0)) <= 3 \
                and _words(olds[0].name) & _words(news[0].name):
            pairs.append((olds[0], news[0]))
            free.remove(news[0])
    return pairs


def facts_between(mirror, base: str, head: str) -> list[Fact]:
    """Every fact of the change from ``base`` to ``head`` in a git mirror (``engines.git.Mirror``)."""
    def text(commit: str, path: str) -> str | None:
        data = mirror.show(commit, path)
        if data is None or b"\0" in data[:8192] or len(data) > 2 << 20:
            return None
        return data.decode("utf-8", "replace")

    facts: list[Fact] = []
    for status, old_path, new_path in mirror.changed_files(base, head):
        old = None if status == "A" else text(base, old_path)
        new = None if status == "D" else text(head, new_path)
        facts += facts_of_change(new_path, old, new, old_path=old_path)
    return facts
