"""Import cost of the client: the package is light, resource groups load their models lazily."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

import docsvc.client


def _modules_after(code: str) -> set[str]:
    """The modules that running ``code`` in a fresh interpreter adds to ``sys.modules``."""
    script = ("import sys\nbefore = set(sys.modules)\n" + textwrap.dedent(code)
              + "\nprint('\\n'.join(sorted(set(sys.modules) - before)))\n")
    out = subprocess.run([sys.executable, "-c", script], check=True, capture_output=True,
                         text=True).stdout
    return set(out.split())


def _under(modules: set[str], *packages: str) -> set[str]:
    return {m for m in modules if any(m == p or m.startswith(p + ".") for p in packages)}


def test_import_client_loads_neither_pydantic_nor_models():
    # What httpx imports is httpx's business (with click and rich installed, httpx.__init__
    # imports its own command line, httpx._main); only what the client adds is checked.
    modules = _modules_after("import docsvc.client") - _modules_after("import httpx")
    assert "docsvc.client" in modules
    assert not _under(modules, "pydantic", "docsvc.models", "docsvc.server", "docsvc.cli",
                      "yaml", "rich", "click")


def test_a_resource_group_loads_only_its_own_models():
    modules = _modules_after("""
        from docsvc.client import Client
        Client("k").items
    """)
    models = {m for m in modules if m.startswith("docsvc.models.")}
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
