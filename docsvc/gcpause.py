"""``cycle_collector_paused()``: a stretch of work run without Python's cycle collector.

Loading a large spec makes millions of objects, and so do the conversion and the checks that walk
it. Allocation that fast triggers collections, and each full one walks everything alive: in the
service, whose heap is large before any spec arrives, that was a fifth of a validation of GitHub's
13 MB description (1.18 s against 0.97 s), and half of writing MS Graph beta's Markdown (16 s
against 7 s). That work makes no reference cycles worth collecting; reference counting frees the
rest as it always does.

Several such stretches may run at once (the service's job threads, a request parsing an upload):
the collector resumes when the last of them ends, and stays off if something else had turned it
off. Nesting is allowed.
"""

from __future__ import annotations

import gc
import threading
from contextlib import contextmanager
from typing import Iterator

__all__ = ["cycle_collector_paused"]

_lock = threading.Lock()
_state = {"count": 0, "resume": False}  # stretches under way; whether the collector was on before them


@contextmanager
def cycle_collector_paused() -> Iterator[None]:
    """Run the body with the cycle collector off (see the module docstring)."""
    with _lock:
        if _state["count"] == 0:
            _state["resume"] = gc.isenabled()
            gc.disable()
        _state["count"] += 1
    try:
        yield
    finally:
        with _lock:
            _state["count"] -= 1
            if _state["count"] == 0 and _state["resume"]:
                gc.enable()
