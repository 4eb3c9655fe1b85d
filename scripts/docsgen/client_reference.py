"""The Python client's reference page: mkdocstrings directives for ``Client``, each resource group's
class (every ``*Resource`` class of ``docsvc/client``, found in the source) and the errors. The
text itself is the code's docstrings and signatures, which mkdocstrings reads at build time."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CLIENT = ROOT / "docsvc" / "client"


def resource_classes() -> list[str]:
    """Dotted paths of the public ``*Resource`` classes, in the order ``Client`` exposes them."""
    order = [node.name for node in ast.walk(ast.parse((CLIENT / "_client.py").read_text(encoding="utf-8")))
             if isinstance(node, ast.FunctionDef)]
    found = {}
    for path in sorted(CLIENT.glob("[!_]*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef) and node.name.endswith("Resource") and not node.name.startswith("_"):
                found[path.stem] = f"docsvc.client.{path.stem}.{node.name}"
    return [found[name] for name in order if name in found] + [p for n, p in found.items() if n not in order]


def page() -> str:
    lines = ["# Python client reference", "",
             "Generated from the docstrings and signatures of `docsvc.client`. The guide with examples is",
             "[The Python client](../python-client.md).", "",
             "## Client", "", "::: docsvc.client.Client", "    options:", "      heading_level: 3",
             "      inherited_members: [deadline, close]", ""]
    for dotted in resource_classes():
        name = dotted.rsplit(".", 1)[1]
        lines += [f"## {name}", "", f"::: {dotted}", "    options:", "      heading_level: 3", ""]
    lines += ["## Errors", "", "::: docsvc.client.errors", "    options:", "      heading_level: 3",
              "      show_root_heading: false", ""]
    return "\n".join(lines)
