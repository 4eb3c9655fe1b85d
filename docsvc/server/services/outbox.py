"""The outbox: every mail the service sends is kept as a row, and handed to SMTP when
``DOCSVC_SERVER_SMTP_URL`` is set, so with no SMTP configured nothing is lost (and the service
log says so)."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from sqlalchemy.orm import Session

from ..db.tables import OutboxMail, utcnow
from ..engines.mail import MailError, deliver

__all__ = ["Delivery", "MailError", "send"]

log = logging.getLogger("docsvc.server.mail")


@dataclass(frozen=True)
class Delivery:
    sent: bool  # True: handed to the SMTP server; False: kept in the outbox only
    outbox_id: int
    recipients: list[str]


def send(session: Session, smtp_url: str | None, *, org_id: int, recipients: list[str], subject: str,
         body: str) -> Delivery:
    """Send one mail, or keep it in the outbox when no SMTP is configured. Raises MailError when
    the configured server fails (the row in the caller's transaction then carries the error)."""
    record = OutboxMail(org_id=org_id, recipients=recipients, subject=subject, body=body)
    session.add(record)
    session.flush()
    if not smtp_url:
        log.warning("no SMTP configured: mail %d to %s kept in the outbox: %s", record.id,
                    ", ".join(recipients), subject)
        log.info("mail %d:\n%s", record.id, body)
        return Delivery(False, record.id, recipients)
    try:
        deliver(smtp_url, recipients, subject, body)
    except MailError as exc:
        record.error = str(exc)
        session.flush()
        raise MailError(record.error) from None
    record.sent_at = utcnow()
    session.flush()
    return Delivery(True, record.id, recipients)
