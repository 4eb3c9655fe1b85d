"""/healthz and /readyz over real HTTP (SQLite, then PostgreSQL when set): no API key needed,
nothing secret said, and 503 naming the check that failed when the schema is behind or the data
directory cannot be written; a database that cannot be reached fails the database check."""

from __future__ import annotations


import httpx
import pytest
from sqlalchemy import create_engine, text

from docsvc.server.db.session import normalize_url

CHECKS = {"database", "migrations", "data_dir"}


def get(service, path: str) -> httpx.Response:
    return httpx.get(service.base_url + path, timeout=30)


def says_nothing_secret(service, answer: httpx.Response) -> None:
    body = answer.text
    for secret in (service.db_url, str(service.data_dir), str(service.workdir), "postgresql", "sqlite"):
        assert secret not in body, secret


def test_healthz_needs_no_key(service):
    answer = get(service, "/healthz")
    assert answer.status_code == 200 and answer.json()["status"] == "ok"
    says_nothing_secret(service, answer)


def test_readyz_says_ready_with_each_check(service):
    answer = get(service, "/readyz")
    assert answer.status_code == 200, answer.text
    assert answer.json()["status"] == "ready"
    assert answer.json()["checks"] == {name: "ok" for name in CHECKS}
    says_nothing_secret(service, answer)


def test_health_endpoints_stay_out_of_the_api_document(service):
    paths = get(service, "/api/v1/openapi.json").json()["paths"]
    assert not any(path.endswith(("/healthz", "/readyz")) for path in paths)


@pytest.fixture
def revision(service):
    """Set the database's recorded migration; the real one is put back afterwards."""
    engine = create_engine(normalize_url(service.db_url))
    with engine.begin() as connection:
        real = connection.execute(text("SELECT version_num FROM alembic_version")).scalar_one()

    def set_to(value: str) -> None:
        with engine.begin() as connection:
            connection.execute(text("UPDATE alembic_version SET version_num = :v"), {"v": value})

    yield set_to
    set_to(real)
    engine.dispose()


def test_readyz_fails_when_the_schema_is_not_the_newest(service, revision):
    revision("0001")
    answer = get(service, "/readyz")
    assert answer.status_code == 503
    assert answer.headers["content-type"] == "application/problem+json"
    assert answer.json()["checks"] == {"database": "ok", "migrations": "failed", "data_dir": "ok"}
    assert answer.json()["detail"] == "not ready: migrations failed"
    says_nothing_secret(service, answer)


def test_readyz_fails_when_the_data_directory_cannot_be_written(service):
    service.data_dir.mkdir(parents=True, exist_ok=True)
    moved = service.data_dir.with_name("data-moved")
    service.data_dir.rename(moved)
    service.data_dir.write_text("a file where the data directory should be")
    try:
        answer = get(service, "/readyz")
    finally:
        service.data_dir.unlink()
        moved.rename(service.data_dir)
    assert answer.status_code == 503
    assert answer.json()["checks"] == {"database": "ok", "migrations": "ok", "data_dir": "failed"}
    says_nothing_secret(service, answer)
    assert get(service, "/readyz").status_code == 200


def test_readyz_fails_when_the_database_cannot_be_reached(tmp_path):
    from fastapi.testclient import TestClient

    from docsvc.server.app import create_app
    from docsvc.server.settings import ServerSettings

    # A SQLite file in a folder that does not exist: opening it fails, as a lost server would.
    url = f"sqlite:///{tmp_path / 'missing' / 'docsvc.db'}"
    client = TestClient(create_app(ServerSettings(database_url=url, data_dir=tmp_path / "data"), start_workers=False))
    answer = client.get("/readyz")
    assert answer.status_code == 503
    assert answer.json()["checks"] == {"database": "failed", "migrations": "failed", "data_dir": "ok"}
    assert str(tmp_path) not in answer.text
    assert client.get("/healthz").status_code == 200
