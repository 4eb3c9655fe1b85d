"""What a package's manifest offers its users: the extras they install (``pip install
httpx[socks]``), and the Python versions it supports (``requires-python``).

A manifest is packaging, which is no documentation (``facts.is_infrastructure``), save for this:
an extra is something users type, and projects list theirs on their install page. Read from
``pyproject.toml`` (``[project.optional-dependencies]``, Poetry's ``[tool.poetry.extras]``),
``setup.cfg`` (``[options.extras_require]``) and ``setup.py`` (``setup(extras_require={...})``,
the mapping given inline or assigned to a name at the module's top level), each named as users
write it: ``distribution[extra]``. The supported Python versions (``[project] requires-python``,
``python_requires`` of setup.cfg and setup.py), and likewise Node's (``package.json``'s
``engines.node``) and Go's (``go.mod``'s ``go`` directive), are read from the project's top-level
manifest only, one item each (``requirement`` ``python``, ``node``, ``go``) whose default is the
spec: a raised minimum is a changed default, which install pages state.
"""

from __future__ import annotations

import ast
import configparser
import json
import re
from pathlib import PurePosixPath

from .facts_config import load_structured
from .facts_model import Item

__all__ = ["MANIFESTS", "package_items"]

MANIFESTS = ("pyproject.toml", "setup.cfg", "setup.py", "package.json", "go.mod")
_EXTRAS = ("pyproject.toml", "setup.cfg", "setup.py")
RULE = "package: extra"
REQUIRES = "package: requires-python"


def package_items(path: str, text: str | None) -> list[Item]:
    """The extras a manifest declares, one item each (``httpx[socks]``); none for a file that is
    no manifest or does not parse."""
    name = PurePosixPath(path).name
    if not text or name not in MANIFESTS:
        return []
    # the project's own manifest states what it supports; an example's or a workspace package's does not
    required = _required(name, text) if "/" not in path.strip("/") else None
    items = [Item("requirement", language, REQUIRES, spec, value_key=spec) for language, spec in required or ()]
    if name not in _EXTRAS:
        return items
    try:
        distribution, extras = {"pyproject.toml": _pyproject, "setup.cfg": _setup_cfg, "setup.py": _setup_py}[name](text)
    except (ValueError, SyntaxError, RecursionError, configparser.Error):
        return []
    if not distribution:
        return items
    # owned by the distribution: httpx[cli] and httpx[socks] share no word of their own (no rename)
    return items + [Item("extra", f"{distribution}[{extra}]", RULE, owner=distribution) for extra in extras]


def _required(name: str, text: str) -> list[tuple[str, str]]:
    """The language versions the manifest requires, as (language, spec): ``("python", ">=3.9")``,
    ``("node", ">=18")`` (``engines.node``), ``("go", "1.21")`` (go.mod's ``go`` directive)."""
    if name == "package.json":
        try:
            data = json.loads(text)
        except ValueError:
            return []
        engines = data.get("engines") if isinstance(data, dict) else None
        node = engines.get("node") if isinstance(engines, dict) else None
        return [("node", node.strip())] if isinstance(node, str) and node.strip() else []
    if name == "go.mod":
        directive = re.search(r"(?m)^go\s+(\d+(?:\.\d+)+)\s*$", text)
        return [("go", directive.group(1))] if directive else []
    spec = _requires_python(name, text)
    return [("python", spec)] if spec else []


def _requires_python(name: str, text: str) -> str | None:
    """The manifest's supported-Python spec (``>=3.9``), if it states one."""
    try:
        if name == "pyproject.toml":
            found = (load_structured(name, text).get("project") or {}).get("requires-python")
        elif name == "setup.cfg":
            parser = configparser.ConfigParser(interpolation=None)
            parser.read_string(text)
            found = parser.get("options", "python_requires", fallback=None)
        else:
            found = next((k.value.value for node in ast.walk(ast.parse(text)) if isinstance(node, ast.Call)
                          for k in node.keywords if k.arg == "python_requires"
                          and isinstance(k.value, ast.Constant)), None)
    except (ValueError, SyntaxError, RecursionError, configparser.Error, AttributeError):
        return None
    return found.strip() if isinstance(found, str) and found.strip() else None


def _pyproject(text: str) -> tuple[str, list[str]]:
    data = load_structured("pyproject.toml", text)
    project = data.get("project") or {}
    poetry = (data.get("tool") or {}).get("poetry") or {}
    extras = [*dict(project.get("optional-dependencies") or {}), *dict(poetry.get("extras") or {})]
    return str(project.get("name") or poetry.get("name") or ""), list(dict.fromkeys(extras))


def _setup_cfg(text: str) -> tuple[str, list[str]]:
    parser = configparser.ConfigParser(interpolation=None)
    parser.read_string(text)
    name = parser.get("metadata", "name", fallback="")
    extras = list(parser["options.extras_require"]) if parser.has_section("options.extras_require") else []
    return name, extras


def _setup_py(text: str) -> tuple[str, list[str]]:
    tree = ast.parse(text)
    assigned = {target.id: node.value for node in tree.body if isinstance(node, ast.Assign)
                for target in node.targets if isinstance(target, ast.Name)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) == "setup":
            given = {k.arg: k.value for k in node.keywords if k.arg}
            name = given.get("name")
            extras = given.get("extras_require")
            if isinstance(extras, ast.Name):
                extras = assigned.get(extras.id)
            keys = [k.value for k in getattr(extras, "keys", []) if isinstance(k, ast.Constant) and isinstance(k.value, str)]
            return (name.value if isinstance(name, ast.Constant) and isinstance(name.value, str) else ""), keys
    return "", []
