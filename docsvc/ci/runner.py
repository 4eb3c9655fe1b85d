"""Parse, resolve, detect, run, report: the one path every CI operation takes."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Mapping, Sequence, TextIO

from .. import exit_codes
from . import context as ci_context
from .operations import PLANNERS, Outcome, carry_out
from .providers import Finding, reporter_for
from .settings import INPUTS, OPERATIONS, CiSettings, InputError
from .summary import render


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="entrypoint.py", description="Run a docsvc operation in CI (GitHub Actions, GitLab CI, Jenkins) or "
                                          "locally. Every option can also be set as DOCSVC_<NAME> (e.g. "
                                          "--integration-id as DOCSVC_INTEGRATION_ID); a flag wins.")
    p.add_argument("operation", choices=OPERATIONS)
    for spec in INPUTS:
        names = [spec.flag] + (["--screenshot"] if spec.name == "screenshots" else [])
        kwargs: dict = {"dest": spec.name, "default": None, "help": spec.description}
        if spec.kind == "bool":
            kwargs.update(nargs="?", const="true", metavar="true|false")
        elif spec.kind == "list":
            kwargs.update(action="append", metavar="VALUE")
        elif spec.kind == "choice":
            kwargs.update(metavar="|".join(spec.choices))
        p.add_argument(*names, **kwargs)
    return p


def main(argv: Sequence[str] | None = None, *, env: Mapping[str, str] | None = None, stream: TextIO | None = None,
         transport=None, cwd: Path | None = None) -> int:
    env = dict(os.environ if env is None else env)
    stream = stream or sys.stdout
    args = parser().parse_args(argv)
    flags = {k: v for k, v in vars(args).items() if k != "operation"}
    try:
        settings = CiSettings.resolve(args.operation, flags, env)
        ctx = ci_context.detect(settings.ci_provider, env, cwd)
    except InputError as exc:
        return _fail_early(stream, str(exc))
    reporter = reporter_for(ctx.provider, env, settings, stream)
    if settings.api_key:
        reporter.mask(settings.api_key)  # before anything else is printed
    for note in ctx.notes:
        reporter.finding(Finding("notice", note))
    try:
        plan = PLANNERS[settings.operation](settings, ctx)
    except InputError as exc:
        for line in str(exc).splitlines():
            reporter.finding(Finding("error", line))
        return exit_codes.USAGE
    if not settings.api_key:
        reporter.write("Error: DOCSVC_API_KEY missing")
        return exit_codes.AUTH
    if settings.dry_run:
        return _dry_run(plan, settings, reporter, ctx)
    return _run(plan, settings, reporter, ctx, transport)


def _fail_early(stream: TextIO, message: str) -> int:
    for line in message.splitlines():
        stream.write(f"Error: {line}\n")
    return exit_codes.USAGE


def _dry_run(plan, settings: CiSettings, reporter, ctx) -> int:
    reporter.write(f"Dry run: would {plan.method} {settings.base_url.rstrip('/')}/api/v1{plan.path}")
    reporter.write(json.dumps(plan.body, indent=2, ensure_ascii=False))
    for note in plan.notes:
        reporter.write(note)
    outcome = Outcome(plan.title, "dry-run", facts=[("Request", f"{plan.method} /api/v1{plan.path}")])
    _report(outcome, reporter, ctx)
    return exit_codes.OK


def _run(plan, settings: CiSettings, reporter, ctx, transport) -> int:
    from ..client import Client

    options = {"transport": transport} if transport is not None else {}
    try:
        with Client(settings.api_key, settings.base_url, **options) as client:
            outcome = carry_out(plan, client, reporter, settings.timeout)
    except InputError as exc:
        outcome = Outcome(plan.title, "failed", error=str(exc))
    except Exception as exc:  # a client error: one line, its exit code
        failure = exit_codes.for_error(exc)
        if failure is None:
            raise
        message, code = failure
        outcome = Outcome(plan.title, "failed", error=message)
        _report(outcome, reporter, ctx)
        return code
    _report(outcome, reporter, ctx)
    if outcome.status == "running":
        if settings.timeout_ok:
            reporter.finding(Finding("warning", f"job {outcome.job_id} is still running after "
                                                f"{settings.timeout:g} s; not a failure (timeout-ok)"))
            return exit_codes.OK
        reporter.finding(Finding("error", f"job {outcome.job_id} is still running after {settings.timeout:g} s"))
        return exit_codes.TIMEOUT
    return exit_codes.FAILED if outcome.status == "failed" else exit_codes.OK


def _report(outcome: Outcome, reporter, ctx) -> None:
    for finding in outcome.findings:
        reporter.finding(finding)
    if outcome.status == "failed" and outcome.error:
        reporter.finding(Finding("error", f"{outcome.title}: {outcome.error}"))
    if outcome.status == "completed":
        reporter.write(f"{outcome.title}: completed" + (f" ({outcome.url})" if outcome.url else ""))
    reporter.outputs(outcome.outputs())
    reporter.summary(render(outcome, ctx.run_url))
    if outcome.status == "failed" or outcome.findings:
        reporter.junit(outcome.findings, "docsvc " + outcome.title)
