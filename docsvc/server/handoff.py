"""A spec parsed while its request was open, handed to the job that works on it in this process.

The request parses the spec to refuse a bad one at once (422 with the line); the job would then
parse the same text again, which on a 13 MB spec is a tenth of the whole conversion. So the
request leaves the parsed data here under the job's input path, and the job takes it if it runs
in the same process (``run --jobs-in-process``; with the jobs in ``run``'s child, nothing is
left); otherwise (another process claimed it, the service restarted, or the entry was pushed out)
the job parses the saved text itself, as before. The saved text stays the durable
copy: this is only a shortcut.

Few entries, each taken once: a parsed large spec is many times its text's size, so at most
``LIMIT`` wait here, of at most ``MAX_TEXT_BYTES`` of text together (the oldest pushed out first;
a larger one is not kept), and none older than ``MAX_AGE`` seconds. Jobs are usually claimed at
once; these bounds are for when every worker is busy.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from typing import Any

LIMIT = 2
MAX_TEXT_BYTES = 64 * 1024 * 1024
MAX_AGE = 120.0

_lock = threading.Lock()
_waiting: OrderedDict[str, tuple[float, int, Any]] = OrderedDict()
# Whether this process runs jobs. The API processes of ``run`` do not (its job workers' child
# does, jobrunner.JobsChild), nor does ``run --job-workers 0``: there nothing is left, as no job
# would ever take it and it would only hold parsed specs in the API's memory (30 MB or more each,
# millions of objects for its garbage collector to go through while requests wait).
_jobs_here = True


def jobs_run_here(yes: bool) -> None:
    """Say whether jobs of this process may take what its requests leave (the app factory does)."""
    global _jobs_here
    _jobs_here = yes
    if not yes:
        with _lock:
            _waiting.clear()


def jobs_here() -> bool:
    """Whether jobs of this process may take what its requests leave."""
    return _jobs_here


def leave(key: str, data: Any, size: int) -> None:
    """Keep ``data`` (parsed from the input saved at ``key``, from ``size`` bytes or characters of
    text) for the job that reads that input, if jobs run in this process."""
    if not _jobs_here:
        return
    now = time.monotonic()
    with _lock:
        _drop_old(now)
        if size > MAX_TEXT_BYTES:
            return
        _waiting[key] = (now, size, data)
        while len(_waiting) > LIMIT or sum(entry[1] for entry in _waiting.values()) > MAX_TEXT_BYTES:
            _waiting.popitem(last=False)


def take(key: str) -> Any | None:
    """The data left for ``key``, removed from here (so it is freed with the job's last reference);
    None when there is none."""
    with _lock:
        _drop_old(time.monotonic())
        entry = _waiting.pop(key, None)
    return None if entry is None else entry[2]


def _drop_old(now: float) -> None:
    while _waiting:
        key, (left_at, _, _) = next(iter(_waiting.items()))
        if now - left_at <= MAX_AGE:
            break
        del _waiting[key]
