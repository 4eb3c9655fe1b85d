"""A spec parsed while its request was open, handed to the job that works on it in this process.

The request parses the spec to refuse a bad one at once (422 with the line); the job would then
parse the same text again, which on a 13 MB spec is a tenth of the whole conversion. So the
request leaves the parsed data here under the job's input path, and the job takes it if it runs
in the same process; otherwise (another process claimed it, the service restarted, or the entry
was pushed out) the job parses the saved text itself, as before. The saved text stays the durable
copy: this is only a shortcut.

Few entries, each taken once: a parsed large spec is hundreds of MB, so at most ``LIMIT`` wait
here, the oldest pushed out first, and none older than ``MAX_AGE`` seconds.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from typing import Any

LIMIT = 2
MAX_AGE = 120.0

_lock = threading.Lock()
_waiting: OrderedDict[str, tuple[float, Any]] = OrderedDict()


def leave(key: str, data: Any) -> None:
    """Keep ``data`` (parsed from the input saved at ``key``) for the job that reads that input."""
    now = time.monotonic()
    with _lock:
        _drop_old(now)
        _waiting[key] = (now, data)
        while len(_waiting) > LIMIT:
            _waiting.popitem(last=False)


def take(key: str) -> Any | None:
    """The data left for ``key``, removed from here (so it is freed with the job's last reference);
    None when there is none."""
    with _lock:
        _drop_old(time.monotonic())
        entry = _waiting.pop(key, None)
    return None if entry is None else entry[1]


def _drop_old(now: float) -> None:
    while _waiting:
        key, (left_at, _) = next(iter(_waiting.items()))
        if now - left_at <= MAX_AGE:
            break
        del _waiting[key]
