"""engines/hosts against the fake code host (real HTTP on loopback; every request and answer
checked against GitHub's OpenAPI description and GitLab's documented fields): pull requests opened
or reused, their state and reviews, GitHub App tokens minted and cached, the host's errors as one
sentence naming what is missing, rate limits waited out within the deadline, and the token in no
message."""

from __future__ import annotations

import time

import pytest

from docsvc.egress import Egress
from docsvc.server.engines.hosts import Connection, HostError, connect
from docsvc.server.engines.hosts.github import forget_app_tokens
from tests.fake_host import FakeHost, rsa_key

TOKEN = "ghp_Sup3rS3cretT0kenValue0000000000000000"
GL_TOKEN = "glpat-Sup3rS3cretGitLabT0ken"
NAME = "integration 4 ('docs')"


@pytest.fixture
def fake():
    host = FakeHost()
    host.tokens |= {TOKEN, GL_TOKEN}
    host.repos |= {"acme/docs", "grp/sub/docs"}
    yield host
    host.close()
    assert host.violations == []


def github(fake: FakeHost, **extra):
    waits = []
    options = {"token": TOKEN, "token_source": "$GH_TOKEN", "sleep": waits.append, **extra}
    api = connect("github", Connection(integration=NAME, api_url=fake.github_api,
                                       egress=Egress.from_setting(fake.address), **options))
    api.waits = waits
    return api


def gitlab(fake: FakeHost, **extra):
    return connect("gitlab", Connection(integration=NAME, api_url=fake.gitlab_api, token=GL_TOKEN,
                                        token_source="$GITLAB_TOKEN", egress=Egress.from_setting(fake.address),
                                        **extra))


def posts(fake: FakeHost) -> int:
    return sum(1 for method, path, _ in fake.log if method == "POST" and "access_tokens" not in path)


def test_github_opens_a_pull_request_once_and_reuses_the_open_one(fake):
    first = github(fake).open_pull_request("acme/docs", "docsvc/suggestion-1", "main", "Docs for PR #7", "Why:\n- x")
    assert first.record() == {"url": "https://github.com/acme/docs/pull/1", "state": "open",
                              "review": "review required",
                              "number": 1, "host": "github", "repo": "acme/docs", "branch": "docsvc/suggestion-1",
                              "base": "main"}
    assert fake.pull("acme/docs", 1)["body"] == "Why:\n- x"
    again = github(fake).open_pull_request("acme/docs", "docsvc/suggestion-1", "main", "Docs for PR #7", "Why")
    assert again.number == 1 and posts(fake) == 1
    listed = [path for method, path, _ in fake.log if method == "GET"]
    assert "/github/repos/acme/docs/pulls?head=acme%3Adocsvc%2Fsuggestion-1&state=open&per_page=100" in listed


def test_a_pull_request_opened_but_whose_answer_was_lost_is_taken_on_the_retry(fake):
    fake.fail("POST", r"/pulls$", 502, after=True)
    with pytest.raises(HostError, match="GitHub answered 502 to open a pull request on acme/docs"):
        github(fake).open_pull_request("acme/docs", "b", "main", "t", "b")
    assert github(fake).open_pull_request("acme/docs", "b", "main", "t", "b").number == 1
    assert len(fake.pulls["acme/docs"]) == 1


def test_state_and_review_follow_the_host(fake):
    api = github(fake)
    number = api.open_pull_request("acme/docs", "b", "main", "t", "b").number
    fake.review("acme/docs", number, "rita", "APPROVED")
    assert api.pull_request("acme/docs", number).review == "approved"
    fake.review("acme/docs", number, "wes", "CHANGES_REQUESTED")
    fake.review("acme/docs", number, "rita", "COMMENTED")  # a comment does not take an approval back
    assert api.pull_request("acme/docs", number).review == "changes requested"
    fake.review("acme/docs", number, "wes", "APPROVED")
    assert (api.pull_request("acme/docs", number).state, api.pull_request("acme/docs", number).review) == \
        ("open", "approved")
    fake.set_pull("acme/docs", number, closed=True)
    assert api.pull_request("acme/docs", number).state == "closed"
    fake.set_pull("acme/docs", number, merged=True)
    assert api.pull_request("acme/docs", number).state == "merged"


@pytest.mark.parametrize("status, headers, expected", [
    (401, {}, f"{NAME}: GitHub refused the token from $GH_TOKEN (401 Bad credentials): it is wrong, expired or "
              "revoked"),
    (403, {"X-Accepted-GitHub-Permissions": "pull_requests=write"},
     f"{NAME}: the token from $GH_TOKEN may not open a pull request on acme/docs (403 Resource not accessible by "
     "personal access token): it needs the permission Pull requests: write on acme/docs"),
    (404, {}, f"{NAME}: GitHub repository acme/docs is not found with the token from $GH_TOKEN: it does not exist "
              "or the token cannot see it (give the token access to acme/docs)"),
    (500, {}, f"{NAME}: GitHub answered 500 to open a pull request on acme/docs (Server Error); try again later"),
])
def test_github_errors_say_what_is_missing(fake, status, headers, expected):
    fake.fail("POST", r"/pulls$", status, headers=headers)
    with pytest.raises(HostError) as caught:
        github(fake).open_pull_request("acme/docs", "b", "main", "t", "b")
    assert str(caught.value) == expected and caught.value.status == status


def test_a_422_carries_the_hosts_message_and_never_the_token(fake):
    fake.fail("POST", r"/pulls$", 422, body={
        "message": "Validation Failed", "documentation_url": "https://docs.github.com/rest", "errors": [
            {"resource": "PullRequest", "field": "base", "code": "invalid",
             "message": f"base main is not a branch (token {TOKEN})"}]})
    with pytest.raises(HostError) as caught:
        github(fake).open_pull_request("acme/docs", "b", "main", "t", "b")
    assert str(caught.value) == (f"{NAME}: GitHub refused to open a pull request on acme/docs (422): Validation "
                                 "Failed; base main is not a branch (token ***)")


def test_a_repository_the_token_cannot_see(fake):
    with pytest.raises(HostError, match="GitHub repository acme/hidden is not found with the token from"):
        github(fake).open_pull_request("acme/hidden", "b", "main", "t", "b")


@pytest.mark.parametrize("headers", [{"Retry-After": "2"},
                                     {"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "{reset}"}])
@pytest.mark.parametrize("status", [429, 403])
def test_rate_limits_are_waited_out_then_the_request_is_made(fake, headers, status):
    headers = {k: v.format(reset=int(time.time()) + 3) for k, v in headers.items()}
    fake.fail("POST", r"/pulls$", status, headers=headers, body={"message": "API rate limit exceeded for user"})
    api = github(fake)
    assert api.open_pull_request("acme/docs", "b", "main", "t", "b").number == 1
    assert len(api.waits) == 1 and 1.5 <= api.waits[0] <= 4


def test_a_rate_limit_beyond_the_deadline_is_a_clear_error_at_once(fake):
    fake.fail("GET", r"/pulls$", 429, headers={"Retry-After": "3600"}, body={"message": "API rate limit exceeded"})
    api = github(fake, deadline=time.monotonic() + 20)
    with pytest.raises(HostError, match=r"GitHub's rate limit is used up for another 3600 s, longer than the time "
                                        r"left; try again later") as caught:
        api.open_pull_request("acme/docs", "b", "main", "t", "b")
    assert caught.value.status == 429 and api.waits == []


def test_the_egress_policy_applies_to_the_api(fake):
    api = connect("github", Connection(integration=NAME, api_url=fake.github_api, token=TOKEN,
                                       egress=Egress.from_setting("")))
    with pytest.raises(HostError, match=r"resolves to an internal address .*"
                                        r"DOCSVC_SERVER_EGRESS_ALLOW lets a host through"):
        api.open_pull_request("acme/docs", "b", "main", "t", "b")
    assert fake.log == []


def test_no_token_is_a_clear_error(fake):
    with pytest.raises(HostError, match="no GitHub token: set --host-token-env"):
        github(fake, token=None).open_pull_request("acme/docs", "b", "main", "t", "b")


def test_a_github_app_mints_an_installation_token_and_caches_it(fake):
    forget_app_tokens()
    pem, public = rsa_key()
    fake.install_app(321, public, {"acme/docs": 99})
    for _ in range(3):
        api = github(fake, token=None, app_id=321, app_key=pem)
        assert api.open_pull_request("acme/docs", "b", "main", "t", "b").number == 1
    assert len(fake.app.minted) == 1  # three connections, one token: cached until close to expiring
    fake.app.token_seconds = 60  # shorter than the margin: each use mints a new one
    forget_app_tokens()
    for _ in range(2):
        github(fake, token=None, app_id=321, app_key=pem).pull_request("acme/docs", 1)
    assert len(fake.app.minted) == 3
    other, _ = rsa_key()
    with pytest.raises(HostError, match=r"GitHub refused GitHub App 321's signed token \(401 Bad credentials\): "
                                        r"check the app id and its private key"):
        github(fake, token=None, app_id=321, app_key=other).pull_request("acme/other", 1)
    with pytest.raises(HostError, match=r"GitHub App 321 is not installed on grp/sub"):
        github(fake, token=None, app_id=321, app_key=pem).pull_request("grp/sub", 1)
    with pytest.raises(HostError, match=r"private key is not an unencrypted PEM private key"):
        github(fake, token=None, app_id=321, app_key=b"not a key").pull_request("acme/docs", 1)
    forget_app_tokens()


def test_gitlab_opens_a_merge_request_once_and_follows_approvals(fake):
    api = gitlab(fake)
    first = api.open_pull_request("grp/sub/docs", "docsvc/suggestion-2", "main", "Docs", "Why")
    assert first.record() == {"url": "https://gitlab.com/grp/sub/docs/-/merge_requests/1", "state": "open",
                              "review": "review required", "number": 1, "host": "gitlab", "repo": "grp/sub/docs",
                              "branch": "docsvc/suggestion-2", "base": "main"}
    assert api.open_pull_request("grp/sub/docs", "docsvc/suggestion-2", "main", "Docs", "Why").number == 1
    assert posts(fake) == 1
    assert any(path.startswith("/gitlab/api/v4/projects/grp%2Fsub%2Fdocs/merge_requests?") for _, path, _ in fake.log)
    fake.approve_mr("grp/sub/docs", 1, "rita")
    assert api.pull_request("grp/sub/docs", 1).review == "approved"
    fake.merge_request("grp/sub/docs", 1)["detailed_merge_status"] = "requested_changes"
    assert api.pull_request("grp/sub/docs", 1).review == "changes requested"
    fake.merge_request("grp/sub/docs", 1)["state"] = "merged"
    assert api.pull_request("grp/sub/docs", 1).state == "merged"


@pytest.mark.parametrize("status, body, expected", [
    (401, {"message": "401 Unauthorized"}, "GitLab refused the token from $GITLAB_TOKEN (401 401 Unauthorized): it "
                                           "is wrong, expired or revoked"),
    (403, {"error": "insufficient_scope", "error_description": "The request requires higher privileges than "
           "provided by the access token.", "scope": "api"},
     "the token from $GITLAB_TOKEN may not open a merge request on grp/sub/docs (403 The request requires higher "
     "privileges than provided by the access token.): it needs the api scope and at least the Developer role"),
    (404, {"message": "404 Project Not Found"}, "GitLab project grp/sub/docs is not found with the token"),
    (422, {"message": {"target_branch": ["is invalid"]}}, "GitLab refused to open a merge request on grp/sub/docs "
                                                          "(422): target_branch is invalid"),
    (500, {"message": "500 Internal Server Error"}, "GitLab answered 500 to open a merge request"),
])
def test_gitlab_errors_say_what_is_missing(fake, status, body, expected):
    fake.fail("POST", r"/merge_requests$", status, body=body)
    with pytest.raises(HostError) as caught:
        gitlab(fake).open_pull_request("grp/sub/docs", "b", "main", "t", "b")
    assert str(caught.value).startswith(NAME) and expected in str(caught.value)
    assert GL_TOKEN not in str(caught.value)


def test_gitlab_waits_out_a_429(fake):
    waits = []
    fake.fail("GET", r"/merge_requests$", 429, body={"message": "429 Too Many Requests"}, headers={"Retry-After": "1"})
    assert gitlab(fake, sleep=waits.append).open_pull_request("grp/sub/docs", "b", "main", "t", "b").number == 1
    assert waits == [1.0]


def test_the_fake_host_refuses_what_the_descriptions_do_not_allow(fake):
    """The checks can fail: requests and answers off GitHub's description or GitLab's documented fields."""
    import httpx

    auth = {"Authorization": f"Bearer {TOKEN}"}
    httpx.post(f"{fake.github_api}/repos/acme/docs/pulls", json={"title": 5, "head": "b", "base": "main"}, headers=auth)
    httpx.get(f"{fake.github_api}/repos/acme/docs/pulls", params={"state": "opened", "colour": "red"}, headers=auth)
    httpx.post(f"{fake.gitlab_api}/projects/grp%2Fsub%2Fdocs/merge_requests", json={"source_branch": "b", "title": "t"},
               headers={"PRIVATE-TOKEN": GL_TOKEN})
    httpx.get(f"{fake.gitlab_api}/projects/grp/sub/docs/merge_requests", headers={"PRIVATE-TOKEN": GL_TOKEN})
    found, fake.violations = fake.violations, []
    assert any("request: title: 5 is not of type 'string'" in v for v in found), found
    assert any("query state='opened'" in v and "is not one of" in v for v in found), found
    assert any("query parameter 'colour' is not in the description" in v for v in found), found
    assert any("create_request (body): 'target_branch' is a required property" in v for v in found), found
    assert any("neither a number nor a URL-encoded path" in v or "not an endpoint" in v for v in found), found
    pull = fake.spec.example("pull-request")
    del pull["number"]
    assert any("'number' is a required property" in e for e in fake.spec.check_response(
        "POST", "/repos/acme/docs/pulls", 201, pull))
    assert fake.spec.check_response("POST", "/repos/acme/docs/pulls", 204, None) == [
        "POST /repos/{owner}/{repo}/pulls: status 204 is not documented"]



def _paged(answer) -> list:
    """The items Api.pages gives for the reviews of acme/docs#1 on api.github.com, ``answer``
    standing in for GitHub."""
    import httpx

    from docsvc.server.engines.hosts.common import Api

    api = Api(Connection(integration=NAME, api_url="https://api.github.com", transport=httpx.MockTransport(answer)),
              "GitHub", lambda: {"Authorization": f"Bearer {TOKEN}"}, lambda: [TOKEN])
    try:
        return list(api.pages("/repos/acme/docs/pulls/1/reviews", params={}, explain=str))
    finally:
        api.close()


@pytest.mark.parametrize("following", ["https://api.github.com.example.net/repos/acme/docs/pulls/1/reviews?page=2",
                                       "https://api.github.comevil/reviews?page=2",
                                       "https://example.net/repos/acme/docs/pulls/1/reviews?page=2"])
def test_a_next_page_on_another_host_is_never_asked_with_the_token(following):
    import httpx

    asked = []

    def answer(request: httpx.Request) -> httpx.Response:
        asked.append(str(request.url))
        return httpx.Response(200, json=[{"n": len(asked)}], headers={"Link": f'<{following}>; rel="next"'})

    assert _paged(answer) == [{"n": 1}]
    assert asked == ["https://api.github.com/repos/acme/docs/pulls/1/reviews"]


def test_the_next_page_on_the_api_itself_is_followed():
    import httpx

    def answer(request: httpx.Request) -> httpx.Response:
        page = int(request.url.params.get("page", "1"))
        link = {"Link": f'<https://api.github.com/repos/acme/docs/pulls/1/reviews?page={page + 1}>; rel="next"'}
        return httpx.Response(200, json=[page], headers=link if page < 3 else {})

    assert _paged(answer) == [1, 2, 3]
