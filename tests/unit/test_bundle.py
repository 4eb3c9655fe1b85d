"""``docsvc.bundle``: a spec split across files made one document, on real files in a temporary
folder: relative YAML and JSON files, fragments with escapes, a cycle across files, name
collisions, the refusals (a broken reference, a remote one without the flag)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from docsvc.bundle import BundleError, bundle


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def refs(node) -> list[str]:
    """Every $ref value in a document."""
    if isinstance(node, dict):
        return ([node["$ref"]] if isinstance(node.get("$ref"), str) else []) + [r for v in node.values() for r in refs(v)]
    if isinstance(node, list):
        return [r for v in node for r in refs(v)]
    return []


def at(doc, ref: str):
    for part in ref.removeprefix("#/").split("/"):
        doc = doc[part.replace("~1", "/").replace("~0", "~")]
    return doc


SPLIT = {
    "api/openapi.yaml": """\
openapi: 3.0.3
info: {title: Pets, version: '1'}
paths:
  /pets:
    $ref: ./paths/pets.yaml
  /owners/{id}:
    get:
      parameters:
        - $ref: '../common.json#/components/parameters/Id'
      responses:
        '200':
          description: An owner
          content:
            application/json:
              schema: {$ref: './schemas/owner.json'}
        default:
          $ref: '../common.json#/components/responses/Error'
components:
  schemas:
    Pet:
      $ref: ./schemas/pet.yaml
    Error: {type: string, description: the root's own Error}
""",
    "api/paths/pets.yaml": """\
get:
  responses:
    '200':
      description: The pets
      content:
        application/json:
          schema:
            type: array
            items: {$ref: '../schemas/pet.yaml'}
          example: {$ref: 'not-a-reference.yaml'}
""",
    "api/schemas/pet.yaml": """\
type: object
properties:
  name: {type: string}
  owner: {$ref: './owner.json'}
  size: {$ref: '#/x~1defs/a~0b'}
x/defs:
  a~b: {type: integer, enum: [1, 2]}
""",
    "api/schemas/owner.json": json.dumps({
        "type": "object", "properties": {"pets": {"type": "array", "items": {"$ref": "pet.yaml"}}}}),
    "common.json": json.dumps({"components": {
        "parameters": {"Id": {"name": "id", "in": "path", "required": True, "schema": {"type": "integer"}}},
        "responses": {"Error": {"description": "An error", "content": {"application/json": {
            "schema": {"$ref": "#/components/schemas/Error"}}}}},
        "schemas": {"Error": {"type": "object", "properties": {"message": {"type": "string"}}}}}}),
}


@pytest.fixture
def split(tmp_path) -> Path:
    """A split spec in a git repository (api/ references ../common.json: inside the repository)."""
    write(tmp_path, SPLIT)
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    return tmp_path / "api" / "openapi.yaml"


def test_relative_yaml_and_json_files_become_components(split: Path):
    done = bundle(split)
    doc = yaml.safe_load(done.text)
    assert done.syntax == "yaml"
    assert sorted(done.files) == sorted([str(split.parent / "paths/pets.yaml"), str(split.parent / "schemas/pet.yaml"),
                                         str(split.parent / "schemas/owner.json"), str(split.parent.parent / "common.json")])
    references = [r for r in refs(doc) if r != "not-a-reference.yaml"]  # an example's data, below
    assert all(r.startswith("#/") for r in references), references
    assert all(at(doc, r) is not None for r in references)  # every reference resolves inside the document
    schemas = doc["components"]["schemas"]
    assert schemas["Pet"]["properties"]["name"] == {"type": "string"}  # the reference-only component took it in place
    assert doc["paths"]["/pets"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]["items"] == {
        "$ref": "#/components/schemas/Pet"}  # a path item is written in place; the schema it uses is shared
    assert doc["components"]["parameters"]["Id"]["in"] == "path"
    assert doc["paths"]["/owners/{id}"]["get"]["parameters"] == [{"$ref": "#/components/parameters/Id"}]
    assert doc["paths"]["/owners/{id}"]["get"]["responses"]["default"] == {"$ref": "#/components/responses/Error"}


def test_name_collisions_are_resolved_the_same_way_every_time(split: Path):
    doc = yaml.safe_load(bundle(split).text)
    schemas = doc["components"]["schemas"]
    assert schemas["Error"] == {"type": "string", "description": "the root's own Error"}  # the root keeps its own
    assert doc["components"]["responses"]["Error"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/common_Error"}
    assert schemas["common_Error"]["properties"]["message"] == {"type": "string"}
    assert bundle(split).text == bundle(split).text


def test_fragments_with_escapes(split: Path):
    doc = yaml.safe_load(bundle(split).text)
    size = doc["components"]["schemas"]["Pet"]["properties"]["size"]
    assert at(doc, size["$ref"]) == {"type": "integer", "enum": [1, 2]}


def test_a_cycle_across_files_is_kept_as_internal_references(split: Path):
    doc = yaml.safe_load(bundle(split).text)
    schemas = doc["components"]["schemas"]
    assert schemas["Pet"]["properties"]["owner"] == {"$ref": "#/components/schemas/owner"}
    assert schemas["owner"]["properties"]["pets"]["items"] == {"$ref": "#/components/schemas/Pet"}


def test_examples_are_data_not_references(split: Path):
    doc = yaml.safe_load(bundle(split).text)
    media = doc["paths"]["/pets"]["get"]["responses"]["200"]["content"]["application/json"]
    assert media["example"] == {"$ref": "not-a-reference.yaml"}


def test_json_root_stays_json_and_swagger_2_uses_definitions(tmp_path):
    write(tmp_path, {
        "swagger.json": json.dumps({"swagger": "2.0", "info": {"title": "T", "version": "1"}, "paths": {"/a": {"get": {
            "responses": {"200": {"description": "ok", "schema": {"$ref": "defs.yaml#/Thing"}}}}}}}),
        "defs.yaml": "Thing:\n  type: object\n  properties:\n    next: {$ref: '#/Thing'}\n",
    })
    done = bundle(tmp_path / "swagger.json")
    doc = json.loads(done.text)
    assert done.syntax == "json"
    assert doc["paths"]["/a"]["get"]["responses"]["200"]["schema"] == {"$ref": "#/definitions/Thing"}
    assert doc["definitions"]["Thing"]["properties"]["next"] == {"$ref": "#/definitions/Thing"}  # a self-cycle


def test_a_single_file_spec_is_returned_byte_for_byte(tmp_path):
    text = "# a comment\nopenapi: 3.1.0\ninfo: {title: 'T', version: \"1\"}\npaths: {}\ncomponents:\n" \
           "  schemas:\n    A: {$ref: '#/components/schemas/B'}\n    B: {type: string}\n"
    write(tmp_path, {"one.yaml": text})
    done = bundle(tmp_path / "one.yaml")
    assert done.text == text and done.files == []


@pytest.mark.parametrize("ref, reason", [
    ("./schemas/missing.yaml#/Pet", "no such file"),
    ("./schemas/pet.yaml#/Nothing", "has nothing at /Nothing"),
    ("./schemas/pet.yaml#Pet", "is not a JSON pointer"),
    ("./schemas", "is a directory"),
    ("ftp://example.test/pet.yaml", "ftp: references are not supported"),
])
def test_a_broken_reference_is_one_line_naming_file_reference_and_place(tmp_path, ref, reason):
    write(tmp_path, {"spec.yaml": f"openapi: 3.0.3\ninfo: {{title: T, version: '1'}}\npaths:\n  /pets:\n    get:\n"
                                  f"      responses:\n        '200': {{$ref: '{ref}'}}\n",
                     "schemas/pet.yaml": "Pet: {type: object}\n"})
    with pytest.raises(BundleError) as caught:
        bundle(tmp_path / "spec.yaml")
    message = str(caught.value)
    assert message.startswith(f"{tmp_path / 'spec.yaml'}: $ref {ref} at /paths/~1pets/get/responses/200: ")
    assert reason in message and "\n" not in message


def test_a_broken_reference_in_a_nested_file_names_that_file(tmp_path):
    write(tmp_path, {"spec.yaml": "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {}\ncomponents:\n"
                                  "  schemas:\n    Pet: {$ref: 'pet.yaml'}\n",
                     "pet.yaml": "type: object\nproperties:\n  tag: {$ref: 'tag.yaml'}\n",
                     "bad.yaml": "a: [unclosed\n"})
    with pytest.raises(BundleError, match=r"pet\.yaml: \$ref tag\.yaml at /properties/tag: no such file$"):
        bundle(tmp_path / "spec.yaml")
    (tmp_path / "pet.yaml").write_text("type: object\nproperties:\n  tag: {$ref: 'bad.yaml'}\n")
    with pytest.raises(BundleError, match=r"bad\.yaml: line 2: not valid YAML"):
        bundle(tmp_path / "spec.yaml")


def test_remote_references_are_refused_without_the_flag(tmp_path):
    url = "https://schemas.example.test/error.yaml#/Error"
    write(tmp_path, {"spec.yaml": f"openapi: 3.0.3\ninfo: {{title: T, version: '1'}}\npaths: {{}}\ncomponents:\n"
                                  f"  schemas:\n    Error: {{$ref: '{url}'}}\n"})
    fetched = []

    def fetch(address: str) -> str:
        fetched.append(address)
        return "Error:\n  type: object\n  properties:\n    detail: {$ref: 'detail.yaml'}\n" if address.endswith(
            "error.yaml") else "type: string\n"

    with pytest.raises(BundleError, match="remote references are not fetched; pass --allow-remote-refs"):
        bundle(tmp_path / "spec.yaml", fetch=fetch)
    assert fetched == []
    doc = yaml.safe_load(bundle(tmp_path / "spec.yaml", allow_remote=True, fetch=fetch).text)
    assert fetched == ["https://schemas.example.test/error.yaml", "https://schemas.example.test/detail.yaml"]
    assert doc["components"]["schemas"]["Error"]["properties"]["detail"] == {"$ref": "#/components/schemas/detail"}


def test_a_remote_document_cannot_reach_local_files(tmp_path):
    write(tmp_path, {"spec.yaml": "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {}\ncomponents:\n"
                                  "  schemas:\n    E: {$ref: 'https://x.test/e.yaml'}\n"})
    with pytest.raises(BundleError, match="a remote document may only reference other http"):
        bundle(tmp_path / "spec.yaml", allow_remote=True, fetch=lambda url: "$ref: 'file:///etc/passwd'\n")


def test_a_billion_laughs_file_is_refused_by_the_bounded_loader(tmp_path):
    lines = ["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for prev, name in zip("abcdefgh", "bcdefghi"):
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 9) + "]")
    write(tmp_path, {"spec.yaml": "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {}\ncomponents:\n"
                                  "  schemas:\n    L: {$ref: 'laughs.yaml'}\n", "laughs.yaml": "\n".join(lines)})
    with pytest.raises(BundleError, match="aliases expand to more than"):
        bundle(tmp_path / "spec.yaml")


def test_importing_the_bundler_loads_no_yaml():
    out = subprocess.run([sys.executable, "-c", "import sys, docsvc.bundle; print('yaml' in sys.modules)"],
                         capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_external_refs_lists_what_the_service_cannot_resolve():
    from docsvc.bundle import external_refs

    doc = {"openapi": "3.0.3", "paths": {"/a~b": {"get": {"responses": {"default": {"$ref": "r.yaml"}}, "parameters": [
        {"$ref": "#/components/parameters/P"}, {"name": "x", "in": "query", "example": {"$ref": "data.yaml"}}]}}},
        "components": {"schemas": {"A": {"properties": {"example": {"$ref": "a.json#/A"}}}}}}
    assert list(external_refs(doc)) == [("/paths/~1a~0b/get/responses/default", "r.yaml"),
                                        ("/components/schemas/A/properties/example", "a.json#/A")]


@pytest.fixture
def web():
    """A local web server: /ok.yaml, /big.yaml, /to?PORT redirects to 127.0.0.1:PORT/ok.yaml, /loop
    redirects to itself; ``paths`` records what was asked."""
    import http.server
    import threading

    paths: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):
            paths.append(self.path)
            if self.path.startswith(("/to?", "/loop")):
                self.send_response(302)
                target = f"http://127.0.0.1:{self.path[4:]}/ok.yaml" if self.path.startswith("/to?") else "/loop"
                self.send_header("Location", target)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            body = {"/ok.yaml": b"type: string\n", "/big.yaml": b"x" * 5000}.get(self.path)
            self.send_response(200 if body else 404)
            self.send_header("Content-Length", str(len(body or b"")))
            self.end_headers()
            self.wfile.write(body or b"")

    servers = []

    def start():
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return server.server_address[1]

    yield start, paths
    for server in servers:
        server.shutdown()


def test_fetch_remote_bounds_size_and_says_why_it_failed(web, monkeypatch):
    from docsvc.bundle import Unreadable, fetch_remote

    start, _ = web
    monkeypatch.setenv("DOCSVC_REMOTE_REFS_ALLOW", "internal")  # the test's server is on loopback
    base = f"http://127.0.0.1:{start()}"
    if True:
        assert fetch_remote(f"{base}/ok.yaml") == "type: string\n"
        with pytest.raises(Unreadable, match="HTTP 404"):
            fetch_remote(f"{base}/missing.yaml")
        with pytest.raises(Unreadable, match="larger than"):
            fetch_remote(f"{base}/big.yaml", max_bytes=1024)
        with pytest.raises(Unreadable, match="more than 5 redirects"):
            fetch_remote(f"{base}/loop")


def test_a_remote_reference_reaches_no_internal_address_not_even_by_a_redirect(web, monkeypatch):
    """--allow-remote-refs lets public documents in; a spec from a pull request must not make a CI
    runner read an internal service (cloud metadata at 169.254.169.254, a port on loopback)."""
    from docsvc.bundle import Unreadable, fetch_remote

    start, paths = web
    public, internal = start(), start()
    monkeypatch.delenv("DOCSVC_REMOTE_REFS_ALLOW", raising=False)
    for url in (f"http://127.0.0.1:{internal}/ok.yaml", "http://169.254.169.254/latest/meta-data/",
                "http://[::1]:1/x.yaml", "http://localhost:1/x.yaml"):
        with pytest.raises(Unreadable, match=r"internal address.*DOCSVC_REMOTE_REFS_ALLOW lets a host through"):
            fetch_remote(url)
    monkeypatch.setenv("DOCSVC_REMOTE_REFS_ALLOW", f"127.0.0.1:{public}")  # as if it were a public host
    assert fetch_remote(f"http://127.0.0.1:{public}/ok.yaml") == "type: string\n"
    paths.clear()
    with pytest.raises(Unreadable, match=f"redirected to http://127.0.0.1:{internal}/ok.yaml: .*internal address"):
        fetch_remote(f"http://127.0.0.1:{public}/to?{internal}")
    assert paths == [f"/to?{internal}"]  # the internal server was never asked


def test_a_component_that_references_a_file_holding_no_mapping_gets_that_value(tmp_path):
    """``components/schemas/X: {$ref: x.yaml}`` where x.yaml holds a plain string: the value lands in
    place (it once failed with "'str' object is not a mapping"); the service judges the result."""
    write(tmp_path, {
        "api.yaml": "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {}\n"
                    "components:\n  schemas:\n    X:\n      $ref: ./x.yaml\n",
        "x.yaml": "just a string\n",
    })
    bundled = yaml.safe_load(bundle(tmp_path / "api.yaml").text)
    assert bundled["components"]["schemas"]["X"] == "just a string"


def _spec_referencing(ref: str) -> str:
    return (f"openapi: 3.0.3\ninfo: {{title: T, version: '1'}}\npaths:\n  /a:\n    $ref: '{ref}'\n")


@pytest.mark.parametrize("ref", ["/etc/passwd", "../outside.yaml", "file:///etc/passwd", "../repo/../outside.yaml",
                                 "link.yaml", "link-dir/pet.yaml", ".git/config", "sub/../.git/config"])
def test_file_references_stay_inside_the_repository_holding_the_spec(tmp_path, ref):
    """A pull request's spec cannot make the CLI upload the runner's files: a reference leading out of
    the repository (a path, a file: URL, a link) or into .git/ is refused, one line, nothing read."""
    repo = tmp_path / "repo"
    write(tmp_path, {"outside.yaml": "get: {responses: {'200': {description: secret}}}\n",
                     "elsewhere/pet.yaml": "get: {responses: {'200': {description: secret}}}\n",
                     "repo/spec.yaml": _spec_referencing(ref), "repo/sub/x.yaml": "{}\n"})
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / "link.yaml").symlink_to(tmp_path / "outside.yaml")
    (repo / "link-dir").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(BundleError) as caught:
        bundle(repo / "spec.yaml")
    message = str(caught.value)
    assert message.startswith(f"{repo / 'spec.yaml'}: $ref {ref} at /paths/~1a: ") and "\n" not in message
    assert ("is outside" in message and "the git repository holding the spec" in message) or "inside .git/" in message
    assert "secret" not in message


def test_outside_git_references_stay_in_the_current_folder_or_else_the_specs_own(tmp_path, monkeypatch):
    write(tmp_path, {"project/api/spec.yaml": _spec_referencing("../common.yaml"),
                     "project/common.yaml": "get: {responses: {'200': {description: shared}}}\n"})
    spec = tmp_path / "project" / "api" / "spec.yaml"
    monkeypatch.chdir(tmp_path / "project")  # the spec is in the current folder: ../common.yaml too
    assert "shared" in bundle(spec).text
    monkeypatch.chdir(tmp_path / "project" / "api")  # only the spec's folder now
    with pytest.raises(BundleError, match=r"is outside .*api, the current folder"):
        bundle(spec)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)  # the spec is not in the current folder: its own folder is the bound
    with pytest.raises(BundleError, match=r"is outside .*api, the spec's folder"):
        bundle(spec)
