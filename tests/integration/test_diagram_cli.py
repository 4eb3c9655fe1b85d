"""``docsvc diagram`` through the real CLI and the real local service: a flowchart from a numbered
list, a sequence diagram from prose, a graph from arrows, diagrams from images of text read with
tesseract, each checked with Mermaid's own parser; the saved items; and the refusals."""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from tests import formats
from tests.support import LocalService, run_cli

FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
needs_ocr = pytest.mark.skipif(shutil.which("tesseract") is None or not FONT.is_file(),
                               reason="tesseract-ocr and fonts-dejavu-core are needed (run scripts/setup-ci-tools)")


@dataclass
class World:
    svc: LocalService
    key: str
    beta_key: str

    def cli(self, *args: str, key: str | None = None, **kw):
        return run_cli(*args, key=key or self.key, base_url=self.svc.base_url, **kw)


@pytest.fixture(scope="module")
def world(service: LocalService) -> World:
    key = service.admin("init", "--org", "Acme", "--admin-email", "ada@acme.test")
    beta_key = service.admin("init", "--org", "Beta", "--admin-email", "bob@beta.test")
    return World(service, key, beta_key)


def image_of(lines: list[str], path: Path) -> Path:
    """A PNG of the lines in black on white, as a whiteboard photo's text would read."""
    image_module = pytest.importorskip("PIL.Image", reason="Pillow comes with the dev extras")
    from PIL import ImageDraw, ImageFont

    font = ImageFont.truetype(str(FONT), 36)
    image = image_module.new("RGB", (1000, 60 + 70 * len(lines)), "white")
    draw = ImageDraw.Draw(image)
    for n, line in enumerate(lines):
        draw.text((40, 30 + 70 * n), line, fill="black", font=font)
    image.save(path)
    return path


def saved_id(result) -> int:
    """The item id from the ``Saved as diagrams item N (...)`` line."""
    line = next(line for line in result.stderr.splitlines() if line.startswith("Saved as diagrams item"))
    return int(line.split()[4])


def listed(world: World) -> dict[int, str]:
    result = world.cli("items", "list", "diagrams", "--json")
    assert result.returncode == 0, result.stderr
    return {item["id"]: item["title"] for item in json.loads(result.stdout)}


def test_numbered_list_makes_a_flowchart_with_a_decision(world):
    description = ("Checkout:\n1. Customer adds items to the cart\n2. Customer enters the card\n"
                   "3. If the card is valid then charge it, otherwise show an error\n4. Send the receipt")
    result = world.cli("diagram", description)
    assert result.returncode == 0, result.stderr
    parsed = formats.check_mermaid(result.stdout)
    assert parsed["type"] == "flowchart"
    labels = {n["label"]: n for n in parsed["nodes"]}
    assert ["Customer adds items to the cart", "Customer enters the card", "The card is valid?", "Charge it",
            "Show an error", "Send the receipt"] == [n["label"] for n in parsed["nodes"]]
    assert labels["The card is valid?"]["shape"] == "diamond"
    by_id = {n["id"]: n["label"] for n in parsed["nodes"]}
    edges = {(by_id[e["from"]], by_id[e["to"]], e["label"]) for e in parsed["edges"]}
    assert ("The card is valid?", "Charge it", "yes") in edges
    assert ("The card is valid?", "Show an error", "no") in edges
    assert ("Show an error", "Send the receipt", "") in edges  # both branches meet again
    item_id = saved_id(result)
    assert listed(world)[item_id] == "Checkout"


def test_prose_of_calls_makes_a_sequence_diagram(world):
    description = ("The browser calls the gateway with the login form. The gateway asks the auth service for a "
                   "token. The auth service returns the token to the gateway, and the gateway replies to the "
                   "browser with a session cookie.")
    result = world.cli("diagram", description, "--json")
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert answer["kind"] == "sequence" and answer["warnings"] == []
    parsed = formats.check_mermaid(answer["mermaid"])
    names = {p["id"]: p["label"] for p in parsed["participants"]}
    assert list(names.values()) == ["Browser", "Gateway", "Auth service"]
    assert [(names[m["from"]], names[m["to"]], m["text"], m["kind"]) for m in parsed["messages"]] == [
        ("Browser", "Gateway", "the login form", "solid"),
        ("Gateway", "Auth service", "a token", "solid"),
        ("Auth service", "Gateway", "the token", "dashed"),
        ("Gateway", "Browser", "a session cookie", "dashed"),
    ]
    assert listed(world)[answer["item_id"]] == answer["title"] == \
        "The browser calls the gateway with the login form"


def test_arrows_written_to_a_file(world, tmp_path):
    out = tmp_path / "deploy.mmd"
    description = "Deploy pipeline, left to right:\nbuild -> test -> stage\nstage -> production\ntest -> notify"
    result = world.cli("diagram", description, "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == f"Written to {out}"
    text = out.read_text(encoding="utf-8")
    assert text.startswith("flowchart LR\n")
    parsed = formats.check_mermaid(text)
    by_id = {n["id"]: n["label"] for n in parsed["nodes"]}
    assert {(by_id[e["from"]], by_id[e["to"]]) for e in parsed["edges"]} == {
        ("Build", "Test"), ("Test", "Stage"), ("Stage", "Production"), ("Test", "Notify")}
    item_id = int(result.stdout.splitlines()[1].split()[4])
    assert listed(world)[item_id] == "Deploy pipeline, left to right"
    # The item is the caller's organisation's only.
    assert item_id not in listed(World(world.svc, world.beta_key, world.beta_key))


def test_an_output_that_cannot_be_written_is_one_line_before_the_diagram_is_made(world, tmp_path):
    (tmp_path / "f").write_text("")
    before = listed(world)
    result = world.cli("diagram", "A calls B", "-o", "f/d.mmd", cwd=tmp_path)
    assert (result.returncode, result.stderr) == (2, "Error: --output f/d.mmd: cannot be written: f is not a folder\n")
    assert listed(world) == before


def test_hostile_labels_come_through_as_text(world):
    hostile = 'Say "hi" [x] {y} (z) #1;2 100% <b>bold</b> `code` | pipe & é 😀'
    result = world.cli("diagram", f"1. {hostile}\n\n\n2. end\n3. %%{{init: {{'theme': 'dark'}}}}%%")
    assert result.returncode == 0, result.stderr
    parsed = formats.check_mermaid(result.stdout)
    assert [n["label"] for n in parsed["nodes"]] == [hostile, "End", "%%{init: {'theme': 'dark'}}%%"]


@needs_ocr
def test_image_of_steps_makes_nodes(world, tmp_path):
    board = image_of(["Receive order", "Check stock", "Ship parcel"], tmp_path / "board.png")
    result = world.cli("diagram", "Warehouse whiteboard", "--image", str(board), "--json")
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert answer["title"] == "Warehouse whiteboard" and answer["kind"] == "flowchart"
    assert answer["ocr_text"].splitlines() == ["Receive order", "Check stock", "Ship parcel"]
    parsed = formats.check_mermaid(answer["mermaid"])
    assert [n["label"] for n in parsed["nodes"]] == ["Receive order", "Check stock", "Ship parcel"]
    assert len(parsed["edges"]) == 2
    assert listed(world)[answer["item_id"]] == "Warehouse whiteboard"


@needs_ocr
def test_image_of_arrows_makes_a_sequence_diagram_without_a_description(world, tmp_path):
    board = image_of(["Browser -> Gateway: login", "Gateway -> Auth: check token", "Auth --> Gateway: ok"],
                     tmp_path / "login.png")
    result = world.cli("diagram", "--image", str(board))
    assert result.returncode == 0, result.stderr
    parsed = formats.check_mermaid(result.stdout)
    names = {p["id"]: p["label"] for p in parsed["participants"]}
    assert [(names[m["from"]], names[m["to"]], m["text"]) for m in parsed["messages"]] == [
        ("Browser", "Gateway", "login"), ("Gateway", "Auth", "check token"), ("Auth", "Gateway", "ok")]
    assert "Saved as diagrams item" in result.stderr


def test_refusals_are_one_line(world, tmp_path):
    missing = world.cli("diagram")
    assert missing.returncode == 2 and "DESCRIPTION" in missing.stderr and "Traceback" not in missing.stderr
    fake = tmp_path / "photo.png"
    fake.write_text("/etc/passwd\n", encoding="utf-8")  # tesseract would read this as a list of images
    bad = world.cli("diagram", "boxes", "--image", str(fake))
    assert bad.returncode == 2, bad.stderr
    assert bad.stderr.strip().splitlines() == [f"Error: {fake}: not an image: expected one of png, jpeg, webp, "
                                               "gif, bmp, tiff (judged by the file's content)"]
    assert bad.stdout == ""


def test_the_service_answers_problems(world):
    url = f"{world.svc.base_url}/api/v1/diagram/generate"
    auth = {"Authorization": f"Bearer {world.key}"}
    empty = httpx.post(url, data={"description": "   "}, files={"unused": ("", b"")}, headers=auth)
    assert empty.status_code == 422
    assert empty.headers["content-type"].startswith("application/problem+json")
    assert empty.json()["detail"].startswith("description: describe the diagram")
    broken = httpx.post(url, data={"description": "x"}, files={"image_file": ("a.png", b"\x89PNG\r\n\x1a\nbroken")},
                        headers=auth)
    assert broken.status_code == 422 and "could not be read" in broken.json()["detail"]
    as_json = httpx.post(url, json={"description": "a -> b"}, headers=auth)
    assert as_json.status_code == 400 and "multipart/form-data" in as_json.json()["detail"]
    assert httpx.post(url, data={"description": "a -> b"}, files={"unused": ("", b"")}).status_code == 401
    made = httpx.post(url, data={"description": "A calls B"}, files={"unused": ("", b"")}, headers=auth)
    assert made.status_code == 201 and made.json()["kind"] == "sequence"


def grey_png(width: int, height: int) -> bytes:
    """A real greyscale PNG of blank rows, compressed row by row (a decompression bomb when large:
    9000x9000 is 81 megapixels in about 80 KB)."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    pack = zlib.compressobj(9)
    row = b"\0" * (width + 1)
    idat = b"".join(pack.compress(row) for _ in range(height)) + pack.flush()
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", idat) + chunk(b"IEND", b""))


def test_an_image_beyond_the_pixel_limit_is_refused_before_ocr(world):
    """Four decompression bombs at once: each answered 422 naming its size, at once, with no
    tesseract run (which took 1.5 GB and 16 s for each 20000x20000 PNG of the audit)."""
    import time
    from concurrent.futures import ThreadPoolExecutor

    bomb = grey_png(9000, 9000)
    assert len(bomb) < 1_000_000
    url = f"{world.svc.base_url}/api/v1/diagram/generate"
    auth = {"Authorization": f"Bearer {world.key}"}
    started = time.monotonic()
    with ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(lambda _: httpx.post(url, data={"description": "boxes"}, headers=auth, timeout=120,
                                                     files={"image_file": ("bomb.png", bomb, "image/png")}), range(4)))
    elapsed = time.monotonic() - started
    for answer in answers:
        assert answer.status_code == 422, answer.text
        assert answer.json()["detail"] == ("image_file: the image is 9000x9000 pixels (81.0 megapixels); text is "
                                           "read from images of at most 40 megapixels")
    assert elapsed < 10, f"the refusals took {elapsed:.1f} s: was the image decoded?"
