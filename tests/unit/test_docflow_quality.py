"""The Docflows quality report (benchmarks/docflow_quality.py): each corpus's negatives are named
by what they are (the manifest's case kinds, as the scorer sums them up), and the quiet goal stands
only beside the commits chosen because they touch only tests or internals."""

from __future__ import annotations

from tests.support import benchmark_module


def _quality():
    return benchmark_module("docflow_quality")


def _quiet_rows(lines: list[str]) -> list[str]:
    return [" ".join(line.split()) for line in lines if line.startswith("quiet")]


def test_the_release_corpus_s_negatives_are_commits_that_touch_only_tests_or_internals_with_the_goal():
    quality = _quality()
    kinds = {"commit_negatives": {"negatives": 6, "quiet_rate": 1.0},
             "release_pairs": {"negatives": 0, "quiet_rate": None}}
    assert _quiet_rows(quality.report({"quiet_rate": 1.0}, kinds)) == [
        "quiet on 6 commit(s) that touch only tests or internals 1.00 >= 0.95 yes"]


def test_a_pull_request_corpus_s_negatives_are_changes_no_docs_page_followed_with_no_goal():
    quality = _quality()
    kinds = {"commit_negatives": {"negatives": 0}, "release_pairs": {"negatives": 3, "quiet_rate": 0.667}}
    assert _quiet_rows(quality.report({"quiet_rate": 0.667}, kinds)) == [
        "quiet on 3 change(s) after which no docs page changed 0.67 -"]
