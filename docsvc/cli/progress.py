"""Progress of a job while the CLI waits: a bar that redraws itself on a terminal, plain lines in
CI logs (a new line only when the stage changes or another tenth of the work is done)."""

from __future__ import annotations

import os
import sys
from typing import TextIO

import click


class JobProgress:
    def __init__(self, label: str, stream: TextIO | None = None, interactive: bool | None = None) -> None:
        self.label = label
        self.stream = stream or sys.stderr
        if interactive is None:
            interactive = self.stream.isatty() and not os.environ.get("CI")
        self.interactive = interactive
        self._last_line: tuple[str, int] | None = None
        self._drawn = False

    def __enter__(self) -> "JobProgress":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def update(self, job) -> None:
        progress = job.progress
        if progress is None:
            return
        message = progress.message or ""
        done, total = progress.done, progress.total
        if self.interactive:
            self._draw(message, done, total)
        else:
            self._log(message, done, total)

    def _draw(self, message: str, done: int | None, total: int | None) -> None:
        import shutil  # only a bar on a terminal needs it, not every command that loads this module

        width = shutil.get_terminal_size((80, 20)).columns
        if done is not None and total:
            filled = int(24 * done / total)
            head = f"{self.label} [{'#' * filled}{'.' * (24 - filled)}] {done}/{total} "
        else:
            head = f"{self.label} … "
        line = (head + message)[: max(10, width - 1)]
        self.stream.write("\r" + line.ljust(width - 1))
        self.stream.flush()
        self._drawn = True

    def _log(self, message: str, done: int | None, total: int | None) -> None:
        if done is not None and total:
            tenth = int(10 * done / total)
            stage = "files"
            if self._last_line == (stage, tenth):
                return
            self._last_line = (stage, tenth)
            self.stream.write(f"{self.label}: {done}/{total} files ({100 * done // total}%)\n")
        else:
            if self._last_line == (message, -1):
                return
            self._last_line = (message, -1)
            self.stream.write(f"{self.label}: {message}\n")
        self.stream.flush()

    def close(self) -> None:
        if self._drawn:
            self.stream.write("\n")
            self.stream.flush()
            self._drawn = False


def wait_for_job(api, ref, label: str, timeout: float | None = None):
    """Wait for a job with progress; its result, or one ``Error: <label> failed: ...`` line and exit 1.
    A timeout raises JobTimeoutError (exit 8, mapped by the root command); with ``--json``, the job
    as it stood is printed first. ``--timeout 0`` waits not at all: the job started, exit 0."""
    from .. import exit_codes
    from ..client import JobTimeoutError
    from .context import CliExit

    as_json = bool(click.get_current_context(silent=True) and click.get_current_context().params.get("as_json"))
    if timeout == 0:
        # No wait was asked for: the job is started, which is all that was (exit 0, as the CI layer).
        from .output import emit, status

        if as_json:
            emit(ref, True, str)
        status(f"{label}: job {ref.job_id} started; not waiting (--timeout 0)")
        raise click.exceptions.Exit(0)
    try:
        with JobProgress(label) as progress:
            job = api.jobs.wait(ref.job_id, timeout=timeout, on_progress=progress.update)
    except JobTimeoutError as exc:
        # A script that asked for --json gets the job it can poll later on stdout, beside exit 8.
        if as_json:
            from .output import emit

            emit(exc.job, True, str)
        raise
    if job.status == "failed":
        error = job.error
        raise CliExit(f"{label} failed: {error.title}: {error.detail}" if error else f"{label} failed",
                      exit_codes.FAILED)
    return job.result or {}


def _bound_the_command(ctx, param, value: float | None) -> float | None:
    if value:  # 0 starts the job without waiting: the request that starts it is not cut short
        root = ctx.find_root()
        root.ensure_object(dict)
        root.obj["deadline"] = value  # the client made for this command honours it (context.client)
    return value


def timeout_option(after: str):
    """``--timeout SECONDS``: bounds the whole command, its requests included, not only the wait for
    the job; ``after`` says what becomes of the work once the CLI stops waiting."""
    import click

    return click.option("--timeout", type=click.FloatRange(min=0), default=None, metavar="SECONDS",
                        callback=_bound_the_command,
                        help=f"give up after this long, requests included (exit 8 once the job runs; 0: start it "
                             f"and don't wait); {after}")
