"""DocOps Assistant chats through the real CLI against the real local service: a question answered
from a synced docs repository with citations by path and line, saved as the asker's chat, and
invisible to everyone else."""

from __future__ import annotations

import json

import httpx
import pytest

from tests.support import LocalService, connected_org, run_cli

KEYS_DOC = """# API keys

Keys authenticate every request of the CLI and the API.

## Rotating a key

API keys expire after 90 days. To rotate an API key, open the Settings tab
and click Generate New Key in the API Keys section.
The old key keeps working for one hour.

## Scopes

Scopes are not supported yet.
"""
BILLING_DOC = "# Billing\n\nInvoices are emailed on the first day of each month.\n"


def line_of(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if needle in line)


@pytest.fixture(scope="module")
def org(service: LocalService, tmp_path_factory):
    root = tmp_path_factory.mktemp("chat-repos")
    key, integration = connected_org(service, root, "Chatty",
                                     docs={"docs/keys.md": KEYS_DOC, "docs/billing.md": BILLING_DOC})
    synced = run_cli("sync", "--integration-id", integration, key=key, base_url=service.base_url)
    assert synced.returncode == 0, synced.stderr
    service.admin("users", "add", "--org", "Chatty", "--email", "wes@chatty.test", "--role", "writer",
                  "--name", "Wes")
    wes_key = service.admin("keys", "create", "--email", "wes@chatty.test")
    return service, key, wes_key


def cli(org, *args, key=None):
    service, admin_key, _ = org
    return run_cli(*args, key=key or admin_key, base_url=service.base_url)


def test_answer_cites_path_and_lines_and_is_saved(org):
    done = cli(org, "chat", "ask", "How do I rotate an API key?")
    assert done.returncode == 0, done.stderr
    first, last = line_of(KEYS_DOC, "Keys authenticate"), line_of(KEYS_DOC, "click Generate New Key")
    # Sentences with at least two of the three words (rotate, api, key), in reading order; the
    # one with a single word ("The old key keeps working") is left out.
    assert done.stdout.splitlines()[0] == (
        "Keys authenticate every request of the CLI and the API. [1] API keys expire after 90 days. [1] "
        "To rotate an API key, open the Settings tab and click Generate New Key in the API Keys section. [1]")
    assert f"  [1] docs/keys.md:{first}-{last}  API keys" in done.stdout.splitlines()
    assert "extractive" in done.stdout and "Billing" not in done.stdout and "old key" not in done.stdout
    chat_id = int(done.stderr.strip().splitlines()[-1].split()[1])  # "Chat <id> saved"
    saved = json.loads(cli(org, "chat", "show", str(chat_id), "--json").stdout)
    assert saved["question"] == "How do I rotate an API key?" and saved["tool"] == "chats"
    assert [(c["path"], c["start_line"], c["end_line"]) for c in saved["citations"]] == [
        ("docs/keys.md", first, last)]
    shown = cli(org, "chat", "show", str(chat_id))
    assert shown.returncode == 0 and shown.stdout.startswith("Q: How do I rotate an API key?\n")


def test_json_carries_answer_and_citations(org):
    done = cli(org, "chat", "ask", "When are invoices emailed?", "--json")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["answer"] == "Invoices are emailed on the first day of each month. [1]"
    assert [(c["path"], c["start_line"], c["end_line"]) for c in answer["citations"]] == [
        ("docs/billing.md", 3, 3)]
    # the saved chat, whole: as `chat show --json` prints it
    assert answer == json.loads(cli(org, "chat", "show", str(answer["id"]), "--json").stdout)
    assert answer["title"] and answer["created_at"]


def test_no_matching_passage_is_said_and_still_saved(org):
    done = cli(org, "chat", "ask", "How do I configure SAML single sign-on?", "--json")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["answer"].startswith("The docs have no answer") and answer["citations"] == []
    assert cli(org, "chat", "show", str(answer["id"])).returncode == 0


def test_chats_are_private_to_their_creator(org):
    service, admin_key, wes_key = org
    asked = json.loads(cli(org, "chat", "ask", "Are scopes supported?", "--json", key=wes_key).stdout)
    assert asked["citations"][0]["path"] == "docs/keys.md"
    listed = cli(org, "items", "list", "chats", "--json", key=wes_key)
    assert [i["id"] for i in json.loads(listed.stdout)] == [asked["id"]]
    # The System Administrator does not see Wes's chat, and Wes does not see theirs.
    hidden = cli(org, "chat", "show", str(asked["id"]))
    assert hidden.returncode == 1 and hidden.stderr.strip() == f"Error: Chat {asked['id']} not found"
    assert asked["id"] not in [i["id"] for i in json.loads(cli(org, "items", "list", "chats", "--json").stdout)]
    admins = json.loads(cli(org, "items", "list", "chats", "--json").stdout)
    assert admins and cli(org, "chat", "show", str(admins[0]["id"]), key=wes_key).returncode == 1
    # 'rejected' does not apply to chats: the CLI and the service both refuse it.
    assert cli(org, "items", "status", "chats", str(asked["id"]), "rejected", key=wes_key).returncode == 2
    refused = httpx.patch(f"{service.base_url}/api/v1/items/chats/{asked['id']}",
                          json={"work_status": "rejected"}, headers={"Authorization": f"Bearer {wes_key}"})
    assert refused.status_code == 422


def test_empty_question_is_a_usage_error(org):
    done = cli(org, "chat", "ask", "   ")
    assert done.returncode == 2 and "must not be empty" in done.stderr


def test_a_chats_job_is_visible_only_to_the_chats_author(org):
    """``GET /jobs/<id>`` of a chat's job shows the question and the answer: for anyone but the
    author it does not exist, while queued and once done, as for the chat itself (issue 14)."""
    from docsvc.client import Client, NotFoundError

    service, admin_key, wes_key = org
    service.admin("users", "add", "--org", "Chatty", "--email", "cy@chatty.test", "--role", "writer")
    cy_key = service.admin("keys", "create", "--email", "cy@chatty.test")
    with Client(wes_key, service.base_url) as wes, Client(admin_key, service.base_url) as admin, \
            Client(cy_key, service.base_url) as cy:
        job_id = wes.chats.create("How long does the old key keep working?").job_id
        for colleague in (admin, cy):  # at once, most likely still queued
            with pytest.raises(NotFoundError):
                colleague.jobs.get(job_id)
        done = wes.jobs.wait(job_id, timeout=60)
        answer = done.result["answer"]
        assert done.status == "completed" and "one hour" in answer
        for colleague in (admin, cy):
            with pytest.raises(NotFoundError):
                colleague.jobs.get(job_id)
        raw = httpx.get(f"{service.base_url}/api/v1/jobs/{job_id}", headers={"Authorization": f"Bearer {cy_key}"})
        assert raw.status_code == 404 and answer not in raw.text and "old key" not in raw.text
        assert raw.json()["detail"] == f"Job {job_id} not found"  # as for an unknown id
        unknown = httpx.get(f"{service.base_url}/api/v1/jobs/00000000-0000-4000-8000-000000000000",
                            headers={"Authorization": f"Bearer {cy_key}"})
        assert unknown.status_code == 404
        # Other jobs of the organisation stay visible to colleagues.
        sync = admin.repos.sync(admin.repos.list()[0].id).job_id
        assert cy.jobs.wait(sync, timeout=60).status == "completed"
