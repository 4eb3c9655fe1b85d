"""The rules of pr_data (services.docflows.check_pr_data), one row each, and how a suggestion stored
before them is read (stored_pr)."""

from __future__ import annotations

import pytest

from docsvc.server import limits
from docsvc.server.problems import MAX_ID, Problem
from docsvc.server.services.docflows import check_pr_data, stored_pr

BASE = {"number": 3, "title": "t", "author": "a"}
SHA = "0123456789abcdef0123456789abcdef01234567"

REFUSED = [
    # (pr_data, the field named, words of the message)
    ([], "pr_data", "must be an object"),
    ({"title": "t", "author": "a"}, "pr_data", "missing number"),
    ({**BASE, "title": ""}, "pr_data", "missing title"),
    ({**BASE, "number": 0}, "pr_data.number", "positive integer"),
    ({**BASE, "number": MAX_ID + 1}, "pr_data.number", "positive integer"),
    ({**BASE, "number": "3"}, "pr_data.number", "positive integer"),
    ({**BASE, "number": True}, "pr_data.number", "positive integer"),
    ({**BASE, "title": {"x": 1}}, "pr_data.title", "must be a string"),
    ({**BASE, "title": "t" * (limits.MAX_TITLE + 1)}, "pr_data.title", "at most 500 characters"),
    ({**BASE, "author": ["a"]}, "pr_data.author", "must be a string"),
    ({**BASE, "author": "a" * 256}, "pr_data.author", "at most 255"),
    ({**BASE, "body": ["x"]}, "pr_data.body", "must be a string"),
    ({**BASE, "body": "b" * (limits.PR_BODY_MAX + 1)}, "pr_data.body", "at most 65536"),
    ({**BASE, "head_branch": 1}, "pr_data.head_branch", "must be a string"),
    ({**BASE, "head_branch": "b" * 256}, "pr_data.head_branch", "at most 255"),
    ({**BASE, "head_branch": "a b"}, "pr_data.head_branch", "not a git branch name"),
    ({**BASE, "head_branch": "-x"}, "pr_data.head_branch", "not a git branch name"),
    ({**BASE, "head_branch": "a..b"}, "pr_data.head_branch", "not a git branch name"),
    ({**BASE, "base_branch": "a\nb"}, "pr_data.base_branch", "not a git branch name"),
    ({**BASE, "head_sha": {"a": 1}}, "pr_data.head_sha", "must be a string"),
    ({**BASE, "head_sha": "xyz123"}, "pr_data.head_sha", "commit SHA"),
    ({**BASE, "head_sha": "abc"}, "pr_data.head_sha", "commit SHA"),
    ({**BASE, "head_sha": "a" * 65}, "pr_data.head_sha", "at most 64"),
    ({**BASE, "url": "u" * (limits.PR_URL_MAX + 1)}, "pr_data.url", "at most 2048"),
    ({**BASE, "fork": "yes"}, "pr_data.fork", "true or false"),
    ({**BASE, "screenshots": {"route": "/"}}, "pr_data.screenshots", "list"),
    ({**BASE, "screenshots": [{"route": "/", "filename": "a.png"}] * (limits.PR_SCREENSHOTS_MAX + 1)},
     "pr_data.screenshots", "at most 100"),
    ({**BASE, "screenshots": ["a.png"]}, "pr_data.screenshots[0]", "must be an object"),
    ({**BASE, "screenshots": [{"route": "", "filename": "a.png"}]}, "pr_data.screenshots[0].route", "1 to 500"),
    ({**BASE, "screenshots": [{"route": "/" * 501, "filename": "a.png"}]}, "pr_data.screenshots[0].route",
     "1 to 500"),
    ({**BASE, "screenshots": [{"route": "/", "filename": 1}]}, "pr_data.screenshots[0].filename", "file name"),
]


@pytest.mark.parametrize("pr, field, words", REFUSED, ids=[f"{r[1]}-{i}" for i, r in enumerate(REFUSED)])
def test_a_wrong_pr_data_is_422_naming_the_field(pr, field, words):
    with pytest.raises(Problem) as raised:
        check_pr_data(pr)
    assert raised.value.status == 422
    assert raised.value.errors == [{"loc": ["body", field], "msg": raised.value.errors[0]["msg"]}]
    assert words in raised.value.detail and raised.value.detail.startswith(f"{field}: ")


ACCEPTED = [
    # (pr_data, what is kept)
    (BASE, BASE),
    ({**BASE, "number": MAX_ID}, {**BASE, "number": MAX_ID}),
    ({**BASE, "title": "t" * limits.MAX_TITLE}, {**BASE, "title": "t" * limits.MAX_TITLE}),
    ({**BASE, "body": "", "head_branch": "feature/x-1", "head_sha": SHA, "base_branch": "main"},
     {**BASE, "body": "", "head_branch": "feature/x-1", "head_sha": SHA, "base_branch": "main"}),
    ({**BASE, "head_sha": "abc1234"}, {**BASE, "head_sha": "abc1234"}),
    ({**BASE, "head_sha": "A" * 64}, {**BASE, "head_sha": "A" * 64}),
    ({**BASE, "body": None, "head_branch": None}, BASE),  # null: not given
    # What the CI layer adds: the pull request's page and whether it comes from a fork.
    ({**BASE, "url": "https://github.com/o/r/pull/3", "fork": True},
     {**BASE, "url": "https://github.com/o/r/pull/3", "fork": True}),
    # What a client's multipart form lists.
    ({**BASE, "screenshots": [{"route": "/settings", "filename": "s.png", "bytes": 9}]},
     {**BASE, "screenshots": [{"route": "/settings", "filename": "s.png"}]}),
    # Keys the interface does not name are dropped, whatever they hold.
    ({**BASE, "x": [{}] * 1000, "labels": ["bug"], "user": {"login": "a"}}, BASE),
]


@pytest.mark.parametrize("pr, kept", ACCEPTED)
def test_a_valid_pr_data_keeps_the_known_fields_only(pr, kept):
    assert check_pr_data(pr) == kept


STORED = [
    # (the pr a suggestion holds, what the engines get)
    (None, {}),
    ("text", {}),
    ({"number": 5, "title": {"x": 1}, "author": "a", "body": ["x"], "head_branch": "pr-1"},
     {"number": 5, "author": "a", "head_branch": "pr-1"}),
    ({"number": "5", "title": "t" * 20_000, "head_sha": {"a": 1}}, {"title": "t" * limits.MAX_TITLE}),
    ({"number": 5, "head_sha": "zz", "head_branch": "a b", "base_branch": 3}, {"number": 5}),
    ({"number": 5, "head_sha": SHA, "x": [1, 2]}, {"number": 5, "head_sha": SHA}),
]


@pytest.mark.parametrize("pr, read", STORED)
def test_a_stored_pr_is_read_as_text_whatever_it_holds(pr, read):
    assert stored_pr({"pr": pr}) == read
