"""One comment per operation on the pull request (GitHub) or merge request (GitLab), edited in place.

Each run writes its summary into the comment that starts with this operation's marker, so a pull
request carries one current plan or findings list instead of one comment per push. Only a comment
the token's own user wrote is edited: anyone can paste a marker into a comment of theirs.

The token goes to the CI system's own API address only (``GITHUB_API_URL``, ``CI_API_V4_URL``),
never follows a redirect, and never shows in an error.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import httpx

from .context import CiContext

__all__ = ["COMMENT_LIMIT", "CommentError", "marker", "upsert_comment"]

COMMENT_LIMIT = 60_000  # GitHub refuses comments over 65,536 characters
GITHUB_ACTIONS_BOT = "github-actions[bot]"  # who GITHUB_TOKEN comments as (it cannot ask GET /user)


class CommentError(Exception):
    """The comment could not be read or written; the message never holds the token."""


def marker(operation: str) -> str:
    return f"<!-- docsvc:{operation} -->"


def body_for(operation: str, markdown: str) -> str:
    text = markdown.rstrip("\n")
    if len(text) > COMMENT_LIMIT:
        text = text[:COMMENT_LIMIT].rsplit("\n", 1)[0] + "\n\n_The comment is cut here: the job summary has it all._"
    return f"{marker(operation)}\n{text}\n"


def upsert_comment(ctx: CiContext, token: str, operation: str, markdown: str, *, timeout: float = 30,
                   transport: httpx.BaseTransport | None = None) -> str:
    """Create or update this operation's comment on ``ctx``'s pull request; returns its address."""
    if ctx.pull_request is None:
        raise CommentError("no pull request in this run")
    if ctx.pull_request.number is None:  # workflow_run without the pr-number input
        raise CommentError("the pull request's number is unknown: pass pr-number")
    api = {"github": _GitHub, "gitlab": _GitLab}.get(ctx.provider)
    if api is None:
        raise CommentError(f"{ctx.provider}: pull-request comments are made on GitHub and GitLab only")
    if not ctx.api_url or not ctx.repository:
        raise CommentError(f"{ctx.provider}: the CI system's API address or repository is unknown")
    with httpx.Client(timeout=timeout, follow_redirects=False, transport=transport) as http:
        return api(http, ctx, token).upsert(marker(operation), body_for(operation, markdown))


class _Api:
    def __init__(self, http: httpx.Client, ctx: CiContext, token: str) -> None:
        self.http, self.ctx, self._token = http, ctx, token

    def _call(self, method: str, url: str, **kwargs: Any) -> httpx.Response:
        try:
            response = self.http.request(method, url, headers=self.headers(), **kwargs)
        except httpx.HTTPError as exc:
            raise CommentError(f"{method} {url}: {type(exc).__name__}") from None
        if response.status_code >= 400:
            raise CommentError(f"{method} {url}: HTTP {response.status_code}")
        return response

    def _pages(self, url: str) -> list[dict]:
        """Every item of a paged list, following ``Link: rel="next"`` on the same host only."""
        items: list[dict] = []
        host = httpx.URL(url).host
        while url and len(items) < 10_000:
            response = self._call("GET", url, params=None if "?" in url else {"per_page": 100})
            page = response.json()
            if not isinstance(page, list):
                raise CommentError(f"GET {url}: not a list")
            items += [item for item in page if isinstance(item, dict)]
            following = response.links.get("next", {}).get("url")
            url = following if following and httpx.URL(following).host == host else ""
        return items

    def upsert(self, mark: str, body: str) -> str:
        me = self.me()
        mine = [c for c in self.comments() if str(c.get("body", "")).startswith(mark) and self.author(c) == me]
        if mine:
            return self.edit(mine[-1], body)
        return self.create(body)


class _GitHub(_Api):
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self._token}", "Accept": "application/vnd.github+json",
                "X-GitHub-Api-Version": "2022-11-28"}

    @property
    def _issue(self) -> str:
        return f"{self.ctx.api_url.rstrip('/')}/repos/{self.ctx.repository}/issues/{self.ctx.pull_request.number}"

    def me(self) -> str:
        try:
            return str(self._call("GET", f"{self.ctx.api_url.rstrip('/')}/user").json().get("login"))
        except CommentError:
            return GITHUB_ACTIONS_BOT  # an installation token (GITHUB_TOKEN) has no /user

    @staticmethod
    def author(comment: dict) -> str:
        return str((comment.get("user") or {}).get("login"))

    def comments(self) -> list[dict]:
        return self._pages(f"{self._issue}/comments")

    def edit(self, comment: dict, body: str) -> str:
        url = f"{self.ctx.api_url.rstrip('/')}/repos/{self.ctx.repository}/issues/comments/{int(comment['id'])}"
        return str(self._call("PATCH", url, json={"body": body}).json().get("html_url") or url)

    def create(self, body: str) -> str:
        answer = self._call("POST", f"{self._issue}/comments", json={"body": body}).json()
        return str(answer.get("html_url") or answer.get("url"))


class _GitLab(_Api):
    def headers(self) -> dict[str, str]:
        return {"PRIVATE-TOKEN": self._token}

    @property
    def _notes(self) -> str:
        project = quote(self.ctx.repository, safe="")
        return (f"{self.ctx.api_url.rstrip('/')}/projects/{project}/merge_requests/"
                f"{self.ctx.pull_request.number}/notes")

    def me(self) -> str:
        return str(self._call("GET", f"{self.ctx.api_url.rstrip('/')}/user").json().get("username"))

    @staticmethod
    def author(note: dict) -> str:
        return str((note.get("author") or {}).get("username"))

    def comments(self) -> list[dict]:
        return [n for n in self._pages(self._notes) if not n.get("system")]

    def _link(self, note_id: int) -> str:
        return f"{self.ctx.pull_request.url or self._notes}#note_{note_id}"

    def edit(self, note: dict, body: str) -> str:
        self._call("PUT", f"{self._notes}/{int(note['id'])}", json={"body": body})
        return self._link(int(note["id"]))

    def create(self, body: str) -> str:
        return self._link(int(self._call("POST", self._notes, json={"body": body}).json()["id"]))
