"""request-sync without SMTP (the outbox) and with an SMTP server that cannot be reached."""

from __future__ import annotations

import json

from sqlalchemy import select

from docsvc.server.db.session import make_engine, make_sessionmaker
from docsvc.server.db.tables import OutboxMail
from tests.support import LocalService, TestDatabase, free_port, run_cli


def outbox(db_url: str) -> list[OutboxMail]:
    engine = make_engine(db_url)
    with make_sessionmaker(engine)() as session:
        rows = session.scalars(select(OutboxMail).order_by(OutboxMail.id)).all()
    engine.dispose()
    return rows


def setup(svc: LocalService) -> tuple[str, str]:
    key = svc.admin("init", "--org", "Mailless", "--admin-email", "ada@mailless.test")
    repo = svc.admin("integrations", "add", "--org", "Mailless", "--name", "docs", "--code-repo",
                     "https://github.com/example/app.git", "--docs-repo", "https://github.com/example/docs.git")
    return key, repo


def test_without_smtp_the_mail_goes_to_the_outbox_and_the_log(service):
    key, repo = setup(service)
    done = run_cli("repos", "request-sync", repo, "--json", key=key, base_url=service.base_url)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["sent"] is False and "kept in the service's outbox and log" in answer["detail"]
    rows = outbox(service.db_url)
    assert [(r.recipients, r.sent_at, r.error) for r in rows] == [(["ada@mailless.test"], None, None)]
    assert "Sync requested: docs" in (service.workdir / "server.log").read_text()
    again = run_cli("repos", "request-sync", repo, key=key, base_url=service.base_url)
    assert again.returncode == 1 and "already requested today" in again.stderr
    assert len(outbox(service.db_url)) == 1


def test_an_unreachable_smtp_server_is_a_clear_error_and_the_day_stays_available(tmp_path):
    database = TestDatabase("sqlite", tmp_path)
    svc = LocalService(db_url=database.url, workdir=tmp_path / "work",
                       env_extra={"DOCSVC_SERVER_SMTP_URL": f"smtp://127.0.0.1:{free_port()}"}).start()
    try:
        key, repo = setup(svc)
        for _ in range(2):  # a failed send does not use up the day's request
            failed = run_cli("repos", "request-sync", repo, key=key, base_url=svc.base_url)
            assert failed.returncode == 1
            assert failed.stderr.startswith("Error: Could not send the email: ")
            assert "Connection refused" in failed.stderr
        # 502 is retried by the client, so each call may have tried several times: every try
        # is in the outbox, none sent, each with the reason.
        rows = outbox(svc.db_url)
        assert len(rows) >= 2 and {r.sent_at for r in rows} == {None}
        assert all("Connection refused" in r.error for r in rows)
    finally:
        svc.stop()
