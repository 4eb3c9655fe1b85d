"""An ID in a JSON body is a JSON integer, over HTTP to the real local service: "2", 2.5 and true
(which Python reads as 1) are refused with 422 naming the field, never taken as record 2 or 1."""

from __future__ import annotations

import httpx
import pytest

from tests.support import GitRemote


@pytest.fixture(scope="module")
def api(service, tmp_path_factory):
    key = service.admin("init", "--org", "Strict", "--admin-email", "ada@strict.test")
    item = int(service.admin("items", "add", "captures", "--org", "Strict", "--title", "A capture"))
    repo = GitRemote(tmp_path_factory.mktemp("strict"), "app", {"docs/index.md": "# Docs\n"})
    integration = int(service.admin("integrations", "add", "--org", "Strict", "--name", "app", "--code-repo",
                                    str(repo.bare), "--docs-repo", str(repo.bare)))
    with httpx.Client(base_url=f"{service.base_url}/api/v1", headers={"Authorization": f"Bearer {key}"}) as client:
        yield client, item, integration


NOT_INTEGERS = ["1", 1.5, True]


@pytest.mark.parametrize("value", NOT_INTEGERS, ids=repr)
def test_sync_and_docflow_take_only_an_integer_integration_id(api, value):
    client, _, _ = api
    for path, body in (("/sync", {"integration_id": value}),
                       ("/docflows/generate", {"integration_id": value,
                                               "pr_data": {"number": 1, "title": "t", "author": "a"}})):
        answer = client.post(path, json=body)
        assert answer.status_code == 422, (path, answer.text)
        assert "integration_id" in answer.text


@pytest.mark.parametrize("value", NOT_INTEGERS, ids=repr)
def test_a_pull_request_number_and_a_writer_are_integers(api, value):
    client, item, integration = api
    answer = client.post("/docflows/generate", json={"integration_id": integration,
                                                      "pr_data": {"number": value, "title": "t", "author": "a"}})
    assert answer.status_code == 422 and "number" in answer.text
    answer = client.patch(f"/items/captures/{item}", json={"writer_user_id": value})
    assert answer.status_code == 422 and "writer_user_id" in answer.text
    assert client.get(f"/items/captures/{item}").json().get("writer_user_id") is None  # nothing saved
