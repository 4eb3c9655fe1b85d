"""Jobs apart from the API: ``run`` keeps its job workers in a child process by default (started
again if it crashes, gone with the service however it stops; ``--jobs-in-process`` keeps them in
the API's process); ``run --job-workers 0`` only enqueues, ``docsvc-server worker`` processes (job
workers, no API) run the jobs; two workers racing for one queue never run a job twice; ``run
--workers 2`` serves from two processes on one port and still runs every job once. On SQLite (WAL: one writer at a time, readers beside it, across
processes) and on PostgreSQL when DOCSVC_TEST_DATABASE_URL is set.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import httpx
import pytest
from sqlalchemy import select

from docsvc.client import Client
from docsvc.server.db.session import make_engine, make_sessionmaker
from docsvc.server.db.tables import Item, Job
from tests.support import LocalService, TestDatabase, backends, command

SPEC = (Path(__file__).parents[1] / "fixtures" / "openapi" / "openapi-3.0.yaml").read_text()
JOBS = 8


@pytest.fixture(params=backends())
def database(request, tmp_path):
    db = TestDatabase(request.param, tmp_path)
    engine = make_engine(db.url)
    db.sessions = make_sessionmaker(engine)
    yield db
    engine.dispose()
    db.drop()


class Workers:
    """``docsvc-server worker`` processes beside a service, sharing its database and data directory."""

    def __init__(self, svc: LocalService) -> None:
        self.svc = svc
        self.processes: list[subprocess.Popen] = []

    def start(self, count: int = 1) -> None:
        for _ in range(count):
            log = open(self.svc.workdir / f"worker-{len(self.processes)}.log", "ab")
            env = {**self.svc.env(), "DOCSVC_SERVER_INSTANCE_ID": f"worker-{len(self.processes)}"}
            self.processes.append(subprocess.Popen([*command("docsvc-server"), "worker", "--log-level", "warning"],
                                                   cwd=self.svc.workdir, env=env, stdout=log, stderr=subprocess.STDOUT,
                                                   stdin=subprocess.DEVNULL))

    def stop(self) -> None:
        for process in self.processes:
            process.send_signal(signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(10)


@pytest.fixture()
def api(database, tmp_path):
    """The API with no job worker of its own (``run --job-workers 0``), and workers to start."""
    svc = LocalService(db_url=database.url, workdir=tmp_path / "api", run_args=("--job-workers", "0")).start()
    workers = Workers(svc)
    yield svc, workers
    workers.stop()
    svc.stop()


def jobs_done_once(database, job_ids: list[str]) -> None:
    """Every job completed in one attempt, and each conversion made exactly one item."""
    with database.sessions() as session:
        runs = {job.id: job for job in session.scalars(select(Job).where(Job.id.in_(job_ids))).all()}
        assert {(job.state, job.attempts) for job in runs.values()} == {("completed", 1)}
        made = session.scalars(select(Item.data["job_id"].as_string()).where(Item.tool == "conversions")).all()
        assert sorted(made) == sorted(job_ids)


def test_a_worker_process_completes_what_the_api_enqueued(api, database):
    svc, workers = api
    key = svc.admin("init", "--org", "Apart", "--admin-email", "ops@apart.test")
    with Client(key, svc.base_url) as client:
        job_id = client.convert.create(source_type="openapi", content=SPEC, target_format="md").job_id
        time.sleep(2.0)  # the API runs no job of its own: it stays queued, unclaimed
        with database.sessions() as session:
            assert session.scalar(select(Job.state).where(Job.id == job_id)) == "queued"
        workers.start()
        finished = client.jobs.wait(job_id, timeout=90)
    assert finished.status == "completed", finished.error
    assert finished.result["item_id"]
    jobs_done_once(database, [job_id])


def test_two_workers_racing_for_one_queue_run_each_job_once(api, database):
    svc, workers = api
    key = svc.admin("init", "--org", "Race", "--admin-email", "ops@race.test")
    with Client(key, svc.base_url) as client:
        job_ids = [client.convert.create(source_type="openapi", content=SPEC, target_format="md").job_id
                   for _ in range(JOBS)]
        workers.start(2)  # both find the same queued jobs at once
        finished = [client.jobs.wait(job_id, timeout=120) for job_id in job_ids]
    assert [job.status for job in finished] == ["completed"] * JOBS
    jobs_done_once(database, job_ids)


def test_a_worker_needs_a_job_worker(tmp_path):
    env = {**os.environ, "DOCSVC_SERVER_DATABASE_URL": f"sqlite:///{tmp_path / 'w.db'}",
           "DOCSVC_SERVER_JOB_WORKERS": "0"}
    done = subprocess.run([*command("docsvc-server"), "worker"], env=env, cwd=tmp_path, capture_output=True,
                          text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode == 2
    assert done.stderr.strip() == ("Error: a worker needs at least one job worker: DOCSVC_SERVER_JOB_WORKERS is 0 "
                                   "(pass --job-workers N)")


def _children(pid: int) -> list[int]:
    """Processes whose parent is ``pid`` (from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rpartition(")")[2].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def _serving(pid: int) -> list[int]:
    """The children of ``pid`` that serve the app (uvicorn's spawned processes)."""
    return [child for child in _children(pid)
            if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes()]


def test_several_api_processes_share_the_port_and_the_queue(database, tmp_path):
    svc = LocalService(db_url=database.url, workdir=tmp_path / "multi", run_args=("--workers", "2")).start()
    try:
        assert len(_serving(svc.process.pid)) == 2
        key = svc.admin("init", "--org", "Multi", "--admin-email", "ops@multi.test")
        with Client(key, svc.base_url) as client:
            job_ids = [client.convert.create(source_type="openapi", content=SPEC, target_format="md").job_id
                       for _ in range(JOBS)]
            finished = [client.jobs.wait(job_id, timeout=120) for job_id in job_ids]
            # Reads through either process, while the jobs write: all answered.
            answers = [httpx.get(f"{svc.base_url}/api/v1/me/work", headers={"Authorization": f"Bearer {key}"})
                       for _ in range(20)]
        assert [job.status for job in finished] == ["completed"] * JOBS
        assert {answer.status_code for answer in answers} == {200}
        jobs_done_once(database, job_ids)
    finally:
        svc.stop()
    assert svc.process.returncode == 0


def _convert(svc: LocalService, key: str) -> str:
    """A conversion through ``svc``, waited for: its job id."""
    with Client(key, svc.base_url) as client:
        job_id = client.convert.create(source_type="openapi", content=SPEC, target_format="md").job_id
        finished = client.jobs.wait(job_id, timeout=90)
    assert finished.status == "completed", finished.error
    return job_id


def _gone(pid: int, within: float, what: str) -> None:
    deadline = time.monotonic() + within
    while _alive(pid):
        assert time.monotonic() < deadline, what
        time.sleep(0.1)


@pytest.mark.parametrize("stop_with", [signal.SIGTERM, signal.SIGINT])
def test_run_keeps_its_jobs_in_a_child_at_a_lower_priority(database, tmp_path, stop_with):
    """The default: a ``worker`` child at a lower priority runs the jobs, and stops with the service
    on SIGTERM and on Ctrl-C (SIGINT to the service alone: the child is in a session of its own,
    so the service stops it in order)."""
    svc = LocalService(db_url=database.url, workdir=tmp_path / "apart").start()
    try:
        child = svc.job_process()
        assert child is not None and os.getpgid(child) != os.getpgid(svc.process.pid)
        assert os.getpriority(os.PRIO_PROCESS, child) > os.getpriority(os.PRIO_PROCESS, svc.process.pid)
        key = svc.admin("init", "--org", "Child", "--admin-email", "ops@child.test")
        os.kill(child, signal.SIGSTOP)  # the child paused, the API's process runs no job of its own
        try:
            with Client(key, svc.base_url) as client:
                job_id = client.convert.create(source_type="openapi", content=SPEC, target_format="md").job_id
                time.sleep(1.5)
                with database.sessions() as session:
                    assert session.scalar(select(Job.state).where(Job.id == job_id)) == "queued"
        finally:
            os.kill(child, signal.SIGCONT)
        with Client(key, svc.base_url) as client:
            assert client.jobs.wait(job_id, timeout=90).status == "completed"
        jobs_done_once(database, [job_id, _convert(svc, key)])
    finally:
        svc.stop(stop_with)
    # Stopped in order; then uvicorn raises the signal again: killed by SIGTERM, 130 for a Ctrl-C.
    assert svc.process.returncode == {signal.SIGTERM: -signal.SIGTERM, signal.SIGINT: 130}[stop_with]
    said = (svc.workdir / "server.log").read_text()
    assert "Traceback" not in said and "Aborted" not in said
    _gone(child, 20, "the job process outlived the service")


def test_a_crashed_job_process_is_started_again_and_a_killed_service_takes_it_along(database, tmp_path):
    svc = LocalService(db_url=database.url, workdir=tmp_path / "crash").start()
    try:
        first = svc.job_process()
        os.kill(first, signal.SIGKILL)  # a crash, the OOM killer
        deadline = time.monotonic() + 30
        while (second := svc.job_process()) in (None, first):
            assert time.monotonic() < deadline, "the job process was not started again"
            time.sleep(0.1)
        key = svc.admin("init", "--org", "Again", "--admin-email", "ops@again.test")
        jobs_done_once(database, [_convert(svc, key)])
        time.sleep(1.0)  # the new child is well past its start, its own checks in place
        svc.stop(signal.SIGKILL)
        _gone(second, 5, "the job process outlived a killed service")
        assert "the job workers' process" in (svc.workdir / "server.log").read_text() and "starting it again" in \
            (svc.workdir / "server.log").read_text()
    finally:
        svc.stop()


def test_jobs_in_process_start_no_child(database, tmp_path):
    svc = LocalService(db_url=database.url, workdir=tmp_path / "one", run_args=("--jobs-in-process",)).start()
    try:
        assert svc.job_process() is None
        key = svc.admin("init", "--org", "One", "--admin-email", "ops@one.test")
        jobs_done_once(database, [_convert(svc, key)])
    finally:
        svc.stop()


def _alive(pid: int) -> bool:
    try:
        return b"zombie" not in Path(f"/proc/{pid}/status").read_bytes()
    except FileNotFoundError:
        return False
