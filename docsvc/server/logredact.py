"""No secret of a URL in the service's log.

uvicorn's access log writes each request's path with its query: a conversion's share link
(``GET /api/v1/conversions/20/document?key=...``) put the share key in the log at info level, for
anyone who reads the log to open the document. ``RedactURLSecrets`` is a logging filter that rewrites
a record's message and arguments through ``docsvc.credentials``: the value of every secret query
parameter (``SECRET_QUERY_PARAMS``) and the user information of a URL become ``***``.

``install()`` puts it on the loggers that write URLs: ``uvicorn.access`` (the access log; a logger
filter, so it holds whatever handlers uvicorn's or a deployment's logging config gives it) and
``httpx`` (its info line names each URL it requests). The app factory calls it.
"""

from __future__ import annotations

import logging
from typing import Any

from ..credentials import url_secrets_hidden as redact

__all__ = ["LOGGERS", "RedactURLSecrets", "install"]

LOGGERS = ("uvicorn.access", "httpx")


def _redacted(value: Any) -> Any:
    if isinstance(value, str):
        return redact(value)
    if value is None or isinstance(value, (int, float)):  # kept as they are: %d and %f format them
        return value
    text = str(value)  # an httpx.URL, for one
    clean = redact(text)
    return value if clean == text else clean


class RedactURLSecrets(logging.Filter):
    """Rewrites each record's message and arguments; lets every record through."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_redacted(arg) for arg in record.args)
        elif isinstance(record.args, dict):
            record.args = {name: _redacted(arg) for name, arg in record.args.items()}
        return True


def install(names: tuple[str, ...] = LOGGERS) -> None:
    """Add the filter to each logger once (the app factory may run more than once in a process)."""
    for name in names:
        logger = logging.getLogger(name)
        if not any(isinstance(existing, RedactURLSecrets) for existing in logger.filters):
            logger.addFilter(RedactURLSecrets())
