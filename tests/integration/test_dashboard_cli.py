"""``docsvc dashboard`` and ``docsvc mywork`` through the real CLI against the real local service:
numbers checked against items made in the test, in text and JSON; a release's timeline with a
date change made by ``docsvc-server releases set-target``."""

from __future__ import annotations

import json
from dataclasses import dataclass

import httpx
import pytest

from tests.support import LocalService, run_cli


@dataclass
class Org:
    svc: LocalService
    ada_key: str  # System Administrator
    wes_key: str
    wes_id: int
    rita_key: str
    rita_id: int
    next_id: int  # release 3.0: its target moved once
    old_id: int  # release 2.9: past its target, not released
    items: dict[str, int]

    def cli(self, *args: str, key: str | None = None):
        return run_cli(*args, key=key or self.wes_key, base_url=self.svc.base_url)

    def json(self, *args: str, key: str | None = None):
        done = self.cli(*args, "--json", key=key)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)


@pytest.fixture(scope="module")
def org(service: LocalService) -> Org:
    a = service.admin
    ada_key = a("init", "--org", "Dash", "--admin-email", "ada@dash.test", "--admin-name", "Ada Admin")
    wes_id = int(a("users", "add", "--org", "Dash", "--email", "wes@dash.test", "--role", "writer", "--name", "Wes"))
    wes_key = a("keys", "create", "--email", "wes@dash.test")
    rita_id = int(a("users", "add", "--org", "Dash", "--email", "rita@dash.test", "--role", "writer",
                    "--name", "Rita"))
    rita_key = a("keys", "create", "--email", "rita@dash.test")
    next_id = int(a("releases", "add", "--org", "Dash", "--name", "3.0", "--target", "2099-03-01"))
    assert int(a("releases", "set-target", "--org", "Dash", "--release", "3.0", "--date", "2099-04-01",
                 "--reason", "QA slipped", "--by", "ada@dash.test", "--status", "in_progress")) == next_id
    old_id = int(a("releases", "add", "--org", "Dash", "--name", "2.9", "--target", "2020-01-01"))
    titles = {"A": "diagrams", "B": "diagrams", "C": "diagrams", "D": "captures", "E": "conversions"}
    items = {name: int(a("items", "add", tool, "--org", "Dash", "--title", f"Item {name}"))
             for name, tool in titles.items()}
    items["wes-chat"] = int(a("items", "add", "chats", "--org", "Dash", "--title", "Wes asks",
                              "--created-by", "wes@dash.test"))
    items["rita-chat"] = int(a("items", "add", "chats", "--org", "Dash", "--title", "Rita asks",
                               "--created-by", "rita@dash.test"))
    world = Org(service, ada_key, wes_key, wes_id, rita_key, rita_id, next_id, old_id, items)
    # A done, B blocked (Wes's, in 3.0); C in progress (Rita's, in 3.0); D Wes's, no release; E no one's.
    for name, status, key in (("A", "done", wes_key), ("B", "blocked", wes_key), ("C", "in_progress", rita_key)):
        tagged = world.cli("items", "tag", "diagrams", str(items[name]), "--release", str(next_id))
        assert tagged.returncode == 0, tagged.stderr
        note = ("--note", "waiting for the API") if status == "blocked" else ()
        moved = world.cli("items", "status", "diagrams", str(items[name]), status, "--claim", *note, key=key)
        assert moved.returncode == 0, moved.stderr
    assert world.cli("items", "tag", "captures", str(items["D"]), "--writer", "me").returncode == 0
    return world


def test_json_counts_writers_releases_and_attention(org: Org):
    board = org.json("dashboard")
    assert board["release"] is None
    # A-E and Wes's own chat; Rita's chat is hers alone.
    assert board["counts"]["total"] == 6
    assert {k: v for k, v in board["counts"]["by_tool"].items() if v} == {
        "diagrams": 3, "captures": 1, "conversions": 1, "chats": 1}
    assert board["counts"]["by_status"]["blocked"] == 1 and board["counts"]["by_status"]["done"] == 1
    writers = {w["name"]: (w["open"], w["done"], w["total"]) for w in board["writers"]}
    assert writers == {"Wes": (2, 1, 3), "Rita": (1, 0, 1), "Unassigned": (2, 0, 2)}
    releases = {r["name"]: r for r in board["releases"]}
    assert releases["3.0"]["progress"] == {"done": 1, "total": 3, "percent": 33}
    assert releases["3.0"]["status"] == "in_progress" and not releases["3.0"]["past_target"]
    assert releases["2.9"]["past_target"] and releases["2.9"]["progress"]["total"] == 0
    attention = board["attention"]
    assert [(i["id"], i["note"]) for i in attention["blocked"]] == [(org.items["B"], "waiting for the API")]
    assert [r["name"] for r in attention["releases_past_target"]] == ["2.9"]
    assert org.json("dashboard", key=org.rita_key)["counts"]["by_tool"]["chats"] == 1  # hers, not Wes's


def test_text_shows_each_section_with_the_same_numbers(org: Org):
    done = org.cli("dashboard")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    for heading in ("Item counts: 6", "Releases:", "Work per writer:", "Needs attention:"):
        assert heading in out
    lines = [line.split() for line in out.splitlines()]
    assert ["diagrams", "3"] in lines and ["Wes", "2", "1", "3"] in lines and ["Unassigned", "2", "0", "2"] in lines
    assert any(line[:2] == [str(org.next_id), "3.0"] and "1/3" in line and "(33%)" in line for line in lines)
    assert f"diagrams {org.items['B']} Item B (Wes): waiting for the API — blocked" in out
    assert "release 2.9 (ID %d) —" % org.old_id in out and "past its target 2020-01-01, still planned" in out
    assert "Release timeline" not in out


def test_release_timeline_with_its_date_change(org: Org):
    board = org.json("dashboard", "--release", str(org.next_id))
    timeline = board["release"]
    assert (timeline["name"], timeline["status"]) == ("3.0", "in_progress")
    assert (timeline["first_planned_date"], timeline["target_date"]) == ("2099-03-01", "2099-04-01")
    assert [(c["old_date"], c["new_date"], c["changed_by"], c["reason"]) for c in timeline["date_changes"]] == [
        (None, "2099-03-01", None, None), ("2099-03-01", "2099-04-01", "Ada Admin", "QA slipped")]
    assert timeline["progress"]["percent"] == 33
    assert board["counts"]["total"] == 3 and board["releases"] == []
    text = org.cli("dashboard", "--release", str(org.next_id))
    assert text.returncode == 0, text.stderr
    assert "Release timeline: 3.0" in text.stdout and "first planned 2099-03-01" in text.stdout
    assert any(line.split()[1:] == ["2099-03-01", "->", "2099-04-01", "by", "Ada", "Admin", "QA", "slipped"]
               for line in text.stdout.splitlines() if "->" in line)
    assert "Releases:" not in text.stdout


def test_mine_tool_and_release_none_filter(org: Org):
    mine = org.json("dashboard", "--mine")
    assert mine["counts"]["total"] == 3  # A, B, D
    assert [(w["name"], w["open"], w["done"], w["total"]) for w in mine["writers"]] == [("Wes", 2, 1, 3)]
    assert mine["filters"]["writer_id"] == org.wes_id
    assert org.json("dashboard", "--writer", str(org.rita_id))["counts"]["total"] == 1
    assert org.json("dashboard", "--tool", "captures")["counts"]["by_tool"] == {"captures": 1}
    untagged = org.json("dashboard", "--release", "none")
    assert untagged["counts"]["total"] == 3  # D, E and Wes's chat
    assert org.json("dashboard", "--writer", "none")["writers"] == [
        {"writer_id": None, "name": "Unassigned", "open": 2, "done": 0, "total": 2}]


def test_bad_values_and_unknown_ids(org: Org):
    both = org.cli("dashboard", "--mine", "--writer", str(org.rita_id))
    assert both.returncode == 2 and "--mine or --writer" in both.stderr
    unknown = org.cli("dashboard", "--release", "99999")
    assert unknown.returncode == 1 and unknown.stderr.strip() == "Error: Release 99999 not found"
    assert org.cli("dashboard", "--writer", "someone").returncode == 2
    headers = {"Authorization": f"Bearer {org.wes_key}"}
    answer = httpx.get(f"{org.svc.base_url}/api/v1/dashboard", params={"writer_id": "everyone"}, headers=headers)
    assert answer.status_code == 422 and answer.headers["content-type"] == "application/problem+json"
    assert "writer_id" in answer.json()["detail"]


def test_mywork_after_claiming_and_blocking(service: LocalService):
    key = service.admin("init", "--org", "Busy", "--admin-email", "ada@busy.test")
    ids = [service.admin("items", "add", "diagrams", "--org", "Busy", "--title", f"D{n}") for n in range(3)]
    suggestion = service.admin("items", "add", "docflows", "--org", "Busy", "--title", "Docs for PR 7")

    def cli(*args):
        done = run_cli(*args, key=key, base_url=service.base_url)
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    assert cli("mywork") == "0 open · 0 blocked · 1 Docflows to review"  # no one's suggestion yet
    cli("items", "status", "diagrams", ids[0], "in_progress", "--claim")
    cli("items", "status", "diagrams", ids[1], "blocked", "--claim", "--note", "needs a screenshot")
    cli("items", "status", "diagrams", ids[2], "done", "--claim")
    assert cli("mywork") == "2 open · 1 blocked · 1 Docflows to review"
    cli("items", "status", "docflows", suggestion, "done", "--claim")
    summary = json.loads(cli("mywork", "--json"))
    assert summary == {"open": 2, "blocked": 1, "docflows": 0, "changes_requested": 0}
