"""Outgoing mail against a real SMTP server on loopback (aiosmtpd), with login."""

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult

from docsvc.server.db.tables import OutboxMail
from docsvc.server.engines.mail import MailError, SmtpTarget
from docsvc.server.services.outbox import send
from tests.support import free_port
from tests.unit.dbfixtures import db  # noqa: F401  (fixture)


@pytest.mark.parametrize("url, expected", [
    ("smtp://mail.test", ("mail.test", 25, "plain", None, None)),
    ("smtp://mail.test?starttls=1", ("mail.test", 587, "starttls", None, None)),
    ("smtp+starttls://bot:s%40cret@mail.test:2525", ("mail.test", 2525, "starttls", "bot", "s@cret")),
    ("smtps://bot:pw@mail.test", ("mail.test", 465, "tls", "bot", "pw")),
])
def test_smtp_url_forms(url, expected):
    target = SmtpTarget.parse(url)
    assert (target.host, target.port, target.mode, target.username, target.password) == expected


def test_a_wrong_scheme_is_a_clear_error():
    with pytest.raises(MailError, match="must look like smtp://host:port"):
        SmtpTarget.parse("http://mail.test")


class Server:
    def __init__(self) -> None:
        self.messages, self.logins = [], []

    async def handle_DATA(self, server, session, envelope):
        self.messages.append(envelope)
        return "250 OK"

    def authenticate(self, server, session, envelope, mechanism, auth_data):
        self.logins.append((auth_data.login.decode(), auth_data.password.decode()))
        return AuthResult(success=auth_data.password == b"right", handled=False)


@pytest.fixture()
def smtp():
    handler = Server()
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port, authenticator=handler.authenticate,
                            auth_required=True, auth_require_tls=False)
    controller.start()
    yield handler, port
    controller.stop()


def test_login_and_delivery(db, smtp):
    handler, port = smtp
    with db.sessions() as session:
        delivery = send(session, f"smtp://bot:right@127.0.0.1:{port}?from=docs@acme.test", org_id=db.org_id,
                        recipients=["ada@acme.test"], subject="Hello", body="Body text")
        session.commit()
        assert delivery.sent and session.get(OutboxMail, delivery.outbox_id).sent_at is not None
    assert handler.logins == [("bot", "right")]
    assert handler.messages[0].mail_from == "docs@acme.test"
    assert handler.messages[0].rcpt_tos == ["ada@acme.test"]


def test_a_refused_login_is_a_mail_error_that_never_shows_the_password(db, smtp):
    handler, port = smtp
    with db.sessions() as session:
        with pytest.raises(MailError) as info:
            send(session, f"smtp://bot:wrong-pw@127.0.0.1:{port}", org_id=db.org_id, recipients=["a@b.test"],
                 subject="s", body="b")
    assert "wrong-pw" not in str(info.value) and "535" in str(info.value)
    assert handler.messages == []
