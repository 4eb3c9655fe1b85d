"""Outgoing mail over SMTP, to the server ``DOCSVC_SERVER_SMTP_URL`` names. (The outbox that
keeps every mail is ``services/outbox``.)

URL forms: ``smtp://host:25`` (plain; STARTTLS when the server offers it and ``?starttls=1``),
``smtp+starttls://user:pass@host:587`` (STARTTLS required), ``smtps://user:pass@host:465``
(implicit TLS); ``?from=docsvc@example.com`` sets the sender.
"""

from __future__ import annotations

import smtplib
import socket
import ssl
from dataclasses import dataclass
from email.message import EmailMessage
from urllib.parse import parse_qs, unquote, urlparse

__all__ = ["MailError", "SmtpTarget", "deliver"]


class MailError(Exception):
    """The SMTP server could not be reached or refused the mail; the message says why."""


@dataclass(frozen=True)
class SmtpTarget:
    host: str
    port: int
    mode: str  # plain | starttls | tls
    username: str | None
    password: str | None
    sender: str

    @classmethod
    def parse(cls, url: str) -> "SmtpTarget":
        parts = urlparse(url)
        modes = {"smtp": "plain", "smtp+starttls": "starttls", "smtps": "tls"}
        if parts.scheme not in modes or not parts.hostname:
            raise MailError(f"DOCSVC_SERVER_SMTP_URL must look like smtp://host:port, smtp+starttls://... or "
                            f"smtps://..., got scheme {parts.scheme!r}")
        query = parse_qs(parts.query)
        mode = modes[parts.scheme]
        if mode == "plain" and query.get("starttls", ["0"])[0] in ("1", "true", "yes"):
            mode = "starttls"
        default_port = {"plain": 25, "starttls": 587, "tls": 465}[mode]
        return cls(host=parts.hostname, port=parts.port or default_port, mode=mode,
                   username=unquote(parts.username) if parts.username else None,
                   password=unquote(parts.password) if parts.password else None,
                   sender=query.get("from", [f"docsvc@{socket.gethostname()}"])[0])


def deliver(smtp_url: str, recipients: list[str], subject: str, body: str) -> None:
    """Hand one mail to the SMTP server; MailError says why it could not."""
    try:
        _deliver(SmtpTarget.parse(smtp_url), recipients, subject, body)
    except (OSError, smtplib.SMTPException) as exc:
        raise MailError(str(exc) or type(exc).__name__) from None


def _deliver(target: SmtpTarget, recipients: list[str], subject: str, body: str) -> None:
    message = EmailMessage()
    message["From"] = target.sender
    message["To"] = ", ".join(recipients)
    message["Subject"] = subject
    message.set_content(body)
    context = ssl.create_default_context()
    if target.mode == "tls":
        client = smtplib.SMTP_SSL(target.host, target.port, timeout=30, context=context)
    else:
        client = smtplib.SMTP(target.host, target.port, timeout=30)
    with client:
        if target.mode == "starttls":
            client.starttls(context=context)
        if target.username:
            client.login(target.username, target.password or "")
        client.send_message(message)
