"""What a package's manifest offers its users: the extras they install (``pip install
httpx[socks]``).

A manifest is packaging, which is no documentation (``facts.is_infrastructure``), save for this:
an extra is something users type, and projects list theirs on their install page. Read from
``pyproject.toml`` (``[project.optional-dependencies]``, Poetry's ``[tool.poetry.extras]``),
``setup.cfg`` (``[options.extras_require]``) and ``setup.py`` (``setup(extras_require={...})``,
the mapping given inline or assigned to a name at the module's top level), each named as users
write it: ``distribution[extra]``.
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
    if not distribution:
        return []
    # owned by the distribution: httpx[cli] and httpx[socks] share no word of their own (no rename)
    return [Item("extra", f"{distribution}[{extra}]", RULE, owner=distribution) for extra in extras]


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
