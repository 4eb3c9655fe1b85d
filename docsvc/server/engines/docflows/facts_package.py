"""What a package's manifest offers its users: the extras they install (``pip install
httpx[socks]``), and the Python versions it supports (``requires-python``).

A manifest is packaging, which is no documentation (``facts.is_infrastructure``), save for this:
an extra is something users type, and projects list theirs on their install page. Read from
``pyproject.toml`` (``[project.optional-dependencies]``, Poetry's ``[tool.poetry.extras]``),
``setup.cfg`` (``[options.extras_require]``) and ``setup.py`` (``setup(extras_require={...})``,
the mapping given inline or assigned to a name at the module's top level), each named as users
write it: ``distribution[extra]``. The supported Python versions (``[project] requires-python``,
``python_requires`` of setup.cfg and setup.py) are one item, ``requirement`` ``python``, whose
default is the spec: a raised minimum is a changed default, which install pages state.
"""

from __future__ import annotations

import ast
import configparser
from pathlib import PurePosixPath

from .facts_config import load_structured
from .facts_model import Item

__all__ = ["MANIFESTS", "package_items"]

MANIFESTS = ("pyproject.toml", "setup.cfg", "setup.py")
RULE = "package: extra"
REQUIRES = "package: requires-python"


def package_items(path: str, text: str | None) -> list[Item]:
    """The extras a manifest declares, one item each (``httpx[socks]``); none for a file that is
    no manifest or does not parse."""
    name = PurePosixPath(path).name
    if not text or name not in MANIFESTS:
        return []
    try:
        distribution, extras = {"pyproject.toml": _pyproject, "setup.cfg": _setup_cfg, "setup.py": _setup_py}[name](text)
    except (ValueError, SyntaxError, RecursionError, configparser.Error):
        return []
    required = _requires_python(name, text)
    items = [Item("requirement", "python", REQUIRES, required, value_key=required)] if required else []
    if not distribution:
        return items
    # owned by the distribution: httpx[cli] and httpx[socks] share no word of their own (no rename)
    return items + [Item("extra", f"{distribution}[{extra}]", RULE, owner=distribution) for extra in extras]


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
