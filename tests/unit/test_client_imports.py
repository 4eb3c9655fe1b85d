"""Import cost of the client: the package is light, resource groups load their models lazily."""

from __future__ import annotations

import ast
import builtins
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import docsvc.client


def _modules_after(code: str) -> set[str]:
    """The modules that running ``code`` in a fresh interpreter adds to ``sys.modules``."""
    script = ("import sys\nbefore = set(sys.modules)\n" + textwrap.dedent(code)
              + "\nprint('\\n'.join(sorted(set(sys.modules) - before)))\n")
    out = subprocess.run([sys.executable, "-c", script], check=True, capture_output=True,
                         text=True).stdout
    return set(out.split())


# Plain numbers both sides need (docsvc/models/limits.py imports nothing; the package's __init__ is a
# docstring): loading them costs nothing, and the client checks ids against the service's MAX_ID.
LIGHT = {"docsvc.models", "docsvc.models.limits"}


def _under(modules: set[str], *packages: str) -> set[str]:
    return {m for m in modules if any(m == p or m.startswith(p + ".") for p in packages)}


def test_import_client_loads_neither_pydantic_nor_models():
    # What httpx imports is httpx's business (with click and rich installed, httpx.__init__
    # imports its own command line, httpx._main); only what the client adds is checked.
    modules = _modules_after("import docsvc.client") - _modules_after("import httpx")
    assert "docsvc.client" in modules
    assert not _under(modules - LIGHT, "pydantic", "docsvc.models", "docsvc.server", "docsvc.cli",
                      "yaml", "rich", "click")


def test_a_resource_group_loads_only_its_own_models():
    modules = _modules_after("""
        from docsvc.client import Client
        Client("k").items
    """)
    models = {m for m in modules if m.startswith("docsvc.models.")} - LIGHT
    assert models == {"docsvc.models._base", "docsvc.models.items"}
    assert "docsvc.client.docflows" not in modules


@pytest.mark.parametrize("module", ["_base", "_client", "_files", "_resource", "_response",
                                    "_retry", "_types", "errors", "testing", "jobs", "items",
                                    "repos", "convert", "docflows", "oas", "diagrams",
                                    "feature_drafts", "captures", "dashboard", "me", "releases",
                                    "admin"])
def test_every_module_declares_all(module):
    mod = __import__(f"docsvc.client.{module}", fromlist=["__all__"])
    assert mod.__all__
    assert all(hasattr(mod, name) for name in mod.__all__)


def test_package_exports():
    assert set(docsvc.client.__all__) >= {"Client", "NOT_GIVEN", "DocsvcError", "APIStatusError",
                                          "JobTimeoutError", "error_for_status"}
    assert all(hasattr(docsvc.client, name) for name in docsvc.client.__all__)


def _annotation_names(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        annotations = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            annotations = [a.annotation for a in (*node.args.args, *node.args.kwonlyargs,
                                                  *node.args.posonlyargs) if a.annotation]
            annotations.append(node.returns)
        elif isinstance(node, ast.AnnAssign):
            annotations = [node.annotation]
        for annotation in filter(None, annotations):
            if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
                annotation = ast.parse(annotation.value, mode="eval")
            names |= {n.id for n in ast.walk(annotation) if isinstance(n, ast.Name)}
    return names


def _module_level(body: list[ast.stmt]):
    """The module's own statements, those under ``if TYPE_CHECKING:`` and ``try`` included, not
    those inside functions (a function's local import does not define the module's name)."""
    for node in body:
        yield node
        if isinstance(node, (ast.If, ast.Try)):
            yield from _module_level(node.body + node.orelse + getattr(node, "finalbody", []))


def _bound_names(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in _module_level(tree.body):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


@pytest.mark.parametrize("path", sorted(Path(docsvc.client.__file__).parent.glob("*.py")),
                         ids=lambda p: p.name)
def test_every_name_in_an_annotation_is_imported(path):
    # mypy: Name "JobRef" is not defined. Names used only in annotations may be imported under
    # TYPE_CHECKING (the models stay lazily imported), but they must be imported somewhere.
    tree = ast.parse(path.read_text())
    missing = _annotation_names(tree) - _bound_names(tree) - set(dir(builtins))
    assert not missing, f"{path.name}: {sorted(missing)} used in annotations but never imported"


def test_the_server_loads_httpx_without_its_command_line():
    # The code hosts' clients import httpx; httpx's own command line (rich, pygments) is no part of
    # the service, and each service and job workers' process used to load it.
    modules = _modules_after("import docsvc.server.engines.hosts.common")
    assert "httpx" in modules
    assert not _under(modules, "rich", "pygments")
