"""pr_data of POST /docflows/generate is checked before anything is queued or saved, through the
real service: a field of the wrong type or over its length is 422 naming it, a body far larger
than a pull request is 413, keys the interface does not name are not kept; and approve never
pushes a branch it then fails on, not even for a suggestion stored before these checks."""

from __future__ import annotations

import json
import time

import httpx
import pytest
from tests.support import PNG, GitRemote, git, stored
from tests.unit.test_facts import PY_NEW, PY_OLD
from tests.unit.test_planner_writer import DOCS



@pytest.fixture(scope="module")
def api(service, tmp_path_factory):
    root = tmp_path_factory.mktemp("pr-data")
    key = service.admin("init", "--org", "PR Data", "--admin-email", "ada@pr-data.test")
    code = GitRemote(root, "code", {"app/cli.py": PY_OLD})
    code.branch("pr-1", {"app/cli.py": PY_NEW}, "Rename --docs-root, add --dry-run")
    docs = GitRemote(root, "docs", DOCS)
    integration = int(service.admin("integrations", "add", "--org", "PR Data", "--name", "app", "--code-repo",
                                    str(code.bare), "--docs-repo", str(docs.bare)))
    with httpx.Client(base_url=service.base_url + "/api/v1", headers={"Authorization": f"Bearer {key}"},
                      timeout=60) as client:
        assert wait(client, client.post("/sync", json={"integration_id": integration}))["status"] == "completed"
        yield client, integration, docs, root


def wait(client: httpx.Client, response: httpx.Response) -> dict:
    assert response.status_code == 202, response.text
    job_id = response.json()["job_id"]
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        job = client.get(f"/jobs/{job_id}").json()
        if job["status"] in ("completed", "failed"):
            return job
        time.sleep(0.2)
    raise AssertionError(f"job {job_id} did not finish")


def generate(client: httpx.Client, integration: int, pr: dict) -> httpx.Response:
    return client.post("/docflows/generate", json={"integration_id": integration, "pr_data": pr})


def suggestion(client: httpx.Client, integration: int, pr: dict) -> int:
    job = wait(client, generate(client, integration, pr))
    assert job["status"] == "completed", job
    return job["result"]["suggestion_id"]


def branches(docs: GitRemote, root) -> set[str]:
    return {line.split("\t")[1] for line in git("ls-remote", str(docs.bare), cwd=root).splitlines()}


VALID = {"number": 3, "title": "Rename --docs-root", "author": "ana", "body": "Also --dry-run",
         "head_branch": "pr-1"}


@pytest.mark.parametrize("change, field", [
    ({"title": "T" * 501}, "pr_data.title"),
    ({"title": {"x": 1}}, "pr_data.title"),
    ({"body": ["x"]}, "pr_data.body"),
    ({"body": "b" * 65537}, "pr_data.body"),
    ({"author": 7}, "pr_data.author"),
    ({"head_sha": {"a": 1}}, "pr_data.head_sha"),
    ({"head_sha": "not-a-sha"}, "pr_data.head_sha"),
    ({"head_branch": "a" * 256}, "pr_data.head_branch"),
    ({"number": 2**64}, "pr_data.number"),
], ids=lambda v: v if isinstance(v, str) else None)
def test_a_wrong_field_is_422_naming_it_and_queues_nothing(api, change, field):
    client, integration, _, _ = api
    before = len(client.get("/items/docflows").json())
    response = generate(client, integration, {**VALID, **change})
    assert response.status_code == 422, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    body = response.json()
    loc = body["errors"][0]["loc"]  # ["body", "pr_data.number"], or as the bound on numbers names it, split
    assert loc[0] == "body" and ".".join(map(str, loc[1:])) == field and body["detail"].startswith(f"{field}: ")
    assert len(client.get("/items/docflows").json()) == before


def test_a_pr_data_far_larger_than_a_pull_request_is_413_before_it_is_parsed(api):
    client, integration, _, _ = api
    for pr in ({**VALID, "title": "T" * 2_000_000}, {**VALID, "x": [{}] * 500_000}):
        response = generate(client, integration, pr)
        assert response.status_code == 413, response.text
        assert response.headers["content-type"].startswith("application/problem+json")


def test_keys_the_interface_does_not_name_are_not_kept(api, service):
    client, integration, _, _ = api
    item_id = suggestion(client, integration, {**VALID, "number": 4, "labels": ["x" * 1000] * 100, "fork": False,
                                               "url": "https://code.example/pr/4"})
    pr = stored(service, item_id)["pr"]
    assert set(pr) == {"number", "title", "author", "body", "head_branch", "fork", "url"}


def test_the_multipart_form_is_checked_before_an_upload_is_saved(api, service):
    client, integration, _, _ = api
    uploads = service.data_dir / "uploads"
    before = sorted(uploads.rglob("*")) if uploads.exists() else []
    pr = {**VALID, "title": {"x": 1}, "screenshots": [{"route": "/settings", "filename": "s.png"}]}
    response = client.post("/docflows/generate", data={"integration_id": str(integration), "pr_data": json.dumps(pr)},
                           files=[("screenshots", ("s.png", PNG, "image/png"))])
    assert response.status_code == 422 and response.json()["errors"][0]["loc"] == ["body", "pr_data.title"]
    pr = {**VALID, "screenshots": [{"route": "/s" * 300, "filename": "s.png"}]}
    response = client.post("/docflows/generate", data={"integration_id": str(integration), "pr_data": json.dumps(pr)},
                           files=[("screenshots", ("s.png", PNG, "image/png"))])
    assert response.status_code == 422 and "pr_data.screenshots[0].route" in response.text
    assert (sorted(uploads.rglob("*")) if uploads.exists() else []) == before


def test_approve_of_a_valid_suggestion_pushes_its_branch(api):
    client, integration, docs, root = api
    item_id = suggestion(client, integration, {**VALID, "number": 5})
    answer = client.post(f"/docflows/{item_id}/approve", json={"new_release_name": "r1", "release_notes": "include"})
    assert answer.status_code == 200, answer.text
    assert answer.json()["status"] == "in_review"
    assert f"refs/heads/docsvc/suggestion-{item_id}" in branches(docs, root)


def test_approve_of_a_suggestion_stored_with_bad_pr_data_is_no_500(api, service):
    """A suggestion made before pr_data was checked may hold anything: its text fields of another
    type count as absent, and the branch is pushed only with everything else settled."""
    client, integration, docs, root = api
    item_id = suggestion(client, integration, {**VALID, "number": 6})
    stored(service, item_id, lambda data: data["pr"].update(title={"x": 1}, body=["x"], head_branch={"b": 1},
                                                            head_sha=7))
    assert client.get(f"/docflows/{item_id}").status_code == 200
    answer = client.post(f"/docflows/{item_id}/approve", json={"new_release_name": "r2", "release_notes": "include"})
    assert answer.status_code == 200, answer.text
    assert f"refs/heads/docsvc/suggestion-{item_id}" in branches(docs, root)
