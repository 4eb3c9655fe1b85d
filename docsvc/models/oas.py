from __future__ import annotations

from typing import Any

from ._base import WireModel


class ScanPullRequests(WireModel):
    pull_requests: Any = None  # one URL per target
    errors: Any = None
