"""What the code hosts' REST APIs share: one HTTP policy (auth headers, the egress check, rate limits
waited out within a deadline, errors as one sentence naming the integration and what is missing),
the pull request as the service keeps it, and the interface each host implements.

The token is only ever in a request header: every message made here is passed through
``credentials.redacted`` with the secrets of the connection, so a host that quotes it back (or an
exception that does) still shows ``***``.
"""

from __future__ import annotations

import email.utils
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Protocol

import httpx

from ....credentials import redacted
from ....egress import Egress, EgressRefused

__all__ = ["Connection", "Api", "CodeHost", "HostError", "PullRequest", "REVIEWS", "STATES", "explainer"]

STATES = ("open", "closed", "merged")
REVIEWS = ("review required", "approved", "changes requested")
_REQUEST_TIMEOUT = 30.0  # one request's cap; the connection's deadline bounds all of them
_LONGEST_UNTOLD_WAIT = 60.0  # GitHub's advice for a secondary limit that names no time


class HostError(Exception):
    """A code host refused or failed a request. The message is one sentence for a person: which
    integration, what the host said, what is missing; never a token. ``status`` is the host's HTTP
    status (None when it was not reached); ``transient`` says whether trying again later may work
    (the host failed, was out of reach or rate limited) or whether a person must fix something first
    (the token, a permission, the repository)."""

    def __init__(self, message: str, status: int | None = None, transient: bool = False) -> None:
        super().__init__(message)
        self.status = status
        self.transient = transient


@dataclass(frozen=True)
class PullRequest:
    """A pull (GitHub) or merge (GitLab) request as the service keeps it on an item."""

    host: str  # github | gitlab
    repo: str  # OWNER/NAME
    number: int  # GitHub's number, GitLab's iid: what people call it
    url: str  # the host's page of it
    state: str  # one of STATES
    review: str  # one of REVIEWS
    branch: str  # the head branch
    base: str

    def record(self) -> dict[str, Any]:
        return {"url": self.url, "state": self.state, "review": self.review, "number": self.number,
                "host": self.host, "repo": self.repo, "branch": self.branch, "base": self.base}


@dataclass
class Connection:
    """How to reach one integration's host. ``token`` is a personal, project or installation token;
    a GitHub App gives ``app_id`` and ``app_key`` (PEM) instead. ``deadline`` is a time.monotonic()
    value: rate limits are waited out before it, never after. ``transport`` is for tests."""

    integration: str  # how messages name the integration: "integration 3 ('docs')"
    api_url: str
    token: str | None = None
    token_source: str = "the token"  # how messages name where the token came from ("$GH_TOKEN")
    app_id: int | None = None
    app_key: bytes | None = field(default=None, repr=False)
    egress: Egress | None = None
    deadline: float = field(default_factory=lambda: time.monotonic() + 45.0)
    transport: httpx.BaseTransport | None = None
    sleep: Callable[[float], None] = time.sleep


class CodeHost(Protocol):
    """One code host's pull requests."""

    def open_pull_request(self, repo: str, head: str, base: str, title: str, body: str) -> PullRequest:
        """The open pull request of ``head`` into ``base``: the one there is, else a new one."""

    def pull_request(self, repo: str, number: int) -> PullRequest:
        """A pull request's live state and review state."""


def _retry_after(response: httpx.Response, now: float) -> float | None:
    """Seconds the host asks to wait before the next request, when it says it is rate limited."""
    headers = response.headers
    limited = response.status_code == 429 or (
        response.status_code == 403 and ("retry-after" in headers or headers.get("x-ratelimit-remaining") == "0"))
    if not limited:
        return None
    if "retry-after" in headers:
        value = headers["retry-after"].strip()
        if value.isdigit():
            return float(value)
        when = email.utils.parsedate_to_datetime(value) if value else None
        return max(0.0, when.timestamp() - now) if when else _LONGEST_UNTOLD_WAIT
    reset = headers.get("x-ratelimit-reset") or headers.get("ratelimit-reset")
    if reset and reset.isdigit():
        return max(0.0, float(reset) - now)
    return _LONGEST_UNTOLD_WAIT


def host_message(response: httpx.Response) -> str:
    """What the host said about a refused request: GitHub's ``message`` with its ``errors``, GitLab's
    ``message`` (a text, a list or a mapping of field to texts) or ``error``."""
    try:
        body = response.json()
    except ValueError:
        return response.text.strip()[:300] or response.reason_phrase
    if not isinstance(body, dict):
        return str(body)[:300]
    message = body.get("message", body.get("error_description", body.get("error", "")))
    if isinstance(message, dict):
        message = "; ".join(f"{k} {' '.join(map(str, v)) if isinstance(v, list) else v}" for k, v in message.items())
    elif isinstance(message, list):
        message = "; ".join(map(str, message))
    details = [e.get("message") or " ".join(str(e.get(k)) for k in ("resource", "field", "code") if e.get(k))
               for e in body.get("errors") or [] if isinstance(e, dict)]
    return "; ".join(str(part) for part in [message, *details] if part)[:500]


def explainer(label: str, credential: str, repo: str, doing: str, *, needs: Callable[[httpx.Response], str],
              not_found: str, refusals: tuple[int, ...] = (422,),
              overrides: dict[int, str] | None = None) -> Callable[[httpx.Response], str]:
    """What a refused request means, for the person who must fix it: 401 the token, 403 the
    permission ``needs(response)`` names, 404 ``not_found``, a refusal (``refusals``) the host's own
    words, anything else the status and that it may work later. ``overrides`` replaces the text of
    a status (``{said}`` stands for the host's message)."""
    def explain(response: httpx.Response) -> str:
        status, said = response.status_code, host_message(response)
        if overrides and status in overrides:
            return overrides[status].format(said=said)
        if status == 401:
            return f"{label} refused the token from {credential} (401 {said}): it is wrong, expired or revoked"
        if status == 403:
            return f"the token from {credential} may not {doing} on {repo} (403 {said}): it needs {needs(response)}"
        if status == 404:
            return not_found
        if status in refusals:
            return f"{label} refused to {doing} on {repo} ({status}): {said}"
        return f"{label} answered {status} to {doing} on {repo} ({said}); try again later"
    return explain


class Api:
    """Requests to one host for one integration, with the policy above. ``label`` names the host
    in messages (GitHub, GitLab); ``headers`` gives the auth headers for a request (called per
    request, so an expired installation token is replaced); ``secrets`` every secret in use, hidden
    from every message."""

    def __init__(self, connection: Connection, label: str, headers: Callable[[], dict[str, str]],
                 secrets: Callable[[], list[str | None]]) -> None:
        self.connection = connection
        self.label = label
        self._headers = headers
        self._secrets = secrets
        self._client = httpx.Client(transport=connection.transport, follow_redirects=False,
                                    headers={"User-Agent": "docsvc"})

    def close(self) -> None:
        self._client.close()

    def fail(self, message: str, status: int | None = None, transient: bool = False) -> HostError:
        """A HostError naming the integration, with every secret of the connection hidden."""
        return HostError(redacted(f"{self.connection.integration}: {message}", self._secrets()), status, transient)

    def request(self, method: str, path: str, *, params: dict[str, Any] | None = None, json: Any = None,
                headers: dict[str, str] | None = None, explain: Callable[[httpx.Response], str]) -> httpx.Response:
        """One request, repeated after each rate limit while the deadline allows. A 2xx answer is
        returned; any other is a HostError with ``explain(response)`` as its message."""
        url = self.connection.api_url.rstrip("/") + path
        while True:
            if self.connection.egress is not None:
                try:
                    self.connection.egress.check_url(url)
                except EgressRefused as exc:
                    raise self.fail(f"the {self.label} API at {self.connection.api_url} is refused: {exc}") from None
            left = self.connection.deadline - time.monotonic()
            if left <= 0:
                raise self.fail(f"no time left for the {self.label} API ({method} {path})", transient=True)
            try:
                response = self._client.request(method, url, params=params, json=json,
                                                headers={**self._headers(), **(headers or {})},
                                                timeout=min(_REQUEST_TIMEOUT, left))
            except httpx.TimeoutException:
                raise self.fail(f"the {self.label} API at {self.connection.api_url} did not answer in time",
                                transient=True) from None
            except httpx.TransportError as exc:
                raise self.fail(f"cannot reach the {self.label} API at {self.connection.api_url}: "
                                f"{type(exc).__name__} {exc}", transient=True) from None
            wait = _retry_after(response, time.time())
            if wait is None:
                break
            if time.monotonic() + wait > self.connection.deadline:
                raise self.fail(f"{self.label}'s rate limit is used up for another {wait:.0f} s, longer than the "
                                f"time left; try again later", response.status_code, transient=True)
            self.connection.sleep(wait)
        if response.is_success:
            return response
        raise self.fail(explain(response), response.status_code, transient=response.status_code >= 500)

    def pages(self, path: str, *, params: dict[str, Any], explain: Callable[[httpx.Response], str],
              most: int = 20) -> Iterator[Any]:
        """The items of a paged list (RFC 8288 ``Link: <...>; rel="next"``), at most ``most`` pages."""
        response = self.request("GET", path, params=params, explain=explain)
        for _ in range(most):
            yield from response.json()
            following = response.links.get("next", {}).get("url")
            base = self.connection.api_url.rstrip("/")
            # Never hand the token to another host: https://api.github.com.example.net starts with
            # https://api.github.com too, so the next page must be under the API's own path.
            if not following or not following.startswith(base + "/"):
                return
            response = self.request("GET", following[len(base):], explain=explain)
