"""``docsvc convert`` through the real CLI and the real local service: every target format checked
by its own parser, the saved item and its link, and the refusals (bad text, wrong kind, billion
laughs, a body over the size limit)."""

from __future__ import annotations

import json
import socket
import time
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from tests import formats
from tests.support import LocalService, run_cli

SERVICE_ENV = {"DOCSVC_SERVER_MAX_BODY_MB": "2"}

PETSTORE = """\
openapi: 3.0.3
info:
  title: Pet Store
  version: 1.0.0
  description: Pets, with <tags> and {braces} that MDX must not read as code.
servers:
  - url: https://pets.example.test/v1
paths:
  /pets:
    get:
      tags: [pets]
      summary: List pets
      operationId: listPets
      parameters:
        - name: limit
          in: query
          description: How many pets to return (at most 100)
          schema: {type: integer, default: 20, maximum: 100}
      responses:
        "200":
          description: A page of pets
          content:
            application/json:
              schema:
                type: array
                items: {$ref: "#/components/schemas/Pet"}
    post:
      tags: [pets]
      summary: Create a pet
      operationId: createPet
      security: [{apiKey: []}]
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: "#/components/schemas/Pet"}
      responses:
        "201": {description: Created}
        "422": {description: The pet is not valid}
  /pets/{petId}:
    get:
      tags: [pets]
      summary: Show a pet
      operationId: showPet
      deprecated: true
      parameters:
        - {name: petId, in: path, required: true, schema: {type: string}}
      responses:
        "200":
          description: The pet
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Pet"}
components:
  securitySchemes:
    apiKey: {type: apiKey, in: header, name: X-API-Key}
  schemas:
    Pet:
      type: object
      required: [name]
      properties:
        name: {type: string, example: Rex}
        kind: {type: string, enum: [dog, cat]}
        owner: {$ref: "external.yaml#/Owner"}
        children:
          type: array
          items: {$ref: "#/components/schemas/Pet"}
"""
OPERATIONS = [("GET", "/pets"), ("POST", "/pets"), ("GET", "/pets/{petId}")]

VALUES = """\
# -- Number of replicas
replicaCount: 2
image:
  # -- Image repository
  repository: nginx
  # -- Image tag (default: the chart's appVersion)
  tag: ""
service:
  # -- (int) Service port
  port: 80
"""
VALUE_KEYS = ["replicaCount", "image.repository", "image.tag", "service.port"]


@dataclass
class Converter:
    svc: LocalService
    key: str
    root: Path

    def cli(self, *args: str):
        return run_cli(*args, key=self.key, base_url=self.svc.base_url, cwd=self.root)

    def file(self, name: str, text: str) -> Path:
        path = self.root / name
        path.write_text(text, encoding="utf-8")
        return path


@pytest.fixture(scope="module")
def conv(service: LocalService, tmp_path_factory) -> Converter:
    key = service.admin("init", "--org", "Convert Co", "--admin-email", "ada@convert.test")
    return Converter(service, key, tmp_path_factory.mktemp("convert"))


CHECKERS = {
    "md": lambda text, tmp: formats.check_markdown(text),
    "docusaurus": lambda text, tmp: formats.check_mdx(text),
    "rst": lambda text, tmp: formats.check_rst(text),
    "sphinx": lambda text, tmp: formats.check_sphinx(text, tmp),
    "adoc": lambda text, tmp: formats.check_adoc(text, tmp),
}
SUFFIX = {"docusaurus": ".md", "md": ".md", "rst": ".rst", "sphinx": ".rst", "adoc": ".adoc"}


@pytest.mark.parametrize("target", list(CHECKERS))
def test_openapi_to_every_target(conv: Converter, target: str, tmp_path):
    spec = conv.file("petstore.yaml", PETSTORE)
    conv.file("external.yaml", "Owner: {type: object, properties: {name: {type: string}}}\n")
    out = conv.root / f"petstore-{target}{SUFFIX[target]}"
    done = conv.cli("convert", str(spec), "-t", "openapi", "--target", target, "-o", str(out))
    assert done.returncode == 0, done.stderr
    text = out.read_text(encoding="utf-8")
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Link: http://") and lines[1] == f"Written to {out}"
    CHECKERS[target](text, tmp_path)
    for method, path in OPERATIONS:
        assert method in text and path in text, (method, path)
    # The CLI bundles the file the spec references (the service's warning for an unresolvable
    # external $ref is tested on the API in test_split_specs.py).
    assert "Owner" in text and "external.yaml" not in text and "external.yaml" not in done.stderr
    # The link opens the saved document from the service, without an API key.
    link = lines[0].removeprefix("Link: ")
    assert httpx.get(link).text == text
    assert httpx.get(link.replace("key=", "key=x")).status_code == 404


def test_default_output_name_json_summary_and_saved_item(conv: Converter):
    spec = conv.file("values.yaml", VALUES)
    done = conv.cli("convert", str(spec), "--type", "helm", "--json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    written = conv.root / "values.md"  # docusaurus by default, the input's name with .md
    assert summary["path"] == str(written) and written.is_file()
    text = written.read_text(encoding="utf-8")
    assert text.startswith("---\n")  # Docusaurus front matter
    formats.check_mdx(text)
    for key in VALUE_KEYS:
        assert key in text
    listed = conv.cli("items", "list", "conversions", "--json")
    assert listed.returncode == 0, listed.stderr
    assert summary["item_id"] in [item["id"] for item in json.loads(listed.stdout)]


def test_helm_to_rst_and_adoc(conv: Converter, tmp_path):
    spec = conv.file("chart-values.yaml", VALUES)
    for target, check in (("rst", formats.check_rst), ("adoc", lambda t: formats.check_adoc(t, tmp_path))):
        done = conv.cli("convert", str(spec), "-t", "helm", "--target", target)
        assert done.returncode == 0, done.stderr
        text = (conv.root / f"chart-values{SUFFIX[target]}").read_text(encoding="utf-8")
        check(text)
        assert all(key in text for key in VALUE_KEYS)


@pytest.mark.parametrize("name, text, source_type, expected", [
    ("broken.yaml", "openapi: 3.0.0\ninfo:\n  title: [unclosed\n", "openapi", "broken.yaml: line "),
    ("broken.json", '{"openapi": "3.0.0",\n "info": {"title": "x"\n "version": "1"}}', "openapi",
     "broken.json: line 3: not valid JSON"),
    ("values.yaml", "replicaCount: 1\n", "openapi", "values.yaml: not an OpenAPI document"),
    ("api.yaml", "openapi: 3.0.0\ninfo: {title: x, version: '1'}\npaths: {}\n", "helm",
     "api.yaml: this is an OpenAPI document, not a Helm values file"),
    ("tagged.yaml", "a: !!python/object/apply:os.system [ls]\n", "helm", "tagged.yaml: line 1: YAML tag"),
    ("list.yaml", "- a\n- b\n", "helm", "list.yaml: the document is a list, not a mapping"),
])
def test_bad_input_is_one_line_naming_the_file(conv: Converter, name, text, source_type, expected):
    spec = conv.file(name, text)
    done = conv.cli("convert", str(spec), "-t", source_type)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(f"Error: {spec}".replace(name, "")) and expected in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


@pytest.mark.parametrize("raw, expected", [
    (b'{"openapi": "3.0.0", "info": {"title": "caf\xe9"}}', "not UTF-8 text (byte 43)"),  # Latin-1, sent as it is
    (b"\xff\xfe{\x00}\x00", "not UTF-8 text (byte 0)"),  # UTF-16
    (b" \n\t\n", "the file is empty"),
])
def test_a_file_that_is_not_utf8_text_is_one_line(conv: Converter, raw: bytes, expected: str):
    spec = conv.root / "latin.json"
    spec.write_bytes(raw)
    done = conv.cli("convert", str(spec), "-t", "openapi")
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(f"Error: {spec}: ") and expected in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


def test_missing_file_and_output_over_input(conv: Converter):
    done = conv.cli("convert", "nowhere.yaml", "-t", "openapi")
    assert done.returncode == 2 and "nowhere.yaml: no such file" in done.stderr
    spec = conv.file("same.md", "a: 1\n")
    done = conv.cli("convert", str(spec), "-t", "helm", "-o", str(spec))
    assert done.returncode == 2 and "would overwrite the input" in done.stderr


def test_an_output_that_cannot_be_written_is_one_line_before_the_job(conv: Converter):
    """A file where the output's folder must be: refused by name before the job, so no conversion
    is made (and paid for) only to be lost to a traceback."""
    spec = conv.file("pets-out.yaml", PETSTORE)
    conv.file("notafolder", "")
    before = json.loads(conv.cli("items", "list", "conversions", "--json").stdout)
    done = conv.cli("convert", str(spec), "-t", "openapi", "-o", "notafolder/x.md")
    assert (done.returncode, done.stderr) == (2, "Error: --output notafolder/x.md: cannot be written: "
                                                 "notafolder is not a folder\n")
    assert json.loads(conv.cli("items", "list", "conversions", "--json").stdout) == before


def test_billion_laughs_is_refused_quickly(conv: Converter):
    lines = ["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for prev, name in zip("abcdefgh", "bcdefghi"):
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 9) + "]")
    spec = conv.file("laughs.yaml", "\n".join(lines) + "\n")
    started = time.monotonic()
    done = conv.cli("convert", str(spec), "-t", "helm")
    assert done.returncode == 2 and "aliases expand to more than" in done.stderr, done.stderr
    assert time.monotonic() - started < 60  # refused, not expanded (a generous bound: the CLI's start included)


def test_a_body_over_the_limit_is_413(conv: Converter):
    big = conv.file("big.yaml", "items:\n" + "".join(f"  - value number {i}\n" for i in range(200_000)))
    done = conv.cli("convert", str(big), "-t", "helm")
    assert done.returncode == 1, done.stderr
    assert "larger than this service accepts (2 MB" in done.stderr
    answer = httpx.post(conv.svc.base_url + "/api/v1/convert", headers={"Authorization": f"Bearer {conv.key}"},
                        content=b"{" + b" " * (3 * 1024 * 1024) + b"}")
    assert answer.status_code == 413 and answer.headers["content-type"].startswith("application/problem+json")


def test_a_client_that_sends_its_whole_body_before_reading_gets_the_413(conv: Converter):
    """The service reads the rest of an over-limit body before it answers and closes: answered at
    once, the close of a socket holding unread bytes sends a reset, and the client, still writing,
    found "connection reset" where the 413 should be (a pause mid-body makes that certain)."""
    host, port = conv.svc.base_url.split("//")[1].split(":")
    body = b"{" + b" " * (3 * 1024 * 1024) + b"}"
    with socket.create_connection((host, int(port)), timeout=30) as conn:
        conn.sendall(f"POST /api/v1/convert HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {conv.key}\r\n"
                     f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n".encode())
        conn.sendall(body[:65536])
        time.sleep(0.5)
        conn.sendall(body[65536:])
        answer = b""
        while chunk := conn.recv(65536):
            answer += chunk
    head, _, problem = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 413 ") and b"connection: close" in head.lower(), head
    assert "larger than this service accepts (2 MB" in json.loads(problem)["detail"]
