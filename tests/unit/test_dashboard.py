"""The dashboard's numbers, computed from a real database: counts under each filter, progress,
work per writer, the release timeline with its date history, what needs attention, private chats.
Each answer both ways: a statement per read in a session (``dashboard``), and the reads folded into
the key's lookup, one statement on a connection (``deps.hot_read``'s path, ``db.folded``)."""

from __future__ import annotations

import datetime as dt

import pytest

from docsvc.server.db.tables import Item, Organization, User
from docsvc.server.problems import Problem
from docsvc.server.services.accounts import Caller, add_user, create_key, create_org, look_up_key
from docsvc.server.services.dashboard import dashboard, progress, read, work_rows
from docsvc.server.services.releases import add_release, set_status, set_target
from tests.unit.dbfixtures import db  # noqa: F401  (fixture)

TODAY = dt.date(2026, 6, 1)


def test_progress_leaves_rejected_items_out():
    assert progress({"done": 1, "todo": 2, "rejected": 5}) == {"done": 1, "total": 3, "percent": 33}
    assert progress({}) == {"done": 0, "total": 0, "percent": 0}


def test_work_rows_count_open_done_total_and_put_unassigned_last():
    rows = work_rows([(7, "todo", 2), (7, "blocked", 1), (7, "done", 4), (None, "todo", 9), (8, "rejected", 1)],
                     {7: "Wes", 8: "Rita"})
    assert rows == [{"writer_id": 7, "name": "Wes", "open": 3, "done": 4, "total": 7},
                    {"writer_id": 8, "name": "Rita", "open": 0, "done": 0, "total": 1},
                    {"writer_id": None, "name": "Unassigned", "open": 9, "done": 0, "total": 9}]


@pytest.fixture(params=["session", "folded"])
def world(db, request):  # noqa: F811
    with db.sessions() as session:
        org = session.get(Organization, db.org_id)
        ada = session.get(User, db.user_id)
        wes = add_user(session, org, "wes@acme.test", "writer", "Wes")
        other = create_org(session, "Other")
        stranger = add_user(session, other, "sam@other.test", "admin", "Sam")
        r1 = add_release(session, org, "3.0", "2026-07-01")
        set_target(session, r1, dt.date(2026, 7, 15), reason="QA slipped", changed_by=ada)
        late = add_release(session, org, "2.9", "2026-05-01")
        shipped = add_release(session, org, "2.8", "2026-04-01")
        set_status(shipped, "released")
        foreign = add_release(session, other, "9.9")

        def item(tool, title, status="todo", release=None, writer=None, creator=None, **data):
            row = Item(org_id=org.id, tool=tool, title=title, work_status=status, release_id=release,
                       writer_user_id=writer, created_by_id=creator, data=data)
            session.add(row)
            return row

        item("diagrams", "A", "done", r1.id, wes.id)
        item("diagrams", "B", "blocked", r1.id, wes.id).status_note = "waiting for the API"
        item("diagrams", "C", "rejected", r1.id, wes.id)
        item("captures", "D", "in_progress", None, ada.id)
        item("docflows", "E", "in_review", r1.id, wes.id, changes_requested={"by": "Ada", "pending": ["x"]})
        item("chats", "Ada's chat", "todo", None, None, creator=ada.id)
        item("chats", "Wes's chat", "todo", None, wes.id, creator=wes.id)
        _, wes_key = create_key(session, wes)
        session.commit()
        ids = {"wes": wes.id, "r1": r1.id, "late": late.id, "foreign": foreign.id, "stranger": stranger.id}
    ids["ada"] = Caller(db.user_id, db.org_id, "admin", "Ada", "ada@acme.test")
    ids["wes_caller"] = Caller(ids["wes"], db.org_id, "writer", "Wes", "wes@acme.test")
    ids["keys"] = {"ada": db.key, "wes_caller": wes_key}
    ids["via"] = request.param
    return db, ids


def board(world, caller="ada", **query):
    db, ids = world
    with db.sessions() as session:
        if ids["via"] == "session":
            return dashboard(session, ids[caller], today=TODAY, **query)
        reads, answer = read(today=TODAY, **query)
        found, _, rows = look_up_key(session, ids["keys"][caller], reads)
        assert found == ids[caller]
        return answer(session, found, rows)[0]


def test_counts_show_everyone_but_only_the_callers_chats(world):
    result = board(world)
    assert result["counts"]["total"] == 6  # A-E and Ada's own chat, never Wes's
    assert result["counts"]["by_tool"]["chats"] == 1 and result["counts"]["by_tool"]["diagrams"] == 3
    assert result["counts"]["by_status"]["blocked"] == 1 and result["counts"]["by_status"]["done"] == 1
    assert board(world, "wes_caller")["counts"]["by_tool"]["chats"] == 1  # his own


def test_filters_narrow_counts_and_work(world):
    _db, ids = world
    mine = board(world, "wes_caller", writer_id="me")
    assert mine["counts"]["total"] == 5 and [w["name"] for w in mine["writers"]] == ["Wes"]
    assert mine["writers"][0] == {"writer_id": ids["wes"], "name": "Wes", "open": 3, "done": 1, "total": 5}
    untagged = board(world, release_id="none")
    assert untagged["counts"]["total"] == 2  # D and Ada's chat
    assert board(world, tool="captures")["counts"] == {"total": 1, "by_tool": {"captures": 1},
                                                       "by_status": {**dict.fromkeys(
                                                           ["todo", "in_review", "blocked", "done", "rejected"], 0),
                                                           "in_progress": 1}}
    unassigned = board(world, writer_id="none")
    assert [w["name"] for w in unassigned["writers"]] == ["Unassigned"] and unassigned["counts"]["total"] == 1


def test_release_timeline_has_first_date_changes_and_progress(world):
    _db, ids = world
    result = board(world, release_id=str(ids["r1"]))
    timeline = result["release"]
    assert timeline["first_planned_date"] == "2026-07-01" and timeline["target_date"] == "2026-07-15"
    assert [(c["old_date"], c["new_date"], c["changed_by"], c["reason"]) for c in timeline["date_changes"]] == [
        (None, "2026-07-01", None, None), ("2026-07-01", "2026-07-15", "Ada", "QA slipped")]
    assert timeline["progress"] == {"done": 1, "total": 3, "percent": 33}  # A of A, B, E (C rejected)
    assert result["releases"] == [] and result["counts"]["total"] == 4


def test_each_release_and_what_needs_attention(world):
    result = board(world)
    by_name = {r["name"]: r for r in result["releases"]}
    assert by_name["3.0"]["progress"]["percent"] == 33 and by_name["2.9"]["progress"]["total"] == 0
    assert by_name["2.9"]["past_target"] and not by_name["2.8"]["past_target"]  # 2.8 is released
    attention = result["attention"]
    assert [(i["title"], i["note"]) for i in attention["blocked"]] == [("B", "waiting for the API")]
    assert [(i["title"], i["requested_by"]) for i in attention["changes_requested"]] == [("E", "Ada")]
    assert [(r["name"], r["days_late"]) for r in attention["releases_past_target"]] == [("2.9", 31)]
    assert attention["new_commits"] == []  # E has no pull request branch to look at


@pytest.mark.parametrize("query, status", [
    ({"release_id": "abc"}, 422), ({"writer_id": "everyone"}, 422), ({"tool": "spreadsheets"}, 422),
    ({"release_id": "99999"}, 404), ({"writer_id": "99999"}, 404),
])
def test_bad_values_and_unknown_ids_are_refused(world, query, status):
    with pytest.raises(Problem) as refused:
        board(world, **query)
    assert refused.value.status == status


def test_other_organisations_ids_are_unknown(world):
    _db, ids = world
    for query in ({"release_id": str(ids["foreign"])}, {"writer_id": str(ids["stranger"])}):
        with pytest.raises(Problem) as refused:
            board(world, **query)
        assert refused.value.status == 404
