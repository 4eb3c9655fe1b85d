"""``client.jobs``: read a job, and wait for it to finish."""

from __future__ import annotations

import time
from typing import Callable

from docsvc.models.jobs import Job

from ._resource import APIResource
from ._retry import parse_retry_after
from .errors import APIResponseValidationError, APITimeoutError, JobTimeoutError

__all__ = ["JobsResource", "POLL_START", "POLL_FACTOR", "POLL_CAP", "HINT_CAP"]

# A finished job is noticed quickly (first re-poll after 0.2 s); a long one is polled gently
# (the interval grows by half each time, up to 5 s).
POLL_START = 0.2
POLL_FACTOR = 1.5
POLL_CAP = 5.0
# The server's Retry-After on a poll answer is a floor for the next poll, but a wrong hint
# must not make a CI job look hung: it is capped.
HINT_CAP = 30.0
_EPSILON = 0.001
_HOLD_MARGIN = 0.5  # seconds before a deadline in which a poll is not held
# wait(timeout=T) bounds its polls to T + this: the last poll, made at T, gets this long to answer.
_LAST_POLL_GRACE = 1.0


class JobsResource(APIResource):
    def get(self, job_id: str) -> Job:
        """The job's current state (``GET /jobs/<job_id>``)."""
        return self._client.call("jobs.get", path_params={"job_id": job_id}, cast=Job)

    def wait(
        self,
        job_id: str,
        *,
        timeout: float | None = None,
        on_progress: Callable[[Job], None] | None = None,
    ) -> Job:
        """Poll the job until it is ``completed`` or ``failed`` and return that final Job.

        A failed job is returned, not raised: the caller decides what failure means.
        ``on_progress`` gets every polled Job (the final one included). The first poll is
        immediate; then the interval starts at 0.2 s and grows 1.5x up to 5 s, but is never
        shorter than the poll answer's ``Retry-After`` (itself capped at 30 s). Raises
        ``JobTimeoutError`` (carrying the last Job) when ``timeout`` seconds run out first;
        the job keeps running on the service. Each poll asks the service to hold its answer up
        to the coming interval (``?wait=``) and to answer as soon as the job ends; the time it
        held (``X-Docsvc-Waited``) is taken off the pause, so a job is noticed when it ends.
        """
        client = self._client
        # Polls end by the earlier of ``timeout`` and an enclosing ``client.deadline()``: either
        # ending during the wait means the job is still running when the caller stops waiting.
        ends = [end for end in (client._current_deadline(),
                                None if timeout is None else client._clock() + timeout) if end is not None]
        deadline = min(ends) if ends else None
        # Every poll, its retries included, runs under the timeout's deadline, plus a moment for
        # the last poll (the one right at the timeout) to be answered.
        with client.deadline(None if timeout is None else timeout + _LAST_POLL_GRACE):
            return self._wait(job_id, timeout, deadline, on_progress)

    def _wait(self, job_id: str, timeout: float | None, deadline: float | None,
              on_progress: Callable[[Job], None] | None) -> Job:
        client = self._client
        interval = POLL_START
        job: Job | None = None
        while True:
            # Long polling: the service may hold the answer while the job runs, up to the pause the
            # client would take anyway, and answer the moment it ends (X-Docsvc-Waited says how
            # long it held; a service that ignores ``wait`` answers at once, and the pause follows).
            # Under a deadline, the answer (the job's state) must come back well before the deadline
            # ends the request: no holding in the last half second, at most half the rest before.
            hold = interval if deadline is None else \
                min(interval, max(0.0, deadline - client._clock() - _HOLD_MARGIN) / 2)
            try:
                response = client.request("jobs.get", path_params={"job_id": job_id},
                                          params={"wait": f"{hold:.3f}"} if hold > _EPSILON else None)
            except APITimeoutError as exc:
                # The deadline ran out mid-poll (or a retry would have ended past it): the job
                # exists and goes on, which is a still-running job, not a failed request.
                if not exc.deadline:
                    raise
                raise JobTimeoutError(job or Job(job_id=job_id, status="running"), timeout) from None
            job = client.parse(response, cast=Job)
            if job is None:
                raise APIResponseValidationError(f"GET /jobs/{job_id}: empty answer")
            if on_progress is not None:
                on_progress(job)
            if job.finished:
                return job
            pause = interval
            hint = parse_retry_after(response.headers.get("retry-after"), now=time.time())
            if hint is not None:
                pause = max(pause, min(hint, HINT_CAP))
            if deadline is not None:
                remaining = deadline - client._clock()
                if remaining <= _EPSILON:  # float rounding must not buy a 1e-13 s extra poll
                    raise JobTimeoutError(job, timeout)
                # Poll once more right at the deadline rather than give up early.
                pause = min(pause, remaining)
            pause -= _waited(response.headers.get("x-docsvc-waited"), hold)
            if pause > _EPSILON:
                client._sleep(pause)
            interval = min(interval * POLL_FACTOR, POLL_CAP)


def _waited(header: str | None, hold: float) -> float:
    """Seconds the service held the poll (``X-Docsvc-Waited``), at most what was asked; 0 without it."""
    try:
        return min(max(float(header), 0.0), hold) if header else 0.0
    except ValueError:
        return 0.0
