"""Retried uploads through a flaky proxy, with the real CLI and the real local service (issue 14):
a multipart upload whose connection is dropped after the request was sent is retried with the
same bytes and the same Idempotency-Key, and the service answers the retry with the first
answer: the command succeeds once and starts one job. Also: two users with one key."""

from __future__ import annotations

import json
import os
from pathlib import Path

import httpx
import pytest
from sqlalchemy import select

from docsvc.server.db.session import make_engine, make_sessionmaker
from docsvc.server.db.tables import Item, Job
from tests.support import FlakyProxy, GitRemote, run_cli
from tests.unit.test_facts import PY_NEW, PY_OLD
from tests.unit.test_planner_writer import DOCS

GENERATE = "/api/v1/docflows/generate"


@pytest.fixture(scope="module")
def project(service, tmp_path_factory):
    root = tmp_path_factory.mktemp("flaky")
    key = service.admin("init", "--org", "Flaky", "--admin-email", "ada@flaky.test")
    code = GitRemote(root, "code", {"app/cli.py": PY_OLD})
    code.branch("rename-docs-root", {"app/cli.py": PY_NEW}, "Rename --docs-root, add --dry-run")
    docs = GitRemote(root, "docs", DOCS)
    integration = service.admin("integrations", "add", "--org", "Flaky", "--name", "app", "--code-repo",
                                str(code.bare), "--docs-repo", str(docs.bare))
    work = root / "cwd"
    work.mkdir()
    (work / "docsvc.yaml").write_text(f"integration_id: {integration}\n")
    assert run_cli("sync", "--integration-id", integration, key=key, base_url=service.base_url).returncode == 0
    # Screenshots from CI: a small one and one past the service's 1 MB in-memory spool.
    shots = {}
    for name, size in (("home.png", 20_000), ("settings.png", 3_000_000)):
        shots[name] = work / name
        shots[name].write_bytes(b"\x89PNG\r\n\x1a\n" + os.urandom(size))
    engine = make_engine(service.db_url)
    yield service, key, work, shots, make_sessionmaker(engine)
    engine.dispose()


def drop_generate(*verdicts: str | None):
    """Drop the first POSTs to /docflows/generate as ``verdicts`` say; pass everything else."""
    left = list(verdicts)

    def drop(method: str, path: str) -> str | None:
        if method == "POST" and path == GENERATE and left:
            return left.pop(0)
        return None

    return drop


def docflow(base_url: str, key: str, work: Path, shots: dict[str, Path], number: int):
    return run_cli("docflow", "--pr-number", str(number), "--pr-title", f"PR {number}", "--pr-body", "",
                   "--pr-author", "ana", "--pr-branch", "rename-docs-root",
                   "--screenshot", f"/={shots['home.png']}", "--screenshot", f"/settings={shots['settings.png']}",
                   "--json", key=key, base_url=base_url, cwd=work)


def jobs_and_items_of(sessions, number: int) -> tuple[list[Job], list[Item]]:
    with sessions() as session:
        jobs = [j for j in session.scalars(select(Job).where(Job.kind == "docflow.generate")).all()
                if (j.params.get("pr_data") or {}).get("number") == number]
        items = [i for i in session.scalars(select(Item).where(Item.tool == "docflows")).all()
                 if i.title.startswith(f"PR #{number}:")]
        return jobs, items


@pytest.mark.parametrize("number, verdicts", [
    (21, ("before-answer",)),                   # dropped while the service handles it
    (22, ("after-answer",)),                    # dropped after the service answered
    (23, ("before-answer", "after-answer")),    # both, one after the other
])
def test_a_dropped_upload_is_retried_and_starts_one_job(project, number, verdicts):
    service, key, work, shots, sessions = project
    with FlakyProxy(service.base_url, drop_generate(*verdicts)) as proxy:
        done = docflow(proxy.base_url, key, work, shots, number)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    uploads = [e for e in proxy.exchanges if e.method == "POST" and e.path == GENERATE]
    assert [e.dropped for e in uploads if e.dropped] == list(verdicts) and uploads[-1].dropped is None
    # A retry that arrives while the first attempt is still being handled is told 409 with
    # Retry-After and asks again (seen on PostgreSQL in CI): more attempts, never a second job.
    for e in uploads[:-1]:
        if e.dropped is None:
            assert e.status_line.split()[1] == "409" and "retry-after" in e.response_headers
    # Every attempt sent the same bytes under the same key.
    assert len({e.body for e in uploads}) == 1 and len(uploads[0].body) > 3_000_000
    assert len({e.headers["idempotency-key"] for e in uploads}) == 1
    assert len({e.headers["content-type"] for e in uploads}) == 1
    # The last attempt was answered with the first one's answer, not a second job.
    assert uploads[-1].status_line.split()[1] == "202"
    assert uploads[-1].response_headers.get("idempotent-replayed") == "true"
    jobs, items = jobs_and_items_of(sessions, number)
    assert len(jobs) == 1 and len(items) == 1
    assert result["suggestion_id"] == items[0].id
    assert {s["route"] for s in result.get("screenshots") or items[0].data["screenshots"]} == {"/", "/settings"}


def test_without_drops_each_command_is_its_own_request(project):
    service, key, work, shots, sessions = project
    for _ in range(2):
        assert docflow(service.base_url, key, work, shots, 24).returncode == 0
    jobs, items = jobs_and_items_of(sessions, 24)
    assert len(jobs) == 2


def test_two_users_with_one_idempotency_key_each_get_their_own_job(project):
    service, key, work, shots, sessions = project
    service.admin("users", "add", "--org", "Flaky", "--email", "wes@flaky.test", "--role", "writer")
    wes_key = service.admin("keys", "create", "--email", "wes@flaky.test")
    integration = int((work / "docsvc.yaml").read_text().split(":")[1])

    def generate(token: str, title: str) -> httpx.Response:
        files = [("screenshots", ("home.png", shots["home.png"].read_bytes(), "image/png"))]
        data = {"integration_id": str(integration),
                "pr_data": json.dumps({"number": 25, "title": title, "body": "", "author": "ana",
                                       "head_branch": "rename-docs-root",
                                       "screenshots": [{"route": "/", "filename": "home.png"}]})}
        return httpx.post(service.base_url + GENERATE, data=data, files=files, timeout=60,
                          headers={"Authorization": f"Bearer {token}", "Idempotency-Key": "ci-run-1"})

    mine, theirs = generate(key, "Ada's"), generate(wes_key, "Wes's")
    assert mine.status_code == theirs.status_code == 202
    assert "idempotent-replayed" not in theirs.headers
    assert mine.json()["job_id"] != theirs.json()["job_id"]
    # Wes's retry (a new boundary, the same parts) is replayed Wes's answer, not Ada's.
    again = generate(wes_key, "Wes's")
    assert again.headers.get("idempotent-replayed") == "true" and again.json() == theirs.json()
    # Ada reusing her key for another request is refused; Wes's use of it changed nothing for her.
    assert generate(key, "Ada's other").status_code == 422
    with sessions() as session:
        owners = {session.get(Job, answer.json()["job_id"]).user_id for answer in (mine, theirs)}
    assert len(owners) == 2
