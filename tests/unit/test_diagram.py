"""The Diagram Generator's rules: descriptions to flowcharts and sequence diagrams, hostile labels,
OCR refusals; every diagram checked with Mermaid's own parser."""

from __future__ import annotations

import io
import os
import shutil
import struct
import subprocess
import threading
import time
import zlib

import pytest
from sqlalchemy import select

from docsvc.images import image_size
from docsvc.server.db.tables import Item
from docsvc.server.engines import ocr
from docsvc.server.engines.diagram import MAX_LABEL, generate, label
from docsvc.server.problems import Problem
from docsvc.server.services import diagrams as service
from docsvc.server.services.accounts import Caller
from docsvc.server.settings import ServerSettings
from docsvc.server.storage import FileStore
from tests.formats import check_mermaid
from tests.unit.dbfixtures import db  # noqa: F401  (fixture)

PNG_1PX = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                        "1f15c4890000000d49444154789c6360000002000100e221bc330000000049454e44ae426082")


def flow(description: str) -> tuple[dict, dict[str, str], set[tuple[str, str, str]]]:
    """(parsed, labels by id, edges as (from label, to label, edge label)) of a flowchart."""
    diagram = generate(description)
    assert diagram.kind == "flowchart", diagram.reason
    parsed = check_mermaid(diagram.mermaid)
    names = {n["id"]: n["label"] for n in parsed["nodes"]}
    return parsed, names, {(names[e["from"]], names[e["to"]], e["label"]) for e in parsed["edges"]}


def messages(description: str) -> list[tuple[str, str, str, str]]:
    """(from, to, text, kind) of a sequence diagram's messages, participants by their labels."""
    diagram = generate(description)
    assert diagram.kind == "sequence", diagram.reason
    parsed = check_mermaid(diagram.mermaid)
    names = {p["id"]: p["label"] for p in parsed["participants"]}
    return [(names.get(m["from"], ""), names.get(m["to"], ""), m["text"], m["kind"]) for m in parsed["messages"]]


def test_numbered_list_is_a_chain_of_steps():
    parsed, names, edges = flow("Release:\n1) Freeze the branch\n2) Run the tests\n3) Tag the release")
    assert list(names.values()) == ["Freeze the branch", "Run the tests", "Tag the release"]
    assert edges == {("Freeze the branch", "Run the tests", ""), ("Run the tests", "Tag the release", "")}
    assert generate("Release:\n1) Freeze the branch\n2) Tag it").title == "Release"


def test_numbered_list_on_one_line_is_one_step_per_number():
    # The example: the list was cut after the next number, giving a step "Build the image 2".
    parsed, names, edges = flow("1. Build the image 2. If the scan passes then push it, otherwise open a ticket")
    assert list(names.values()) == ["Build the image", "The scan passes?", "Push it", "Open a ticket"]
    assert edges == {("Build the image", "The scan passes?", ""), ("The scan passes?", "Push it", "yes"),
                     ("The scan passes?", "Open a ticket", "no")}
    assert next(n for n in parsed["nodes"] if n["shape"] == "diamond")["label"] == "The scan passes?"
    for text, steps in [
        ("1) Freeze the branch 2) Tag it", ["Freeze the branch", "Tag it"]),
        ("1. Plan it 2. Build it 3. Ship it", ["Plan it", "Build it", "Ship it"]),
        ("(1) Plan it (2) Ship it", ["Plan it", "Ship it"]),
        ("1: Plan it 2: Ship it", ["Plan it", "Ship it"]),
        # Numbers inside a step are not markers: no punctuation, a decimal, a time, a different style.
        ("1. Wait 2 minutes 2. Retry 3 times", ["Wait 2 minutes", "Retry 3 times"]),
        ("1. Set the version to 2.5 2. Push", ["Set the version to 2.5", "Push"]),
        ("1. Start at 10:30 2. Stop at 11:00", ["Start at 10:30", "Stop at 11:00"]),
        ("1. Plan 2) later 2. Ship", ["Plan 2) later", "Ship"]),
        # A marker that does not continue the count stays in the text.
        ("1. Read chapter 3. Then summarise it", ["Read chapter 3", "Summarise it"]),
    ]:
        assert list(flow(text)[1].values()) == steps, text
    # The list may start inside the line (after a heading), and continue a list from the lines before.
    assert generate("Release: 1. Tag it 2. Push it").title == "Release"
    assert list(flow("Release: 1. Tag it 2. Push it")[1].values()) == ["Tag it", "Push it"]
    assert list(flow("1. Plan\n2. Build 3. Test\n4. Ship")[1].values()) == ["Plan", "Build", "Test", "Ship"]


def test_bullets_and_prose_steps():
    _, names, _ = flow("- open the page\n* click Save\n• see the toast")
    assert list(names.values()) == ["Open the page", "Click Save", "See the toast"]
    _, names, edges = flow("First the writer drafts the page, then the editor reviews it. Finally we publish.")
    assert list(names.values()) == ["The writer drafts the page", "The editor reviews it", "We publish"]
    assert len(edges) == 2


def test_decision_becomes_a_diamond_whose_branches_meet_again():
    parsed, names, edges = flow("Check the card. If the card is valid then charge it, otherwise show an error. "
                                "Then send the receipt.")
    diamond = next(n for n in parsed["nodes"] if n["shape"] == "diamond")
    assert diamond["label"] == "The card is valid?"
    assert {("The card is valid?", "Charge it", "yes"), ("The card is valid?", "Show an error", "no"),
            ("Charge it", "Send the receipt", ""), ("Show an error", "Send the receipt", ""),
            ("Check the card", "The card is valid?", "")} == edges


def test_decision_without_otherwise_goes_on_with_no():
    _, _, edges = flow("1. Run the tests\n2. If they fail, open an issue\n3. Deploy")
    assert ("They fail?", "Open an issue", "yes") in edges
    assert ("They fail?", "Deploy", "no") in edges
    assert ("Open an issue", "Deploy", "") in edges


def test_otherwise_as_its_own_sentence():
    _, _, edges = flow("If the build is green, merge it. Otherwise, fix the build.")
    assert ("The build is green?", "Fix the build", "no") in edges


def test_calls_sends_and_returns_make_a_sequence_diagram():
    assert messages("The client calls the API with the order. The API sends the order to the queue. "
                    "The queue returns an id to the API, and the API replies to the client with the id.") == [
        ("Client", "API", "the order", "solid"),
        ("API", "Queue", "the order", "solid"),
        ("Queue", "API", "an id", "dashed"),
        ("API", "Client", "the id", "dashed"),
    ]


def test_a_reply_without_a_receiver_goes_back_to_the_caller():
    assert messages("The app asks the cache for the profile and returns it") == [
        ("App", "Cache", "the profile", "solid"), ("Cache", "App", "it", "dashed")]
    assert messages("The job requests the token from the vault. The job receives the secret from the vault.") == [
        ("Job", "Vault", "the token", "solid"), ("Vault", "Job", "the secret", "solid")]


def test_labelled_arrows_are_messages_and_dashed_arrows_replies():
    assert messages("Browser -> Gateway: POST /login\nGateway ->> Auth: check\nAuth --> Gateway: ok\n"
                    "Gateway --> Browser: 200") == [
        ("Browser", "Gateway", "POST /login", "solid"), ("Gateway", "Auth", "check", "solid"),
        ("Auth", "Gateway", "ok", "dashed"), ("Gateway", "Browser", "200", "dashed")]


def test_plain_arrows_and_chains_are_a_flowchart_left_to_right():
    diagram = generate("build -> test -> deploy\ntest → report\nA -->|yes| B")
    assert diagram.kind == "flowchart" and diagram.mermaid.startswith("flowchart LR\n")
    _, _, edges = flow("build -> test -> deploy\ntest → report\nA -->|yes| B")
    assert edges == {("Build", "Test", ""), ("Test", "Deploy", ""), ("Test", "Report", ""), ("A", "B", "yes")}


def test_steps_in_a_sequence_become_notes_and_decisions_alt_blocks():
    found = messages("The user calls the shop with the basket. The shop checks the stock. If the stock is "
                     "low then the shop notifies the warehouse, otherwise the shop sends a confirmation to "
                     "the user.")
    assert found == [
        ("User", "Shop", "the basket", "solid"),
        ("Shop", "Shop", "The shop checks the stock", "note"),
        ("", "", "the stock is low", "alt"),
        ("Shop", "Warehouse", "notifies", "solid"),
        ("", "", "otherwise", "else"),
        ("Shop", "User", "a confirmation", "solid"),
        ("", "", "", "end"),
    ]


def test_the_description_can_ask_for_a_kind():
    assert generate("Sequence diagram: Client -> API\nAPI -> DB").kind == "sequence"
    assert generate("Flowchart of the login: the browser calls the gateway with the form").kind == "flowchart"
    asked = generate("Sequence diagram of the release:\n1. freeze\n2. tag")
    assert asked.kind == "flowchart" and "no messages were found" in asked.warnings[0]


HOSTILE = [
    'Say "hi" [x] {y} (z)',
    "100% sure #1;2 <b>bold</b> & `code` | pipe \\ backslash",
    "%%{init: {'theme': 'dark'}}%% end",
    "subgraph click style classDef",
    "é ü 漢字 😀 \u200b zero-width",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_labels_parse_and_come_through(text):
    _, names, _ = flow(f"1. {text}\n2. next step")
    assert list(names.values())[0] == text[:1].upper() + text[1:]
    found = messages(f"Client -> Server: {text}\nServer --> Client: ok")
    assert found[0][2] == text


def test_hostile_participant_names():
    found = messages('"Quoted" [svc] calls {db}#1 with %%{x}%%\n{db}#1 --> "Quoted" [svc]: `ok` <i>')
    assert found == [('"Quoted" [svc]', "{db}#1", "%%{x}%%", "solid"), ("{db}#1", '"Quoted" [svc]', "`ok` <i>", "dashed")]


def test_control_characters_empty_lines_and_long_labels():
    diagram = generate("\n\n1. one\x00two\tthree\r\n\n\n2. " + "x" * 500 + "\n\n")
    parsed = check_mermaid(diagram.mermaid)
    assert parsed["nodes"][0]["label"] == "One two three"
    assert len(parsed["nodes"][1]["label"]) == MAX_LABEL and parsed["nodes"][1]["label"].endswith("…")
    assert any("shortened" in w for w in diagram.warnings)


def test_label_encodes_every_syntax_character():
    assert label('a"b#c;d%e<f>g&h`i:j|k\\l') == ("a#quot;b#35;c#59;d#37;e#lt;f#gt;g#amp;h#96;i#58;j#124;k#92;l")


def test_one_sentence_warns_and_nothing_to_draw_raises():
    diagram = generate("Login flow")
    assert "only one step" in diagram.warnings[0] and check_mermaid(diagram.mermaid)["nodes"][0]["label"] == "Login flow"
    with pytest.raises(ValueError, match="nothing to draw"):
        generate("  \n -- \n")


def test_image_text_joins_a_one_line_description_as_its_title():
    diagram = generate("Warehouse board", "Receive order\nCheck stock\n|\nShip parcel")
    assert diagram.title == "Warehouse board"
    assert [n["label"] for n in check_mermaid(diagram.mermaid)["nodes"]] == ["Receive order", "Check stock",
                                                                            "Ship parcel"]
    both = generate("1. Plan\n2. Build", "Ship")
    assert [n["label"] for n in check_mermaid(both.mermaid)["nodes"]] == ["Plan", "Build", "Ship"]


# -- OCR ----------------------------------------------------------------------------------------


def test_image_format_by_content():
    assert ocr.image_format(PNG_1PX) == "png"
    assert ocr.image_format(b"GIF89a....") == "gif"
    assert ocr.image_format(b"II*\x00rest") == "tiff"
    assert ocr.image_format(b"/etc/passwd\n") is None
    with pytest.raises(ocr.NotAnImage, match="not an image"):
        ocr.read_text(b"/etc/passwd\n", max_pixels=1)


def test_tesseract_missing_is_a_503_and_saves_nothing(db, tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(ocr.OcrUnavailable, match="apt-get install tesseract-ocr"):
        ocr.read_text(PNG_1PX, max_pixels=1)
    caller = Caller(db.user_id, db.org_id, "admin", "Ada", "ada@acme.test")
    with db.sessions() as session:
        with pytest.raises(Problem) as refused:
            service.generate(session, caller, FileStore(tmp_path), "boxes", ("a.png", PNG_1PX), 1)
        assert refused.value.status == 503 and "tesseract" in refused.value.detail
        assert session.scalars(select(Item).where(Item.tool == "diagrams")).all() == []


def test_service_refusals_and_the_saved_item(db, tmp_path):
    caller = Caller(db.user_id, db.org_id, "admin", "Ada", "ada@acme.test")
    store = FileStore(tmp_path)
    with db.sessions() as session:
        for description, image, field in (("", None, "description"), ("x" * 20_001, None, "description"),
                                          ("ok", ("a.png", b""), "image_file")):
            with pytest.raises(Problem) as refused:
                service.generate(session, caller, store, description, image, 1)
            assert refused.value.status == 422 and refused.value.detail.startswith(f"{field}: ")
        answer = service.generate(session, caller, store, "A calls B with x", None, 1)
        assert set(answer) >= {"item_id", "kind", "mermaid", "title", "warnings"}
        item = session.get(Item, answer["item_id"])
        assert item.tool == "diagrams" and item.title == "A calls B with x"
        assert item.data["kind"] == "sequence" and item.data["mermaid"] == answer["mermaid"]
        assert item.data["description"] == "A calls B with x" and item.data["ocr_text"] is None


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract-ocr is needed (run scripts/setup-ci-tools)")
def test_a_broken_image_is_refused_by_name(db, tmp_path):
    with pytest.raises(ocr.NotAnImage, match="the png image could not be read"):
        ocr.read_text(b"\x89PNG\r\n\x1a\n" + b"\x00" * 40, max_pixels=1)


def _png_header(width: int, height: int) -> bytes:
    """A PNG's signature and IHDR (8-bit greyscale): all the size check reads."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + ihdr + struct.pack(">I", zlib.crc32(b"IHDR" + ihdr))


@pytest.mark.parametrize("fmt, mode, options", [("PNG", "L", {}), ("JPEG", "RGB", {"progressive": True}),
                                               ("WEBP", "RGB", {}), ("WEBP", "RGBA", {"lossless": True}),
                                               ("WEBP", "RGBA", {"exif": b"Exif\0\0x"}), ("GIF", "P", {}),
                                               ("BMP", "RGB", {}), ("TIFF", "RGB", {})])
def test_image_sizes_are_read_from_the_headers(fmt, mode, options):
    image_module = pytest.importorskip("PIL.Image", reason="Pillow comes with the dev extras")
    for size in ((1, 1), (1234, 567)):
        out = io.BytesIO()
        image_module.new(mode, size).save(out, fmt, **options)
        assert image_size(out.getvalue()) == size
    assert image_size(_png_header(20000, 20000)) == (20000, 20000)
    assert image_size(b"\x89PNG\r\n\x1a\n") is None and image_size(b"GIF89a") is None and image_size(b"x") is None


def test_an_image_beyond_the_pixel_limit_never_reaches_tesseract(monkeypatch):
    ran = []
    monkeypatch.setattr(ocr.subprocess, "run", lambda *a, **k: ran.append(a))
    with pytest.raises(ocr.ImageTooLarge, match=r"20000x20000 pixels \(400\.0 megapixels\).* at most 40 megapixels"):
        ocr.read_text(_png_header(20000, 20000), max_pixels=40_000_000)
    with pytest.raises(ocr.NotAnImage, match="headers do not give its width and height"):
        ocr.read_text(b"\x89PNG\r\n\x1a\n" + b"\0" * 30, max_pixels=40_000_000)
    assert ran == []


def test_at_most_one_tesseract_per_cpu_runs_at_once(monkeypatch):
    running, most, lock = 0, 0, threading.Lock()

    def tesseract(*args, **kwargs):
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
        time.sleep(0.2)
        with lock:
            running -= 1
        return subprocess.CompletedProcess(args, 0, b"text\n", b"")

    monkeypatch.setattr(ocr.shutil, "which", lambda name: "/usr/bin/tesseract")
    monkeypatch.setattr(ocr.subprocess, "run", tesseract)
    threads = [threading.Thread(target=ocr.read_text, args=(PNG_1PX,), kwargs={"max_pixels": 1})
               for _ in range((os.cpu_count() or 1) * 3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert most == (os.cpu_count() or 1)


def test_the_service_refuses_an_image_beyond_its_setting(db, tmp_path):
    caller = Caller(db.user_id, db.org_id, "admin", "Ada", "ada@acme.test")
    with db.sessions() as session:
        with pytest.raises(Problem) as refused:
            service.generate(session, caller, FileStore(tmp_path), "boxes", ("a.png", _png_header(8000, 6000)),
                             ServerSettings().max_image_pixels)
        assert refused.value.status == 422
        assert refused.value.detail.startswith("image_file: the image is 8000x6000 pixels (48.0 megapixels)")
        assert session.scalars(select(Item).where(Item.tool == "diagrams")).all() == []
