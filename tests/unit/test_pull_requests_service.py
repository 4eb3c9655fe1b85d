"""services/pull_requests: the description a pull request gets (what changes and why, escaped and
clipped), the live state an item keeps (a merge moves it to done), and what is missing before the
host is even asked (the token's variable, the App's key file, the repository's name on the host)."""

from __future__ import annotations

import pytest

from docsvc.server.db.tables import Integration, Item
from docsvc.server.services.pull_requests import (
    BODY_LIMIT, HostError, apply_state, open_pull_request, problem_status, pull_request_body)


def test_the_body_says_what_changes_and_why_page_by_page():
    body = pull_request_body("Docs for #7 (Rename --docs-root): 2 page(s) change.", [
        {"path": "docs/cli.md", "mode": "direct", "reasons": ["flag --docs-root renamed to --docs-dir"]},
        {"path": "docs/env.md", "mode": None, "reasons": []}], "Approved by Ada.")
    assert body.splitlines() == [
        "Docs for \\#7 (Rename --docs-root): 2 page(s) change.", "",
        "### `docs/cli.md` (direct)", "- flag --docs-root renamed to --docs-dir", "",
        "### `docs/env.md`", "- (no reason recorded)", "", "Approved by Ada."]


def test_the_body_neither_renders_html_nor_mentions_nor_runs_over_the_hosts_limit():
    body = pull_request_body("<img src=x onerror=alert(1)> @octocat [x](javascript:y)", [
        {"path": "a`b.md", "reasons": ["line\nbreak *bold*"] * 5000}], "end")
    assert "<img" not in body and "&lt;img" in body
    assert "@octocat" not in body and "@\u200boctocat" in body
    assert "\\[x\\](javascript:y)" in body and "### `ab.md`" in body and "line break \\*bold\\*" in body
    assert len(body) <= BODY_LIMIT and body.endswith("more characters not shown)")


def test_a_merged_pull_request_moves_the_item_to_done():
    item = Item(work_status="in_review", pull_request={"url": "u", "state": "open", "review": "review required"})
    assert apply_state(item, "open", "approved") and item.pull_request["review"] == "approved"
    assert not apply_state(item, "open", "approved")
    assert apply_state(item, "merged") and (item.pull_request["state"], item.work_status) == ("merged", "done")
    closed = Item(work_status="in_review", pull_request={"state": "open"})
    assert apply_state(closed, "closed") and closed.work_status == "in_review"


def integration(**fields) -> Integration:
    return Integration(**{"id": 3, "name": "docs", "host": "github", "host_api_url": "http://127.0.0.1:9",
                          "docs_host_repo": "acme/docs", **fields})


@pytest.mark.parametrize("fields, env, expected", [
    ({}, {}, "integration 3 ('docs'): no github token: give the name of the service's environment variable that "
             "holds it (docsvc-server integrations update --integration 3 --host-token-env VAR)"),
    ({"host_token_env": "DOCS_TOKEN_T"}, {}, "integration 3 ('docs'): the service's environment has no DOCS_TOKEN_T"),
    ({"github_app_id": 5, "github_app_key_file": "/nonexistent/app.pem"}, {},
     "integration 3 ('docs'): cannot read the GitHub App's private-key file /nonexistent/app.pem: No such file"),
    ({"host_token_env": "DOCS_TOKEN_T", "docs_host_repo": None}, {"DOCS_TOKEN_T": "x"},
     "integration 3 ('docs'): the docs repository's project on github is not known: docsvc-server integrations "
     "update --integration 3 --docs-host-repo OWNER/NAME"),
])
def test_what_is_missing_before_the_host_is_asked(monkeypatch, fields, env, expected):
    monkeypatch.delenv("DOCS_TOKEN_T", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(HostError) as caught:
        open_pull_request(integration(**fields), "docs", "b", "main", "t", "b")
    assert str(caught.value).startswith(expected)
    assert problem_status(caught.value) == 409  # a person must fix it: no retry mends it
    assert problem_status(HostError("x", 503, transient=True)) == 502
