"""A spec sent to be converted, parsed while its request is open: here, or in a process apart.

``POST /convert`` parses the spec to refuse a bad one at once (422 with the line). Parsing
GitHub's REST description (13 MB) holds the GIL for about 80 ms, and freeing what it made for
about 45 ms more; every request the API process serves meanwhile waits, and with conversions
coming in every few seconds that was what lifted its p99 under load (benchmarks/api_load.py,
the figures with conversions running). So where no job of this process would take the parsed
data (``handoff``: ``run``'s API processes, whose jobs run in its child), a spec of ``APART_BYTES``
or more is parsed in a checker process instead, which answers only whether it loads; a small one
costs less to parse than to send. Where jobs do run here, it is parsed here and handed over.
"""

from __future__ import annotations

import atexit
import multiprocessing
import os
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from . import handoff
from .engines.convert import SpecError, parse

APART_BYTES = 1 << 20
NICENESS = 10  # as the job workers' child: requests first

_lock = threading.Lock()
_checker: ProcessPoolExecutor | None = None


def parse_spec(source_type: str, content: str | bytes) -> Any | None:
    """The parsed spec, when it was parsed in this process (for ``handoff``); None when it was
    checked in the checker process. Raises ``SpecError`` and ``UnicodeDecodeError`` as ``parse``."""
    if handoff.jobs_here() or len(content) < APART_BYTES:
        return parse(source_type, content)
    try:
        refusal = _pool().submit(_check, source_type, content).result()
    except BrokenProcessPool:  # the checker died (out of memory?): a new one next time, this one here
        _discard()
        return parse(source_type, content)
    if refusal is not None:
        kind, args = refusal
        raise SpecError(*args) if kind == "spec" else UnicodeDecodeError(*args)
    return None


def _check(source_type: str, content: str | bytes) -> tuple[str, tuple] | None:
    """In the checker: None when ``content`` loads, else what to raise (picklable, without the text)."""
    try:
        parse(source_type, content)
    except SpecError as exc:
        return "spec", (exc.message, exc.line)
    except UnicodeDecodeError as exc:
        return "utf8", (exc.encoding, b"", exc.start, exc.end, exc.reason)
    return None


def _start_checker(parent_pid: int) -> None:
    """In the checker, first: a lower priority, and an end with the API's process however it ends
    (its pipes would not tell it: it holds both ends of its own call queue)."""
    from .parent_watch import die_with

    os.nice(NICENESS)
    die_with(parent_pid, kernel_signal=False)  # started from a request's thread, which ends first


def _pool() -> ProcessPoolExecutor:
    global _checker
    with _lock:
        if _checker is None:
            # spawn: the API process has threads, which a fork would copy in whatever state they are.
            _checker = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                                           initializer=_start_checker, initargs=(os.getpid(),))
        return _checker


def _discard() -> None:
    global _checker
    with _lock:
        checker, _checker = _checker, None
    if checker is not None:
        checker.shutdown(wait=False, cancel_futures=True)


def close() -> None:
    """Stop the checker process, if one was started (the app's lifespan ends)."""
    _discard()


atexit.register(close)
