import pytest

from tests.support import LocalService, TestDatabase, backends


@pytest.fixture(scope="module", params=backends())
def service(request, tmp_path_factory):
    """The real local service on SQLite, and on PostgreSQL when DOCSVC_TEST_DATABASE_URL is set."""
    tmp = tmp_path_factory.mktemp(f"svc-{request.param}")
    database = TestDatabase(request.param, tmp)
    svc = LocalService(db_url=database.url, workdir=tmp / "work",
                       env_extra={"DOCSVC_SERVER_JOB_LEASE_SECONDS": "2"})
    svc.backend = request.param
    svc.start()
    yield svc
    svc.stop()
    database.drop()
