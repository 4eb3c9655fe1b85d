from __future__ import annotations

from ._base import WireModel


class Integration(WireModel):
    id: int
    name: str
    code_repo: str | None = None
    code_branch: str | None = None
    docs_repo: str | None = None
    docs_branch: str | None = None
    docs_path: str | None = None
    preview_url: str | None = None
    keep_in_sync: bool | None = None
    code_host: str | None = None
