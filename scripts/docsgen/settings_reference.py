"""The local service's settings, read from ``docsvc/server/settings.py`` itself.

Each ``DOCSVC_SERVER_*`` variable is found where ``ServerSettings.from_env`` reads it, with the
default that call falls back to; its description is the comment above the ``ServerSettings`` field
it sets (a field read from the environment without one fails the build: write it there, not here).
Variables the service reads elsewhere are listed with the module that reads them and that module's
docstring's first sentence.
"""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

from .markdown import cell

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "docsvc" / "server" / "settings.py"
VARIABLE = re.compile(r"DOCSVC_SERVER_[A-Z0-9_]+")


def _field_comments(tree: ast.Module, lines: list[str]) -> dict[str, str]:
    """field name -> the comment lines right above it in ``ServerSettings``."""
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "ServerSettings")
    found: dict[str, str] = {}
    for node in cls.body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            comment: list[str] = []
            row = node.lineno - 2
            while row >= 0 and lines[row].strip().startswith("#"):
                comment.insert(0, lines[row].strip().lstrip("#").strip())
                row -= 1
            found[node.target.id] = " ".join(comment)
    return found


def _default(node: ast.expr, module) -> str:
    """What the value falls back to when the variable is unset, as a reader would write it."""
    if isinstance(node, ast.Call) and len(node.args) == 2:  # _env_float("X", 30.0), env.get("X", "")
        node = node.args[1]
    elif isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords:  # _env_url("X"): unset is None
        return ""
    if isinstance(node, ast.Constant):
        value = node.value
        if value in ("", None):
            return ""
        if isinstance(value, bool):
            return "`true`" if value else "`false`"
        return f"`{value:g}`" if isinstance(value, float) else f"`{value}`"
    if isinstance(node, ast.Name) and hasattr(module, node.id):
        return f"`{getattr(module, node.id)}`"
    if isinstance(node, ast.Call) and ast.unparse(node.func) == "socket.gethostname":
        return "the host name"
    raise SystemExit(f"docs: no reader's words for the default {ast.unparse(node)} in {SOURCE.name}")


def _from_env(tree: ast.Module, module) -> list[tuple[str, str, str]]:
    """(variable, field, default) for each keyword of the ``cls(...)`` call in ``from_env``."""
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "ServerSettings")
    method = next(n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "from_env")
    call = next(n for n in ast.walk(method) if isinstance(n, ast.Call) and ast.unparse(n.func) == "cls")
    rows = []
    for keyword in call.keywords:
        names = [n.value for n in ast.walk(keyword.value) if isinstance(n, ast.Constant)
                 and isinstance(n.value, str) and VARIABLE.fullmatch(n.value)]
        if not names:
            continue
        value = keyword.value
        while isinstance(value, (ast.Call, ast.BinOp)) and not (
                isinstance(value, ast.Call) and any(isinstance(a, ast.Constant) and a.value == names[0]
                                                    for a in value.args)):
            # int(_env_float(...)), _env_float(...) * 1024 * 1024: the call that reads the variable
            value = value.args[0] if isinstance(value, ast.Call) else value.left
        if isinstance(value, ast.BoolOp):  # env.get("X") or "docsvc-data"
            value = value.values[-1]
        rows.append((names[0], keyword.arg, _default(value, module)))
    return rows


def _elsewhere(known: set[str]) -> list[tuple[str, str, str]]:
    """(variable, module path, the module docstring's first sentence) for the other variables."""
    found: dict[str, tuple[str, str]] = {}
    for path in sorted((ROOT / "docsvc" / "server").rglob("*.py")):
        if path == SOURCE:
            continue
        text = path.read_text(encoding="utf-8")
        for name in VARIABLE.findall(text):
            if name not in known and name not in found and f'"{name}"' in text:
                doc = ast.get_docstring(ast.parse(text)) or ""
                first = " ".join(doc.split()).split(". ")[0].rstrip(".") + "."
                found[name] = (str(path.relative_to(ROOT)), first)
    return [(name, where, what) for name, (where, what) in sorted(found.items())]


def page() -> str:
    text = SOURCE.read_text(encoding="utf-8")
    tree = ast.parse(text)
    module = importlib.import_module("docsvc.server.settings")
    comments = _field_comments(tree, text.splitlines())
    rows = _from_env(tree, module)
    lines = ["# Service settings", "",
             "Generated from `docsvc/server/settings.py`: every variable `docsvc-server` reads at start,",
             "its default, and what it is for. `--db URL` on any `docsvc-server` command beats",
             "`DOCSVC_SERVER_DATABASE_URL`.", "",
             "| Variable | Default | What it sets |", "|---|---|---|"]
    for name, field, default in rows:
        description = comments.get(field, "")
        if not description:
            raise SystemExit(f"docs: ServerSettings.{field} ({name}) has no comment above it in {SOURCE.name}")
        lines.append(f"| `{name}` | {default} | {cell(description)} |")
    others = _elsewhere({name for name, _, _ in rows})
    if others:
        lines += ["", "Read by the module that uses them:", "", "| Variable | Read in | About |", "|---|---|---|"]
        lines += [f"| `{name}` | `{where}` | {cell(what)} |" for name, where, what in others]
    return "\n".join(lines) + "\n"
