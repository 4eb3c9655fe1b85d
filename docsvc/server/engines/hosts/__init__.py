"""The code hosts' REST APIs (GitHub, GitLab): open a pull request for a pushed branch (or find the
open one), read its live state and review state; GitHub App installation tokens. Pure: the service
reads the integration, the token's environment variable and the key file, and passes a Connection."""

from __future__ import annotations

from .common import Connection, CodeHost, HostError, PullRequest, REVIEWS, STATES
from .github import GitHub
from .gitlab import GitLab

__all__ = ["Connection", "CodeHost", "HostError", "PullRequest", "REVIEWS", "STATES", "connect"]

_HOSTS = {"github": GitHub, "gitlab": GitLab}


def connect(host: str, connection: Connection) -> GitHub | GitLab:
    """The API client of ``host`` (github or gitlab) for one integration; close() it when done."""
    try:
        return _HOSTS[host](connection)
    except KeyError:
        raise ValueError(f"no API for the code host {host!r}; one of {', '.join(_HOSTS)}") from None
