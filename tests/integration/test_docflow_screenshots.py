"""Screenshots for a suggestion: suggested from the docs' images, taken in Debian's Chromium from a
preview served on loopback, and refused outside the preview host."""

from __future__ import annotations

import json
import re

import pytest

from tests.support import PNG, GitRemote, git, require_chromium, run_cli, serve_html
from tests.unit.test_facts import PY_NEW, PY_OLD

DOCS = {
    "docs/cli.md": "# Command line\n\n![The settings page](img/settings__billing.png)\n\n"
                   "| Flag | Default | Description |\n|---|---|---|\n| `--docs-root` | `docs` | folder of the docs |\n",
}


@pytest.fixture(scope="module")
def preview():
    with serve_html(lambda path: f"<html><body style='background:#2563eb'><h1>Preview of {path}</h1></body></html>") \
            as address:
        yield address


@pytest.fixture(scope="module")
def project(service, preview, tmp_path_factory):
    require_chromium()
    root = tmp_path_factory.mktemp("shots")
    key = service.admin("init", "--org", "Shots", "--admin-email", "ada@shots.test")
    code = GitRemote(root, "code", {"app/cli.py": PY_OLD})
    code.branch("feature", {"app/cli.py": PY_NEW}, "feature")
    docs = GitRemote(root, "docs", DOCS)
    (docs.work / "docs" / "img").mkdir()
    (docs.work / "docs" / "img" / "settings__billing.png").write_bytes(PNG)
    git("add", "-A", cwd=docs.work)
    git("commit", "-q", "-m", "image", cwd=docs.work)
    git("push", "-q", "origin", "main", cwd=docs.work)
    integration = service.admin("integrations", "add", "--org", "Shots", "--name", "app", "--code-repo",
                                str(code.bare), "--docs-repo", str(docs.bare), "--preview-url", preview + "/{branch}/")
    cwd = root / "cwd"
    cwd.mkdir()
    (cwd / "docsvc.yaml").write_text(f"integration_id: {integration}\n")
    cli = lambda *a: run_cli(*a, key=key, base_url=service.base_url, cwd=cwd)  # noqa: E731
    assert cli("sync", "--integration-id", integration).returncode == 0
    made = cli("docflow", "--pr-number", "1", "--pr-title", "t", "--pr-body", "", "--pr-author", "a",
               "--pr-branch", "feature", "--json")
    assert made.returncode == 0, made.stderr
    return cli, str(json.loads(made.stdout)["suggestion_id"]), service


def test_suggested_then_taken_in_chromium(project):
    cli, suggestion, service = project
    planned = cli("items", "screenshots", "docflows", suggestion)
    assert planned.stdout.splitlines() == [
        "○ /settings/billing: docs/cli.md shows img/settings__billing.png, a screen of the product that the change "
        "may alter (replaces docs/img/settings__billing.png)"]
    taken = cli("items", "screenshots", "docflows", suggestion, "--take", "/settings/billing", "--take", "/about")
    assert taken.returncode == 0, taken.stderr
    lines = taken.stdout.splitlines()
    assert re.match(r"^✓ /settings/billing \w+-shot-1-\d+\.png: ", lines[0])
    assert lines[0].endswith("(replaces docs/img/settings__billing.png)")
    assert re.match(r"^✓ /about \w+-shot-2-\d+\.png: taken on request$", lines[1])
    stored = sorted((service.data_dir / "items" / suggestion).glob("*.png"))
    assert len(stored) == 2 and all(p.read_bytes().startswith(b"\x89PNG\r\n\x1a\n") for p in stored)
    assert all(p.stat().st_size > 1000 for p in stored)  # a real rendering, not an empty file


@pytest.mark.parametrize("route, reason", [
    ("http://example.com/settings", "only pages under the preview host"),
    ("http://10.0.0.1/admin", "only pages under the preview host"),
    ("file:///etc/passwd", "not file: addresses"),
    ("settings", "not a path without a leading /"),
    ("", "a route is empty: give the page's path"),
])
def test_addresses_outside_the_preview_are_refused(project, route, reason):
    cli, suggestion, _ = project
    refused = cli("items", "screenshots", "docflows", suggestion, "--take", route)
    assert refused.returncode == 1 and reason in refused.stderr
