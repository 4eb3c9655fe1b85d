"""The real ``docsvc`` CLI against the real local service: every items command and its rules."""

from __future__ import annotations

import json
from dataclasses import dataclass

import httpx
import pytest

from tests.support import LocalService, run_cli


@dataclass
class World:
    svc: LocalService
    admin_key: str  # Ada, System Administrator of Acme
    writer_key: str  # Wes, Writer of Acme
    writer_id: int
    rita_key: str  # Rita, another Writer of Acme
    rita_id: int
    release_id: int
    beta_key: str  # Bob, admin of Beta (another organisation)
    beta_user_id: int
    beta_release_id: int
    beta_item_id: int

    def cli(self, *args: str, key: str | None = None, **kw):
        return run_cli(*args, key=key or self.writer_key, base_url=self.svc.base_url, **kw)

    def add_item(self, tool: str, title: str, org: str = "Acme", *extra: str) -> int:
        return int(self.svc.admin("items", "add", tool, "--org", org, "--title", title, *extra))


@pytest.fixture(scope="module")
def world(service: LocalService) -> World:
    a = service.admin
    admin_key = a("init", "--org", "Acme", "--admin-email", "ada@acme.test", "--admin-name", "Ada Admin")
    writer_id = int(a("users", "add", "--org", "Acme", "--email", "wes@acme.test", "--role", "writer",
                      "--name", "Wes Writer"))
    writer_key = a("keys", "create", "--email", "wes@acme.test")
    rita_id = int(a("users", "add", "--org", "Acme", "--email", "rita@acme.test", "--role", "writer",
                    "--name", "Rita Reviewer"))
    rita_key = a("keys", "create", "--email", "rita@acme.test", "--name", "ci")
    release_id = int(a("releases", "add", "--org", "Acme", "--name", "2.4", "--target", "2026-12-15"))
    beta_key = a("init", "--org", "Beta", "--admin-email", "bob@beta.test")
    beta_user_id = int(a("users", "add", "--org", "Beta", "--email", "bea@beta.test", "--role", "writer"))
    beta_release_id = int(a("releases", "add", "--org", "Beta", "--name", "9.9"))
    beta_item_id = int(a("items", "add", "captures", "--org", "Beta", "--title", "Beta's secret capture"))
    return World(service, admin_key, writer_key, writer_id, rita_key, rita_id, release_id, beta_key,
                 beta_user_id, beta_release_id, beta_item_id)


def lines(result) -> list[str]:
    return [line for line in result.stdout.splitlines() if line.strip()]


def as_json(result):
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_list_is_newest_first_with_tags_and_status(world: World):
    first = world.add_item("diagrams", "Auth flow")
    second = world.add_item("diagrams", "Billing flow")
    assert world.cli("items", "tag", "diagrams", str(second), "--release", str(world.release_id),
                     "--writer", str(world.rita_id)).returncode == 0
    result = world.cli("items", "list", "diagrams")
    assert result.returncode == 0, result.stderr
    out = lines(result)
    assert out[0].split()[0] == str(second) and out[1].split()[0] == str(first)
    assert "Billing flow" in out[0] and "release:2.4" in out[0] and "writer:Rita Reviewer" in out[0]
    assert out[0].rstrip().endswith("todo")
    assert "release:" not in out[1] and "writer:" not in out[1]


def test_list_filters_by_release_writer_and_status(world: World):
    tagged = world.add_item("conversions", "Tagged")
    untagged = world.add_item("conversions", "Untagged")
    world.cli("items", "tag", "conversions", str(tagged), "--release", str(world.release_id), "--writer", "me")
    world.cli("items", "status", "conversions", str(tagged), "in_review")

    ids = lambda *args: [i["id"] for i in as_json(world.cli("items", "list", "conversions", "--json", *args))]
    assert ids("--release", str(world.release_id)) == [tagged]
    assert untagged in ids("--release", "none") and tagged not in ids("--release", "none")
    assert ids("--writer", str(world.writer_id)) == [tagged]
    assert ids("--writer", "me") == [tagged]
    assert untagged in ids("--writer", "none") and tagged not in ids("--writer", "none")
    assert ids("--status", "in_review") == [tagged]
    assert ids("--status", "done") == []


def test_status_by_a_writer_who_is_not_the_items_writer_is_refused_then_claim_works(world: World):
    item = world.add_item("captures", "Settings page")
    world.cli("items", "tag", "captures", str(item), "--writer", str(world.rita_id))

    refused = world.cli("items", "status", "captures", str(item), "done")
    assert refused.returncode == 4
    assert refused.stderr.startswith("Error: Only the item's writer (Rita Reviewer) or a System Administrator")
    assert "Traceback" not in refused.stderr
    unchanged = as_json(world.cli("items", "list", "captures", "--json"))
    assert next(i for i in unchanged if i["id"] == item)["work_status"] == "todo"

    claimed = world.cli("items", "status", "captures", str(item), "done", "--claim", "--note", "shot again", "--json")
    body = as_json(claimed)
    assert body["writer_user_id"] == world.writer_id and body["writer_name"] == "Wes Writer"
    assert body["work_status"] == "done" and body["status_note"] == "shot again"
    shown = lines(world.cli("items", "list", "captures", "--writer", "me"))
    assert any(line.split()[0] == str(item) and "writer:Wes Writer" in line and "done" in line for line in shown)


def test_admin_changes_any_status_and_writer_changes_own(world: World):
    item = world.add_item("api-scans", "Payments scan")
    assert world.cli("items", "status", "api-scans", str(item), "blocked", key=world.admin_key).returncode == 0
    world.cli("items", "tag", "api-scans", str(item), "--writer", "me")
    done = world.cli("items", "status", "api-scans", str(item), "in_progress", "--json")
    assert as_json(done)["work_status"] == "in_progress"


def test_writer_tag_must_be_a_member_of_the_organisation(world: World):
    item = world.add_item("feature-drafts", "SAML draft")
    refused = world.cli("items", "tag", "feature-drafts", str(item), "--writer", str(world.beta_user_id))
    assert refused.returncode == 1
    assert f"user {world.beta_user_id} is not a member of your organisation" in refused.stderr
    refused = world.cli("items", "tag", "feature-drafts", str(item), "--release", str(world.beta_release_id))
    assert refused.returncode == 1 and "does not exist in your organisation" in refused.stderr
    cleared = as_json(world.cli("items", "tag", "feature-drafts", str(item), "--writer", "none", "--json"))
    assert cleared["writer_user_id"] is None


def test_tag_needs_an_option_and_valid_values(world: World):
    assert world.cli("items", "tag", "diagrams", "1").returncode == 2
    bad = world.cli("items", "tag", "diagrams", "1", "--release", "latest")
    assert bad.returncode == 2 and "expected an ID or 'none'" in bad.stderr
    assert world.cli("items", "list", "widgets").returncode == 2


def test_chats_are_private_and_cannot_be_rejected(world: World):
    mine = world.add_item("chats", "Wes asks", "Acme", "--created-by", "wes@acme.test")
    theirs = world.add_item("chats", "Rita asks", "Acme", "--created-by", "rita@acme.test")
    ids = [i["id"] for i in as_json(world.cli("items", "list", "chats", "--json"))]
    assert mine in ids and theirs not in ids
    assert world.cli("items", "rename", "chats", str(theirs), "Peek").returncode == 1  # 404: not visible
    refused = world.cli("items", "status", "chats", str(mine), "rejected")
    assert refused.returncode == 2 and "'rejected' does not apply to chats" in refused.stderr
    # The rule holds in the API too, not only in the CLI.
    answer = httpx.patch(f"{world.svc.base_url}/api/v1/items/chats/{mine}", json={"work_status": "rejected"},
                         headers={"Authorization": f"Bearer {world.writer_key}"})
    assert answer.status_code == 422 and answer.headers["content-type"].startswith("application/problem+json")
    assert "does not apply to chats" in answer.json()["detail"]
    # Not even a System Administrator sees another person's chat.
    hidden = httpx.patch(f"{world.svc.base_url}/api/v1/items/chats/{mine}", json={"title": "x"},
                         headers={"Authorization": f"Bearer {world.admin_key}"})
    assert hidden.status_code == 404


def test_other_organisations_items_are_not_found_and_never_listed(world: World):
    other = str(world.beta_item_id)
    for args in (("items", "rename", "captures", other, "Mine now"),
                 ("items", "tag", "captures", other, "--writer", "me"),
                 ("items", "status", "captures", other, "done", "--claim"),
                 ("items", "delete", "captures", other, "--yes")):
        result = world.cli(*args, key=world.admin_key)
        assert result.returncode == 1, args
        assert result.stderr.strip() == f"Error: Capture {other} not found"
    answer = httpx.get(f"{world.svc.base_url}/api/v1/items/captures",
                       headers={"Authorization": f"Bearer {world.admin_key}"})
    assert world.beta_item_id not in [i["id"] for i in answer.json()]
    beta_view = as_json(world.cli("items", "list", "captures", "--json", key=world.beta_key))
    assert [i["title"] for i in beta_view] == ["Beta's secret capture"]


def test_rename(world: World):
    item = world.add_item("release-notes", "Notes 2.4")
    assert world.cli("items", "rename", "release-notes", str(item), "Notes for 2.4").returncode == 0
    titles = {i["id"]: i["title"] for i in as_json(world.cli("items", "list", "release-notes", "--json"))}
    assert titles[item] == "Notes for 2.4"
    assert world.cli("items", "rename", "release-notes", str(item), "  ").returncode == 2


def test_delete_capture_removes_its_files_and_needs_confirmation(world: World, tmp_path):
    shot = tmp_path / "step.png"
    shot.write_bytes(b"\x89PNG\r\n\x1a\n" + b"0" * 64)
    audio = tmp_path / "voice.wav"
    audio.write_bytes(b"RIFF" + b"0" * 64)
    item = world.add_item("captures", "Capture with files", "Acme", "--attach", f"screenshot={shot}",
                          "--attach", f"audio={audio}")
    folder = world.svc.data_dir / "items" / str(item)
    assert len(list(folder.iterdir())) == 2

    refused = world.cli("items", "delete", "captures", str(item))  # stdin is not a terminal
    assert refused.returncode == 2 and "pass --yes" in refused.stderr
    assert folder.exists()

    deleted = world.cli("items", "delete", "captures", str(item), "--yes")
    assert deleted.returncode == 0 and f"Deleted captures item {item}" in deleted.stderr
    assert not folder.exists()
    assert item not in [i["id"] for i in as_json(world.cli("items", "list", "captures", "--json"))]
    assert world.cli("items", "delete", "captures", str(item), "--yes").returncode == 1


def test_deleting_a_docflows_suggestion_dismisses_it(world: World):
    item = world.add_item("docflows", "PR #7: add --force")
    result = world.cli("items", "delete", "docflows", str(item), "--yes", "--json")
    body = as_json(result)
    assert body["dismissed"] is True and body["deleted"] is False
    assert "dismissed, not deleted" in body["detail"]
    listed = {i["id"]: i for i in as_json(world.cli("items", "list", "docflows", "--json"))}
    assert listed[item]["work_status"] == "rejected"
    # One dismissed as Done keeps its status (and its release notes): deleting it again is refused.
    done = world.add_item("docflows", "PR #8: already in the docs")
    assert world.cli("items", "dismiss", "docflows", str(done), "--done", "--yes").returncode == 0
    again = world.cli("items", "delete", "docflows", str(done), "--yes")
    assert again.returncode != 0 and f"Docflows suggestion {done} is already dismissed (done)" in again.stderr
    listed = {i["id"]: i for i in as_json(world.cli("items", "list", "docflows", "--json"))}
    assert listed[done]["work_status"] == "done"


def test_mywork_prints_one_exact_line(world: World):
    world.svc.admin("users", "add", "--org", "Acme", "--email", "mia@acme.test", "--role", "writer")
    mia = world.svc.admin("keys", "create", "--email", "mia@acme.test")
    assert world.cli("mywork", key=mia).stdout == "0 open · 0 blocked · " + \
        f"{as_json(world.cli('mywork', '--json', key=mia))['docflows']} Docflows to review\n"
    for title, status in (("one", "todo"), ("two", "blocked"), ("three", "done")):
        item = world.add_item("diagrams", f"Mia {title}")
        assert world.cli("items", "status", "diagrams", str(item), status, "--claim", key=mia).returncode == 0
    world.add_item("docflows", "Unassigned suggestion")
    result = world.cli("mywork", key=mia)
    assert result.returncode == 0, result.stderr
    opened = as_json(world.cli("mywork", "--json", key=mia))
    assert opened["open"] == 2 and opened["blocked"] == 1
    assert result.stdout == f"2 open · 1 blocked · {opened['docflows']} Docflows to review\n"
    assert opened["docflows"] >= 1


def test_releases_and_admin_lists(world: World):
    releases = lines(world.cli("releases", "list"))
    assert any(line.startswith(f"{world.release_id}  2.4") and "target 2026-12-15" in line for line in releases)
    assert [r["name"] for r in as_json(world.cli("releases", "list", "--json"))] == ["2.4"]

    refused = world.cli("admin", "users", "list")
    assert refused.returncode == 4 and "System Administrators only" in refused.stderr
    users = as_json(world.cli("admin", "users", "list", "--json", key=world.admin_key))
    emails = {u["email"] for u in users}
    assert {"ada@acme.test", "wes@acme.test", "rita@acme.test"} <= emails
    assert not any(email.endswith("@beta.test") for email in emails)
    table = lines(world.cli("admin", "users", "list", key=world.admin_key))
    assert any("Wes Writer" in line and "<wes@acme.test>" in line and "Writer" in line for line in table)

    assert world.cli("admin", "integrations", "list").returncode == 4
    world.svc.admin("integrations", "add", "--org", "Acme", "--name", "app", "--code-repo",
                    "https://github.com/acme/app.git", "--docs-repo", "git@gitlab.com:acme/docs.git",
                    "--keep-in-sync")
    integrations = as_json(world.cli("admin", "integrations", "list", "--json", key=world.admin_key))
    assert [(i["name"], i["code_host"], i["host"], i["keep_in_sync"]) for i in integrations] == [
        ("app", "GitHub", "gitlab", True)]  # pull requests go where the docs live
    assert "pull requests: gitlab" in world.cli("admin", "integrations", "list", key=world.admin_key).stdout
    assert as_json(world.cli("admin", "integrations", "list", "--json", key=world.beta_key)) == []


def test_api_errors_are_problem_json(world: World):
    base = f"{world.svc.base_url}/api/v1"
    auth = {"Authorization": f"Bearer {world.writer_key}"}
    unknown = httpx.patch(f"{base}/items/diagrams/1", json={"colour": "red"}, headers=auth)
    assert unknown.status_code == 422 and unknown.json()["errors"][0]["loc"][-1] == "colour"
    malformed = httpx.patch(f"{base}/items/diagrams/1", content=b"{not json", headers={
        **auth, "Content-Type": "application/json"})
    assert malformed.status_code == 400
    assert httpx.get(f"{base}/items/diagrams").status_code == 401
    wrong = httpx.get(f"{base}/items/diagrams", headers={"Authorization": "Bearer dsv_nope"})
    assert wrong.status_code == 401 and wrong.json()["detail"] == "Unknown or revoked API key"
    no_tool = httpx.get(f"{base}/items/widgets", headers=auth)
    assert no_tool.status_code == 404 and no_tool.headers["content-type"] == "application/problem+json"
    assert no_tool.json()["detail"].startswith("Unknown tool 'widgets'; tools are: feature-drafts, ")


def test_lists_page_with_link_headers(world: World):
    for n in range(3):
        world.add_item("diagrams", f"Paged {n}")
    auth = {"Authorization": f"Bearer {world.writer_key}"}
    first = httpx.get(f"{world.svc.base_url}/api/v1/items/diagrams", params={"limit": 2}, headers=auth)
    assert len(first.json()) == 2 and 'rel="next"' in first.headers["link"]
    every = as_json(world.cli("items", "list", "diagrams", "--json"))
    assert len(every) == int(first.headers["x-total-count"])  # the client followed every page


def test_revoked_key_is_refused(world: World):
    key = world.svc.admin("keys", "create", "--email", "wes@acme.test", "--name", "short-lived")
    assert world.cli("mywork", key=key).returncode == 0
    key_id = next(line.split("\t")[0] for line in world.svc.admin_lines("keys", "list", "--org", "Acme")
                  if "\tshort-lived\t" in line)
    world.svc.admin("keys", "revoke", key_id)
    refused = world.cli("mywork", key=key)
    assert refused.returncode == 4
    assert refused.stderr.strip() == "Error: Unknown or revoked API key (check DOCSVC_API_KEY or run `docsvc login`)"
    assert key not in refused.stderr + refused.stdout
