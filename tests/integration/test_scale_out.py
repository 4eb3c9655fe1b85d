"""Scale-out on PostgreSQL: two ``docsvc-server run`` processes on one database and one data
directory share the API and the job queue. Jobs enqueued through either API run in either
process; one process is killed (SIGKILL) in the middle of a sync its job workers' child holds
(the child dies with it), and the other takes the job over once its lease runs out and finishes
it. Every job is done exactly once: one
completion each, the index rows of each integration counted once, one conversion item per
conversion job; and a second sync of the busy integration, asked through the other process,
waits instead of running beside the first.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest
from sqlalchemy import func, select

from docsvc.client import Client
from docsvc.server.db.session import make_engine, make_sessionmaker
from docsvc.server.db.tables import Item, Job, RepoState, SearchDoc
from tests.support import GitRemote, TestDatabase, generated_docs, scaled_out

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(not os.environ.get("DOCSVC_TEST_DATABASE_URL"),
                       reason="needs PostgreSQL: set DOCSVC_TEST_DATABASE_URL"),
]

LEASE = 2.0  # seconds: a killed process's job is taken over this long after its last heartbeat
BIG = 20000  # pages of the integration whose sync is cut off (a few seconds of indexing)
SMALL = 4  # further integrations, synced through both processes
SPEC = (Path(__file__).parents[1] / "fixtures" / "openapi" / "openapi-3.0.yaml").read_text()


@pytest.fixture()
def deployment(tmp_path):
    database = TestDatabase("postgresql", tmp_path)
    services = scaled_out(database.url, tmp_path, 2, {"DOCSVC_SERVER_JOB_LEASE_SECONDS": str(LEASE)})
    engine = make_engine(database.url)
    yield services, make_sessionmaker(engine)
    for svc in services:
        svc.stop()
    engine.dispose()
    database.drop()


def held_by(sessions, job_id: str) -> str | None:
    with sessions() as session:
        return session.scalar(select(Job.locked_by).where(Job.id == job_id, Job.state == "running"))


def test_two_processes_share_the_queue_and_survive_a_kill(deployment, tmp_path):
    (one, two), sessions = deployment
    key = one.admin("init", "--org", "Scaled", "--admin-email", "ops@scaled.test")
    code = GitRemote(tmp_path, "code", {"app.py": "x = 1\n"})
    big = one.admin("integrations", "add", "--org", "Scaled", "--name", "big", "--code-repo", str(code.bare),
                    "--docs-repo", str(generated_docs(tmp_path, "big-docs", BIG).bare))
    small = [two.admin("integrations", "add", "--org", "Scaled", "--name", f"small-{n}", "--code-repo",
                       str(code.bare), "--docs-repo",
                       str(GitRemote(tmp_path, f"docs-{n}", {f"docs/page{m}.md": f"# Page {m} of {n}\n"
                                                             for m in range(n + 1)}).bare))
             for n in range(SMALL)]
    clients = [Client(key, svc.base_url) for svc in (one, two)]

    first = clients[0].repos.sync(int(big)).job_id
    deadline = time.monotonic() + 30
    while (holder := held_by(sessions, first)) is None:
        assert time.monotonic() < deadline, "the big sync never started"
        time.sleep(0.02)
    # The worker id names its process, run's job workers' child: host:pid:random.
    victim = 0 if f":{one.job_process()}:" in holder else 1
    survivor = 1 - victim
    assert f":{(one, two)[victim].job_process()}:" in holder

    # A second sync of the busy integration, asked through the other process, is queued and waits.
    second = clients[survivor].repos.sync(int(big)).job_id
    others = [clients[n % 2].repos.sync(int(i)).job_id for n, i in enumerate(small)]
    converts = [clients[n % 2].convert.create(source_type="openapi", content=SPEC, target_format="md").job_id
                for n in range(4)]
    time.sleep(0.5)
    assert held_by(sessions, first) == holder, "the big sync ended before it could be cut off"
    assert held_by(sessions, second) is None

    (one, two)[victim].stop(signal.SIGKILL)
    assert (one, two)[victim].process.poll() is not None
    clients[victim].close()
    with clients[survivor] as client:
        jobs = {job_id: client.jobs.wait(job_id, timeout=60) for job_id in [first, second, *others, *converts]}
    assert {job_id: job.status for job_id, job in jobs.items()} == {job_id: "completed" for job_id in jobs}

    cut_off = jobs[first]
    assert cut_off.attempts == 2  # the killed attempt, then the survivor's
    assert cut_off.result["files_total"] == BIG + 1 and not cut_off.result["incremental"]
    again = jobs[second]
    assert again.attempts == 1 and again.result["files_indexed"] == 0 and again.result["incremental"]
    # The kill may also cut off a small job the victim's other worker held (on a busy machine, jobs
    # at their lower priority may still run 0.5 s on): run again then, its effects still once (below).
    assert all(jobs[job_id].attempts in (1, 2) for job_id in [*others, *converts])

    with sessions() as session:
        rows = dict(session.execute(select(SearchDoc.integration_id, func.count())
                                    .group_by(SearchDoc.integration_id)).all())
        assert rows == {int(big): BIG + 1, **{int(i): n + 1 for n, i in enumerate(small)}}  # nothing twice
        assert session.scalar(select(RepoState.files_indexed).where(RepoState.integration_id == int(big))) == BIG + 1
        # One completion per job, and the second sync of the integration began after the first ended.
        runs = {j.id: j for j in session.scalars(select(Job)).all()}
        assert {j.state for j in runs.values()} == {"completed"} and len(runs) == 2 + SMALL + len(converts)
        assert runs[second].started_at >= runs[first].finished_at
        # Each conversion job made exactly one item.
        made = session.execute(select(Item.id, Item.data["job_id"].as_string())
                               .where(Item.tool == "conversions")).all()
        assert sorted(job_id for _, job_id in made) == sorted(converts)
        assert sorted(item_id for item_id, _ in made) == sorted(jobs[c].result["item_id"] for c in converts)

    # The survivor still answers for the whole organisation, with the killed process gone.
    with Client(key, (one, two)[survivor].base_url) as client:
        assert {r.id: r.files_indexed for r in client.repos.list()}[int(big)] == BIG + 1
