"""Retry policy: what is retried, and how long to wait before the next attempt.

Pure functions and a frozen dataclass, so the policy is tested without HTTP and without
sleeping. ``BaseClient`` applies it; ``jobs.wait`` reuses ``parse_retry_after`` for its
polling hint.
"""

from __future__ import annotations

import email.utils
import math
from dataclasses import dataclass
from typing import Callable, Mapping

import httpx

__all__ = [
    "RetryPolicy",
    "is_retryable_status",
    "is_retryable_exception",
    "parse_retry_after",
]


def is_retryable_status(status_code: int) -> bool:
    """408 and 429 are "try again later"; a 5xx is a server or gateway hiccup, except 501,
    which says the service does not implement the endpoint and will not change its mind."""
    return status_code in (408, 429) or (500 <= status_code <= 599 and status_code != 501)


def is_retryable_exception(exc: Exception) -> bool:
    """Connection errors and time-outs are retried. A malformed URL or request
    (``UnsupportedProtocol``, ``LocalProtocolError``) fails the same way every time."""
    if isinstance(exc, (httpx.UnsupportedProtocol, httpx.LocalProtocolError)):
        return False
    return isinstance(exc, httpx.TransportError)


def parse_retry_after(value: str | None, *, now: float) -> float | None:
    """Seconds to wait according to a ``Retry-After`` value, or None when absent or malformed.

    RFC 9110 allows delay-seconds or an HTTP-date; fractional seconds are accepted too because
    some servers send them. ``now`` is the wall-clock time (``time.time()``) the date is
    measured from. A date in the past means "now" (0 s).
    """
    if value is None:
        return None
    value = value.strip()
    if not value:
        return None
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError):
            return None
        if when is None or when.tzinfo is None:  # an HTTP-date is always GMT; reject others
            return None
        seconds = when.timestamp() - now
    if math.isnan(seconds) or math.isinf(seconds):
        return None
    return max(0.0, seconds)


@dataclass(frozen=True)
class RetryPolicy:
    """How many times to retry and how long to wait in between.

    The delay before retry number ``attempt`` (0 for the first retry) is the server's
    ``Retry-After`` when it sent one; a hint longer than ``max_retry_after`` (a daily limit,
    a confused server) is not waited for in-process: ``delay`` returns None and the caller
    raises at once, the error carrying ``retry_after``. Otherwise capped exponential backoff with full jitter
    (uniform in ``[0, min(backoff_cap, backoff_base * 2**attempt)]``), which spreads out
    clients that failed at the same moment.
    """

    max_retries: int = 3
    max_retry_after: float = 60.0
    backoff_base: float = 0.5
    backoff_cap: float = 8.0
    # A 409 "still in progress" for the request's Idempotency-Key is waited out, apart from
    # ``max_retries``, for at most this many seconds in all, each wait at least the minimum.
    max_in_progress_wait: float = 120.0
    min_in_progress_delay: float = 0.25

    def backoff(self, attempt: int, rng: Callable[[], float]) -> float:
        # The exponent is clamped so a huge max_retries cannot overflow the float.
        ceiling = min(self.backoff_cap, self.backoff_base * (2 ** min(attempt, 32)))
        return rng() * ceiling

    def delay(
        self,
        attempt: int,
        headers: Mapping[str, str] | None,
        *,
        rng: Callable[[], float],
        now: float,
    ) -> float | None:
        hint = parse_retry_after(headers.get("retry-after") if headers else None, now=now)
        if hint is not None:
            return hint if hint <= self.max_retry_after else None
        return self.backoff(attempt, rng)
