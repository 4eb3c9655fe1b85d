"""The client against HTTP answers recorded from the local service (vcrpy), replayed offline.

Replay (the default) needs no service: ``record_mode="none"`` fails on any request that is not
in the cassette. To record again, run with DOCSVC_RECORD_CASSETTES=1: a fresh local service is
started and seeded the same way, so ids in the paths match. The ``Authorization`` header is
never written, and a test checks every cassette for key material.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pytest
import vcr

from docsvc.client import Client, NotFoundError, PermissionDeniedError, UnprocessableEntityError
from tests.support import LocalService

CASSETTES = Path(__file__).resolve().parents[1] / "cassettes"
RECORD = os.environ.get("DOCSVC_RECORD_CASSETTES") == "1"

recorder = vcr.VCR(
    cassette_library_dir=str(CASSETTES),
    record_mode="all" if RECORD else "none",
    match_on=["method", "path", "query", "body"],  # not host or port: replay runs anywhere
    filter_headers=["authorization", "cookie", "set-cookie"],
    decode_compressed_response=True,
)


@dataclass
class Target:
    base_url: str
    admin_key: str
    writer_key: str


@pytest.fixture(scope="module")
def target(tmp_path_factory):
    if not RECORD:
        yield Target("http://docsvc.cassette", "dsv_replay_admin", "dsv_replay_writer")
        return
    tmp = tmp_path_factory.mktemp("record")
    svc = LocalService(db_url=f"sqlite:///{tmp / 'record.db'}", workdir=tmp / "work").start()
    try:
        a = svc.admin
        admin_key = a("init", "--org", "Cassette Co", "--admin-email", "ada@cassette.test", "--admin-name", "Ada")
        a("users", "add", "--org", "Cassette Co", "--email", "wes@cassette.test", "--role", "writer",
          "--name", "Wes")
        writer_key = a("keys", "create", "--email", "wes@cassette.test")
        a("releases", "add", "--org", "Cassette Co", "--name", "3.0")
        for tool, title in (("captures", "Login capture"), ("captures", "Spare capture"),
                            ("docflows", "PR #1: add --verbose")):
            a("items", "add", tool, "--org", "Cassette Co", "--title", title)
        yield Target(svc.base_url, admin_key, writer_key)
    finally:
        svc.stop()


def client(target: Target, key: str) -> Client:
    return Client(key, target.base_url, max_retries=0)


@recorder.use_cassette("items_workflow.yaml")
def test_items_workflow(target):
    with client(target, target.writer_key) as api:
        listed = api.items.list("captures")
        assert [i.title for i in listed] == ["Spare capture", "Login capture"]
        me = api.me.get()
        assert (me.name, me.role) == ("Wes", "writer")
        claimed = api.items.update("captures", 1, writer_user_id=me.id, work_status="in_progress",
                                   status_note="on it")
        assert (claimed.writer_name, claimed.work_status, claimed.status_note) == ("Wes", "in_progress", "on it")
        tagged = api.items.update("captures", 1, release_id=1)
        assert tagged.release_name == "3.0"
        cleared = api.items.update("captures", 1, release_id=None)
        assert cleared.release_id is None
        assert api.items.update("captures", 1, title="Login capture v2").title == "Login capture v2"
        assert api.items.delete("captures", 2).deleted is True
        assert [i.id for i in api.items.list("captures", writer_id="none")] == []
        dismissed = api.items.delete("docflows", 3)
        assert dismissed.dismissed is True and dismissed.item.work_status == "rejected"


@recorder.use_cassette("errors.yaml")
def test_errors_carry_the_problem_detail(target):
    with client(target, target.writer_key) as api:
        with pytest.raises(NotFoundError) as missing:
            api.items.update("captures", 999, title="x")
        assert missing.value.problem.detail == "Capture 999 not found"
        with pytest.raises(UnprocessableEntityError) as invalid:
            api.items.update("captures", 1, writer_user_id=12345)
        assert "not a member of your organisation" in invalid.value.problem.detail
        with pytest.raises(PermissionDeniedError):
            api.admin.list_users()


@recorder.use_cassette("admin_and_work.yaml")
def test_admin_lists_and_work_summary(target):
    with client(target, target.admin_key) as api:
        users = api.admin.list_users()
        assert {u.email for u in users} == {"ada@cassette.test", "wes@cassette.test"}
        assert [r.name for r in api.releases.list()] == ["3.0"]
        assert api.admin.list_integrations() == []
        # Not the item's writer, but a System Administrator may change its status.
        moved = api.items.update("captures", 1, work_status="in_review")
        assert (moved.work_status, moved.writer_name) == ("in_review", "Wes")
    with client(target, target.writer_key) as api:
        work = api.me.work()
        assert (work.open, work.blocked) == (1, 0)


def test_cassettes_hold_no_key_material():
    files = sorted(CASSETTES.glob("*.yaml"))
    assert len(files) >= 3
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert "authorization" not in text.lower(), path.name
        assert "dsv_" not in text and "Bearer" not in text, path.name
