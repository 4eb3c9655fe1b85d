"""Deliveries through the real app on a real database (no job workers): what a signed delivery may
move. The secret proves who sent it, not what it concerns: a payload naming a repository that is
not the integration's own moves nothing, another integration's items are left alone, a merge is
final, and the idempotency middleware never answers for a webhook."""

from __future__ import annotations

import json
import uuid

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from docsvc.server.app import create_app
from docsvc.server.db.tables import Item, Job, Organization, WebhookDelivery
from docsvc.server.services.integrations import add_integration
from docsvc.server.services.items import add_item
from docsvc.server.services.webhooks import secret_for
from docsvc.server.settings import ServerSettings
from tests.support import github_example, github_headers, gitlab_example, gitlab_headers
from tests.unit.dbfixtures import db  # noqa: F401  (fixture)


class Setup:
    def __init__(self, db, tmp_path) -> None:
        self.db = db
        self.client = TestClient(create_app(ServerSettings(database_url=db.url, data_dir=tmp_path),
                                            start_workers=False))
        self.secrets: dict[int, str] = {}

    def integration(self, host: str, code: str | None, docs: str, org_id: int | None = None) -> int:
        """An integration on local paths whose projects on ``host`` are ``code`` and ``docs``."""
        with self.db.sessions() as session:
            org = session.get(Organization, org_id or self.db.org_id)
            made = add_integration(session, org, name=f"{docs}-{uuid.uuid4().hex[:6]}", code_repo="/srv/code.git",
                                   docs_repo="/srv/docs.git", keep_in_sync=True, host=host, host_token_env="TOKEN",
                                   code_host_repo=code, docs_host_repo=docs)
            self.secrets[made.id] = secret_for(session, made)
            session.commit()
            return made.id

    def docs_item(self, integration: int, repo: str, number: int) -> int:
        """An item in review whose docs pull request docsvc opened through ``integration``."""
        with self.db.sessions() as session:
            item = add_item(session, session.get(Organization, self.db.org_id), "docflows", f"Docs #{number}")
            item.pull_request = {"url": f"https://github.com/{repo}/pull/{number}", "state": "open",
                                 "review": "review required", "number": number, "host": "github", "repo": repo,
                                 "branch": f"docsvc/suggestion-{item.id}", "integration_id": integration}
            item.work_status = "in_review"
            session.commit()
            return item.id

    def pull(self, item: int) -> tuple[dict, str]:
        with self.db.sessions() as session:
            found = session.get(Item, item)
            return dict(found.pull_request), found.work_status

    def jobs(self) -> int:
        with self.db.sessions() as session:
            return session.scalar(select(func.count()).select_from(Job))

    def github(self, integration: int, event: str, payload: dict, **headers: str):
        body = json.dumps(payload).encode()
        return self.client.post(f"/api/v1/webhooks/github/{integration}", content=body,
                                headers={**github_headers(self.secrets[integration], event, body), **headers})


@pytest.fixture()
def hooks(db, tmp_path):
    return Setup(db, tmp_path)


def _closed(repo: str, number: int, branch: str, merged: bool = False) -> dict:
    payload = github_example("pull_request", "closed")
    pull = payload["pull_request"]
    payload["number"] = pull["number"] = number
    pull["merged"] = merged
    pull["head"]["ref"] = branch
    pull["head"]["repo"]["full_name"] = pull["base"]["repo"]["full_name"] = payload["repository"]["full_name"] = repo
    return payload


def _push(repo: str, branch: str = "main") -> dict:
    from tests.support import _octokit_examples

    github_example("push")
    payload = json.loads(json.dumps(next(e for e in _octokit_examples()["push"] if e["ref"].startswith("refs/heads/"))))
    payload["ref"] = f"refs/heads/{branch}"
    payload["repository"]["full_name"] = repo
    return payload


def test_another_integrations_webhook_moves_none_of_its_items(hooks):
    mine = hooks.integration("github", "acme/app", "acme/docs")
    item = hooks.docs_item(mine, "acme/docs", 1)
    before = hooks.pull(item)
    other = hooks.integration("github", "acme/other", "acme/otherdocs")  # same organisation, its own repositories
    sharing = hooks.integration("github", "acme/tool", "acme/docs")  # the same docs repository, its own secret
    for integration in (other, sharing):
        answer = hooks.github(integration, "pull_request", _closed("acme/docs", 1, f"docsvc/suggestion-{item}"))
        assert answer.status_code == 200 and answer.json()["outcome"] == "ignored", answer.text
        review = github_example("pull_request_review", "submitted")
        review["review"]["state"] = "changes_requested"
        review["pull_request"]["number"] = 1
        review["repository"]["full_name"] = "acme/docs"
        assert hooks.github(integration, "pull_request_review", review).json()["outcome"] == "ignored"
    assert "neither the code repository nor the docs repository" in \
        hooks.github(other, "pull_request", _closed("acme/docs", 1, "x")).json()["result"]
    assert hooks.pull(item) == before
    # Its own webhook moves it.
    assert hooks.github(mine, "pull_request", _closed("acme/docs", 1, "x")).json()["outcome"] == "done"
    assert hooks.pull(item)[0]["state"] == "closed"


def test_a_push_naming_another_repository_syncs_nothing(hooks):
    code_only = hooks.integration("github", "acme/app", "acme/docs")
    jobs = hooks.jobs()
    for repo in ("someone/else", "acme/docs"):  # another repository; the docs one, pushed on the code branch's name
        answer = hooks.github(code_only, "push", _push(repo, "feature" if repo == "acme/docs" else "main"))
        assert answer.status_code == 200 and answer.json()["outcome"] == "ignored", answer.text
    assert hooks.jobs() == jobs
    answer = hooks.github(code_only, "push", _push("ACME/App"))  # GitHub's names ignore case
    assert answer.status_code == 202 and hooks.jobs() == jobs + 1


def test_a_code_pull_request_needs_the_code_repository_known(hooks):
    unknown = hooks.integration("github", None, "acme/docs")
    payload = github_example("pull_request", "opened")
    payload["repository"]["full_name"] = "anyone/anything"
    answer = hooks.github(unknown, "pull_request", payload)
    assert answer.json()["outcome"] == "ignored" and "--code-host-repo OWNER/NAME" in answer.json()["result"]
    assert hooks.jobs() == 0


def test_a_merged_docs_pull_request_stays_merged(hooks):
    integration = hooks.integration("github", "acme/app", "acme/docs")
    item = hooks.docs_item(integration, "acme/docs", 4)
    branch = f"docsvc/suggestion-{item}"
    assert hooks.github(integration, "pull_request", _closed("acme/docs", 4, branch, merged=True)).status_code == 200
    late = hooks.github(integration, "pull_request", _closed("acme/docs", 4, branch))  # an older event, late
    assert late.json()["outcome"] == "ignored"
    assert (hooks.pull(item)[0]["state"], hooks.pull(item)[1]) == ("merged", "done")


def test_an_api_key_and_idempotency_key_never_answer_for_a_webhook(hooks):
    """GitLab sends an Idempotency-Key of its own. A forged delivery that carries an API key of the
    organisation and the key the real one will carry must not have its 401 replayed to the real one
    (nor a second delivery be refused as a key reused)."""
    integration = hooks.integration("gitlab", "acme/tools/app", "acme/tools/docs")
    payload = gitlab_example("push")
    payload["project"]["path_with_namespace"] = "acme/tools/app"
    payload["ref"] = "refs/heads/main"
    body = json.dumps(payload).encode()
    key = str(uuid.uuid4())

    def deliver(token: str, content: bytes):
        headers = {**gitlab_headers(token, "Push Hook", key), "Authorization": f"Bearer {hooks.db.key}"}
        return hooks.client.post(f"/api/v1/webhooks/gitlab/{integration}", content=content, headers=headers)

    assert deliver("forged", body).status_code == 401
    real = deliver(hooks.secrets[integration], body)
    assert real.status_code == 202 and real.json()["outcome"] == "done", real.text
    again = deliver(hooks.secrets[integration], body + b" ")  # GitLab's retry: the delivery's own record answers
    assert again.status_code == 200 and again.json()["outcome"] == "redelivery", again.text
    with hooks.db.sessions() as session:
        assert session.scalar(select(func.count()).select_from(WebhookDelivery)) == 1


def test_json_nested_too_deeply_is_400_naming_it(hooks):
    integration = hooks.integration("github", "acme/app", "acme/docs")
    for body, why in ((b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
                      (b'{"a":' * 100_000 + b"1" + b"}" * 100_000, "nested too deeply"),
                      (b"payload=%7B%7D", "set the webhook's content type to application/json")):
        answer = hooks.client.post(f"/api/v1/webhooks/github/{integration}", content=body,
                                   headers=github_headers(hooks.secrets[integration], "push", body))
        assert answer.status_code == 400 and answer.headers["content-type"] == "application/problem+json"
        assert why in answer.json()["detail"], answer.text
    assert hooks.github(integration, "ping", github_example("ping")).status_code == 200


def test_a_delivery_on_another_hosts_path_or_to_plain_git_is_refused(hooks):
    lab = hooks.integration("gitlab", "acme/tools/app", "acme/tools/docs")
    # the GitLab integration's own secret, signing as GitHub does, on the GitHub path
    assert hooks.github(lab, "ping", github_example("ping")).status_code == 401
    hub = hooks.integration("github", "acme/app", "acme/docs")
    assert hooks.github(hub, "ping", github_example("ping")).status_code == 200
    with hooks.db.sessions() as session:
        from docsvc.server.services.integrations import update_integration

        update_integration(session, hub, host="git")
        session.commit()
    refused = hooks.github(hub, "ping", github_example("ping"))
    assert refused.status_code == 401 and refused.headers["content-type"] == "application/problem+json"
