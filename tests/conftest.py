import pytest

from tests.support import LocalService, TestDatabase, backends


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


def pytest_collection_modifyitems(config, items):
    """On parallel workers (scripts/test: pytest-xdist with ``--dist loadgroup``), the tests that
    share a module-scoped set-up go to one worker, in order, so it is made once: one group per
    module and backend (the ``service`` fixture's parameter). A module whose tests are each long
    and stand alone (the CI runners) sets ``SPREAD_OVER_WORKERS = True``: its tests are spread over
    the workers, each of which then makes the module's set-ups once."""
    if not config.pluginmanager.hasplugin("xdist"):
        return
    for item in items:
        if getattr(item.module, "SPREAD_OVER_WORKERS", False):
            continue
        callspec = getattr(item, "callspec", None)
        backend = callspec.params.get("service") if callspec else None
        group = item.nodeid.split("::")[0] + (f"[{backend}]" if backend else "")
        item.add_marker(pytest.mark.xdist_group(group))
