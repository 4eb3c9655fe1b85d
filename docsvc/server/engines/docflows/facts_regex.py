"""What JavaScript/TypeScript and Go files offer their users, found by patterns: commander
options, ``process.env`` reads, express-style routes and exports; flag/pflag definitions,
``os.Getenv``, router registrations and exported identifiers. (Python is read from its syntax
tree: ``facts_python``.)"""

from __future__ import annotations

import re

from .facts_model import Item

__all__ = ["javascript_items", "go_items"]

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



# --- JavaScript / TypeScript ------------------------------------------------------------------

_JS_FLAG = re.compile(r"\.(?:requiredOption|option)\(\s*" + _Q)
_JS_ENV = re.compile(r"process\.env(?:\.([A-Z_][A-Z0-9_]*)|\[\s*" + _Q + r"\s*\])(?:\s*(?:\|\||\?\?)\s*([^;,)\n]+))?")
_JS_ROUTE = re.compile(r"\b(?:app|router|server|fastify)\.(get|post|put|patch|delete)\(\s*" + _Q)
_JS_SYMBOL = re.compile(r"^export\s+(?:default\s+)?(?:async\s+)?(function|class|const|let|interface|type)\s+"
                        r"([A-Za-z_$][\w$]*)", re.MULTILINE)


def javascript_items(text: str, path: str = "") -> list[Item]:
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


def go_items(text: str, path: str = "") -> list[Item]:
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
