"""GitHub's REST API (github.com and GitHub Enterprise Server): pull requests, their state and
reviews, and GitHub App installation tokens.

Endpoints (https://docs.github.com/en/rest): ``GET /repos/{owner}/{repo}/pulls?head=owner:branch&state=open``,
``POST /repos/{owner}/{repo}/pulls``, ``GET /repos/{owner}/{repo}/pulls/{number}``,
``GET /repos/{owner}/{repo}/pulls/{number}/reviews``; for an App, ``GET /repos/{owner}/{repo}/installation``
and ``POST /app/installations/{id}/access_tokens`` with a JWT signed RS256 by the app's private key.
"""

from __future__ import annotations

import base64
import datetime as dt
import json
import threading
import time
from typing import Any, Callable

import httpx

from .common import Api, Connection, HostError, PullRequest, explainer

__all__ = ["GitHub", "app_jwt", "review_state", "forget_app_tokens"]

_HEADERS = {"Accept": "application/vnd.github+json", "X-GitHub-Api-Version": "2022-11-28"}
# X-Accepted-GitHub-Permissions names permissions as the API does; people see them as the settings page does.
_PERMISSION_NAMES = {"pull_requests": "Pull requests", "contents": "Contents", "metadata": "Metadata",
                     "issues": "Issues"}
_TOKEN_MARGIN = 120.0  # an installation token is replaced this long before it expires

# Installation tokens by (API URL, app id, repository): (token, expiry as time.time()).
_app_tokens: dict[tuple[str, int, str], tuple[str, float]] = {}
_app_tokens_lock = threading.Lock()


def forget_app_tokens() -> None:
    """Drop every cached installation token (tests; a key rotated)."""
    with _app_tokens_lock:
        _app_tokens.clear()


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def app_jwt(app_id: int, private_key_pem: bytes, now: float | None = None) -> str:
    """The JWT a GitHub App authenticates as itself with: RS256, issued a minute in the past (clock
    drift), valid for nine minutes (GitHub allows ten)."""
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import padding, rsa

    try:
        key = serialization.load_pem_private_key(private_key_pem, password=None)
    except (ValueError, TypeError):
        raise ValueError("is not an unencrypted PEM private key") from None
    if not isinstance(key, rsa.RSAPrivateKey):
        raise ValueError("is not an RSA private key (GitHub Apps sign with RS256)")
    issued = int(now if now is not None else time.time()) - 60
    header = _b64(json.dumps({"alg": "RS256", "typ": "JWT"}, separators=(",", ":")).encode())
    claims = _b64(json.dumps({"iat": issued, "exp": issued + 600 - 60, "iss": str(app_id)},
                             separators=(",", ":")).encode())
    signing_input = f"{header}.{claims}".encode("ascii")
    return f"{header}.{claims}.{_b64(key.sign(signing_input, padding.PKCS1v15(), hashes.SHA256()))}"


def review_state(reviews: list[dict[str, Any]]) -> str:
    """The review state as GitHub's page shows it: each reviewer's latest approval, request for
    changes or dismissal counts (comments do not replace it); any changes requested wins."""
    latest: dict[Any, str] = {}
    for review in reviews:  # oldest first, as the API lists them
        state = review.get("state")
        if state in ("APPROVED", "CHANGES_REQUESTED", "DISMISSED"):
            latest[(review.get("user") or {}).get("id") or (review.get("user") or {}).get("login")] = state
    if "CHANGES_REQUESTED" in latest.values():
        return "changes requested"
    return "approved" if "APPROVED" in latest.values() else "review required"


def _split(repo: str) -> tuple[str, str]:
    owner, _, name = repo.partition("/")
    return owner, name


class GitHub:
    """Pull requests on GitHub through a personal/installation token, or as a GitHub App."""

    name = "github"

    def __init__(self, connection: Connection) -> None:
        self.connection = connection
        self._app_token: str | None = None
        self._jwt: str | None = None
        self.api = Api(connection, "GitHub", self._auth, self._secrets)

    def _secrets(self) -> list[str | None]:
        # An installation token and the app's signed token are hidden like a given token.
        return [self.connection.token, self._app_token, self._jwt]

    def _auth(self) -> dict[str, str]:
        token = self._app_token or self.connection.token
        return {**_HEADERS, **({"Authorization": f"Bearer {token}"} if token else {})}

    def close(self) -> None:
        self.api.close()

    # --- errors -----------------------------------------------------------------------------------

    def _explainer(self, repo: str, doing: str, permission: str) -> Callable[[httpx.Response], str]:
        def needs(response: httpx.Response) -> str:
            # GitHub names what the endpoint accepts; ``permission`` when it does not.
            accepted = response.headers.get("x-accepted-github-permissions", "")
            named = ", ".join(f"{_PERMISSION_NAMES.get(k, k)}: {v}" for k, _, v in
                              (p.strip().partition("=") for p in accepted.split(",") if "=" in p))
            return f"the permission {named or permission} on {repo}"

        credential = self._credential()
        return explainer("GitHub", credential, repo, doing, needs=needs, not_found=(
            f"GitHub repository {repo} is not found with the token from {credential}: it does not exist or the "
            f"token cannot see it (give the token access to {repo})"))

    def _credential(self) -> str:
        if self.connection.app_id:
            return f"GitHub App {self.connection.app_id}'s installation"
        return self.connection.token_source

    # --- GitHub App -------------------------------------------------------------------------------

    def _ensure_token(self, repo: str) -> None:
        """Use the App's installation token for ``repo``'s owner: the cached one until it is close
        to expiring, else a new one (the installation found by the repository)."""
        if not self.connection.app_id:
            if not self.connection.token:
                raise self.api.fail("no GitHub token: set --host-token-env (and that variable in the service's "
                                    "environment) or --github-app-id with --github-app-key-file")
            return
        key = (self.connection.api_url, self.connection.app_id, repo.lower())
        with _app_tokens_lock:
            cached = _app_tokens.get(key)
        if cached and cached[1] - _TOKEN_MARGIN > time.time():
            self._app_token = cached[0]
            return
        try:
            signed = app_jwt(self.connection.app_id, self.connection.app_key or b"")
        except ValueError as exc:
            raise self.api.fail(f"the GitHub App {self.connection.app_id}'s private key {exc}") from None
        self._jwt = signed
        as_app = {"Authorization": f"Bearer {signed}"}
        owner, name = _split(repo)

        app = f"GitHub App {self.connection.app_id}"
        explain = explainer("GitHub", f"{app}'s signed token", repo, f"make an installation token of {app} for",
                            needs=lambda _: "the app installed with its permissions", not_found=(
                                f"{app} is not installed on {repo}: install it there with the permissions "
                                f"Contents: read and write, Pull requests: read and write"),
                            overrides={401: f"GitHub refused {app}'s signed token (401 {{said}}): check the app id "
                                            f"and its private key"})

        installation = self.api.request("GET", f"/repos/{owner}/{name}/installation", headers=as_app,
                                        explain=explain).json()
        minted = self.api.request("POST", f"/app/installations/{installation['id']}/access_tokens",
                                  headers=as_app, explain=explain).json()
        expires = dt.datetime.fromisoformat(minted["expires_at"].replace("Z", "+00:00")).timestamp()
        self._app_token = minted["token"]
        with _app_tokens_lock:
            _app_tokens[key] = (minted["token"], expires)

    # --- pull requests ----------------------------------------------------------------------------

    def _pull(self, repo: str, data: dict[str, Any], review: str) -> PullRequest:
        merged = bool(data.get("merged") or data.get("merged_at"))
        state = "merged" if merged else ("open" if data.get("state") == "open" else "closed")
        return PullRequest(host="github", repo=repo, number=int(data["number"]), url=data["html_url"], state=state,
                           review=review, branch=data["head"]["ref"], base=data["base"]["ref"])

    def _review(self, repo: str, number: int) -> str:
        owner, name = _split(repo)
        return review_state(list(self.api.pages(
            f"/repos/{owner}/{name}/pulls/{number}/reviews", params={"per_page": 100},
            explain=self._explainer(repo, f"read the reviews of pull request #{number}", "Pull requests: read"))))

    def _open_of(self, repo: str, head: str, base: str) -> dict[str, Any] | None:
        owner, name = _split(repo)
        found = self.api.request("GET", f"/repos/{owner}/{name}/pulls",
                                 params={"head": f"{owner}:{head}", "state": "open", "per_page": 100},
                                 explain=self._explainer(repo, "list pull requests", "Pull requests: read")).json()
        return next((p for p in found if p["head"]["ref"] == head and p["base"]["ref"] == base), None)

    def open_pull_request(self, repo: str, head: str, base: str, title: str, body: str) -> PullRequest:
        self._ensure_token(repo)
        existing = self._open_of(repo, head, base)
        if existing is not None:
            return self._pull(repo, existing, self._review(repo, existing["number"]))
        owner, name = _split(repo)
        try:
            made = self.api.request("POST", f"/repos/{owner}/{name}/pulls",
                                    json={"title": title, "head": head, "base": base, "body": body},
                                    explain=self._explainer(repo, "open a pull request", "Pull requests: write"))
        except HostError as exc:
            # Opened meanwhile (another approval, a person): GitHub answers 422; take that one.
            again = self._open_of(repo, head, base) if exc.status == 422 else None
            if again is None:
                raise
            return self._pull(repo, again, self._review(repo, again["number"]))
        return self._pull(repo, made.json(), "review required")

    def pull_request(self, repo: str, number: int) -> PullRequest:
        self._ensure_token(repo)
        owner, name = _split(repo)
        data = self.api.request("GET", f"/repos/{owner}/{name}/pulls/{number}",
                                explain=self._explainer(repo, f"read pull request #{number}",
                                                        "Pull requests: read")).json()
        return self._pull(repo, data, self._review(repo, number))
