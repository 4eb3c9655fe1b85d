"""Nothing written or fetched out of bounds, through the real CLI and the real local service:
a symbolic link committed in a docs repository cannot carry an api-scan pull request's file out of
the clone, `.git/` is never written, the browser opens no internal address (not at the start, not
on a redirect hop), and a git remote that starts with '-' never reaches git."""

from __future__ import annotations

import json
import os

import pytest

from tests.support import GitRemote, Redirect, free_port, git, require_chromium, run_cli, serve_html

PAGE_PORT = free_port()
# Only this loopback page server is let through; the service's own port and the rest stay internal.
SERVICE_ENV = {"DOCSVC_SERVER_EGRESS_ALLOW": f"127.0.0.1:{PAGE_PORT}"}

SPEC = """\
openapi: 3.0.3
info: {title: Orders, version: 1.0.0}
paths:
  /orders:
    get:
      operationId: listOrders
      summary: List orders
      responses: {"200": {description: The orders}}
"""


@pytest.fixture(scope="module")
def org(service, tmp_path_factory):
    root = tmp_path_factory.mktemp("bounds")
    outside = root / "outside"
    outside.mkdir()
    key = service.admin("init", "--org", "Bounds Inc", "--admin-email", "ada@bounds.test")
    code = GitRemote(root, "bounds-api", {"api/openapi.yaml": SPEC})
    docs = GitRemote(root, "bounds-docs", {"docs/index.md": "# Docs\n"})
    os.symlink(outside, docs.work / "docs" / "api")  # docs/api -> a folder outside any clone
    git("add", "docs/api", cwd=docs.work)
    git("commit", "-q", "-m", "a link out", cwd=docs.work)
    git("push", "-q", "origin", "main", cwd=docs.work)
    integration = service.admin("integrations", "add", "--org", "Bounds Inc", "--name", "bounds",
                                "--code-repo", str(code.bare), "--docs-repo", str(docs.bare))
    service.admin("api-specs", "set", "--org", "Bounds Inc", "--integration", integration,
                  "--path", "api/openapi.yaml")
    cli = lambda *a: run_cli(*a, key=key, base_url=service.base_url, timeout=180)  # noqa: E731
    scanned = cli("validate", "--json", "--fail-on", "never")
    assert scanned.returncode == 0, scanned.stderr
    return {"svc": service, "cli": cli, "key": key, "outside": outside, "integration": integration,
            "scan": str(json.loads(scanned.stdout)["scan_id"]), "code": code, "docs": docs}


def test_a_symlink_in_the_docs_repository_is_not_written_through(org):
    done = org["cli"]("api-scan", "open-pr", org["scan"], "--to", "docs", "--repo", org["integration"],
                      "--path", "docs/api/openapi.yaml")
    assert done.returncode == 1
    assert "docs/api is a symbolic link" in done.stderr and "Traceback" not in done.stderr
    assert list(org["outside"].iterdir()) == []  # nothing landed outside the clone
    assert "docsvc/api-scan" not in git("branch", "--list", cwd=org["docs"].bare)


@pytest.mark.parametrize("path", [".git/config", "docs/../../etc/passwd", "/etc/passwd", "docs/.GIT/hooks/x"])
def test_paths_out_of_the_checkout_are_refused_before_any_git_work(org, path):
    done = org["cli"]("api-scan", "open-pr", org["scan"], "--to", "docs", "--repo", org["integration"],
                      "--path", path)
    assert done.returncode in (1, 2) and "file_path" in done.stderr and "Traceback" not in done.stderr
    done = org["cli"]("api-scan", "open-pr", org["scan"], "--to", "source", "--source-path", path)
    assert done.returncode in (1, 2) and "source_file_path" in done.stderr


def test_a_remote_that_starts_with_a_dash_never_reaches_git(org, tmp_path):
    marker = tmp_path / "pwned"
    # Refused when registered, by the rule the sync follows too (tests/unit/test_egress.py).
    with pytest.raises(RuntimeError, match="starts with '-'"):
        org["svc"].admin("integrations", "add", "--org", "Bounds Inc", "--name", "dash",
                         f"--code-repo=--upload-pack=touch {marker}", "--docs-repo", str(org["docs"].bare))
    assert not marker.exists()


PAGES = {
    "/": "<!doctype html><html><body><h1>Hello</h1></body></html>",
}


@pytest.fixture(scope="module")
def site(org):
    require_chromium()
    service_port = org["svc"].port

    def page(path: str):
        if path == "/to-the-service":  # a redirect hop to an internal address
            return Redirect(f"http://127.0.0.1:{service_port}/api/v1/me")
        if path == "/to-metadata":
            return Redirect("http://169.254.169.254/latest/meta-data/")
        return PAGES.get(path)

    with serve_html(page, port=PAGE_PORT) as address:
        yield address


@pytest.mark.parametrize("address", ["http://169.254.169.254/latest/meta-data/", "http://[::ffff:127.0.0.1]:9/",
                                     "http://localhost:9/", "http://0x7f.1/", "http://[::1]/"])
def test_internal_addresses_are_refused_when_the_capture_is_asked(org, address):
    done = org["cli"]("capture", "create", "--url", address, "--step", "click:#a:A")
    assert done.returncode == 2 and "start_url" in done.stderr and "internal address" in done.stderr


def test_the_allowed_page_is_captured_and_a_redirect_to_an_internal_address_is_not(org, site):
    done = org["cli"]("capture", "create", "--url", site + "/", "--step", "navigate:/:Open the page", "--json")
    assert done.returncode == 0, done.stderr
    for hop in ("/to-the-service", "/to-metadata"):
        done = org["cli"]("capture", "create", "--url", site + hop, "--step", "navigate:/:Again")
        assert done.returncode == 1, done.stdout
        assert "internal address" in done.stderr and "Traceback" not in done.stderr
