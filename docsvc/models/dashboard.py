"""The dashboard (``GET /dashboard``). The interface names its content but not its structure:
this is the local service's shape; every field is optional and unknown fields are kept."""

from __future__ import annotations

from typing import Any

from ._base import WireModel


class Progress(WireModel):
    done: int = 0
    total: int = 0
    percent: int = 0


class DateChange(WireModel):
    old_date: str | None = None
    new_date: str | None = None
    changed_at: str | None = None
    changed_by: str | None = None
    reason: str | None = None


class ReleaseSummary(WireModel):
    id: int
    name: str = ""
    status: str | None = None
    target_date: str | None = None
    progress: Progress = Progress()
    past_target: bool = False


class ReleaseTimeline(ReleaseSummary):
    """One release's timeline: status, target and first planned date, progress, date changes."""

    first_planned_date: str | None = None
    date_changes: list[DateChange] = []


class ItemCounts(WireModel):
    total: int = 0
    by_tool: dict[str, int] = {}
    by_status: dict[str, int] = {}


class WriterWork(WireModel):
    writer_id: int | None = None  # None: items without a writer ("Unassigned")
    name: str = ""
    open: int = 0
    done: int = 0
    total: int = 0


class AttentionItem(WireModel):
    id: int
    tool: str | None = None
    title: str = ""
    writer_name: str | None = None
    release_name: str | None = None
    note: str | None = None  # a blocked item's status note
    requested_by: str | None = None  # who requested changes


class LateRelease(WireModel):
    id: int
    name: str = ""
    status: str | None = None
    target_date: str | None = None
    days_late: int | None = None


class Attention(WireModel):
    blocked: list[AttentionItem] = []
    new_commits: list[AttentionItem] = []
    changes_requested: list[AttentionItem] = []
    releases_past_target: list[LateRelease] = []


class Dashboard(WireModel):
    filters: dict[str, Any] = {}
    release: ReleaseTimeline | None = None
    counts: ItemCounts = ItemCounts()
    releases: list[ReleaseSummary] = []
    writers: list[WriterWork] = []
    attention: Attention = Attention()
