from __future__ import annotations

from typing import Any

from ._base import WireModel
from .items import PullRequest


class FileChange(WireModel):
    path: str
    added: int = 0
    removed: int = 0
    reviewed: bool = False
    last_check: str | None = None


class ScreenshotPlanEntry(WireModel):
    route: str | None = None
    name: str | None = None
    taken: bool = False
    reason: str | None = None
    replaces: str | None = None


class PageOutline(WireModel):
    """One page of a suggestion: ``edited``, ``for review`` (planned, not edited) or ``worth a
    look`` (a weaker sign), and why."""

    path: str
    action: str
    mode: str | None = None
    why: list[str] = []


class DocflowSummary(WireModel):
    id: int
    title: str | None = None
    status: str | None = None
    files: list[FileChange] = []
    screenshot_plan: list[ScreenshotPlanEntry] = []
    new_commits: Any = None
    pull_request: PullRequest | None = None
    pages: list[PageOutline] = []


class HistoryRound(WireModel):
    round: int | None = None
    stage: str | None = None
    author: str | None = None
    at: str | None = None
    summary: str | None = None
    version: int | None = None
    text: str | None = None


class ApproveResult(WireModel):
    id: int | None = None
    status: str | None = None
    release_id: int | None = None
