"""Conventions kept true by tests: every endpoint of the interface is described once in
``docsvc.endpoints``, has a client method, a CLI command or a stated reason, and a route in the
local service; the client side never imports the server."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import click
import pytest

from docsvc.cli.main import cli
from docsvc.client import Client
from docsvc.endpoints import ENDPOINTS

ROOT = Path(__file__).resolve().parents[2]
INTERFACE = ROOT.parent / "shared" / "spec" / "interface.md"

# CLI commands that later issues add; each entry names the issue. The test below fails as soon
# as one of them exists, so this list can only shrink.
PENDING_CLI: dict[str, int] = {}


def shape(path: str) -> str:
    return re.sub(r"[<{][^>}]*[>}]", "{}", path)


def interface_endpoints() -> set[tuple[str, str]]:
    found = set()
    for line in INTERFACE.read_text(encoding="utf-8").splitlines():
        match = re.match(r"^\|\s*((?:GET|POST|PUT|PATCH|DELETE)(?:,\s*(?:GET|POST|PUT|PATCH|DELETE))*)\s*\|\s*`([^`]+)`",
                         line)
        if match:
            for method in re.split(r",\s*", match.group(1)):
                found.add((method, shape(match.group(2))))
        # Endpoints named in prose, such as `POST /oas/scans/<id>/pull-request`.
        for method, path in re.findall(r"`(GET|POST|PUT|PATCH|DELETE) (/[^`\s]+)`", line):
            found.add((method, shape(path)))
    return found


@pytest.mark.skipif(not INTERFACE.exists(), reason="shared/spec/interface.md is not beside the project")
def test_every_interface_endpoint_is_described():
    described = {(e.method, shape(e.path)) for e in ENDPOINTS if e.origin == "interface"}
    wanted = interface_endpoints()
    assert len(wanted) >= 29
    assert wanted - described == set(), "endpoints of the interface missing from docsvc.endpoints"
    assert described - wanted == set(), "entries marked 'interface' that the interface does not have"


def test_names_are_unique():
    assert len({e.name for e in ENDPOINTS}) == len(ENDPOINTS)
    assert len({(e.method, shape(e.path)) for e in ENDPOINTS}) == len(ENDPOINTS)


@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=lambda e: e.name)
def test_every_endpoint_has_a_client_method_or_a_reason(endpoint):
    client = Client("dsv_meta", "http://docsvc.invalid")
    resource, method = endpoint.client_attr
    has_method = callable(getattr(getattr(client, resource, None), method, None))
    assert has_method != bool(endpoint.no_client_reason)


@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=lambda e: e.name)
def test_every_endpoint_has_a_cli_command_or_a_reason(endpoint):
    assert bool(endpoint.cli) != bool(endpoint.no_cli_reason)


def command_exists(words: list[str]) -> bool:
    command: click.Command = cli
    for word in words:
        if not isinstance(command, click.Group) or word not in command.commands:
            return False
        command = command.commands[word]
    return True


def cli_paths() -> list[str]:
    """Each CLI command an endpoint names: 'items tag|status|rename' gives three."""
    paths = []
    for endpoint in ENDPOINTS:
        if not endpoint.cli:
            continue
        words = [w for w in endpoint.cli.split() if not w.startswith("-")]
        head, last = words[:-1], words[-1]
        for alternative in last.split("|"):
            path = " ".join(head + [alternative])
            # "items approve docflows" is the command "items approve" with a tool argument.
            if path.split()[:2] in (["items", "approve"], ["items", "release-notes"]):
                path = " ".join(path.split()[:2])
            paths.append(path)
    return sorted(set(paths))


@pytest.mark.parametrize("path", cli_paths())
def test_cli_commands_exist_unless_pending(path):
    exists = command_exists(path.split())
    if path in PENDING_CLI:
        assert not exists, f"'docsvc {path}' exists now: remove it from PENDING_CLI"
    else:
        assert exists, f"'docsvc {path}' is named in docsvc.endpoints but does not exist"


def test_every_endpoint_has_a_route_in_the_local_service(tmp_path):
    from fastapi.testclient import TestClient

    from docsvc.server.app import create_app
    from docsvc.server.db.migrate import upgrade
    from docsvc.server.settings import ServerSettings

    url = f"sqlite:///{tmp_path / 'meta.db'}"
    upgrade(url)
    client = TestClient(create_app(ServerSettings(database_url=url, data_dir=tmp_path), start_workers=False))
    for endpoint in ENDPOINTS:
        path = "/api/v1" + re.sub(r"\{tool\}", "captures", re.sub(r"\{(id|job_id)\}", "1", endpoint.path))
        answer = client.request(endpoint.method, path)
        # 401: a real route asking for the key first; 501: a route saying it is not served yet.
        assert answer.status_code in (401, 501), (endpoint.name, answer.status_code)
        assert answer.headers["content-type"] == "application/problem+json"


def test_record_ids_in_paths_use_the_id_convertor():
    """``{name:int}`` reads any number of digits with int(), which raises past 4,300 of them while the
    route is matched: a 500 (docsvc/server/routes/__init__.py). ``{name:id}`` is the service's."""
    sources = sorted((ROOT / "docsvc" / "server").rglob("*.py"))
    uses = [f"{path.relative_to(ROOT)}:{number}" for path in sources
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            if re.search(r"\{\w+:int\}", line)]
    assert uses == []
    assert any(":id}" in path.read_text(encoding="utf-8") for path in sources)


CLIENT_SIDE = ["client", "cli", "models", "config.py", "endpoints.py", "__init__.py", "__main__.py", "ci"]


def imported_modules(path: Path) -> list[str]:
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                names.append(".".join(base + ([node.module] if node.module else [])))
            else:
                names.append(node.module or "")
    return names


def test_the_client_side_never_imports_the_server():
    files = []
    for entry in CLIENT_SIDE:
        target = ROOT / "docsvc" / entry
        files += sorted(target.rglob("*.py")) if target.is_dir() else [target] if target.exists() else []
    assert len(files) > 20
    offenders = {str(f.relative_to(ROOT)): m for f in files for m in imported_modules(f)
                 if m.startswith("docsvc.server")}
    assert offenders == {}
