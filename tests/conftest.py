import importlib.util
import signal

import pytest

from tests.support import LocalService, TestDatabase, backends

if importlib.util.find_spec("xdist"):  # the parallel workers' units of work (scripts/test)
    from tests.scheduling import pytest_xdist_make_scheduler  # noqa: F401

# Started in the background by a shell without job control (`scripts/test &`), the suite inherits
# SIGINT ignored, and so would every service it starts: sent Ctrl-C, such a service stops but
# exits 0, since uvicorn's raising the signal again is ignored (test_job_workers). The services
# are started as from a terminal, where Ctrl-C is Ctrl-C.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(scope="module", params=backends())
def service(request, tmp_path_factory, migrated_template):
    """The real local service on SQLite, and on PostgreSQL when DOCSVC_TEST_DATABASE_URL is set.
    Its database is a copy of one migrated once per test process: the service finds it at the newest
    migration (the migrations from scratch are tested in test_migrate, test_wheel, test_scale_out...)."""
    tmp = tmp_path_factory.mktemp(f"svc-{request.param}")
    database = TestDatabase(request.param, tmp, template=migrated_template(request.param))
    # A test module may add settings of its own with a module-level SERVICE_ENV dict.
    env = {"DOCSVC_SERVER_JOB_LEASE_SECONDS": "2", **getattr(request.module, "SERVICE_ENV", {})}
    svc = LocalService(db_url=database.url, workdir=tmp / "work", env_extra=env)
    svc.backend = request.param
    svc.start()
    yield svc
    svc.stop()
    database.drop()


@pytest.fixture(scope="session")
def migrated_template(tmp_path_factory):
    """``template(backend)``: a database of that backend migrated to the head once per test process,
    for tests to copy (``TestDatabase(..., template=...)``) rather than migrate each their own."""
    from docsvc.server.db.migrate import upgrade

    made: dict[str, TestDatabase] = {}

    def template(backend: str) -> TestDatabase:
        if backend not in made:
            made[backend] = TestDatabase(backend, tmp_path_factory.mktemp(f"template-{backend}"))
            upgrade(made[backend].url)
        return made[backend]

    yield template
    for database in made.values():
        database.drop()
