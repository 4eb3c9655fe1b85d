"""Parse, resolve, detect, run, report: the one path every CI operation takes.

Whatever happens (bad input, no key, a failed job, a service that never answers) the step ends
the same way: one error annotation, the job summary, the outputs and the report files, then a
typed exit code. ``--timeout`` bounds the whole step, HTTP calls included.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Mapping, Sequence, TextIO

from .. import exit_codes
from . import context as ci_context
from ..config import ConfigError, project_values
from ..credentials import redacted
from ..files import write_atomically
from .operations import PLANNERS, Outcome, carry_out
from .providers import Finding, reporter_for
from .settings import BY_NAME, INPUTS, OPERATIONS, CiSettings, InputError, unknown_operation
from .summary import render

FORK_NOTE = ("skipped: this run for a fork's pull request has no API key (GitHub gives pull_request workflows "
             "from forks no secrets); see the workflow_run pattern in docs/ci/github.md (Fork pull requests) "
             "to run docsvc for them")


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="entrypoint.py", description="Run a docsvc operation in CI (GitHub Actions, GitLab CI, Jenkins) or "
                                          "locally. Every option can also be set as DOCSVC_<NAME> (e.g. "
                                          "--integration-id as DOCSVC_INTEGRATION_ID); a flag wins.")
    # Checked by main, not by argparse: an unknown operation is one annotated error line like any
    # other bad input, not a usage dump with no summary and no outputs.
    p.add_argument("operation", metavar="{" + ",".join(OPERATIONS) + "}",
                   help="the operation (case does not matter)")
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
        project, problems = project_values(cwd or Path.cwd()), []
    except ConfigError as exc:  # a malformed docsvc.yaml is an input error like any other
        project, problems = {}, [str(exc)]
    operation = operation_named(args.operation)
    if operation is None:
        # The inputs every operation shares (provider, summary file, outputs) still decide how the
        # error is reported; no operation's own input is used.
        settings, more = CiSettings.read(OPERATIONS[0], flags, env, project)
        settings.operation = ""
        problems = [unknown_operation(args.operation)] + problems
    else:
        settings, more = CiSettings.read(operation, flags, env, project)
    problems += more + _folder_problems(settings)
    try:
        ctx = ci_context.detect(settings.ci_provider, env, cwd, settings.values)
    except InputError as exc:
        problems.append(str(exc))
        ctx = ci_context.CiContext(provider=ci_context.provider_of(settings.ci_provider, env))
    problems += settings.origin_problems(pull_request=ctx.builds_pull_request)
    reporter = reporter_for(ctx.provider, env, settings, stream)
    for secret in (settings.api_key, settings.comment_token):
        if secret:
            reporter.mask(secret)  # before anything else is printed
    for note in ctx.notes:
        reporter.finding(Finding("notice", note))
    for warning in ctx.warnings:
        reporter.finding(Finding("warning", warning))
    title = operation or "docsvc"
    plan = None
    if not problems:
        try:
            plan = PLANNERS[settings.operation](settings, ctx)
            title = plan.title
        except InputError as exc:
            problems.append(str(exc))
    if problems:  # each an error annotation of its own, and all of them in the summary
        findings = [Finding("error", line) for problem in problems for line in problem.splitlines() if line]
        return _finish(Outcome(title, "failed", findings=findings), settings, reporter, ctx, exit_codes.USAGE)
    if not settings.api_key:
        if ctx.pull_request is not None and ctx.pull_request.fork:
            return _finish(Outcome(title, "skipped", error=FORK_NOTE), settings, reporter, ctx, exit_codes.OK)
        return _finish(Outcome(title, "failed", error="DOCSVC_API_KEY missing"), settings, reporter, ctx,
                       exit_codes.AUTH)
    if settings.dry_run:
        return _dry_run(plan, settings, reporter, ctx)
    return _run(plan, settings, reporter, ctx, transport)


def operation_named(name: str) -> str | None:
    """The operation ``name`` means, or None. Case and surrounding spaces do not matter: the names
    differ in more than case, so ``Sync`` (a YAML input typed by hand) can only mean sync."""
    name = name.strip().lower()
    return name if name in OPERATIONS else None


def _dry_run(plan, settings: CiSettings, reporter, ctx) -> int:
    reporter.write(f"Dry run: would {plan.method} {settings.base_url.rstrip('/')}/api/v1{plan.path}")
    reporter.write(json.dumps(plan.body, indent=2, ensure_ascii=False))
    for note in plan.notes:
        reporter.write(note)
    outcome = Outcome(plan.title, "dry-run", facts=[("Request", f"{plan.method} /api/v1{plan.path}")])
    return _finish(outcome, settings, reporter, ctx, exit_codes.OK)


def _run(plan, settings: CiSettings, reporter, ctx, transport) -> int:
    from ..client import Client

    options = {"transport": transport} if transport is not None else {}
    try:
        # 0 means "start the job, don't wait for it": then only the wait is cut short.
        with Client(settings.api_key, settings.base_url, **options) as client, \
                client.deadline(settings.timeout or None):
            outcome = carry_out(plan, client, reporter, settings.timeout)
    except InputError as exc:
        outcome = Outcome(plan.title, "failed", error=str(exc))
    except Exception as exc:  # a client error: one line, its exit code
        failure = exit_codes.for_error(exc)
        if failure is None:
            raise
        message, code = failure
        return _finish(Outcome(plan.title, "failed", error=message), settings, reporter, ctx, code)
    if outcome.status == "running":
        if not settings.timeout:  # what 0 asks for: the job started, its id in the outputs; a success
            outcome.findings.append(Finding("notice", f"job {outcome.job_id} started; not waiting for it "
                                                      f"(timeout 0): the job-id output names it"))
            return _finish(outcome, settings, reporter, ctx, exit_codes.OK)
        if settings.timeout_ok:
            outcome.findings.append(Finding("warning", f"job {outcome.job_id} is still running after "
                                                       f"{settings.timeout:g} s; not a failure (timeout-ok)"))
            return _finish(outcome, settings, reporter, ctx, exit_codes.OK)
        outcome.error = f"job {outcome.job_id} is still running after {settings.timeout:g} s"
        return _finish(outcome, settings, reporter, ctx, exit_codes.TIMEOUT)
    code = exit_codes.FAILED if outcome.status == "failed" else exit_codes.OK
    return _finish(outcome, settings, reporter, ctx, code)


def _finish(outcome: Outcome, settings: CiSettings, reporter, ctx, code: int) -> int:
    """Report the outcome everywhere it belongs, whatever it is, and return ``code``."""
    # A service may echo the key back (in an error, a result): nothing below may publish it.
    outcome = redacted(outcome, (settings.api_key, settings.comment_token))
    own = None  # the step's own line: shown whatever the findings' annotation limit
    if outcome.error and outcome.status in ("failed", "running"):
        own = Finding("error", f"{outcome.title}: {outcome.error}")
    elif outcome.status == "skipped":
        own = Finding("notice", f"{outcome.title}: {outcome.error}")
    if own is not None:
        reporter.reserve(own.severity)
    if _comments(outcome, settings, ctx):
        reporter.reserve("warning")  # for "pull request comment not written", which comes after the findings
    for finding in outcome.findings:
        reporter.finding(finding)
    if own is not None:  # with findings of the operation's own, the line sums them up: they are the problems
        reporter.finding(own, own=True, tally=not outcome.findings)
    reporter.close_findings()
    if outcome.status == "completed":
        # the link last on its line: the log hides its share key up to a separator (hidden_query)
        reporter.write(f"{outcome.title}: completed" + (f"; link: {outcome.url}" if outcome.url else ""))
    # A file that cannot be written is one error line naming it; the others are still written.
    unwritten = _Unwritten(reporter, outcome)
    result_file = None
    if outcome.result is not None:
        with unwritten:
            # an absolute path: a later step may run in another folder
            result_file = str(write_atomically(settings.result_file, json.dumps(
                outcome.result, indent=2, ensure_ascii=False) + "\n").resolve())
    markdown = render(outcome, ctx.run_url, result_file=result_file)
    with unwritten:
        reporter.summary(markdown)
    _write_reports(outcome, settings, reporter, unwritten)
    _comment(outcome, settings, reporter, ctx, markdown)
    with unwritten:  # last: its errors and warnings count every annotation above, files not written included
        reporter.outputs(outcome.outputs(result_file, reporter.counts))
    return exit_codes.FAILED if unwritten.count and code == exit_codes.OK else code


# The inputs naming a file the step writes (convert's --output is checked by its plan).
_FILE_INPUTS = ("result_file", "summary_file", "dotenv_file", "junit_file", "sarif_file", "codequality_file")


def _folder_problems(settings: CiSettings) -> list[str]:
    """A file input naming a folder (or ending in /), or a path that cannot be made (a file where a
    folder must be), is refused before anything is sent, rather than failing once the job is done;
    refused, it is not written at all."""
    from ..files import unwritable

    problems = []
    for name in _FILE_INPUTS:
        value, spec = settings.values.get(name), BY_NAME[name]
        if not value or settings.operation not in spec.operations:
            continue
        if value.endswith(("/", os.sep)) or Path(value).is_dir():
            problems.append(f"{spec.flag}: {value} is a folder: name a file")
        elif (why := unwritable(value)) is not None:
            problems.append(f"{spec.flag}: {value} cannot be written: {why}")
        else:
            continue
        settings.values[name] = None
    return problems


class _Unwritten:
    """``with unwritten:`` around a write: an OSError becomes one error line (and a finding of the
    summary while it is still to be written), not a traceback; the step goes on and then fails."""

    def __init__(self, reporter, outcome: Outcome) -> None:
        self.reporter, self.outcome, self.count = reporter, outcome, 0
        self.own = len(outcome.findings)  # the step's own findings come first

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind, exc, tb) -> bool:
        if not isinstance(exc, OSError):
            return False
        finding = Finding("error", f"could not write {exc.filename or 'a file'}: {exc.strerror or exc}")
        self.count += 1
        self.outcome.findings.append(finding)
        self.reporter.finding(finding)
        return True


def _write_reports(outcome: Outcome, settings: CiSettings, reporter, unwritten) -> None:
    """validate's findings as JUnit (every system), SARIF (GitHub code scanning) and, on GitLab,
    Code Quality; written for a clean run too, so a dashboard shows it green."""
    if settings.operation != "validate" or outcome.status in ("dry-run", "skipped"):
        return
    from . import reports

    suite = "docsvc " + outcome.title
    error = outcome.error if outcome.status == "failed" and not outcome.findings else None
    findings = outcome.findings[:unwritten.own]  # the step's own, not a file that could not be written
    files = [(settings.junit_file, lambda: reports.junit(findings, suite, settings.fail_on, error))]
    if settings.sarif_file:
        files.append((settings.sarif_file, lambda: reports.sarif(findings)))
    if settings.codequality_file and reporter.name == "gitlab":
        files.append((settings.codequality_file, lambda: reports.codequality(findings)))
    written = []
    for path, content in files:
        if path:
            with unwritten:
                written.append(write_atomically(path, content()))
    if written:
        reporter.write("Reports: " + ", ".join(str(path) for path in written))


def _comments(outcome: Outcome, settings: CiSettings, ctx) -> bool:
    """Whether the step comments on its pull request: only with a token."""
    return bool(settings.comment_token and ctx.pull_request is not None and outcome.status != "dry-run"
                and settings.operation in OPERATIONS)


def _comment(outcome: Outcome, settings: CiSettings, reporter, ctx, markdown: str) -> None:
    """The step's comment on its pull request, edited in place on every run."""
    if not _comments(outcome, settings, ctx):
        return
    from .comments import CommentError, upsert_comment

    try:
        url = upsert_comment(ctx, settings.comment_token, settings.operation, markdown, timeout=30)
    except CommentError as exc:
        reporter.finding(Finding("warning", f"pull request comment not written: {exc}"), own=True)
    else:
        reporter.write(f"Pull request comment: {url}")
