"""PostgreSQL closes every connection of the service (pg_terminate_backend, as a restart of the
server or an idle timeout would): the next request is answered 200 all the same, and the job
workers' child still takes and finishes jobs. The pool has no pre-ping: a connection the server
closed is found at checkout by a look at its socket (docsvc/server/db/session.py)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import httpx
import psycopg
import pytest

from docsvc.client import Client
from tests.support import LocalService, TestDatabase

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(not os.environ.get("DOCSVC_TEST_DATABASE_URL"),
                       reason="needs PostgreSQL: set DOCSVC_TEST_DATABASE_URL"),
]

SPEC = (Path(__file__).parents[1] / "fixtures" / "openapi" / "openapi-3.0.yaml").read_text()


def _terminate_all(db_url: str) -> int:
    """End every other session on the service's database and wait until those sessions are gone;
    returns how many there were. Sessions the service opens again meanwhile (its job workers poll)
    are new pids, so only the ended ones are waited for."""
    url = db_url.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(url, autocommit=True) as admin:
        pids = [row[0] for row in admin.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")]
        for pid in pids:
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        deadline = time.monotonic() + 10
        while admin.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = ANY(%s)", (pids,)).fetchone()[0]:
            assert time.monotonic() < deadline, "the sessions did not end"
            time.sleep(0.05)
    return len(pids)


@pytest.fixture()
def service(tmp_path):
    database = TestDatabase("postgresql", tmp_path)
    svc = LocalService(db_url=database.url, workdir=tmp_path / "work").start()
    yield svc
    svc.stop()
    database.drop()


def test_requests_and_jobs_go_on_after_the_server_closed_every_connection(service):
    key = service.admin("init", "--org", "Terminated", "--admin-email", "ops@terminated.test")
    auth = {"Authorization": f"Bearer {key}"}
    with httpx.Client(base_url=service.base_url, headers=auth, timeout=30) as http:
        assert all(http.get("/api/v1/me/work").status_code == 200 for _ in range(5))
        assert _terminate_all(service.db_url) >= 2  # the API's pooled connections and the job workers'
        time.sleep(0.2)
        answers = [http.get("/api/v1/me/work") for _ in range(5)]
    assert [a.status_code for a in answers] == [200] * 5, answers[0].text
    with Client(key, service.base_url) as client:
        job_id = client.convert.create(source_type="openapi", content=SPEC, target_format="md").job_id
        assert client.jobs.wait(job_id, timeout=90).status == "completed"
