"""Credentials written into URLs never shown: ``docsvc.credentials.hidden`` on URLs and messages
quoting them, and the pull-request page made from a repository URL (``git.branch_url``)."""

from __future__ import annotations

import pytest

from docsvc.credentials import hidden
from docsvc.server.engines.git import branch_url


@pytest.mark.parametrize("text, shown", [
    ("https://x-access-token:ghp_SECRET@github.com/acme/app.git", "https://***@github.com/acme/app.git"),
    ("https://ghp_SECRET@github.com/acme/app.git", "https://***@github.com/acme/app.git"),
    ("http://user:p%40ss@127.0.0.1:8080/api/v1", "http://***@127.0.0.1:8080/api/v1"),
    ("code repository https://oauth2:glpat-X@gitlab.com/a/b.git: fatal: no",
     "code repository https://***@gitlab.com/a/b.git: fatal: no"),
    ("two: ssh://git@host/a.git and https://u:p@h/b", "two: ssh://***@host/a.git and https://***@h/b"),
    ("git@github.com:acme/app.git", "git@github.com:acme/app.git"),  # scp-like: a user name, no secret
    ("ada:hunter2@host/api", "***@host/api"),  # a URL written without its scheme
    ("https://ada:hunter2@[::1", "https://***@[::1"),  # malformed: error messages quote those too
    ("https://github.com/acme/app.git", "https://github.com/acme/app.git"),
    ("mail ada@acme.test about https://h/x?to=a@b", "mail ada@acme.test about https://h/x?to=a@b"),
])
def test_hidden_replaces_the_user_information_of_every_url(text, shown):
    assert hidden(text) == shown


@pytest.mark.parametrize("location, url", [
    ("https://alice:SECRET@github.com/org/docs.git", "https://github.com/org/docs/compare/main...b?expand=1"),
    ("https://github.com/org/docs", "https://github.com/org/docs/compare/main...b?expand=1"),
    ("git@github.com:org/docs.git", "https://github.com/org/docs/compare/main...b?expand=1"),
    ("ssh://git@github.com/org/docs.git", "https://github.com/org/docs/compare/main...b?expand=1"),
    ("https://oauth2:SECRET@gitlab.com/g/sub/docs.git",
     "https://gitlab.com/g/sub/docs/-/merge_requests/new?merge_request[source_branch]=b"),
    ("https://git.example.com:8443/org/docs.git", "https://git.example.com:8443/org/docs/compare/main...b?expand=1"),
])
def test_the_pull_request_page_of_a_repository_url_never_carries_its_credentials(location, url):
    assert branch_url(location, "main", "b") == url


def test_a_local_repository_opens_as_its_path(tmp_path):
    assert branch_url(str(tmp_path), "main", "b") == f"file://{tmp_path}#b"
