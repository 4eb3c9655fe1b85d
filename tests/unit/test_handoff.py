"""The parsed spec handed from the request to its job: taken once, few kept, none kept long."""

from __future__ import annotations

import pytest

from docsvc.server import handoff


@pytest.fixture(autouse=True)
def empty():
    handoff._waiting.clear()
    handoff.jobs_run_here(True)  # an app made by an earlier test may have said otherwise
    yield
    handoff._waiting.clear()
    handoff.jobs_run_here(True)


def test_taken_once():
    handoff.leave("inputs/a", {"openapi": "3.1.0"}, 20)
    assert handoff.take("inputs/a") == {"openapi": "3.1.0"}
    assert handoff.take("inputs/a") is None
    assert handoff.take("inputs/never") is None


def test_the_oldest_is_pushed_out(monkeypatch):
    for name in ("a", "b", "c"):
        handoff.leave(name, name, 1)
    assert handoff.take("a") is None  # LIMIT is 2
    assert (handoff.take("b"), handoff.take("c")) == ("b", "c")


def test_an_old_entry_is_dropped(monkeypatch):
    clock = [100.0]
    monkeypatch.setattr(handoff.time, "monotonic", lambda: clock[0])
    handoff.leave("a", 1, 1)
    clock[0] += handoff.MAX_AGE + 1
    assert handoff.take("a") is None and not handoff._waiting


def test_kept_within_a_budget_of_text():
    handoff.leave("a", "a", handoff.MAX_TEXT_BYTES // 2)
    handoff.leave("b", "b", handoff.MAX_TEXT_BYTES // 2 + 1)  # together over: the older goes
    assert handoff.take("a") is None and handoff.take("b") == "b"
    handoff.leave("huge", "huge", handoff.MAX_TEXT_BYTES + 1)  # alone over: not kept
    assert handoff.take("huge") is None


def test_nothing_is_kept_where_no_job_runs():
    """An API process whose jobs run elsewhere (run's child, worker processes) keeps no parsed spec:
    no job of it would take it."""
    from docsvc.server.app import create_app
    from docsvc.server.settings import ServerSettings

    handoff.leave("inputs/before", {"openapi": "3.1.0"}, 20)
    create_app(ServerSettings(database_url="sqlite://", job_workers=0), start_workers=False)
    assert handoff.take("inputs/before") is None  # dropped at once
    handoff.leave("inputs/a", {"openapi": "3.1.0"}, 20)
    assert handoff.take("inputs/a") is None
    create_app(ServerSettings(database_url="sqlite://", job_workers=2), start_workers=False)
    handoff.leave("inputs/b", {"openapi": "3.1.0"}, 20)
    assert handoff.take("inputs/b") == {"openapi": "3.1.0"}
