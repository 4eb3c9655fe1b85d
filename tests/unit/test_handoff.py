"""The parsed spec handed from the request to its job: taken once, few kept, none kept long."""

from __future__ import annotations

import pytest

from docsvc.server import handoff


@pytest.fixture(autouse=True)
def empty():
    handoff._waiting.clear()
    yield
    handoff._waiting.clear()


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
