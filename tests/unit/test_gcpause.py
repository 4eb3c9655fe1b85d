"""The cycle collector's pause (docsvc.gcpause): off while any paused stretch runs, back as it was after."""

from __future__ import annotations

import gc
import threading

import pytest

from docsvc.gcpause import cycle_collector_paused


@pytest.fixture
def collector_on():
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def test_the_collector_is_off_inside_and_back_after(collector_on):
    with cycle_collector_paused():
        assert not gc.isenabled()
        with cycle_collector_paused():  # nested: the inner end does not resume it
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_it_resumes_after_an_error(collector_on):
    with pytest.raises(ValueError), cycle_collector_paused():
        raise ValueError("boom")
    assert gc.isenabled()


def test_overlapping_stretches_in_threads_resume_it_when_the_last_ends(collector_on):
    first_in, first_may_end, first_ended = (threading.Event() for _ in range(3))
    seen = {}

    def first():
        with cycle_collector_paused():
            first_in.set()
            first_may_end.wait(5)
        first_ended.set()

    thread = threading.Thread(target=first)
    thread.start()
    assert first_in.wait(5)
    with cycle_collector_paused():
        first_may_end.set()
        assert first_ended.wait(5)
        seen["after the first ended"] = gc.isenabled()  # the second stretch still runs
    thread.join(5)
    assert seen == {"after the first ended": False}
    assert gc.isenabled()


def test_a_collector_turned_off_elsewhere_stays_off(collector_on):
    gc.disable()
    with cycle_collector_paused():
        pass
    assert not gc.isenabled()
