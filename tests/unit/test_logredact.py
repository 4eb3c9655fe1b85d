"""The service's log shows no secret of a request's URL: uvicorn's access log line of a share link
(``/conversions/<id>/document?key=...``) has ``key=***``, as have tokens of other names."""

from __future__ import annotations

import io
import logging

import pytest

from docsvc.credentials import hidden_query
from docsvc.server import logredact


@pytest.mark.parametrize("text, expected", [
    ("/api/v1/conversions/20/document?key=DIoXBiAjq7", "/api/v1/conversions/20/document?key=***"),
    ("/x?a=1&token=t0k&b=2", "/x?a=1&token=***&b=2"),
    ("/x?API_KEY=k&access_token=a#top", "/x?API_KEY=***&access_token=***#top"),
    ("/x?%6Bey=encoded", "/x?%6Bey=***"),  # the name percent-encoded
    ("/x?keys=1&monkey=2&key=", "/x?keys=1&monkey=2&key="),  # other names, and an empty value, kept
    ("no url: key=value", "no url: key=value"),
    # a Markdown link (a CI summary printed to the log): both URLs masked, the link and its cell intact
    ("| Link | [http://h/d?key=a\\_b](http://h/d?key=a_b) |", "| Link | [http://h/d?key=***](http://h/d?key=***) |"),
    ("(see http://h/d?key=abc)", "(see http://h/d?key=***)"),
    ("/x?key=a)b&c=1", "/x?key=***&c=1"),  # a ) inside the value is the value's
])
def test_secret_query_values_are_masked(text, expected):
    assert hidden_query(text) == expected


@pytest.fixture
def access_log(tmp_path):
    """uvicorn's access logger as ``docsvc-server run`` sets it up: the app factory's install,
    then uvicorn's own logging config (a dictConfig that replaces the logger's handlers)."""
    import uvicorn

    logger = logging.getLogger("uvicorn.access")
    saved = (logger.filters[:], logger.handlers[:], logger.level, logger.propagate)
    from docsvc.server.app import create_app
    from docsvc.server.settings import ServerSettings

    create_app(ServerSettings(database_url=f"sqlite:///{tmp_path / 'db.sqlite'}", data_dir=tmp_path / "data"),
               start_workers=False)
    uvicorn.Config(app=lambda *_: None, log_level="info")  # configures logging, as uvicorn.run does
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(logger.handlers[0].formatter)  # uvicorn's AccessFormatter
    logger.handlers = [handler]
    yield logger, out
    logger.filters, logger.handlers, logger.level, logger.propagate = saved


def test_the_access_log_line_of_a_share_link_hides_its_key(access_log):
    logger, out = access_log
    # As uvicorn's httptools/h11 protocols log each answered request.
    logger.info('%s - "%s %s HTTP/%s" %d', "127.0.0.1:5000", "GET",
                "/api/v1/conversions/20/document?key=DIoXBiAjq7Zs&download=1", "1.1", 200)
    line = out.getvalue()
    assert "DIoXBiAjq7Zs" not in line
    assert '"GET /api/v1/conversions/20/document?key=***&download=1 HTTP/1.1" 200' in line


def test_the_filter_is_installed_once():
    logredact.install()
    logredact.install()
    assert sum(isinstance(f, logredact.RedactURLSecrets) for f in logging.getLogger("uvicorn.access").filters) == 1


def test_an_httpx_url_argument_is_masked():
    import httpx

    record = logging.LogRecord("httpx", logging.INFO, __file__, 1, 'HTTP Request: %s %s "%s %d %s"',
                               ("GET", httpx.URL("https://h.test/doc?token=abc"), "HTTP/1.1", 200, "OK"), None)
    assert logredact.RedactURLSecrets().filter(record)
    assert record.getMessage() == 'HTTP Request: GET https://h.test/doc?token=*** "HTTP/1.1 200 OK"'
