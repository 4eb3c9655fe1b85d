"""Deliveries through the real app on a real database (no job workers): what a signed delivery may
move. The secret proves who sent it, not what it concerns: a payload naming a repository that is
not the integration's own moves nothing, another integration's items are left alone, a merge is
final, and the idempotency middleware never answers for a webhook."""

from __future__ import annotations

import datetime as dt
import hashlib
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
from tests.support import delivered_now, github_example, github_headers, gitlab_example, gitlab_headers
from tests.unit.dbfixtures import db  # noqa: F401  (fixture)


class Setup:
    def __init__(self, db, tmp_path, settings: ServerSettings | None = None) -> None:
        self.db = db
        self.client = TestClient(create_app(settings or ServerSettings(database_url=db.url, data_dir=tmp_path),
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


# --- replays: the signature covers the body, not the delivery id ---------------------------------

def _review(repo: str, number: int, state: str, review_id: int) -> dict:
    """A real review payload; each review GitHub sends has its own id (and time)."""
    payload = github_example("pull_request_review", "submitted")
    payload["review"].update(state=state, id=review_id)
    payload["pull_request"]["number"] = number
    payload["repository"]["full_name"] = repo
    return payload


def _recorded(hooks, integration: int) -> list[WebhookDelivery]:
    with hooks.db.sessions() as session:
        rows = list(session.scalars(select(WebhookDelivery).where(WebhookDelivery.integration_id == integration)
                                    .order_by(WebhookDelivery.id)))
        session.expunge_all()
        return rows


def test_a_signed_body_sent_again_under_a_fresh_delivery_id_is_a_replay_and_moves_nothing(hooks):
    integration = hooks.integration("github", "acme/app", "acme/docs")
    item = hooks.docs_item(integration, "acme/docs", 5)
    asked = json.dumps(_review("acme/docs", 5, "changes_requested", 1)).encode()
    first = hooks.client.post(f"/api/v1/webhooks/github/{integration}", content=asked,
                              headers=github_headers(hooks.secrets[integration], "pull_request_review", asked))
    assert first.json()["outcome"] == "done"
    # A later, different review: its own body, taken.
    assert hooks.github(integration, "pull_request_review",
                        _review("acme/docs", 5, "approved", 2)).json()["outcome"] == "done"
    assert hooks.pull(item)[0]["review"] == "approved"

    # The first body, captured and sent again with a fresh X-GitHub-Delivery: still signed.
    fresh = str(uuid.uuid4())
    replay = hooks.client.post(f"/api/v1/webhooks/github/{integration}", content=asked, headers=github_headers(
        hooks.secrets[integration], "pull_request_review", asked, delivery=fresh))
    assert replay.status_code == 200, replay.text
    assert (replay.json()["delivery"], replay.json()["outcome"], replay.json()["job_id"]) == (fresh, "replay", None)
    assert first.json()["delivery"] in replay.json()["result"]
    assert hooks.pull(item)[0]["review"] == "approved"  # as the later review set it

    rows = _recorded(hooks, integration)
    assert [(r.outcome, r.action) for r in rows] == [("done", "submitted"), ("done", "submitted"),
                                                     ("replay", "submitted")]
    assert rows[0].body_sha256 == hashlib.sha256(asked).hexdigest() and rows[2].body_sha256 is None
    # The replay's own delivery id, sent again, is a plain redelivery.
    again = hooks.client.post(f"/api/v1/webhooks/github/{integration}", content=asked, headers=github_headers(
        hooks.secrets[integration], "pull_request_review", asked, delivery=fresh))
    assert again.json()["outcome"] == "redelivery" and len(_recorded(hooks, integration)) == 3


def test_deliveries_past_the_retention_go_and_an_event_that_old_moves_nothing(hooks):
    """A body is known as a replay only while its first delivery is kept: past the retention
    (90 days by default) the delivery is removed, and an event from before it is known by the time
    its signed payload says, so the review below stays as the newer one set it."""
    integration = hooks.integration("github", "acme/app", "acme/docs")
    item = hooks.docs_item(integration, "acme/docs", 8)
    now = dt.datetime.now(dt.timezone.utc)
    with hooks.db.sessions() as session:
        for days in (91, 89):
            session.add(WebhookDelivery(integration_id=integration, delivery_id=f"old-{days}", host="github",
                                        event="ping", outcome="done", result="pong",
                                        received_at=now - dt.timedelta(days=days)))
        session.commit()
    assert hooks.github(integration, "pull_request_review",
                        _review("acme/docs", 8, "approved", 3)).json()["outcome"] == "done"
    assert [r.delivery_id for r in _recorded(hooks, integration)][:1] == ["old-89"]  # 91 days: gone

    stamp = f"{now - dt.timedelta(days=91):%Y-%m-%dT%H:%M:%SZ}"
    old = delivered_now(_review("acme/docs", 8, "changes_requested", 2), stamp)
    answer = hooks.github(integration, "pull_request_review", old)
    assert (answer.status_code, answer.json()["outcome"]) == (200, "ignored"), answer.text
    assert "older than the 90 days deliveries are kept" in answer.json()["result"]
    assert hooks.pull(item)[0]["review"] == "approved"


def test_with_no_retention_deliveries_are_kept_and_an_old_event_is_taken(db, tmp_path):
    hooks = Setup(db, tmp_path, ServerSettings(database_url=db.url, data_dir=tmp_path, webhook_retention_days=0))
    integration = hooks.integration("github", "acme/app", "acme/docs")
    item = hooks.docs_item(integration, "acme/docs", 9)
    old = dt.datetime.now(dt.timezone.utc) - dt.timedelta(days=400)
    with hooks.db.sessions() as session:
        session.add(WebhookDelivery(integration_id=integration, delivery_id="old", host="github", event="ping",
                                    outcome="done", result="pong", received_at=old))
        session.commit()
    review = delivered_now(_review("acme/docs", 9, "changes_requested", 4), f"{old:%Y-%m-%dT%H:%M:%SZ}")
    assert hooks.github(integration, "pull_request_review", review).json()["outcome"] == "done"
    assert hooks.pull(item)[0]["review"] == "changes requested"
    assert [r.delivery_id for r in _recorded(hooks, integration)][0] == "old"


def test_a_replayed_push_queues_nothing_even_after_its_sync_ended(hooks):
    integration = hooks.integration("github", "acme/app", "acme/docs")
    body = json.dumps(_push("acme/app")).encode()

    def deliver():
        return hooks.client.post(f"/api/v1/webhooks/github/{integration}", content=body,
                                 headers=github_headers(hooks.secrets[integration], "push", body))

    taken = deliver()
    assert taken.status_code == 202, taken.text
    with hooks.db.sessions() as session:  # the sync ran: a push now would queue another
        session.get(Job, taken.json()["job_id"]).state = "completed"
        session.commit()
    jobs = hooks.jobs()
    replay = deliver()
    assert (replay.status_code, replay.json()["outcome"]) == (200, "replay") and hooks.jobs() == jobs


def test_a_gitlab_body_replayed_under_a_new_idempotency_key_moves_nothing(hooks):
    """GitLab's token is the secret itself, no signature of the body: its digest is the only guard."""
    integration = hooks.integration("gitlab", "acme/tools/app", "acme/tools/docs")
    item = hooks.docs_item(integration, "acme/tools/docs", 6)

    def approval(action: str, updated_at: str) -> bytes:
        payload = gitlab_example("merge_request")
        payload["object_attributes"].update(iid=6, action=action, updated_at=updated_at,
                                            source_branch=f"docsvc/suggestion-{item}")
        payload["project"]["path_with_namespace"] = "acme/tools/docs"
        return json.dumps(payload).encode()

    def deliver(body: bytes, key: str | None = None):
        return hooks.client.post(f"/api/v1/webhooks/gitlab/{integration}", content=body, headers=gitlab_headers(
            hooks.secrets[integration], "Merge Request Hook", key))

    now = dt.datetime.now(dt.timezone.utc)
    approved = approval("approved", f"{now - dt.timedelta(minutes=10):%Y-%m-%d %H:%M:%S} UTC")  # GitLab's own form
    assert deliver(approved).json()["outcome"] == "done"
    assert deliver(approval("unapproved", f"{now:%Y-%m-%d %H:%M:%S} UTC")).json()["outcome"] == "done"
    assert hooks.pull(item)[0]["review"] == "review required"
    replay = deliver(approved)  # a fresh Idempotency-Key and event UUID
    assert (replay.status_code, replay.json()["outcome"]) == (200, "replay"), replay.text
    assert hooks.pull(item)[0]["review"] == "review required"


def test_the_same_body_for_another_integration_and_a_refused_body_are_no_replays(hooks):
    first = hooks.integration("github", "acme/app", "acme/docs")
    second = hooks.integration("github", "acme/tool", "acme/tooldocs")
    ping = github_example("ping")
    for integration in (first, second):  # a digest is claimed per integration
        assert hooks.github(integration, "ping", ping).json()["outcome"] == "done"
    form = b"payload=%7B%22zen%22%3A%22x%22%7D"
    for _ in range(2):  # a body not taken claims nothing: refused again, not answered as a replay
        answer = hooks.client.post(f"/api/v1/webhooks/github/{first}", content=form,
                                   headers=github_headers(hooks.secrets[first], "ping", form))
        assert answer.status_code == 400, answer.text
    assert [r.outcome for r in _recorded(hooks, first)] == ["done", "refused", "refused"]


def test_migration_0009_keeps_the_deliveries_before_it_and_claims_a_body_once(tmp_path):
    from alembic import command
    from sqlalchemy import inspect, text
    from sqlalchemy.exc import IntegrityError

    from docsvc.server.db.migrate import alembic_config, upgrade
    from docsvc.server.db.session import make_engine
    from tests.support import TestDatabase, backends

    for backend in backends():
        database = TestDatabase(backend, tmp_path / backend)
        (tmp_path / backend).mkdir()
        engine = make_engine(database.url)
        try:
            config = alembic_config(database.url)
            command.upgrade(config, "0008")
            insert = ("INSERT INTO webhook_deliveries (integration_id, delivery_id, host, event, outcome, result, "
                      "received_at{0}) VALUES (1, :d, 'github', 'ping', 'done', 'pong', '2026-11-29T05:00:00Z'{1})")
            with engine.begin() as connection:
                connection.execute(text("INSERT INTO organizations (id, name, created_at) VALUES (1, 'O', "
                                        "'2026-01-01T00:00:00Z')"))
                for n in (1, 2):
                    connection.execute(text(
                        "INSERT INTO integrations (id, org_id, name, code_repo, code_branch, docs_repo, docs_branch, "
                        f"docs_path, keep_in_sync, host, created_at) VALUES ({n}, 1, 'i{n}', '/c', 'main', '/d', "
                        "'main', 'docs', false, 'github', '2026-01-01T00:00:00Z')"))
                for delivery in ("old-1", "old-2"):
                    connection.execute(text(insert.format("", "")), {"d": delivery})
            upgrade(database.url)
            with engine.begin() as connection:
                assert connection.execute(text("SELECT count(*) FROM webhook_deliveries "
                                               "WHERE body_sha256 IS NULL")).scalar_one() == 2
                connection.execute(text(insert.format(", body_sha256", ", 'ab'")), {"d": "new-1"})
            with pytest.raises(IntegrityError), engine.begin() as connection:
                connection.execute(text(insert.format(", body_sha256", ", 'ab'")), {"d": "new-2"})
            with engine.begin() as connection:  # another integration may take the same body
                connection.execute(text(insert.format(", body_sha256", ", 'ab'").replace("VALUES (1,", "VALUES (2,")),
                                   {"d": "new-1"})
            command.downgrade(config, "0008")
            assert "body_sha256" not in {c["name"] for c in inspect(engine).get_columns("webhook_deliveries")}
            with pytest.raises(IntegrityError), engine.begin() as connection:  # 0008's own constraint stays
                connection.execute(text(insert.format("", "")), {"d": "old-1"})
        finally:
            engine.dispose()
            database.drop()
