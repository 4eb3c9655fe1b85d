"""What a structured file offers its users: the keys of YAML, JSON, TOML and ``.env`` files with
their values, and the operations and parameters of OpenAPI documents.

Files from a pull request are untrusted: YAML is read with the service's bounded loader
(``specload``: no custom tags, alias expansion capped before anything is built, so an alias bomb
is refused in milliseconds) with YAML 1.2 meanings (``on:`` is the string "on", not true); TOML
with ``tomllib`` (``tomli`` on Python 3.10). A file that cannot be read gives no items and a note
saying why. A mapping whose entries each describe themselves (``description``, ``default``,
``type``, ``required``: the inputs of a GitHub Action, a JSON Schema's properties) is one item per
entry, with its default and description, not one per attribute.
"""

from __future__ import annotations

import json
import re
from pathlib import PurePosixPath
from typing import Any

from ....specload import SpecError, load
from .facts_model import Item

__all__ = ["STRUCTURED_SUFFIXES", "structured_items", "is_env_file"]

STRUCTURED_SUFFIXES = (".yaml", ".yml", ".json", ".toml", ".env")
MAX_NODES = 200_000  # a config file far bigger than this once aliases expand is not one people write
_DESCRIBING = {"description", "default", "type", "required", "help", "deprecated"}
_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


def is_env_file(name: str) -> bool:
    return name == ".env" or name.startswith(".env.") or name.endswith(".env")


def _canonical(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _toml(text: str) -> Any:
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib  # type: ignore[no-redef]
    return tomllib.loads(text)


def load_structured(path: str, text: str) -> Any:
    """The data of a structured file; ValueError (SpecError for YAML and JSON) when it is not."""
    name = PurePosixPath(path).name
    suffix = PurePosixPath(path).suffix.lower()
    if suffix == ".toml":
        return _toml(text)
    if is_env_file(name):
        pairs = {}
        for line in text.splitlines():
            match = re.match(r"\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)", line)
            if match:
                pairs[match.group(1)] = match.group(2).strip().strip("'\"")
        return {"__env__": pairs}
    return load(text, max_nodes=MAX_NODES, yaml_version="1.2").data


def _flatten(value: Any, prefix: str, out: dict[str, tuple[Any, str]]) -> None:
    """dotted key -> (value, description) of every leaf; self-describing entries are leaves."""
    if isinstance(value, dict) and value and prefix and set(value) & _DESCRIBING and \
            all(not isinstance(v, dict) for k, v in value.items() if k in _DESCRIBING):
        out[prefix] = (value.get("default"), str(value.get("description") or value.get("help") or ""))
        return
    if isinstance(value, dict):
        for key, inner in value.items():
            _flatten(inner, f"{prefix}.{key}" if prefix else str(key), out)
        if not value and prefix:
            out[prefix] = ({}, "")
        return
    if prefix:
        out[prefix] = (value, "")


def _key_line(text: str, key: str) -> int | None:
    match = re.search(rf"""^\s*["']?{re.escape(key)}["']?\s*[:=]""", text, re.MULTILINE)
    return text.count("\n", 0, match.start()) + 1 if match else None


def structured_items(path: str, text: str, notes: list[str] | None = None) -> list[Item]:
    try:
        data = load_structured(path, text)
    except (SpecError, ValueError, RecursionError) as exc:
        if notes is not None:
            notes.append(f"{path}: not read ({exc})")
        return []
    if not isinstance(data, dict):
        return []
    if "__env__" in data:
        return [Item("env", k, ".env file", _canonical(v), _key_line(text, k)) for k, v in data["__env__"].items()]
    if "openapi" in data or "swagger" in data:
        return _openapi(data, text)
    rule = "helm values" if re.match(r"values([.-][\w.-]+)?\.ya?ml$", PurePosixPath(path).name) else \
        f"{PurePosixPath(path).suffix.lstrip('.') or 'config'} keys"
    leaves: dict[str, tuple[Any, str]] = {}
    _flatten(data, "", leaves)
    return [Item("config", key, rule, _canonical(value), _key_line(text, key.split(".")[-1]), description)
            for key, (value, description) in leaves.items()]


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
                    schema = param.get("schema") if isinstance(param.get("schema"), dict) else {}
                    default = schema.get("default", param.get("default"))
                    items.append(Item("parameter", f"{name} {param.get('in', '')}:{param['name']}",
                                      "openapi: parameters", _canonical(default) if default is not None else None,
                                      _key_line(text, str(param["name"]))))
    return items
