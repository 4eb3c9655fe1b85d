"""What the CI system already knows: provider, branch, commit, run link, and the pull request.

Sources, as each system documents them:
- GitHub Actions: the event payload at ``GITHUB_EVENT_PATH`` (``pull_request``,
  ``pull_request_target``, ``push``, ``workflow_dispatch``, ``merge_group``, and ``workflow_run``
  with the step's pr-number/pr-sha inputs: the fork-safe pattern of docs/ci/github.md); Enterprise servers
  through ``GITHUB_SERVER_URL`` and ``GITHUB_API_URL``.
- GitLab CI: ``CI_MERGE_REQUEST_*`` variables (merge request pipelines), ``CI_EXTERNAL_PULL_REQUEST_*``
  (a GitHub pull request built by GitLab CI/CD for external repositories), falling back to ``CI_COMMIT_*``.
  GitLab has no variable for a merge request's author: ``GITLAB_USER_LOGIN`` is who started the pipeline.
- Jenkins (multibranch): ``CHANGE_*``, ``GIT_COMMIT``, ``BUILD_URL``.
- Local: git for branch and commit.
"""

from __future__ import annotations

import json
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from .settings import InputError


# Events that build a pull request's code: GitHub event names, and GitLab pipeline sources
# (merge_request_event: merge request pipelines, merged results and merge trains included;
# external_pull_request_event: a GitHub pull request built by GitLab CI/CD for external repositories).
# The others (push, schedule, web, api, trigger, ...) build the project's own branches.
PR_EVENTS = ("pull_request", "pull_request_target", "pull_request_review", "pull_request_review_comment",
             "merge_group", "merge_request_event", "external_pull_request_event")


@dataclass
class PullRequest:
    number: int | None = None
    title: str | None = None
    body: str | None = None
    author: str | None = None
    branch: str | None = None
    sha: str | None = None
    url: str | None = None
    base_branch: str | None = None
    fork: bool = False


@dataclass
class CiContext:
    provider: str
    event: str | None = None
    branch: str | None = None
    sha: str | None = None
    run_url: str | None = None
    server_url: str | None = None
    api_url: str | None = None
    repository: str | None = None
    pull_request: PullRequest | None = None
    notes: list[str] = field(default_factory=list)  # notices
    warnings: list[str] = field(default_factory=list)

    @property
    def builds_pull_request(self) -> bool:
        """Whether the workspace is a pull request's code: a pull request was found, or the event
        (GitHub's event name, GitLab's CI_PIPELINE_SOURCE) is one that builds one even when its
        variables are missing."""
        return self.pull_request is not None or self.event in PR_EVENTS


def detect_provider(env: Mapping[str, str]) -> str:
    if env.get("GITHUB_ACTIONS") == "true":
        return "github"
    # GitLab sets GITLAB_CI=true; gitlab-ci-local sets it to "false" to say "a local run", which
    # is still GitLab CI's job format.
    if env.get("GITLAB_CI") == "true" or (env.get("GITLAB_CI") == "false" and env.get("CI_JOB_ID")):
        return "gitlab"
    if env.get("JENKINS_URL") or env.get("JENKINS_HOME"):
        return "jenkins"
    return "local"


def provider_of(requested: str | None, env: Mapping[str, str]) -> str:
    """The CI system to report to: the one asked for, or the one the environment shows."""
    return detect_provider(env) if requested in (None, "", "auto") else requested


def detect(provider: str, env: Mapping[str, str], cwd: Path | None = None,
           inputs: Mapping[str, Any] | None = None) -> CiContext:
    """``inputs``: the step's resolved settings (``CiSettings.values``); GitHub's workflow_run
    takes its pull request's number and head commit from them, and the fork notice says whether
    the run holds an API key."""
    provider = provider_of(provider, env)
    if provider == "github":
        return _github(env, cwd, inputs or {})
    return {"gitlab": _gitlab, "jenkins": _jenkins, "local": _local}[provider](env, cwd)


def _obj(value) -> dict:
    """A payload member that should be an object: itself, or ``{}`` when it is anything else."""
    return value if isinstance(value, dict) else {}


def _text(value) -> str | None:
    """A payload member that should be text: itself, or None when it is empty or anything else."""
    return value if isinstance(value, str) and value else None


def _int(value) -> int | None:
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        return None


# What a workflow_run event's triggering run was, when it ran for a pull request.
_WORKFLOW_RUN_PR_EVENTS = ("pull_request", "pull_request_target", "pull_request_review",
                           "pull_request_review_comment")


def _fork_note(event: str | None, has_key: bool) -> str | None:
    """The notice for a fork's pull request, true whether or not this run holds the API key
    (without one, the runner's skip notice says why)."""
    if not has_key:
        return None
    return (f"the pull request comes from a fork and this {event or 'GitHub'} run holds the API key: "
            "it must not check out or run the fork's code")


def _github(env: Mapping[str, str], cwd, inputs: Mapping[str, Any]) -> CiContext:
    server = (env.get("GITHUB_SERVER_URL") or "https://github.com").rstrip("/")
    api = (env.get("GITHUB_API_URL") or ("https://api.github.com" if server == "https://github.com"
                                        else f"{server}/api/v3")).rstrip("/")
    repository = env.get("GITHUB_REPOSITORY")
    ctx = CiContext(
        provider="github", event=env.get("GITHUB_EVENT_NAME"), server_url=server, api_url=api,
        repository=repository, branch=env.get("GITHUB_HEAD_REF") or env.get("GITHUB_REF_NAME"),
        sha=env.get("GITHUB_SHA"),
        run_url=f"{server}/{repository}/actions/runs/{env['GITHUB_RUN_ID']}"
        if repository and env.get("GITHUB_RUN_ID") else None)
    path = env.get("GITHUB_EVENT_PATH")
    if not path:
        return ctx
    try:
        payload = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InputError(f"GITHUB_EVENT_PATH: cannot read the event payload {path}: {exc}") from None
    if not isinstance(payload, dict):
        raise InputError(f"GITHUB_EVENT_PATH: the event payload {path} is not a JSON object")
    # Each member is read as the kind GitHub documents, and a member of another kind counts as absent.
    pr = payload.get("pull_request")
    if isinstance(pr, dict):  # pull_request, pull_request_target (and review events)
        head, base = _obj(pr.get("head")), _obj(pr.get("base"))
        head_repo, base_repo = _obj(head.get("repo")), _obj(base.get("repo"))
        ctx.pull_request = PullRequest(
            number=_int(pr.get("number") or payload.get("number")), title=_text(pr.get("title")),
            body=_text(pr.get("body")) or "", author=_text(_obj(pr.get("user")).get("login")),
            branch=_text(head.get("ref")),
            # The PR head, not GITHUB_SHA: on pull_request that is a merge commit made by GitHub.
            sha=_text(head.get("sha")), url=_text(pr.get("html_url")), base_branch=_text(base.get("ref")),
            fork=head_repo.get("fork") is True or (bool(head_repo) and head_repo.get("full_name") !=
                                                    base_repo.get("full_name")))
        ctx.branch, ctx.sha = ctx.pull_request.branch or ctx.branch, ctx.pull_request.sha or ctx.sha
    elif isinstance(payload.get("workflow_run"), dict):
        _workflow_run(ctx, payload["workflow_run"], inputs)
    elif isinstance(payload.get("merge_group"), dict):
        group = payload["merge_group"]
        head_ref = _text(group.get("head_ref")) or ""
        match = re.search(r"/pr-(\d+)-", head_ref)
        commit = _obj(group.get("head_commit"))
        author = _obj(commit.get("author"))
        message = (_text(commit.get("message")) or "").split("\n", 1)
        ctx.pull_request = PullRequest(
            number=_int(match.group(1)) if match else None, title=message[0] or None,
            body=message[1].strip() if len(message) > 1 else "",
            author=_text(author.get("username")) or _text(author.get("name")),
            branch=head_ref.removeprefix("refs/heads/") or None, sha=_text(group.get("head_sha")),
            base_branch=(_text(group.get("base_ref")) or "").removeprefix("refs/heads/") or None)
        ctx.sha = ctx.pull_request.sha or ctx.sha
    elif "after" in payload and "ref" in payload:  # push
        ctx.sha = _text(payload.get("after")) or ctx.sha
        ctx.branch = (_text(payload.get("ref")) or "").removeprefix("refs/heads/") or ctx.branch
    if ctx.pull_request is not None and ctx.pull_request.fork:
        if note := _fork_note(ctx.event, bool(inputs.get("api_key"))):
            ctx.notes.append(note)
    return ctx


def _workflow_run(ctx: CiContext, run: dict, inputs: Mapping[str, Any]) -> None:
    """The fork-safe pattern of docs/ci/github.md: a workflow_run workflow acts for the pull request of the
    run that triggered it. GitHub's payload has the head (branch, commit, repository) but, for a
    fork, no pull request number (``workflow_run.pull_requests`` is empty): that comes from the
    pr-number input; GITHUB_REF_NAME is the base repository's default branch, never the head."""
    head_sha = _text(inputs.get("pr_sha")) or _text(run.get("head_sha"))
    number = _int(inputs.get("pr_number"))
    listed = [_obj(pr) for pr in run.get("pull_requests") or [] if isinstance(pr, dict)]
    if number is None:  # same-repository pull requests are listed, with their head
        same_head = [pr for pr in listed if _obj(pr.get("head")).get("sha") == run.get("head_sha")]
        number = _int(same_head[0].get("number")) if len(same_head) == 1 else None
    if number is None and run.get("event") not in _WORKFLOW_RUN_PR_EVENTS:
        return  # the triggering run was a push or the like: no pull request here
    head_repo, base_repo = _obj(run.get("head_repository")), _obj(run.get("repository"))
    head_name, base_name = _text(head_repo.get("full_name")), _text(base_repo.get("full_name")) or ctx.repository
    base_ref = next((_text(_obj(pr.get("base")).get("ref")) for pr in listed
                     if _int(pr.get("number")) == number), None)
    ctx.pull_request = PullRequest(
        number=number, title=_text(run.get("display_title")), branch=_text(run.get("head_branch")),
        sha=head_sha, base_branch=base_ref,
        url=f"{ctx.server_url}/{ctx.repository}/pull/{number}" if number is not None and ctx.repository else None,
        fork=head_name != base_name if head_name and base_name else head_repo.get("fork") is True)
    ctx.branch, ctx.sha = ctx.pull_request.branch or ctx.branch, ctx.pull_request.sha or ctx.sha
    if number is None:
        ctx.warnings.append(f"workflow_run: the {run.get('event')} run's pull request number is unknown "
                            "(GitHub lists none for a fork): pass pr-number, or there is no pull request "
                            "comment and docflow cannot run")


def _gitlab(env: Mapping[str, str], cwd) -> CiContext:
    ctx = CiContext(provider="gitlab", event=env.get("CI_PIPELINE_SOURCE"),
                    branch=env.get("CI_COMMIT_BRANCH") or env.get("CI_COMMIT_REF_NAME"),
                    sha=env.get("CI_COMMIT_SHA"), run_url=env.get("CI_JOB_URL") or env.get("CI_PIPELINE_URL"),
                    server_url=env.get("CI_SERVER_URL"), api_url=env.get("CI_API_V4_URL"),
                    repository=env.get("CI_PROJECT_PATH"))
    if env.get("CI_MERGE_REQUEST_IID"):
        source, target = env.get("CI_MERGE_REQUEST_SOURCE_PROJECT_ID"), env.get("CI_MERGE_REQUEST_PROJECT_ID")
        ctx.pull_request = PullRequest(
            number=_int(env["CI_MERGE_REQUEST_IID"]),
            title=env.get("CI_MERGE_REQUEST_TITLE") or env.get("CI_COMMIT_TITLE"),
            body=env.get("CI_MERGE_REQUEST_DESCRIPTION") or env.get("CI_COMMIT_DESCRIPTION") or "",
            # GitLab has no variable for the merge request's author (its predefined variables list
            # none, 17.10): this is whoever started the pipeline; pr-author overrides it.
            author=env.get("GITLAB_USER_LOGIN"),
            branch=env.get("CI_MERGE_REQUEST_SOURCE_BRANCH_NAME") or ctx.branch,
            # Only merged-results pipelines set the source SHA; otherwise the commit is the head.
            sha=env.get("CI_MERGE_REQUEST_SOURCE_BRANCH_SHA") or env.get("CI_COMMIT_SHA"),
            url=f"{env['CI_MERGE_REQUEST_PROJECT_URL']}/-/merge_requests/{env['CI_MERGE_REQUEST_IID']}"
            if env.get("CI_MERGE_REQUEST_PROJECT_URL") else None,
            base_branch=env.get("CI_MERGE_REQUEST_TARGET_BRANCH_NAME"),
            fork=bool(source and target and source != target))
        ctx.branch = ctx.pull_request.branch
    elif env.get("CI_EXTERNAL_PULL_REQUEST_IID"):
        # GitLab names the pull request's branches and commits, not its title, body or author.
        source = env.get("CI_EXTERNAL_PULL_REQUEST_SOURCE_REPOSITORY")
        target = env.get("CI_EXTERNAL_PULL_REQUEST_TARGET_REPOSITORY")
        ctx.pull_request = PullRequest(
            number=_int(env["CI_EXTERNAL_PULL_REQUEST_IID"]), title=env.get("CI_COMMIT_TITLE"),
            body=env.get("CI_COMMIT_DESCRIPTION") or "", author=env.get("GITLAB_USER_LOGIN"),
            branch=env.get("CI_EXTERNAL_PULL_REQUEST_SOURCE_BRANCH_NAME") or ctx.branch,
            sha=env.get("CI_EXTERNAL_PULL_REQUEST_SOURCE_BRANCH_SHA") or env.get("CI_COMMIT_SHA"),
            base_branch=env.get("CI_EXTERNAL_PULL_REQUEST_TARGET_BRANCH_NAME"),
            fork=bool(source and target and source != target))
        ctx.branch = ctx.pull_request.branch
    return ctx


def _jenkins(env: Mapping[str, str], cwd) -> CiContext:
    ctx = CiContext(provider="jenkins", branch=env.get("BRANCH_NAME") or env.get("GIT_BRANCH"),
                    sha=env.get("GIT_COMMIT"), run_url=env.get("BUILD_URL"), server_url=env.get("JENKINS_URL"))
    if env.get("CHANGE_ID"):
        ctx.pull_request = PullRequest(
            number=_int(env["CHANGE_ID"]), title=env.get("CHANGE_TITLE"), body=env.get("CHANGE_DESCRIPTION"),  # Jenkins has no description variable
            author=env.get("CHANGE_AUTHOR"), branch=env.get("CHANGE_BRANCH"), sha=env.get("GIT_COMMIT"),
            url=env.get("CHANGE_URL"), base_branch=env.get("CHANGE_TARGET"), fork=bool(env.get("CHANGE_FORK")))
        ctx.branch = env.get("CHANGE_BRANCH") or ctx.branch
    return ctx


def _git(args: list[str], cwd) -> str | None:
    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() or None if done.returncode == 0 else None


def _local(env: Mapping[str, str], cwd) -> CiContext:
    branch = _git(["rev-parse", "--abbrev-ref", "HEAD"], cwd)
    return CiContext(provider="local", branch=None if branch == "HEAD" else branch,
                     sha=_git(["rev-parse", "HEAD"], cwd))
