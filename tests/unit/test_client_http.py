"""HTTP policy of BaseClient: URL, headers, time-outs, TLS/proxy settings, pagination, parsing."""

from __future__ import annotations

import ssl
from pathlib import Path

import certifi
import httpx
import pytest

import docsvc
from docsvc.client import (
    DEFAULT_TIMEOUT,
    APIResponseValidationError,
    APIStatusError,
    Client,
    ClientSetupError,
    DocsvcError,
)
from docsvc.client._base import verify_from_env
from docsvc.client.testing import (
    TEST_API_KEY,
    MockAPI,
    fake_client,
    json_response,
)
from docsvc.config import DEFAULT_BASE_URL, MissingApiKey, Settings


def test_every_request_carries_auth_user_agent_and_accept():
    api = MockAPI(json_response(200, {"open": 3, "blocked": 1}))
    fake_client(api).me.work()
    request = api.last
    assert str(request.url) == "https://docsvc.test/api/v1/me/work"
    assert request.headers["authorization"] == f"Bearer {TEST_API_KEY}"
    assert request.headers["user-agent"] == f"docsvc-cli/{docsvc.__version__}"
    assert request.headers["user-agent"] == "docsvc-cli/1.2.0"
    assert request.headers["accept"] == "application/json"


def test_default_headers_cannot_override_auth_or_user_agent():
    api = MockAPI(json_response(200, {}))
    fake_client(api, default_headers={"Authorization": "Bearer other", "User-Agent": "x",
                                      "X-CI-Run": "42"}).me.work()
    assert api.last.headers["authorization"] == f"Bearer {TEST_API_KEY}"
    assert api.last.headers["user-agent"] == "docsvc-cli/1.2.0"
    assert api.last.headers["x-ci-run"] == "42"


@pytest.mark.parametrize(
    "base_url, expected",
    [
        ("https://docs.example.com", "https://docs.example.com/api/v1/me/work"),
        ("https://docs.example.com/", "https://docs.example.com/api/v1/me/work"),
        ("https://docs.example.com/api/v1", "https://docs.example.com/api/v1/me/work"),
        ("https://example.com/docsvc/", "https://example.com/docsvc/api/v1/me/work"),
        ("http://127.0.0.1:8080", "http://127.0.0.1:8080/api/v1/me/work"),
    ],
)
def test_base_url_gets_the_api_prefix(base_url, expected):
    api = MockAPI(json_response(200, {}))
    fake_client(api, base_url=base_url).me.work()
    assert str(api.last.url) == expected


@pytest.mark.parametrize("base_url", ["docs.example.com", "ftp://docs.example.com", ""])
def test_base_url_must_be_http(base_url):
    with pytest.raises(ValueError, match="base_url"):
        Client("k", base_url, transport=MockAPI(json_response()))


def test_default_base_url_is_the_local_service():
    client = Client("k", transport=MockAPI(json_response()))
    assert client.base_url == f"{DEFAULT_BASE_URL}/api/v1"


@pytest.mark.parametrize("key", ["", None])
def test_api_key_is_required(key):
    with pytest.raises(ValueError, match="api_key"):
        Client(key, transport=MockAPI(json_response()))


@pytest.mark.parametrize("key", ["dsk_abc\n", " dsk_abc", "dsk abc", "dsk_abcé", '"dsk_abc\t"'])
def test_malformed_key_is_refused_without_showing_it(key):
    with pytest.raises(ValueError) as info:
        Client(key, transport=MockAPI(json_response()))
    assert "stray newline" in str(info.value)
    assert "dsk" not in str(info.value)


def test_query_params_that_are_none_are_dropped():
    api = MockAPI(json_response(200, []))
    client = fake_client(api)
    client.items.list("docflows")
    assert api.last.url.query == b""
    client.items.list("captures", release_id="none", writer_id=7, status="blocked")
    assert dict(api.last.url.params) == {"release_id": "none", "writer_id": "7",
                                         "status": "blocked"}


BAD = "a\udcffb"  # what Python makes of the bytes a, 0xff, b in a command-line argument


@pytest.mark.parametrize("call, field", [
    (lambda c: c.jobs.get(BAD), "job_id"),
    (lambda c: c.search.query(BAD), "q"),
    (lambda c: c.captures.create(start_url="http://x", steps=[{"action": "click", "selector": "#a",
                                                               "description": BAD}]), "steps[0].description"),
])
def test_text_that_is_not_utf8_is_refused_naming_its_field_before_sending(call, field):
    from docsvc.client import UnencodableTextError
    from docsvc.exit_codes import USAGE, for_error

    api = MockAPI(json_response(200, {}))
    with pytest.raises(UnencodableTextError) as info:
        call(fake_client(api))
    assert (info.value.field, info.value.value) == (field, BAD) and api.requests == []
    assert for_error(info.value) == (f"{field}: not UTF-8 text (it holds bytes that are not valid UTF-8)", USAGE)


def test_path_parameters_are_one_escaped_segment():
    api = MockAPI(json_response(200, {"job_id": "a/b c", "status": "queued"}))
    fake_client(api).jobs.get("a/b c")
    assert api.last.url.raw_path == b"/api/v1/jobs/a%2Fb%20c"


def test_unknown_endpoint_name_is_a_value_error():
    client = fake_client(MockAPI(json_response()))
    with pytest.raises(ValueError, match="unknown endpoint 'items.nope'"):
        client.call("items.nope")


def test_missing_path_parameter_is_a_type_error():
    client = fake_client(MockAPI(json_response()))
    with pytest.raises(TypeError, match="items.update: missing path parameter 'id'"):
        client.call("items.update", path_params={"tool": "docflows"})


@pytest.mark.parametrize(
    "timeout, expected",
    [
        (DEFAULT_TIMEOUT, httpx.Timeout(60.0, connect=10.0)),
        (5.0, httpx.Timeout(5.0)),
        (httpx.Timeout(30.0, connect=2.0), httpx.Timeout(30.0, connect=2.0)),
        (None, httpx.Timeout(None)),
    ],
)
def test_timeouts(timeout, expected):
    client = Client("k", transport=MockAPI(json_response()), timeout=timeout)
    assert client.timeout == expected


def test_default_timeouts_are_connect_10_read_60():
    client = Client("k", transport=MockAPI(json_response()))
    assert client.timeout.connect == 10.0
    assert client.timeout.read == 60.0


def test_secrets_stay_out_of_reprs():
    client = fake_client(MockAPI(json_response()))
    texts = [repr(client), str(client), repr(client.items), repr(vars(client)),
             repr(client._http.headers)]
    for text in texts:
        assert TEST_API_KEY not in text
    assert repr(client) == "Client(base_url='https://docsvc.test/api/v1', max_retries=3)"


# -- TLS and proxies from the environment -----------------------------------------------------

CA_FILE = certifi.where()


@pytest.mark.parametrize(
    "env, expected",
    [
        ({}, True),
        ({"SSL_CERT_FILE": CA_FILE}, True),  # httpx's own, via trust_env
        ({"SSL_CERT_DIR": "/etc/ssl/certs"}, True),
        ({"REQUESTS_CA_BUNDLE": CA_FILE}, ssl.SSLContext),
        ({"CURL_CA_BUNDLE": CA_FILE}, ssl.SSLContext),
        ({"REQUESTS_CA_BUNDLE": "", "CURL_CA_BUNDLE": CA_FILE}, ssl.SSLContext),
        ({"REQUESTS_CA_BUNDLE": str(Path(CA_FILE).parent)}, ssl.SSLContext),
        ({"SSL_CERT_FILE": CA_FILE, "REQUESTS_CA_BUNDLE": "/missing.pem"}, True),
    ],
)
def test_ca_bundle_from_environment(env, expected):
    verify = verify_from_env(env)
    if expected is True:
        assert verify is True
    else:
        assert isinstance(verify, expected)
        assert verify.verify_mode == ssl.CERT_REQUIRED


@pytest.mark.parametrize("name", ["REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE"])
def test_unreadable_ca_bundle_is_reported_by_variable(name):
    with pytest.raises(DocsvcError, match=f"{name}=/nonexistent/ca.pem"):
        verify_from_env({name: "/nonexistent/ca.pem"})


@pytest.fixture()
def no_proxy_env(monkeypatch):
    """The environment without the machine's own proxy and CA variables."""
    import os

    for name in list(os.environ):
        if name.lower() in ("http_proxy", "https_proxy", "all_proxy", "no_proxy") or name in (
                "SSL_CERT_FILE", "SSL_CERT_DIR", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE"):
            monkeypatch.delenv(name)
    return monkeypatch


@pytest.mark.parametrize("env, base_url, message", [
    ({"HTTP_PROXY": "::bogus::"}, "http://127.0.0.1:1", "HTTP_PROXY: not a usable proxy URL"),
    ({"https_proxy": "ftp://user:hunter2@proxy:21"}, "https://docs.example.com",
     "https_proxy: not a usable proxy URL"),
    ({"ALL_PROXY": "socks5://user:hunter2@127.0.0.1:1"}, "http://127.0.0.1:1",
     "ALL_PROXY: a SOCKS proxy needs the socksio package"),
    ({"SSL_CERT_FILE": "/nonexistent/ca.pem"}, "https://docs.example.com",
     "SSL_CERT_FILE=/nonexistent/ca.pem: not a readable CA bundle (No such file or directory)"),
])
def test_an_unusable_proxy_or_ca_variable_is_named_without_its_password(no_proxy_env, env, base_url, message):
    import importlib.util

    if "socks" in str(env) and importlib.util.find_spec("socksio") is not None:
        pytest.skip("socksio is installed here")
    for name, value in env.items():
        no_proxy_env.setenv(name, value)
    with pytest.raises(ClientSetupError) as info:
        Client("k", base_url)
    assert str(info.value).startswith(message) and "hunter2" not in str(info.value)
    assert info.value.__cause__ is None and info.value.__suppress_context__  # httpx's text may hold the URL


def test_a_malformed_base_url_is_a_setup_error(no_proxy_env):
    with pytest.raises(ClientSetupError, match=r"^the base URL is malformed \(Invalid port: ':1'\)$"):
        Client("k", "http://[::1")


def test_setup_errors_are_bad_input_exit_2():
    from docsvc.exit_codes import USAGE, for_error

    assert for_error(ClientSetupError("HTTP_PROXY: not a usable proxy URL")) == (
        "HTTP_PROXY: not a usable proxy URL", USAGE)


def test_real_transport_honours_environment(monkeypatch):
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", CA_FILE)
    monkeypatch.setenv("HTTPS_PROXY", "http://proxy.internal:3128")
    monkeypatch.setenv("NO_PROXY", "localhost")
    with Client("k", "https://docs.example.com") as client:
        assert client._http.trust_env is True
        proxied = client._http._transport_for_url(httpx.URL("https://docs.example.com/"))
        direct = client._http._transport_for_url(httpx.URL("https://localhost/"))
        assert proxied is not direct
        assert proxied._pool._proxy_url.host == b"proxy.internal"


# -- answers ----------------------------------------------------------------------------------


def test_unknown_fields_are_kept_on_models():
    item = {"id": 4, "title": "Guide", "color": "teal",
            "pull_request": {"url": "https://x/pr/1", "state": "open", "checks": "green"}}
    api = MockAPI(json_response(200, [item]))
    [got] = fake_client(api).items.list("docflows")
    assert got.color == "teal"
    assert got.pull_request.checks == "green"
    assert got.model_dump()["color"] == "teal"


def test_redirects_are_not_followed():
    answer = httpx.Response(307, headers={"Location": "https://elsewhere.test/api/v1/me/work"})
    api = MockAPI(answer)
    with pytest.raises(APIStatusError, match="^307 Temporary Redirect"):
        fake_client(api).me.work()
    assert len(api.requests) == 1


def test_context_manager_closes_the_connection_pool():
    with fake_client(MockAPI(json_response())) as client:
        assert isinstance(client, Client)
    assert client._http.is_closed


def test_from_settings_uses_key_and_base_url():
    settings = Settings(api_key="k1", base_url="https://docs.example.com", integration_id=None,
                        config_path=None)
    client = Client.from_settings(settings, transport=MockAPI(json_response()), max_retries=1)
    assert client.base_url == "https://docs.example.com/api/v1"
    assert client.retry_policy.max_retries == 1


def test_from_settings_without_key_raises_missing_key():
    settings = Settings(api_key=None, base_url=DEFAULT_BASE_URL, integration_id=None,
                        config_path=None)
    with pytest.raises(MissingApiKey, match="^Error: DOCSVC_API_KEY missing$"):
        Client.from_settings(settings)


# -- Link pagination --------------------------------------------------------------------------


def _page(items, next_url=None, extra_links=()):
    links = [f'<{url}>; rel="{rel}"' for url, rel in extra_links]
    if next_url:
        links.append(f'<{next_url}>; rel="next"')
    headers = {"Link": ", ".join(links)} if links else {}
    return json_response(200, items, headers=headers)


def _release(i):
    return {"id": i, "name": f"R{i}"}


def test_link_next_pages_are_followed_and_concatenated():
    api = MockAPI(
        _page([_release(1), _release(2)], "/api/v1/releases?offset=2&limit=2",
              extra_links=[("/api/v1/releases?offset=4&limit=2", "last")]),
        _page([_release(3), _release(4)], "https://docsvc.test/api/v1/releases?offset=4&limit=2"),
        _page([_release(5)]),
    )
    releases = fake_client(api).releases.list()
    assert [r.id for r in releases] == [1, 2, 3, 4, 5]
    assert [str(r.url) for r in api.requests] == [
        "https://docsvc.test/api/v1/releases",
        "https://docsvc.test/api/v1/releases?offset=2&limit=2",
        "https://docsvc.test/api/v1/releases?offset=4&limit=2",
    ]
    assert all(r.headers["authorization"] == f"Bearer {TEST_API_KEY}" for r in api.requests)


def test_pagination_keeps_the_original_filters_in_the_next_link():
    api = MockAPI(_page([{"id": 1}], "/api/v1/items/docflows?status=todo&offset=1"),
                  _page([{"id": 2}]))
    items = fake_client(api).items.list("docflows", status="todo")
    assert [i.id for i in items] == [1, 2]
    assert dict(api.requests[1].url.params) == {"status": "todo", "offset": "1"}


def test_pagination_pages_are_retried_like_any_request():
    api = MockAPI(_page([_release(1)], "/api/v1/releases?offset=1"),
                  json_response(503, {"title": "Down"}), _page([_release(2)]))
    assert [r.id for r in fake_client(api).releases.list()] == [1, 2]
    assert len(api.requests) == 3


def test_pagination_raises_on_a_link_loop_instead_of_a_partial_list():
    api = MockAPI(_page([_release(1)], "/api/v1/releases?offset=1"),
                  _page([_release(2)], "/api/v1/releases?offset=0"),
                  _page([_release(1)], "/api/v1/releases?offset=1"))
    with pytest.raises(APIResponseValidationError, match="loop"):
        fake_client(api).releases.list()
    assert len(api.requests) == 3


def test_pagination_is_capped(monkeypatch):
    monkeypatch.setattr("docsvc.client._base.MAX_PAGES", 5)
    api = MockAPI(lambda request: _page([_release(1)], f"/api/v1/releases?offset={len(api.requests)}"))
    with pytest.raises(APIResponseValidationError, match="more than 5 pages"):
        fake_client(api).releases.list()
    assert len(api.requests) == 5


def test_pagination_refuses_to_send_the_key_to_another_origin():
    api = MockAPI(_page([_release(1)], "https://evil.test/api/v1/releases?offset=1"))
    with pytest.raises(APIResponseValidationError, match="another origin"):
        fake_client(api).releases.list()
    assert len(api.requests) == 1


def test_a_json_object_with_a_link_is_not_paginated():
    api = MockAPI(json_response(200, {"open": 1}, headers={"Link": '</api/v1/x>; rel="next"'}))
    assert fake_client(api).me.work().open == 1
    assert len(api.requests) == 1


def test_a_next_page_that_is_not_an_array_is_an_error():
    api = MockAPI(_page([_release(1)], "/api/v1/releases?offset=1"), json_response(200, {}))
    with pytest.raises(APIResponseValidationError, match="not a JSON array"):
        fake_client(api).releases.list()


@pytest.mark.parametrize("name", ["authorization", "AUTHORIZATION", "user-agent", "accept"])
def test_default_headers_in_any_case_cannot_override_auth(name):
    api = MockAPI(json_response(200, {}))
    fake_client(api, default_headers={name: "evil"}).me.work()
    assert api.last.headers.get_list("authorization") == [f"Bearer {TEST_API_KEY}"]
    assert api.last.headers.get_list("user-agent") == ["docsvc-cli/1.2.0"]
    assert api.last.headers.get_list("accept") == ["application/json"]


@pytest.mark.parametrize("base_url", ["https://user:s3cret@docsvc.test", "https://user@docsvc.test/api/v1",
                                      "http://:s3cret@127.0.0.1:8000"])
def test_a_user_or_password_in_the_base_url_is_refused_without_showing_it(base_url):
    with pytest.raises(ClientSetupError) as info:
        fake_client(MockAPI(json_response(200, {})), base_url=base_url)
    assert "s3cret" not in str(info.value) and "user or password" in str(info.value)
    from docsvc.config import ConfigError, check_base_url

    with pytest.raises(ConfigError) as config_info:
        check_base_url(base_url, "$DOCSVC_BASE_URL")
    assert "s3cret" not in str(config_info.value)
    assert "the API key authenticates, the URL holds no user or password" in str(config_info.value)


def test_an_at_sign_in_the_path_or_query_is_no_user():
    api = MockAPI(json_response(200, {"open": 1}))
    assert fake_client(api, base_url="https://docsvc.test/team@x").me.work().open == 1


def test_a_body_that_cannot_be_decoded_is_a_validation_error():
    api = httpx.MockTransport(lambda request: httpx.Response(
        200, headers={"Content-Encoding": "gzip"}, stream=httpx.ByteStream(b"not gzip")))
    with pytest.raises(APIResponseValidationError, match="cannot be decoded"):
        fake_client(api).me.work()
