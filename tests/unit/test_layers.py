"""The folders are the layers (docs/contributing/architecture.md): imports run one way only.

Read from the code's own imports (module level and inside functions alike):
- engines are pure: no service, route, task, job queue or database;
- services never reach up into routes or tasks; job handlers (tasks) never into routes;
- the CI layer never imports the CLI (the CLI may drive the CI layer: ``docsvc ci``), and neither
  imports the server;
- no module imports itself back through others (no circle).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "docsvc"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path) -> set[str]:
    """The docsvc modules a file imports; ``from .pkg import name`` counts as ``pkg.name`` when
    that is a module, else as ``pkg``."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                found.add(f"{target}.{alias.name}" if f"{target}.{alias.name}" in MODULES else target)
    return {m for m in found if m == "docsvc" or m.startswith("docsvc.")}


MODULES = {module_name(p) for p in PACKAGE.rglob("*.py") if "migrations" not in p.parts}
GRAPH = {module_name(p): imports_of(p) for p in PACKAGE.rglob("*.py") if "migrations" not in p.parts}

# (importer prefix, forbidden prefixes, why)
RULES = [
    ("docsvc.server.engines", ("docsvc.server.services", "docsvc.server.routes", "docsvc.server.tasks",
                               "docsvc.server.jobs", "docsvc.server.db", "docsvc.server.app"),
     "engines are pure work: inputs in, results out"),
    ("docsvc.server.services", ("docsvc.server.routes", "docsvc.server.tasks", "docsvc.server.app"),
     "services hold the rules; routes and job handlers call them, never the other way"),
    ("docsvc.server.tasks", ("docsvc.server.routes",), "job handlers and routes stand side by side"),
    ("docsvc.server.jobs", ("docsvc.server.routes", "docsvc.server.tasks", "docsvc.server.services"),
     "the queue knows job kinds only by name"),
    ("docsvc.server.db", ("docsvc.server.routes", "docsvc.server.tasks", "docsvc.server.services",
                          "docsvc.server.engines"), "the tables are the ground floor"),
    ("docsvc.ci", ("docsvc.cli", "docsvc.server"), "what the CLI and the CI layer share lives below both"),
    ("docsvc.cli", ("docsvc.server",), "the CLI is a client of the service, never part of it"),
    ("docsvc.client", ("docsvc.cli", "docsvc.ci", "docsvc.server"), "the client is below the CLI and the CI layer"),
    ("docsvc.models", ("docsvc.client", "docsvc.cli", "docsvc.ci", "docsvc.server"),
     "wire models are shared by the client and the server"),
]


def _under(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def violations(graph: dict[str, set[str]]) -> list[str]:
    found = []
    for module, targets in sorted(graph.items()):
        for importer, forbidden, why in RULES:
            if not _under(module, importer):
                continue
            for target in sorted(targets):
                if any(_under(target, f) for f in forbidden):
                    found.append(f"{module} imports {target}: {why}")
    return found


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan), a package's own ``__init__``
    re-exporting its modules aside."""
    edges = {m: {t for t in ts if t in graph and not _under(m, t)} for m, ts in graph.items()}
    index, low, stack, on_stack, out = {}, {}, [], set(), []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in edges[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return out


def test_the_graph_is_read():
    assert "docsvc.server.engines.docflows.planner" in GRAPH
    assert "docsvc.server.engines.docflows.facts_model" in GRAPH["docsvc.server.engines.docflows.planner"]
    assert "docsvc.server.services.docflows" in GRAPH["docsvc.server.tasks.docflow"]


def test_imports_run_one_way():
    assert violations(GRAPH) == []


def test_no_circles():
    assert circles(GRAPH) == []


@pytest.mark.parametrize("graph, expected", [
    ({"docsvc.server.engines.x": {"docsvc.server.services.y"}, "docsvc.server.services.y": set()},
     ["docsvc.server.engines.x imports docsvc.server.services.y: engines are pure work: inputs in, results out"]),
    ({"docsvc.ci.runner": {"docsvc.cli.errors"}, "docsvc.cli.errors": set()},
     ["docsvc.ci.runner imports docsvc.cli.errors: what the CLI and the CI layer share lives below both"]),
    ({"docsvc.server.tasks.a": {"docsvc.server.services.b"}, "docsvc.server.services.b": set()}, []),
])
def test_the_rules_catch_a_wrong_import(graph, expected):
    assert violations(graph) == expected


def test_a_circle_is_found():
    graph = {"docsvc.a": {"docsvc.b"}, "docsvc.b": {"docsvc.c"}, "docsvc.c": {"docsvc.a"}, "docsvc.d": {"docsvc.a"}}
    assert circles(graph) == [["docsvc.a", "docsvc.b", "docsvc.c"]]
