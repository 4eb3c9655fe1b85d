from __future__ import annotations

from typing import Any, Literal

from ._base import WireModel

JobStatus = Literal["queued", "completed", "failed"]


class JobRef(WireModel):
    """The 202 answer of every job-starting POST."""

    status: str = "queued"
    job_id: str


class JobProgress(WireModel):
    message: str | None = None
    percent: float | None = None
    done: int | None = None
    total: int | None = None


class JobError(WireModel):
    title: str | None = None
    detail: str | None = None


class Job(WireModel):
    job_id: str
    status: str
    kind: str | None = None
    created_at: str | None = None
    updated_at: str | None = None
    progress: JobProgress | None = None
    result: Any = None
    error: JobError | None = None

    @property
    def finished(self) -> bool:
        return self.status in ("completed", "failed")
