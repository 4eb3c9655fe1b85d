"""The rules of a suggestion's state (services.suggestion_states): a dismissed one (Rejected or Done) takes
no changing action and keeps its status; screenshots take their route's place in the plan."""

from __future__ import annotations

import pytest

from docsvc.server.db.tables import Item
from docsvc.server.jobs.registry import JobFailure
from docsvc.server.problems import Problem
from docsvc.server.services.docflows import with_screenshots
from docsvc.server.services.suggestion_states import check_status_change, refuse_if_dismissed
from docsvc.server.tasks._support import still_open


def suggestion(status: str = "todo", **data) -> Item:
    return Item(id=21, tool="docflows", title="PR #1", work_status=status, data=data)


def dismissed(status: str = "rejected") -> Item:
    return suggestion(status, dismissed=True, dismissed_as=status)


@pytest.mark.parametrize("status", ["rejected", "done"])
def test_a_dismissed_suggestion_is_refused_with_409_and_its_status(status):
    with pytest.raises(Problem) as refused:
        refuse_if_dismissed(dismissed(status), "restored")
    assert refused.value.status == 409
    assert refused.value.detail == f"Docflows suggestion 21 is already dismissed ({status}); it cannot be restored"


def test_an_open_or_approved_suggestion_is_not_refused():
    refuse_if_dismissed(suggestion(), "restored")
    refuse_if_dismissed(suggestion("in_review", approval={"by": "ada"}), "given screenshots")


def test_a_job_queued_before_the_dismissal_fails_with_the_same_reason():
    with pytest.raises(JobFailure) as failed:
        still_open(dismissed("done"), "synced with the latest code")
    assert "is already dismissed (done); it cannot be synced with the latest code" in str(failed.value.args)


@pytest.mark.parametrize("status", ["todo", "in_progress", "in_review", "blocked", "done"])
def test_a_rejected_suggestion_keeps_its_status(status):
    with pytest.raises(Problem) as refused:
        check_status_change(dismissed("rejected"), status)
    assert refused.value.status == 409 and refused.value.detail.endswith(f"it cannot be moved to {status}")


def test_setting_the_status_it_was_dismissed_as_is_no_change_and_mends_an_older_one():
    check_status_change(dismissed("done"), "done")
    moved_before = suggestion("todo", dismissed=True, dismissed_as="rejected")  # moved before the rule
    check_status_change(moved_before, "rejected")
    with pytest.raises(Problem, match=r"already dismissed \(rejected\); it cannot be moved to todo"):
        check_status_change(moved_before, "todo")


def test_an_open_suggestion_moves_freely():
    for status in ("in_progress", "blocked", "done", "rejected", "todo"):
        check_status_change(suggestion(), status)


def test_screenshots_take_their_routes_place_and_tell_what_they_replaced():
    plan = [{"route": "/settings", "reason": "docs/a.md shows img/s.png", "replaces": "docs/img/s.png",
             "taken": False},
            {"route": "/home", "reason": "taken on request", "file": "items/21/a-home.png", "taken": True,
             "address": "http://preview/home"},
            {"route": "/about", "reason": "uploaded from CI", "file": "uploads/1/about.png", "taken": True}]
    shots = [{"route": "/settings", "file": "uploads/2/ok.png", "taken": True, "reason": "uploaded from CI"},
             {"route": "/home", "file": "uploads/2/home.png", "taken": True, "reason": "uploaded from CI"},
             {"route": "/about", "file": "uploads/2/about.png", "taken": True, "reason": "uploaded from CI"},
             {"route": "/new", "file": "uploads/2/new.png", "taken": True, "reason": "uploaded from CI"}]
    merged, replaced = with_screenshots(plan, shots)
    assert merged == [
        {"route": "/settings", "reason": "docs/a.md shows img/s.png", "replaces": "docs/img/s.png", "taken": True,
         "file": "uploads/2/ok.png"},
        {"route": "/home", "reason": "taken on request", "file": "uploads/2/home.png", "taken": True},
        {"route": "/about", "file": "uploads/2/about.png", "taken": True, "reason": "uploaded from CI"},
        {"route": "/new", "file": "uploads/2/new.png", "taken": True, "reason": "uploaded from CI"}]
    assert replaced == ["uploads/1/about.png"]  # a file taken is recorded with the item: it stays
    assert plan[0]["taken"] is False  # the plan given is not changed
