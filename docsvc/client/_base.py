"""``BaseClient``: the one place that owns HTTP policy.

Authentication, headers, time-outs, proxies and CA bundles, retries with ``Retry-After`` and
backoff, idempotency keys, multipart rebuilding, ``Link`` pagination and error mapping all
live here, so the resource modules stay thin: they only say which endpoint, with what
arguments, cast to which model.
"""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
import logging
import os
import random
import ssl
import time
import uuid
from typing import Any, Callable, Iterator, Mapping, Sequence
from urllib.parse import quote

import httpx

import docsvc
from docsvc.config import DEFAULT_BASE_URL, KEY_CHARS
from docsvc.credentials import hidden
from docsvc.endpoints import Endpoint, by_name

from ._response import cast_to, describe, next_link, read_body, status_error
from ._retry import RetryPolicy, is_retryable_exception, is_retryable_status
from ._types import NOT_GIVEN, FilesFactory, strip_none
from .errors import (APIConnectionError, APIResponseValidationError, APITimeoutError, ClientSetupError,
                     UnencodableTextError)

__all__ = ["BaseClient", "DEFAULT_TIMEOUT", "API_PREFIX", "USER_AGENT", "verify_from_env"]

log = logging.getLogger("docsvc.client")

API_PREFIX = "/api/v1"
# A listing is followed for at most this many pages: a server that links on forever is an error.
MAX_PAGES = 10_000
USER_AGENT = f"docsvc-cli/{docsvc.__version__}"
# A slow start is a network problem worth reporting soon; a slow answer may be real work.
DEFAULT_TIMEOUT = httpx.Timeout(60.0, connect=10.0)
# Environment variables naming a CA bundle, in the order requests and curl users expect.
_CA_BUNDLE_VARS = ("REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE")


class _Secret:
    """Holds the API key so that ``vars(client)`` and debuggers show ``<hidden>``, not the key."""

    __slots__ = ("value",)

    def __init__(self, value: str) -> None:
        self.value = value

    def __repr__(self) -> str:
        return "<hidden>"


def verify_from_env(env: Mapping[str, str] | None = None) -> ssl.SSLContext | bool:
    """The ``verify=`` value that honours the CA-bundle variables CI machines set.

    ``SSL_CERT_FILE``/``SSL_CERT_DIR`` are httpx's own (``trust_env=True``), so ``True`` leaves
    them to httpx. Otherwise ``REQUESTS_CA_BUNDLE`` or ``CURL_CA_BUNDLE`` (a file or a
    directory) becomes an SSL context: corporate proxies are often configured only that way.
    """
    env = os.environ if env is None else env
    if env.get("SSL_CERT_FILE") or env.get("SSL_CERT_DIR"):
        return True
    for name in _CA_BUNDLE_VARS:
        path = env.get(name)
        if not path:
            continue
        try:
            if os.path.isdir(path):
                return ssl.create_default_context(capath=path)
            return ssl.create_default_context(cafile=path)
        except (OSError, ssl.SSLError) as exc:
            raise ClientSetupError(f"{name}={path}: not a readable CA bundle ({exc})") from None
    return True


_NO_CA_CONTEXT: ssl.SSLContext | None = None
_PROXY_VARS = ("http_proxy", "https_proxy", "all_proxy")
# What httpx reads from the environment when it builds a client (``trust_env``).
_CA_VARS = ("SSL_CERT_FILE", "SSL_CERT_DIR")


def _setup_error(exc: Exception, base_url: str) -> ClientSetupError:
    """The setting that made ``httpx.Client(...)`` fail, as one line naming it.

    httpx reads the proxy and CA variables itself and fails with its own exception (InvalidURL,
    ImportError for a SOCKS proxy without socksio, FileNotFoundError for a CA file): find which
    setting it was. Neither a URL nor httpx's text is repeated, as either may hold a proxy's
    password."""
    try:
        httpx.URL(base_url)
    except httpx.InvalidURL as invalid:  # its message names the bad part (port, host), not the URL
        return ClientSetupError(f"the base URL is malformed ({invalid})")
    if isinstance(exc, OSError):  # ssl.SSLError included: a CA file or folder it could not load
        for name in _CA_VARS:
            if os.environ.get(name):
                return ClientSetupError(f"{name}={os.environ[name]}: not a readable CA bundle "
                                        f"({exc.strerror or type(exc).__name__})")
    for name, value in sorted(os.environ.items()):
        if name.lower() in _PROXY_VARS and value and (problem := _proxy_problem(value)):
            return ClientSetupError(f"{name}: {problem}")
    return ClientSetupError(f"the proxy or TLS settings of the environment are unusable ({type(exc).__name__})")


def _proxy_problem(value: str) -> str | None:
    """Why httpx cannot use the proxy URL ``value`` (as it reads it: no scheme means http://)."""
    try:
        proxy = httpx.Proxy(value if "://" in value else f"http://{value}")
    except (httpx.InvalidURL, ValueError):
        return "not a usable proxy URL (http://, https:// or socks5://, then HOST:PORT)"
    if proxy.url.scheme.startswith("socks"):
        import importlib.util

        if importlib.util.find_spec("socksio") is None:
            return "a SOCKS proxy needs the socksio package (pip install 'httpx[socks]')"
    return None


def _no_ca_context() -> ssl.SSLContext:
    global _NO_CA_CONTEXT
    _NO_CA_CONTEXT = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)  # verifies (CERT_REQUIRED), trusts no CA
    return _NO_CA_CONTEXT


def _plain_http_only(api_root: str) -> bool:
    """Whether requests to ``api_root`` can never need TLS: an ``http://`` URL, no proxy variable
    set (a proxy may be ``https://``), and redirects are not followed (see ``BaseClient``)."""
    if not api_root.startswith("http://"):
        return False
    return not any(name.lower() in _PROXY_VARS and value for name, value in os.environ.items())


def _api_root(base_url: str) -> str:
    base_url = base_url.strip().rstrip("/")
    if not base_url.startswith(("http://", "https://")):
        raise ValueError(f"base_url must start with http:// or https://, got {hidden(base_url)!r}")
    if "@" in base_url.partition("://")[2].partition("/")[0]:
        # httpx would send it as Basic auth in place of the key, and show it in logs and reprs.
        raise ClientSetupError("the base URL holds a user or password; the API key authenticates, "
                               "the URL holds no user or password")
    # Tolerate a base URL that already names the API root, a common copy-paste.
    return base_url if base_url.endswith(API_PREFIX) else base_url + API_PREFIX


def _capped(timeout: httpx.Timeout, seconds: float) -> httpx.Timeout:
    """``timeout`` with each phase (connect, read, write, pool) at most ``seconds``."""
    def cap(value: float | None) -> float:
        return seconds if value is None else min(value, seconds)

    return httpx.Timeout(connect=cap(timeout.connect), read=cap(timeout.read), write=cap(timeout.write),
                         pool=cap(timeout.pool))


def _format_path(endpoint: Endpoint, path_params: Mapping[str, Any] | None) -> str:
    # Each value is one path segment: quote "/" and friends so an id cannot change the route.
    quoted = {key: quote(str(value), safe="") for key, value in (path_params or {}).items()}
    try:
        return endpoint.path.format(**quoted)
    except KeyError as exc:
        raise TypeError(f"{endpoint.name}: missing path parameter {exc.args[0]!r}") from None


def _unencodable(value: Any, where: str | None = None) -> tuple[str | None, str] | None:
    """The first text in ``value`` (nested mappings and lists) that UTF-8 cannot encode, and where
    it stands (``steps[0].text``); None when there is none. Only called once encoding failed, so a
    request that can be sent pays nothing for it."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return where, value
        return None
    if isinstance(value, Mapping):
        parts = ((f"{where}.{key}" if where else str(key), item) for key, item in value.items())
    elif isinstance(value, (list, tuple)):
        parts = ((f"{where or ''}[{index}]", item) for index, item in enumerate(value))
    else:
        return None
    for place, item in parts:
        if (found := _unencodable(item, place)) is not None:
            return found
    return None


def _boundary(idempotency_key: str) -> str:
    """The multipart boundary of a request: one per idempotency key, so every attempt of a
    request sends the same bytes (a proxy, a signature or a server hashing the body sees one
    request). 32 hex digits from a hash, unlikely in file contents as a random one."""
    return hashlib.sha256(f"docsvc-multipart:{idempotency_key}".encode()).hexdigest()[:32]


def _in_progress(response: httpx.Response, headers: Mapping[str, str]) -> bool:
    """A 409 with ``Retry-After`` to a request with an Idempotency-Key: the service is still
    handling the first request with that key (a retry overtook it); asking again later gets
    its answer. Other 409s (a state conflict) carry no ``Retry-After`` and are final."""
    return (response.status_code == 409 and "Idempotency-Key" in headers
            and "retry-after" in response.headers)


def _multipart(
    fields: Mapping[str, Any], files: Sequence[tuple[str, Any]]
) -> tuple[dict[str, str] | None, list[tuple[str, Any]]]:
    """(data, files) arguments for httpx that always encode as multipart/form-data.

    httpx sends url-encoded form data when there are no files, but the endpoints that take
    multipart (e.g. a diagram without an image) expect multipart either way: then the text
    fields go as file-less parts, which are byte-for-byte ordinary form fields.
    """
    text = {key: str(value) for key, value in fields.items() if value is not None}
    if files:
        return text, list(files)
    return None, [(key, (None, value)) for key, value in text.items()]


class _DeadlineStream(httpx.SyncByteStream):
    """A response body that checks the deadline between chunks (``time_left`` raises
    APITimeoutError once it passed) and bounds the next read to the time left."""

    def __init__(self, stream: Any, request: httpx.Request, time_left: Callable[[], float | None]) -> None:
        self._stream = stream
        self._timeouts = request.extensions.get("timeout")
        self._time_left = time_left

    def __iter__(self) -> Iterator[bytes]:
        for chunk in self._stream:
            left = self._time_left()
            if isinstance(self._timeouts, dict) and left is not None:
                self._timeouts["read"] = left  # httpcore reads it afresh for each read
            yield chunk

    def close(self) -> None:
        self._stream.close()


class BaseClient:
    """Sends the requests of every resource group under one HTTP policy.

    ``call`` is what resource methods use; ``request`` is the lower level that returns the
    ``httpx.Response`` (``jobs.wait`` reads its ``Retry-After``).

    Options:
      ``base_url``: the service address; ``/api/v1`` is appended (unless already there).
      ``timeout``: seconds, or an ``httpx.Timeout``; default connect 10 s, the rest 60 s.
      ``max_retries``: retries after the first attempt (connection errors, time-outs,
      408, 429, 5xx except 501). ``max_retry_after``: cap on a server's ``Retry-After``.
      ``transport``: an ``httpx`` transport, e.g. ``httpx.MockTransport`` in tests.
      ``verify``: TLS verification; by default from the environment (``verify_from_env``).
      Proxies come from ``HTTP(S)_PROXY``/``NO_PROXY`` (``trust_env``).
      ``default_headers``: extra headers on every request (they cannot replace
      ``Authorization``, ``User-Agent`` or ``Accept``).
      ``sleep``, ``clock`` (monotonic) and ``rng`` (uniform in [0, 1)): injectable so tests
      run retries and job polling without real waiting.
    """

    def __init__(
        self,
        api_key: str,
        base_url: str = DEFAULT_BASE_URL,
        *,
        timeout: float | httpx.Timeout | None = DEFAULT_TIMEOUT,
        max_retries: int = 3,
        max_retry_after: float = 60.0,
        transport: httpx.BaseTransport | None = None,
        verify: ssl.SSLContext | bool | None = None,
        default_headers: Mapping[str, str] | None = None,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
        rng: Callable[[], float] = random.random,
    ) -> None:
        if not api_key:
            raise ValueError("api_key is required")
        if not KEY_CHARS.fullmatch(api_key):
            # Caught here because httpx and h11 would quote the header, key included, in
            # their own error messages. The message names the usual causes, not the key.
            raise ValueError("api_key must be printable ASCII without spaces "
                             "(check for a stray newline, space or quote)")
        if max_retries < 0:
            raise ValueError("max_retries must be 0 or more")
        self._api_key = _Secret(api_key)
        self.base_url = _api_root(base_url)
        self.retry_policy = RetryPolicy(max_retries=max_retries, max_retry_after=max_retry_after)
        self._sleep = sleep
        self._clock = clock
        self._rng = rng
        # The open ``deadline()`` blocks of this client in the current thread or asyncio task:
        # (a token, its end) each. Per context, so one thread's deadline never bounds another's
        # requests; a tuple, so a block that ends removes exactly its own entry.
        self._deadlines: contextvars.ContextVar[tuple[tuple[object, float], ...]] = \
            contextvars.ContextVar(f"docsvc_deadlines_{id(self):x}", default=())
        # Merged case-insensitively: a lowercase "authorization" must not replace the key.
        headers = httpx.Headers(default_headers or {})
        headers["Authorization"] = f"Bearer {api_key}"
        headers["User-Agent"] = USER_AGENT
        headers["Accept"] = "application/json"
        if verify is None:
            # With a transport (tests), TLS settings are the transport's business.
            verify = verify_from_env() if transport is None else True
        if verify is True and transport is None and _plain_http_only(self.base_url):
            # httpx builds its TLS context up front, loading every CA certificate (a third of
            # ``docsvc mywork``'s start against a local service). Plain HTTP without a proxy and
            # without redirects never does TLS: a context without CAs verifies nothing, so any
            # TLS it did meet would fail closed.
            verify = _NO_CA_CONTEXT or _no_ca_context()
        try:
            self._http = httpx.Client(
                base_url=self.base_url,
                headers=headers,
                timeout=timeout,
                transport=transport,
                verify=verify,
                trust_env=True,  # HTTP(S)_PROXY, NO_PROXY, SSL_CERT_FILE, SSL_CERT_DIR
                follow_redirects=False,  # a redirect could carry the key elsewhere, or drop a POST body
            )
        except (httpx.InvalidURL, ValueError, ImportError, OSError) as exc:
            raise _setup_error(exc, self.base_url) from None

    # -- life cycle ---------------------------------------------------------------------------

    def close(self) -> None:
        """Close the connection pool. The client cannot be used afterwards."""
        self._http.close()

    def __enter__(self) -> BaseClient:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:  # never the key, not even masked: a repr ends up in logs
        return (f"{type(self).__name__}(base_url={self.base_url!r}, "
                f"max_retries={self.retry_policy.max_retries})")

    @property
    def timeout(self) -> httpx.Timeout:
        return self._http.timeout

    @contextlib.contextmanager
    def deadline(self, seconds: float | None) -> Iterator[None]:
        """Bound everything sent inside the block to ``seconds`` in all: each request's time-outs
        shrink to the time left, and no retry starts past it. A ``--timeout`` must also hold
        against a service that accepts a connection and never answers. The deadline belongs to
        the current thread (or asyncio task): other threads sharing the client are not bound by
        it. Nested blocks keep the earliest deadline (an inner block never extends an outer
        one), and blocks may end in any order. None leaves things as they are."""
        if seconds is None:
            yield
            return
        token = object()
        entry = (token, self._clock() + seconds)
        self._deadlines.set((*self._deadlines.get(), entry))
        try:
            yield
        finally:
            self._deadlines.set(tuple(e for e in self._deadlines.get() if e[0] is not token))

    def _current_deadline(self) -> float | None:
        """The monotonic time the innermost deadline of this context ends at (None: none)."""
        entries = self._deadlines.get()
        return min(end for _, end in entries) if entries else None

    def _time_left(self, method: str, url: str | httpx.URL) -> float | None:
        """Seconds left before the deadline (None: no deadline); APITimeoutError once it passed."""
        deadline = self._current_deadline()
        if deadline is None:
            return None
        left = deadline - self._clock()
        if left <= 0:
            raise APITimeoutError(f"{method} {self._target(url)}: no answer within the time limit",
                                  deadline=True)
        return left

    # -- requests -----------------------------------------------------------------------------

    def call(
        self,
        endpoint_name: str,
        *,
        path_params: Mapping[str, Any] | None = None,
        params: Mapping[str, Any] | None = None,
        json: Any = NOT_GIVEN,
        files_factory: FilesFactory | None = None,
        data: Mapping[str, Any] | None = None,
        cast: Any = None,
        raw_text: bool = False,
        raw_bytes: bool = False,
        idempotency_key: str | None = None,
    ) -> Any:
        """Call the endpoint ``endpoint_name`` (e.g. ``"items.list"``) and return its answer.

        The answer is the text (``raw_text``), its bytes as sent (``raw_bytes``), None for an empty answer (204), or the JSON
        validated as ``cast`` (a model class or a type such as ``list[Item]``; None keeps
        plain JSON). A JSON array answered to a GET with a ``Link: <...>; rel="next"``
        header is followed page by page and returned whole. Raises an ``APIStatusError``
        subclass for an error answer, ``APIConnectionError`` when the service stays
        unreachable after the retries.
        """
        response = self.request(
            endpoint_name,
            path_params=path_params,
            params=params,
            json=json,
            files_factory=files_factory,
            data=data,
            idempotency_key=idempotency_key,
            accept="text/plain, */*;q=0.5" if raw_text or raw_bytes else None,
        )
        if raw_bytes:
            return response.content
        if raw_text:
            return read_body(response, raw_text=True)
        body = read_body(response)
        if isinstance(body, list) and response.request.method == "GET":
            body = self._follow_pages(response, body)
        return cast_to(cast, body, what=describe(response),
                       empty_ok=by_name(endpoint_name).empty and response.status_code == 204)

    def parse(self, response: httpx.Response, *, cast: Any = None) -> Any:
        """The JSON body of one answer from ``request``, validated as ``cast``; None if empty."""
        return cast_to(cast, read_body(response), what=describe(response))

    def request(
        self,
        endpoint_name: str,
        *,
        path_params: Mapping[str, Any] | None = None,
        params: Mapping[str, Any] | None = None,
        json: Any = NOT_GIVEN,
        files_factory: FilesFactory | None = None,
        data: Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
        accept: str | None = None,
    ) -> httpx.Response:
        """Send one logical request (with its retries) and return the 2xx ``httpx.Response``.

        ``json=NOT_GIVEN`` sends no body; ``params`` whose value is None are dropped.
        Every POST carries an ``Idempotency-Key`` (the caller's, or a new uuid4), the same on
        each retry, so a retried POST whose first attempt did reach the service does not
        start a second job.
        """
        try:
            endpoint = by_name(endpoint_name)
        except KeyError:
            raise ValueError(f"unknown endpoint {endpoint_name!r}") from None
        headers: dict[str, str] = {}
        if accept:
            headers["Accept"] = accept
        if endpoint.method == "POST":
            headers["Idempotency-Key"] = idempotency_key or str(uuid.uuid4())
            if files_factory is not None:
                headers["Content-Type"] = (
                    f"multipart/form-data; boundary={_boundary(headers['Idempotency-Key'])}")
        try:
            return self._send(
                endpoint.method,
                _format_path(endpoint, path_params),
                params=strip_none(params or {}),
                json=json,
                data=data,
                files_factory=files_factory,
                headers=headers,
            )
        except UnicodeEncodeError:
            # Text that was never UTF-8 (an argument's undecodable bytes) fails where httpx encodes
            # the URL or the body, before anything is sent: say which value, not where it failed.
            parts = (path_params, params, None if json is NOT_GIVEN else json, data)
            field, value = next(filter(None, map(_unencodable, parts)), (None, None))
            raise UnencodableTextError(field, value) from None

    def _send(
        self,
        method: str,
        url: str | httpx.URL,
        *,
        params: Mapping[str, Any] | None = None,
        json: Any = NOT_GIVEN,
        data: Mapping[str, Any] | None = None,
        files_factory: FilesFactory | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> httpx.Response:
        """The retry loop around ``_attempt``.

        A 409 "still in progress" (see ``_in_progress``) is waited out apart from the retries:
        its ``Retry-After`` is honoured, up to ``policy.max_in_progress_wait`` seconds in all.
        """
        policy = self.retry_policy
        attempt = 0
        waited = 0.0
        while True:
            try:
                response = self._attempt(method, url, params=params, json=json, data=data,
                                         files_factory=files_factory, headers=headers)
            except httpx.DecodingError as exc:  # a body its Content-Encoding cannot undo
                raise APIResponseValidationError(
                    f"{method} {self._target(url)}: the answer's body cannot be decoded "
                    f"({type(exc).__name__})") from None
            except httpx.TooManyRedirects as exc:
                raise APIConnectionError(f"{method} {self._target(url)}: {type(exc).__name__}") from None
            except httpx.TransportError as exc:
                if attempt >= policy.max_retries or not is_retryable_exception(exc):
                    error = self._connection_error(exc, method, url)
                    # Keep httpx's exception as the cause unless its text has the key.
                    raise error from (None if self._api_key.value in str(exc) else exc)
                delay = policy.backoff(attempt, self._rng)
                why = type(exc).__name__
            else:
                if response.is_success:
                    return response
                if _in_progress(response, headers or {}):
                    delay = policy.delay(attempt, response.headers, rng=self._rng, now=time.time())
                    # At least a moment per wait, so "Retry-After: 0" cannot spin forever.
                    delay = None if delay is None else max(delay, policy.min_in_progress_delay)
                    if delay is None or waited + delay > policy.max_in_progress_wait:
                        raise status_error(response, secret=self._api_key.value)
                    self._check_time_left(method, url, delay, "HTTP 409, still in progress")
                    log.info("%s %s: the first request with this Idempotency-Key is still being "
                             "handled; asking again in %.2f s", method, url, delay)
                    self._sleep(delay)
                    waited += delay
                    continue
                if attempt >= policy.max_retries or not is_retryable_status(response.status_code):
                    raise status_error(response, secret=self._api_key.value)
                delay = policy.delay(attempt, response.headers, rng=self._rng, now=time.time())
                if delay is None:  # the service asks for a longer wait than is worth blocking on
                    raise status_error(response, secret=self._api_key.value)
                why = f"HTTP {response.status_code}"
            self._check_time_left(method, url, delay, why)
            log.info("%s %s: %s; retry %d of %d in %.2f s",
                     method, url, why, attempt + 1, policy.max_retries, delay)
            self._sleep(delay)
            attempt += 1

    def _check_time_left(self, method: str, url: str | httpx.URL, delay: float, why: str) -> None:
        """APITimeoutError when a wait of ``delay`` seconds would end past the deadline: waiting
        only to be cut off helps nobody, and the error comes now instead of at the deadline."""
        left = self._time_left(method, url)
        if left is not None and delay >= left:
            raise APITimeoutError(f"{method} {self._target(url)}: no answer within the time limit "
                                  f"(last: {why})", deadline=True)

    def _attempt(
        self,
        method: str,
        url: str | httpx.URL,
        *,
        params: Mapping[str, Any] | None,
        json: Any,
        data: Mapping[str, Any] | None,
        files_factory: FilesFactory | None,
        headers: Mapping[str, str] | None,
    ) -> httpx.Response:
        """One HTTP exchange. A multipart body is built afresh from ``files_factory``, so a
        retry re-reads the files from disk, and its files are closed whatever happens."""
        kwargs: dict[str, Any] = {}
        left = self._time_left(method, url)
        if left is not None:
            kwargs["timeout"] = _capped(self._http.timeout, left)
        opened: list[Any] = []
        if json is not NOT_GIVEN:
            kwargs["json"] = json
        if files_factory is not None:
            fields, files = files_factory()
            opened = [content[1] for _, content in files if hasattr(content[1], "close")]
            kwargs["data"], kwargs["files"] = _multipart({**(data or {}), **fields}, files)
        elif data is not None:
            kwargs["data"] = data
        try:
            if left is None:
                return self._http.request(method, url, params=params or None, headers=headers,
                                          **kwargs)
            # Under a deadline the body is read here, chunk by chunk: httpx's read time-out is per
            # read, so a server that trickles a byte at a time would otherwise outlast any deadline.
            request = self._http.build_request(method, url, params=params or None, headers=headers,
                                               **kwargs)
            response = self._http.send(request, stream=True)
            response.stream = _DeadlineStream(response.stream, request, lambda: self._time_left(method, url))
            try:
                response.read()
            except BaseException:
                response.close()
                raise
            return response
        finally:
            for file in opened:
                file.close()

    def _follow_pages(self, response: httpx.Response, items: list[Any]) -> list[Any]:
        """Append the pages that ``Link: <...>; rel="next"`` points to, until there is none."""
        seen = {str(response.url)}
        while (url := next_link(response)) is not None:
            if not self._same_origin(url):
                # Following it would send the API key to another server.
                raise APIResponseValidationError(
                    f"{describe(response)}: the next-page link points to another origin "
                    f"({url.scheme}://{url.host}); not followed"
                )
            if str(url) in seen:  # a loop in the links: the list would be partial
                raise APIResponseValidationError(
                    f"{describe(response)}: the next-page links loop back to a page already read")
            if len(seen) >= MAX_PAGES:
                raise APIResponseValidationError(
                    f"{describe(response)}: more than {MAX_PAGES} pages; not followed further")
            seen.add(str(url))
            response = self._send("GET", url)
            page = read_body(response)
            if not isinstance(page, list):
                raise APIResponseValidationError(
                    f"{describe(response)}: a next page that is not a JSON array"
                )
            items.extend(page)
        return items

    def _same_origin(self, url: httpx.URL) -> bool:
        base = self._http.base_url
        return (url.scheme, url.host, url.port) == (base.scheme, base.host, base.port)

    def _target(self, url: str | httpx.URL) -> str:
        """The URL of a request as an error may show it: a password in the base URL hidden."""
        return hidden(str(url) if isinstance(url, httpx.URL) else f"{self.base_url}{url}")

    def _connection_error(self, exc: httpx.TransportError, method: str,
                          url: str | httpx.URL) -> APIConnectionError:
        target = self._target(url)
        detail = (str(exc) or type(exc).__name__).replace(self._api_key.value, "[redacted]")
        if isinstance(exc, httpx.TimeoutException):
            # Its time-out was the time left of a deadline that has now ended: the deadline's.
            deadline = self._current_deadline()
            return APITimeoutError(f"{method} {target}: {detail}",
                                   deadline=deadline is not None and self._clock() >= deadline - 0.01)
        return APIConnectionError(f"{method} {target}: {detail}", unreachable=isinstance(exc, httpx.ConnectError))
