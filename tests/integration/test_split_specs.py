"""Specs split across files, through the real CLI and the real local service: a spec in five files
with a cycle between two of them converted and validated (``validate --file``), a broken reference
refused before anything is sent, the service's own answers to references it cannot follow (a 422
naming the reference for an upload, a warning in a conversion: never a 500), and a commented YAML
spec fixed and opened as a pull request with only the fixed lines changed."""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from tests.support import GitRemote, LocalService, git, run_cli

FILES = {
    "api/openapi.yaml": """\
openapi: 3.0.3
info:
  title: Split Pets
  version: 1.0.0
  license: {name: MIT, url: https://opensource.org/licenses/MIT}
servers:
  - url: https://pets.example.test/v1
tags:
  - {name: pets, description: The pets.}
security:
  - apiKey: []
paths:
  /pets:
    $ref: ./paths/pets.yaml
  /owners/{ownerId}:
    get:
      tags: [pets]
      summary: Show an owner
      operationId: showOwner
      parameters:
        - $ref: '../common/parameters.yaml#/OwnerId'
      responses:
        '200':
          description: The owner
          content:
            application/json:
              schema: {$ref: './schemas/owner.json'}
        '404':
          $ref: '../common/parameters.yaml#/NotFound'
components:
  securitySchemes:
    apiKey: {type: apiKey, in: header, name: X-API-Key}
  schemas:
    Pet:
      $ref: ./schemas/pet.yaml
""",
    "api/paths/pets.yaml": """\
get:
  tags: [pets]
  summary: List pets
  operationId: listPets
  responses:
    '200':
      description: The pets
      content:
        application/json:
          schema:
            type: array
            items: {$ref: '../schemas/pet.yaml'}
    '400':
      $ref: '../../common/parameters.yaml#/NotFound'
""",
    # pet.yaml and owner.json reference each other: a cycle across files
    "api/schemas/pet.yaml": """\
type: object
required: [name]
properties:
  name: {type: string, description: The pet's name}
  owner: {$ref: './owner.json'}
""",
    "api/schemas/owner.json": json.dumps({
        "type": "object", "description": "An owner and the pets it has",
        "properties": {"name": {"type": "string", "description": "The owner's name"},
                       "pets": {"type": "array", "items": {"$ref": "pet.yaml"}}}}, indent=2),
    "common/parameters.yaml": """\
OwnerId: {name: ownerId, in: path, required: true, description: The owner, schema: {type: string}}
NotFound:
  description: Nothing there
""",
}

COMMENTED = """\
# Orders: a commented spec; the fix must leave every comment where it is.
openapi: 3.0.3
info:
  title: 'Orders'   # quoted on purpose
  version: "1.0.0"
  license: {name: MIT, url: https://opensource.org/licenses/MIT}
servers:
  - url: https://orders.example.test/   # the trailing slash gets fixed
tags:
  - {name: orders, description: The orders.}
paths:
  # every order
  /orders:
    get:
      tags: [orders]   # flow style
      summary: List orders
      operationId: listOrders
      responses:
        '200':
          description: The orders
        '400':
          description: Bad request
"""


@dataclass
class Split:
    svc: LocalService
    key: str
    root: Path

    def cli(self, *args: str):
        return run_cli(*args, key=self.key, base_url=self.svc.base_url, cwd=self.root)

    def api(self, method: str, path: str, **kwargs) -> httpx.Response:
        return httpx.request(method, f"{self.svc.base_url}/api/v1{path}", timeout=60,
                             headers={"Authorization": f"Bearer {self.key}"}, **kwargs)


@pytest.fixture(scope="module")
def split(service: LocalService, tmp_path_factory) -> Split:
    root = tmp_path_factory.mktemp("split")
    for name, text in FILES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    key = service.admin("init", "--org", "Split Co", "--admin-email", "ada@split.test")
    return Split(service, key, root)


def test_a_spec_in_five_files_with_a_cycle_converts(split: Split):
    out = split.root / "pets.md"
    done = split.cli("convert", "api/openapi.yaml", "-t", "openapi", "--target", "md", "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert "Bundled api/openapi.yaml with 4 referenced file(s)" in done.stderr
    assert "warning" not in done.stderr  # every reference resolved: nothing left for the service to warn about
    text = out.read_text(encoding="utf-8")
    for expected in ("GET /pets", "GET /owners/{ownerId}", "The pet's name", "The owner's name", "Nothing there",
                     "ownerId"):
        assert expected in text, expected
    assert ".yaml" not in text and ".json" not in text


def test_the_same_spec_validates_with_validate_file(split: Split):
    done = split.cli("validate", "--file", "api/openapi.yaml", "--json", "--fail-on", "never", "--no-ai-content")
    assert done.returncode == 0, done.stderr
    scan = json.loads(done.stdout)
    assert scan["spec"] == {"path": "openapi.yaml", "uploaded": True}
    errors = [f for f in scan["findings"] if f["severity"] == "error"]
    assert errors == []  # the bundled document is valid: every $ref resolves inside it
    assert {f["file"] for f in scan["findings"]} <= {"openapi.yaml"}
    text = split.cli("validate", "--file", "api/openapi.yaml", "--fail-on", "warning", "--no-ai-content")
    assert text.stdout.startswith(f"API scan {scan['scan_id'] + 1}: openapi.yaml uploaded"), text.stdout
    listed = json.loads(split.cli("items", "list", "api-scans", "--json").stdout)
    assert scan["scan_id"] in [item["id"] for item in listed]


def test_a_broken_reference_is_refused_before_anything_is_sent(split: Split):
    spec = split.root / "broken.yaml"
    spec.write_text("openapi: 3.0.3\ninfo: {title: B, version: '1'}\npaths:\n  /pets:\n    get:\n      responses:\n"
                    "        '200': {$ref: './schemas/missing.yaml#/Pet'}\n", encoding="utf-8")
    for args in (("convert", "broken.yaml", "-t", "openapi"), ("validate", "--file", "broken.yaml")):
        done = split.cli(*args)
        assert done.returncode == 2, done.stderr
        assert done.stderr == ("Error: broken.yaml: $ref ./schemas/missing.yaml#/Pet at "
                               "/paths/~1pets/get/responses/200: no such file\n")
    bad = split.root / "bad.yaml"
    bad.write_text("openapi: 3.0.3\ninfo:\n  title: [unclosed\n", encoding="utf-8")
    done = split.cli("validate", "--file", "bad.yaml")  # no $ref: sent as it is, refused by the service
    assert done.returncode == 2 and done.stderr.startswith("Error: bad.yaml: line "), done.stderr
    assert len(done.stderr.splitlines()) == 1
    remote = split.root / "remote.yaml"
    remote.write_text("openapi: 3.0.3\ninfo: {title: R, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n"
                      "    E: {$ref: 'https://schemas.example.test/e.yaml'}\n", encoding="utf-8")
    done = split.cli("validate", "--file", "remote.yaml")
    assert done.returncode == 2 and "pass --allow-remote-refs" in done.stderr and "Traceback" not in done.stderr
    # Sent as its bytes, undecoded: the service's refusal of a file that is not UTF-8 text reads as
    # the CLI's own refusal of an empty one, one line naming the file.
    (split.root / "latin.json").write_bytes(b'{"openapi": "3.0.3", "info": {"title": "caf\xe9"}}')
    (split.root / "blank.yaml").write_bytes(b" \n\t\n")
    for name, expected in (("latin.json", "not UTF-8 text (byte 43); is it a spec?"), ("blank.yaml", "the file is empty")):
        done = split.cli("validate", "--file", name)
        assert done.returncode == 2 and done.stderr == f"Error: {name}: {expected}\n", done.stderr


def test_docsvc_bundle_writes_one_document(split: Split):
    out = split.root / "bundled.yaml"
    done = split.cli("bundle", "api/openapi.yaml", "-o", str(out))
    assert done.returncode == 0, done.stderr
    printed = split.cli("bundle", "api/openapi.yaml")
    assert printed.stdout == out.read_text(encoding="utf-8")
    assert "$ref: '#/components/schemas/Pet'" in printed.stdout and ".json" not in printed.stdout


def test_the_service_refuses_an_upload_with_an_external_ref_naming_it(split: Split):
    answer = split.api("POST", "/oas/validate", files={"file": ("api.yaml", FILES["api/openapi.yaml"].encode())})
    assert answer.status_code == 422, answer.text
    assert answer.headers["content-type"].startswith("application/problem+json")
    assert answer.json()["detail"].startswith("file: api.yaml: $ref ./paths/pets.yaml at /paths/~1pets: ")
    for files, status in [({"file": ("x.yaml", b"\xff\xfe")}, 422), ({"file": ("x.yaml", b"a: [1\n")}, 422),
                          ({"file": ("x.yaml", b"replicas: 1\n")}, 422),
                          ({"file": (None, "openapi: 3.0.3")}, 422),
                          ({"run_swagger": (None, "maybe"), "file": ("x.yaml", b"openapi: 3.0.3\n")}, 422)]:
        answer = split.api("POST", "/oas/validate", files=files)
        assert answer.status_code == status, (files, answer.text)
    # without a file the body works as it always did: no saved configuration here, so a 409
    assert split.api("POST", "/oas/validate", json={}).status_code == 409


@pytest.mark.parametrize("where", [
    "paths:\n  /a: {$ref: './paths/a.yaml'}\n",
    "paths:\n  /a:\n    get:\n      parameters: [{$ref: 'p.yaml#/P'}]\n      responses: {'200': {$ref: 'r.yaml'}}\n",
    "paths: {}\ncomponents:\n  schemas:\n    A: {$ref: 'https://x.test/a.yaml#/A'}\n    B: {allOf: [{$ref: 'b.yaml'}]}\n",
])
def test_the_service_converts_a_spec_with_external_refs_with_a_warning_never_a_500(split: Split, where: str):
    content = "openapi: 3.0.3\ninfo: {title: X, version: '1'}\n" + where
    answer = split.api("POST", "/convert", json={"source_type": "openapi", "content": content, "target_format": "md"})
    assert answer.status_code == 202, answer.text
    job = answer.json()["job_id"]
    for _ in range(200):
        state = split.api("GET", f"/jobs/{job}").json()
        if state["status"] != "queued":
            break
        import time
        time.sleep(0.1)
    assert state["status"] == "completed", state
    assert any("external $ref" in w for w in state["result"]["warnings"])


def test_a_commented_yaml_spec_is_fixed_with_its_comments_intact(split: Split, tmp_path):
    docs = GitRemote(tmp_path, "split-docs", {"README.md": "# Docs\n"})
    code = GitRemote(tmp_path, "split-code", {"README.md": "# Code\n"})
    integration = split.svc.admin("integrations", "add", "--org", "Split Co", "--name", "docs",
                                  "--code-repo", str(code.bare), "--docs-repo", str(docs.bare))
    spec = split.root / "orders.yaml"
    spec.write_text(COMMENTED, encoding="utf-8")
    done = split.cli("validate", "--file", "orders.yaml", "--ai-fix", "--json", "--fail-on", "never")
    assert done.returncode == 0, done.stderr
    scan = json.loads(done.stdout)
    assert {f["rule"] for f in scan["fixes"]} == {"no-server-trailing-slash"}
    done = split.cli("api-scan", "open-pr", str(scan["scan_id"]), "--repo", integration, "--path",
                     "reference/orders.yaml", "--json")
    assert done.returncode == 0, done.stderr
    branch = json.loads(done.stdout)["pull_requests"]["docs"].split("#")[-1]
    fixed = git("show", f"{branch}:reference/orders.yaml", cwd=docs.bare)
    diff = [line for line in difflib.unified_diff(COMMENTED.splitlines(), fixed.splitlines(), lineterm="", n=0)
            if not line.startswith(("---", "+++", "@@"))]
    assert diff == ["-  - url: https://orders.example.test/   # the trailing slash gets fixed",
                    "+  - url: https://orders.example.test    # the trailing slash gets fixed"]
    source = split.cli("api-scan", "open-pr", str(scan["scan_id"]), "--to", "source")
    assert source.returncode == 1 and "uploaded (validate --file)" in source.stderr
