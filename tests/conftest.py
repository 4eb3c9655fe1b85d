import importlib.util

import pytest

from tests.support import LocalService, TestDatabase, backends

if importlib.util.find_spec("xdist"):  # the parallel workers' units of work (scripts/test)
    from tests.scheduling import pytest_xdist_make_scheduler  # noqa: F401


@pytest.fixture(scope="module", params=backends())
def service(request, tmp_path_factory):
    """The real local service on SQLite, and on PostgreSQL when DOCSVC_TEST_DATABASE_URL is set."""
    tmp = tmp_path_factory.mktemp(f"svc-{request.param}")
    database = TestDatabase(request.param, tmp)
    # A test module may add settings of its own with a module-level SERVICE_ENV dict.
    env = {"DOCSVC_SERVER_JOB_LEASE_SECONDS": "2", **getattr(request.module, "SERVICE_ENV", {})}
    svc = LocalService(db_url=database.url, workdir=tmp / "work", env_extra=env)
    svc.backend = request.param
    svc.start()
    yield svc
    svc.stop()
    database.drop()
