"""GitLab's REST API v4 (gitlab.com and self-managed): merge requests, their state and approvals.

Endpoints (https://docs.gitlab.com/api/merge_requests/ and https://docs.gitlab.com/api/merge_request_approvals/):
``GET /projects/:id/merge_requests?source_branch=...&target_branch=...&state=opened``,
``POST /projects/:id/merge_requests``, ``GET /projects/:id/merge_requests/:iid`` and
``GET /projects/:id/merge_requests/:iid/approvals``; ``:id`` is the URL-encoded path (``group%2Fdocs``).
A project, group or personal access token goes in the ``PRIVATE-TOKEN`` header.
"""

from __future__ import annotations

from typing import Any, Callable
from urllib.parse import quote

import httpx

from .common import Api, Connection, HostError, PullRequest, explainer

__all__ = ["GitLab", "review_state"]

_STATES = {"opened": "open", "merged": "merged", "closed": "closed", "locked": "open"}


def review_state(merge_request: dict[str, Any], approvals: dict[str, Any]) -> str:
    """GitLab's review state: changes requested when a reviewer requested them (GitLab 17.2+ sets
    ``detailed_merge_status`` to ``requested_changes``), approved when someone approved and no
    approval the rules require is left, else review required."""
    if merge_request.get("detailed_merge_status") == "requested_changes":
        return "changes requested"
    if approvals.get("approved_by") and not approvals.get("approvals_left"):
        return "approved"
    return "review required"


class GitLab:
    """Merge requests on GitLab through a token."""

    name = "gitlab"

    def __init__(self, connection: Connection) -> None:
        self.connection = connection
        self.api = Api(connection, "GitLab", self._auth, lambda: [connection.token])

    def _auth(self) -> dict[str, str]:
        return {"PRIVATE-TOKEN": self.connection.token} if self.connection.token else {}

    def close(self) -> None:
        self.api.close()

    def _explainer(self, repo: str, doing: str) -> Callable[[httpx.Response], str]:
        source = self.connection.token_source
        return explainer("GitLab", source, repo, doing, refusals=(400, 409, 422),
                         needs=lambda _: f"the api scope and at least the Developer role on {repo}", not_found=(
                             f"GitLab project {repo} is not found with the token from {source}: it does not exist "
                             f"or the token cannot see it (a project or group access token of {repo}, or a member's)"))

    def _require_token(self) -> None:
        if not self.connection.token:
            raise self.api.fail("no GitLab token: set --host-token-env (and that variable in the service's "
                                "environment)")

    @staticmethod
    def _project(repo: str) -> str:
        return f"/projects/{quote(repo, safe='')}"

    def _merge_request(self, repo: str, data: dict[str, Any], review: str) -> PullRequest:
        return PullRequest(host="gitlab", repo=repo, number=int(data["iid"]), url=data["web_url"],
                           state=_STATES.get(data.get("state"), "open"), review=review,
                           branch=data["source_branch"], base=data["target_branch"])

    def _review(self, repo: str, data: dict[str, Any]) -> str:
        approvals = self.api.request(
            "GET", f"{self._project(repo)}/merge_requests/{data['iid']}/approvals",
            explain=self._explainer(repo, f"read the approvals of merge request !{data['iid']}")).json()
        return review_state(data, approvals)

    def _open_of(self, repo: str, head: str, base: str) -> dict[str, Any] | None:
        found = self.api.request("GET", f"{self._project(repo)}/merge_requests",
                                 params={"source_branch": head, "target_branch": base, "state": "opened"},
                                 explain=self._explainer(repo, "list merge requests")).json()
        return found[0] if found else None

    def open_pull_request(self, repo: str, head: str, base: str, title: str, body: str) -> PullRequest:
        self._require_token()
        existing = self._open_of(repo, head, base)
        if existing is not None:
            return self._merge_request(repo, existing, self._review(repo, existing))
        try:
            made = self.api.request("POST", f"{self._project(repo)}/merge_requests",
                                    json={"source_branch": head, "target_branch": base, "title": title,
                                          "description": body},
                                    explain=self._explainer(repo, "open a merge request"))
        except HostError as exc:
            # Opened meanwhile: GitLab answers 409 "Another open merge request already exists".
            again = self._open_of(repo, head, base) if exc.status == 409 else None
            if again is None:
                raise
            return self._merge_request(repo, again, self._review(repo, again))
        return self._merge_request(repo, made.json(), "review required")

    def pull_request(self, repo: str, number: int) -> PullRequest:
        self._require_token()
        data = self.api.request("GET", f"{self._project(repo)}/merge_requests/{number}",
                                explain=self._explainer(repo, f"read merge request !{number}")).json()
        return self._merge_request(repo, data, self._review(repo, data))
