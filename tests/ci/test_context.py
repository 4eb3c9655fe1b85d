"""CI context detection against event payloads and variables as GitHub, GitLab and Jenkins
document them."""

import json
import subprocess
from pathlib import Path

import pytest

from docsvc.ci.context import detect, detect_provider
from docsvc.ci.operations import pr_data
from docsvc.ci.settings import CiSettings, InputError

PAYLOADS = Path(__file__).parent / "payloads"


def github_env(event: str, payload: str, **extra) -> dict:
    return {"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": event, "GITHUB_EVENT_PATH": str(PAYLOADS / payload),
            "GITHUB_REPOSITORY": "Codertocat/Hello-World", "GITHUB_RUN_ID": "1658821493",
            "GITHUB_SHA": "merge0000000000000000000000000000000000", "GITHUB_REF_NAME": "2/merge", **extra}


def settings(operation="docflow", **flags):
    return CiSettings.resolve(operation, flags, {})


def test_github_pull_request_gives_the_pr_head_not_the_merge_commit():
    ctx = detect("auto", github_env("pull_request", "github-pull_request.json"), None)
    pr = ctx.pull_request
    assert ctx.provider == "github"
    assert (pr.number, pr.title, pr.author, pr.branch) == (2, "Update the README with new information.",
                                                            "Codertocat", "changes")
    assert pr.sha == "ec26c3e57ca3a959ca5aad62de7213c562f8c821" and ctx.sha == pr.sha
    assert pr.body.startswith("This is a pretty simple change") and pr.fork is False
    assert ctx.run_url == "https://github.com/Codertocat/Hello-World/actions/runs/1658821493"
    assert ctx.api_url == "https://api.github.com"


def test_docflow_needs_no_flags_with_a_pull_request_payload():
    ctx = detect("auto", github_env("pull_request", "github-pull_request.json"), None)
    assert pr_data(settings(integration_id="3"), ctx) == {
        "number": 2, "title": "Update the README with new information.",
        "body": "This is a pretty simple change that we need to pull into master.", "author": "Codertocat",
        "head_branch": "changes", "head_sha": "ec26c3e57ca3a959ca5aad62de7213c562f8c821",
        "url": "https://github.com/Codertocat/Hello-World/pull/2"}


def test_an_explicit_flag_wins_over_the_context():
    ctx = detect("auto", github_env("pull_request", "github-pull_request.json"), None)
    data = pr_data(settings(pr_title="Better title", pr_sha="abc123"), ctx)
    assert (data["title"], data["head_sha"], data["number"]) == ("Better title", "abc123", 2)


def test_fork_pull_request_target_on_github_enterprise():
    env = github_env("pull_request_target", "github-pull_request_target-fork.json",
                     GITHUB_SERVER_URL="https://github.example.com",
                     GITHUB_API_URL="https://github.example.com/api/v3", GITHUB_REPOSITORY="acme/app")
    ctx = detect("auto", env, None, {"api_key": "dsv_key"})
    assert ctx.pull_request.fork is True and ctx.pull_request.body == ""
    assert ctx.api_url == "https://github.example.com/api/v3"
    assert ctx.run_url == "https://github.example.com/acme/app/actions/runs/1658821493"
    assert pr_data(settings(), ctx)["fork"] is True


@pytest.mark.parametrize("key", ["dsv_key", None])
def test_the_fork_notice_is_true_with_and_without_the_key(key):
    """pull_request_target runs with the base repository's secrets: with a key, the notice says the
    run holds it (never "secrets are not available"); without one the runner's skip notice speaks."""
    env = github_env("pull_request_target", "github-pull_request_target-fork.json", GITHUB_REPOSITORY="acme/app")
    notes = detect("auto", env, None, {"api_key": key}).notes
    assert not any("not available" in note for note in notes)
    if key:
        assert notes == ["the pull request comes from a fork and this pull_request_target run holds the API key: "
                         "it must not check out or run the fork's code"]
    else:
        assert notes == []


def workflow_run_payload(tmp_path, **run):
    payload = {"action": "completed", "workflow_run": {
        "event": "pull_request", "head_branch": "pr-482", "head_sha": "f00d" * 10, "display_title": "Add --retries",
        "pull_requests": [], "head_repository": {"full_name": "outsider/app", "fork": True},
        "repository": {"full_name": "acme/app"}, **run}}
    path = tmp_path / "workflow_run.json"
    path.write_text(json.dumps(payload))
    return {"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "workflow_run", "GITHUB_EVENT_PATH": str(path),
            "GITHUB_REF_NAME": "main", "GITHUB_SHA": "0" * 40, "GITHUB_REPOSITORY": "acme/app"}


def test_workflow_run_acts_for_the_pull_request_of_the_inputs_with_the_payloads_head(tmp_path):
    env = workflow_run_payload(tmp_path)
    ctx = detect("auto", env, None, {"pr_number": 482, "pr_sha": None})
    pr = ctx.pull_request
    assert (pr.number, pr.branch, pr.sha, pr.fork, pr.title) == (482, "pr-482", "f00d" * 10, True, "Add --retries")
    assert (ctx.branch, ctx.sha) == ("pr-482", "f00d" * 10)  # not GITHUB_REF_NAME, the base's default branch
    assert pr.url == "https://github.com/acme/app/pull/482" and ctx.warnings == []
    data = pr_data(settings(pr_number=482, pr_author="outsider"), ctx)
    assert (data["head_branch"], data["head_sha"], data["fork"]) == ("pr-482", "f00d" * 10, True)
    assert detect("auto", env, None, {"pr_number": 482, "pr_sha": "beef" * 10}).pull_request.sha == "beef" * 10


def test_workflow_run_of_a_same_repository_pull_request_finds_the_listed_number(tmp_path):
    env = workflow_run_payload(tmp_path, head_repository={"full_name": "acme/app", "fork": False}, pull_requests=[
        {"number": 9, "head": {"ref": "pr-482", "sha": "f00d" * 10}, "base": {"ref": "main"}}])
    pr = detect("auto", env, None, {}).pull_request
    assert (pr.number, pr.fork, pr.base_branch) == (9, False, "main")


def test_workflow_run_without_a_number_warns_and_a_push_run_has_no_pull_request(tmp_path):
    ctx = detect("auto", workflow_run_payload(tmp_path), None, {})
    assert ctx.pull_request.number is None and ctx.pull_request.branch == "pr-482"
    assert len(ctx.warnings) == 1 and "pass pr-number" in ctx.warnings[0]
    push = detect("auto", workflow_run_payload(tmp_path, event="push", head_branch="main"), None, {})
    assert push.pull_request is None and push.warnings == [] and push.branch == "main"


def test_enterprise_api_url_is_derived_from_the_server_when_missing():
    env = github_env("push", "github-push.json", GITHUB_SERVER_URL="https://ghe.corp.test")
    assert detect("auto", env, None).api_url == "https://ghe.corp.test/api/v3"


def test_push_and_workflow_dispatch_have_no_pull_request():
    push = detect("auto", github_env("push", "github-push.json"), None)
    assert push.pull_request is None and push.branch == "main"
    assert push.sha == "0000000000000000000000000000000000000002"
    dispatch = detect("auto", github_env("workflow_dispatch", "github-workflow_dispatch.json",
                                         GITHUB_REF_NAME="main"), None)
    assert dispatch.pull_request is None and dispatch.branch == "main"


def test_merge_group_finds_the_pull_request_number_in_the_queue_ref():
    ctx = detect("auto", github_env("merge_group", "github-merge_group.json"), None)
    pr = ctx.pull_request
    assert (pr.number, pr.title, pr.body, pr.sha) == (2, "Update the README with new information.",
                                                      "A longer description.",
                                                      "ec26c3e57ca3a959ca5aad62de7213c562f8c821")
    assert pr.base_branch == "main"


def test_gitlab_merge_request_variables():
    env = {"GITLAB_CI": "true", "CI_PIPELINE_SOURCE": "merge_request_event", "CI_MERGE_REQUEST_IID": "17",
           "CI_MERGE_REQUEST_TITLE": "Draft: docs for --dry-run", "CI_MERGE_REQUEST_DESCRIPTION": "Closes #3",
           "CI_MERGE_REQUEST_SOURCE_BRANCH_NAME": "dry-run", "CI_MERGE_REQUEST_SOURCE_BRANCH_SHA": "",
           "CI_MERGE_REQUEST_TARGET_BRANCH_NAME": "main", "CI_MERGE_REQUEST_PROJECT_ID": "278964",
           "CI_MERGE_REQUEST_SOURCE_PROJECT_ID": "278964",
           "CI_MERGE_REQUEST_PROJECT_URL": "https://gitlab.com/gitlab-org/gitlab", "CI_COMMIT_SHA": "abc1234",
           "GITLAB_USER_LOGIN": "alice", "CI_JOB_URL": "https://gitlab.com/gitlab-org/gitlab/-/jobs/1"}
    ctx = detect("auto", env, None)
    pr = ctx.pull_request
    assert ctx.provider == "gitlab"
    assert (pr.number, pr.title, pr.body, pr.author, pr.branch, pr.sha, pr.fork) == \
        (17, "Draft: docs for --dry-run", "Closes #3", "alice", "dry-run", "abc1234", False)
    assert pr.url == "https://gitlab.com/gitlab-org/gitlab/-/merge_requests/17"
    forked = detect("auto", {**env, "CI_MERGE_REQUEST_SOURCE_PROJECT_ID": "999"}, None)
    assert forked.pull_request.fork is True


def test_gitlab_external_pull_request_variables():
    """GitLab CI/CD for external repositories: a GitHub pull request, named by CI_EXTERNAL_PULL_REQUEST_*."""
    env = {"GITLAB_CI": "true", "CI_PIPELINE_SOURCE": "external_pull_request_event",
           "CI_EXTERNAL_PULL_REQUEST_IID": "5", "CI_EXTERNAL_PULL_REQUEST_SOURCE_BRANCH_NAME": "fix",
           "CI_EXTERNAL_PULL_REQUEST_SOURCE_BRANCH_SHA": "abc1234",
           "CI_EXTERNAL_PULL_REQUEST_TARGET_BRANCH_NAME": "main",
           "CI_EXTERNAL_PULL_REQUEST_SOURCE_REPOSITORY": "acme/app",
           "CI_EXTERNAL_PULL_REQUEST_TARGET_REPOSITORY": "acme/app",
           "CI_COMMIT_REF_NAME": "fix", "CI_COMMIT_SHA": "def5678", "CI_COMMIT_TITLE": "Fix it"}
    ctx = detect("auto", env, None)
    pr = ctx.pull_request
    assert ctx.builds_pull_request and ctx.branch == "fix"
    assert (pr.number, pr.title, pr.branch, pr.sha, pr.base_branch, pr.fork) == \
        (5, "Fix it", "fix", "abc1234", "main", False)
    forked = detect("auto", {**env, "CI_EXTERNAL_PULL_REQUEST_SOURCE_REPOSITORY": "eve/app"}, None)
    assert forked.pull_request.fork is True


def test_gitlab_branch_pipeline_falls_back_to_commit_variables():
    env = {"GITLAB_CI": "true", "CI_COMMIT_BRANCH": "main", "CI_COMMIT_SHA": "def5678",
           "CI_COMMIT_TITLE": "Merge branch 'x'", "GITLAB_USER_LOGIN": "bob"}
    ctx = detect("auto", env, None)
    assert ctx.pull_request is None and (ctx.branch, ctx.sha) == ("main", "def5678")
    assert not ctx.builds_pull_request and not detect("auto", {**env, "CI_PIPELINE_SOURCE": "push"}).builds_pull_request


def test_jenkins_multibranch_pull_request():
    env = {"JENKINS_URL": "https://ci.example.test/", "CHANGE_ID": "88", "CHANGE_TITLE": "Rename DOCS_ROOT",
           "CHANGE_AUTHOR": "carol", "CHANGE_BRANCH": "rename-root", "CHANGE_TARGET": "main",
           "CHANGE_URL": "https://github.com/acme/app/pull/88", "GIT_COMMIT": "fedcba9",
           "BUILD_URL": "https://ci.example.test/job/app/PR-88/3/", "BRANCH_NAME": "PR-88"}
    ctx = detect("auto", env, None)
    pr = ctx.pull_request
    assert ctx.provider == "jenkins" and ctx.run_url == "https://ci.example.test/job/app/PR-88/3/"
    assert (pr.number, pr.title, pr.author, pr.branch, pr.sha) == (88, "Rename DOCS_ROOT", "carol",
                                                                   "rename-root", "fedcba9")
    # Jenkins has no description variable: an empty body is a valid pull request
    assert pr_data(settings(), ctx)["body"] == ""
    assert pr_data(settings(pr_body="From the SCM"), ctx)["body"] == "From the SCM"


def test_a_push_event_says_it_is_no_pull_request(tmp_path):
    event = tmp_path / "event.json"
    event.write_text('{"ref": "refs/heads/main", "after": "abc123"}')
    ctx = detect("auto", {"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "push", "GITHUB_EVENT_PATH": str(event)},
                 None)
    with pytest.raises(InputError) as refused:
        pr_data(settings(), ctx)
    assert str(refused.value) == ("docflow: this run is a push event, not a pull request: run the step on pull "
                                  "requests, or pass --pr-number, --pr-title, --pr-author")


def test_an_event_payload_of_the_wrong_shape_is_refused_or_read_as_absent(tmp_path):
    """The payload is read, not trusted: not an object is a one-line refusal; a member of another
    kind than GitHub documents counts as absent (each once stopped the step with a traceback)."""
    event = tmp_path / "event.json"
    env = {"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": str(event)}
    event.write_text("[1, 2]")
    with pytest.raises(InputError, match="is not a JSON object"):
        detect("auto", env, None)
    event.write_text('{"pull_request": {"number": 7, "title": ["x"], "head": "main", "base": [], '
                     '"user": "me", "body": 5}}')
    pr = detect("auto", env, None).pull_request
    assert (pr.number, pr.title, pr.branch, pr.author, pr.body, pr.fork) == (7, None, None, None, "", False)
    event.write_text('{"merge_group": {"head_ref": 3, "head_commit": {"message": {}, "author": "x"}}}')
    pr = detect("auto", env, None).pull_request
    assert (pr.number, pr.title, pr.author) == (None, None, None)


def test_local_uses_git_and_lists_every_missing_field(tmp_path):
    subprocess.run(["git", "init", "-q", "-b", "feature"], cwd=tmp_path, check=True)
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "x"],
                   cwd=tmp_path, check=True)
    ctx = detect("auto", {}, tmp_path)
    assert ctx.provider == "local" and ctx.branch == "feature" and len(ctx.sha) == 40
    with pytest.raises(InputError) as missing:
        pr_data(settings(pr_title="T"), ctx)
    assert str(missing.value).splitlines() == [
        "docflow: missing the pull request's number: pass --pr-number or set DOCSVC_PR_NUMBER",
        "docflow: missing the pull request's author: pass --pr-author or set DOCSVC_PR_AUTHOR"]


@pytest.mark.parametrize("env, provider", [
    ({"GITHUB_ACTIONS": "true"}, "github"), ({"GITLAB_CI": "true"}, "gitlab"),
    ({"GITLAB_CI": "false", "CI_JOB_ID": "12"}, "gitlab"), ({"GITLAB_CI": "false"}, "local"),
    ({"JENKINS_URL": "http://j/"}, "jenkins"), ({}, "local")])
def test_provider_detection(env, provider):
    assert detect_provider(env) == provider


def test_ci_provider_forces_a_provider():
    ctx = detect("jenkins", {"GITHUB_ACTIONS": "true", "CHANGE_ID": "5"}, None)
    assert ctx.provider == "jenkins" and ctx.pull_request.number == 5
