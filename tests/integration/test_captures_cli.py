"""Captures through the real CLI and the real local service: steps walked in Debian's Chromium over
a page served on loopback, screenshots and target sizes saved, zoom settings listed, changed per
step and by mode, refusals by name, a failing step that saves nothing, and deletion removing the
files."""

from __future__ import annotations

import json

import pytest
import sqlalchemy

from tests.support import require_chromium, run_cli, serve_html

PAGES = {
    "/": """<!doctype html><html><body style="margin:0;font:16px sans-serif">
<button id="small" style="width:30px;height:20px;padding:0;border:0" onclick="document.title='menu'">+</button>
<p><label>Name <input id="name" style="width:240px;height:32px"></label></p>
<button id="big" style="width:200px;height:60px;border:0" onclick="this.textContent='Saved '+
  document.getElementById('name').value">Save</button>
<p><a href="/next">Next</a></p></body></html>""",
    "/next": "<!doctype html><html><body><h1 id='done'>Second page</h1></body></html>",
}
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def site():
    with serve_html(PAGES.get) as address:
        yield address


@pytest.fixture(scope="module")
def world(service, site):
    require_chromium()
    key = service.admin("init", "--org", "Shots Inc", "--admin-email", "ada@shots.test")
    other_key = service.admin("init", "--org", "Elsewhere", "--admin-email", "eve@elsewhere.test")
    cli = lambda *a, key=key: run_cli(*a, key=key, base_url=service.base_url, timeout=180)  # noqa: E731
    made = cli("capture", "create", "--url", site + "/", "--title", "Save a name",
               "--step", "click:#small:Open the small menu",
               "--step", "type:#name:Ada\\: Lovelace:Enter the name",
               "--step", "click:#big:Press the big Save button",
               "--step", "navigate:/next:Go to the next page", "--json")
    assert made.returncode == 0, made.stderr
    result = json.loads(made.stdout)
    return {"cli": cli, "svc": service, "site": site, "other_key": other_key, "result": result,
            "id": str(result["item_id"])}


def as_json(done):
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_steps_walked_with_screenshots_and_target_sizes(world):
    steps = world["result"]["steps"]
    assert [s["id"] for s in steps] == ["s1", "s2", "s3", "s4"]
    assert [s["action"] for s in steps] == ["click", "type", "click", "navigate"]
    assert steps[0]["target"] == {"width": 30, "height": 20}
    assert steps[2]["target"] == {"width": 200, "height": 60}
    assert "target" not in steps[1] and "target" not in steps[3]
    assert steps[3]["page_url"] == world["site"] + "/next"
    assert all(s["zoom"] == "default" for s in steps)
    data_dir = world["svc"].data_dir
    shown = as_json(world["cli"]("capture", "show", world["id"], "--json"))
    assert shown["title"] == "Save a name" and shown["mode"] == "auto"
    files = [data_dir / s["screenshot"]["path"] for s in shown["steps"]]
    assert len(files) == 4 and len({f.name for f in files}) == 4
    for f in files:
        assert f.is_file() and f.read_bytes()[:8] == PNG_MAGIC
    assert {f["kind"] for f in shown["files"]} == {"screenshot"}
    # The typed text is never shown back (it may be a password), only its length.
    assert "Lovelace" not in json.dumps(shown) and shown["steps"][1]["text_length"] == len("Ada: Lovelace")
    engine = sqlalchemy.create_engine(world["svc"].db_url)
    try:
        with engine.connect() as conn:
            params = conn.execute(sqlalchemy.text("SELECT params FROM jobs WHERE kind = 'capture'")).scalars().all()
    finally:
        engine.dispose()
    assert params and not any("Lovelace" in str(p) for p in params)  # not even in the job row
    text = world["cli"]("capture", "show", world["id"])
    assert text.returncode == 0, text.stderr
    assert "30×20 px" in text.stdout and "200×60 px" in text.stdout and "Go to the next page" in text.stdout


def test_zoom_listing_changes_and_refusals(world):
    cli, ident = world["cli"], world["id"]
    listed = cli("capture", "zoom", ident)
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    assert lines[0].startswith(f"Capture {ident} zoom mode: auto")
    rows = {line.split()[0]: line.split() for line in lines[2:]}
    assert rows["s1"][1:3] == ["default", "on"] and "Open the small menu" in " ".join(rows["s1"])
    assert rows["s3"][1:3] == ["default", "off"]  # 200×60 is not small
    assert rows["s2"][1:3] == ["default", "off"]  # not a click

    changed = as_json(cli("capture", "zoom", ident, "--step", "s3=on", "--step", "s1=default", "--json"))
    assert changed["steps"] == {"s1": "default", "s2": "default", "s3": "on", "s4": "default"}
    effective = {s["id"]: s["effective_zoom"] for s in changed["step_list"]}
    assert effective == {"s1": True, "s2": False, "s3": True, "s4": False}

    off = as_json(cli("capture", "zoom", ident, "--mode", "off", "--json"))
    assert off["mode"] == "off"
    assert {s["id"]: s["effective_zoom"] for s in off["step_list"]}["s1"] is False
    assert {s["id"]: s["effective_zoom"] for s in off["step_list"]}["s3"] is True  # the step's own "on" wins
    always = as_json(cli("capture", "zoom", ident, "--mode", "always", "--step", "s3=off", "--json"))
    assert [s["effective_zoom"] for s in always["step_list"]] == [True, False, False, False]

    unknown = cli("capture", "zoom", ident, "--step", "s9=on")
    assert unknown.returncode == 2 and "unknown step s9" in unknown.stderr
    assert unknown.stderr.count("\n") == 1 and "Traceback" not in unknown.stderr
    malformed = cli("capture", "zoom", ident, "--step", "s1=maybe")
    assert malformed.returncode == 2 and "'s1=maybe'" in malformed.stderr
    not_click = cli("capture", "zoom", ident, "--step", "s2=on")
    assert not_click.returncode == 2 and "s2 is a type step" in not_click.stderr
    # Nothing of the refused changes was applied.
    assert as_json(cli("capture", "zoom", ident, "--json"))["steps"]["s3"] == "off"

    hidden = cli("capture", "zoom", ident, key=world["other_key"])
    assert hidden.returncode == 1 and f"Capture {ident} not found" in hidden.stderr


def test_a_failing_step_is_named_and_saves_nothing(world):
    cli, site = world["cli"], world["site"]
    before = len(as_json(cli("items", "list", "captures", "--json")))
    failed = cli("capture", "create", "--url", site + "/", "--step-timeout", "1",
                 "--step", "click:#small:Open the menu", "--step", "click:#missing:Press a button that is not there")
    assert failed.returncode == 1
    assert "step s2" in failed.stderr and "#missing" in failed.stderr and "within 1 s" in failed.stderr
    assert len(as_json(cli("items", "list", "captures", "--json"))) == before
    assert not any((world["svc"].data_dir / "tmp").glob("*/*.png"))


def test_bad_requests_are_refused_naming_the_field(world, tmp_path):
    cli = world["cli"]
    bad_url = cli("capture", "create", "--url", "file:///etc/passwd", "--step", "click:#a:A")
    assert bad_url.returncode == 2 and "start_url" in bad_url.stderr
    bad_step = cli("capture", "create", "--url", world["site"], "--step", "hover:#a:A")
    assert bad_step.returncode == 2 and "'hover:#a:A'" in bad_step.stderr
    steps = tmp_path / "steps.yaml"
    steps.write_text("- {action: click, selector: '#a'}\n")
    no_description = cli("capture", "create", "--url", world["site"], "--steps", str(steps))
    assert no_description.returncode == 2 and "steps[0].description" in no_description.stderr


def test_steps_file_then_delete_removes_the_files(world, tmp_path):
    cli, data_dir = world["cli"], world["svc"].data_dir
    steps = tmp_path / "steps.json"
    steps.write_text(json.dumps({"start_url": world["site"] + "/", "title": "From a file",
                                 "steps": [{"action": "click", "selector": "#big", "description": "Save"},
                                           {"action": "click", "selector": "a[href='/next']",
                                            "description": "Follow the Next link"}]}))
    made = as_json(cli("capture", "create", "--steps", str(steps), "--json"))
    ident = str(made["item_id"])
    assert made["title"] == "From a file"
    assert made["steps"][1]["page_url"] == world["site"] + "/next"  # the click's new page was shot
    paths = [data_dir / s["screenshot"] for s in made["steps"]]
    assert paths and all(p.is_file() for p in paths)
    deleted = cli("items", "delete", "captures", ident, "--yes")
    assert deleted.returncode == 0, deleted.stderr
    assert not any(p.exists() for p in paths)
    assert not (data_dir / "items" / ident).exists()
    gone = cli("capture", "show", ident)
    assert gone.returncode == 1 and "not found" in gone.stderr
