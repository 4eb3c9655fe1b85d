"""The CI operations: each checks its inputs, says what it would send (dry run), or sends it,
waits for the job and returns an ``Outcome`` that every CI system reports in its own form."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable

from ..endpoints import CONVERT_TARGETS
from ..models.limits import PR_BODY_MAX, PR_TITLE_MAX
from .context import CiContext
from ..files import unwritable, write_atomically
from .providers import Finding, Reporter
from .screenshots import collect
from .settings import BY_NAME, CiSettings, InputError, convert



RESULT_OUTPUT_LIMIT = 1024  # bytes of JSON kept in the ``result`` output; all of it is in result-file


@dataclass
class Outcome:
    title: str
    status: str  # completed | failed | running | dry-run | skipped
    job_id: str | None = None
    result: Any = None
    url: str | None = None
    item_id: int | None = None
    output_path: str | None = None
    pull_requests: list[str] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    error: str | None = None
    facts: list[tuple[str, str]] = field(default_factory=list)  # rows of the summary table

    def outputs(self, result_file: str | None, counts: dict[str, int]) -> dict[str, str]:
        """Small values only: GitHub caps a step's outputs at 1 MiB and GitLab a dotenv report at
        5 KB, so ``result`` holds the JSON only while it is small; ``result_file`` has all of it.
        ``counts``: the error and warning annotations the step wrote (``Reporter.counts``), its own
        line and files it could not write included, not only the operation's findings."""
        result = json.dumps(self.result, ensure_ascii=False) if self.result is not None else ""
        return {
            "job-id": self.job_id or "",
            "status": self.status,
            "result": result if len(result.encode()) <= RESULT_OUTPUT_LIMIT else "",
            "result-file": result_file or "",
            "url": self.url or "",
            "item-id": str(self.item_id) if self.item_id is not None else "",
            "output-path": self.output_path or "",
            "pull-requests": "\n".join(self.pull_requests),
            "errors": str(counts["error"]),
            "warnings": str(counts["warning"]),
        }


@dataclass
class Plan:
    """What an operation will send: shown by a dry run, carried out otherwise."""

    title: str
    method: str
    path: str
    body: dict[str, Any]
    send: Callable[[Any], Any]  # client -> JobRef or an immediate answer
    finish: Callable[[Any, Outcome], None]  # (result or answer, outcome) -> fills the outcome
    waits: bool = True
    notes: list[str] = field(default_factory=list)


def _require(settings: CiSettings, *names: str) -> None:
    from .settings import BY_NAME

    missing = [n for n in names if settings.values.get(n) in (None, (), "")]
    if missing:
        raise InputError("\n".join(f"{settings.operation}: missing {BY_NAME[n].flag} "
                                   f"(or {BY_NAME[n].env})" for n in missing))


# --- sync -------------------------------------------------------------------------------------

def plan_sync(s: CiSettings, ctx: CiContext) -> Plan:
    _require(s, "integration_id")

    def finish(result: dict, out: Outcome) -> None:
        out.facts += [("Commit", str(result.get("commit", ""))[:12]),
                      ("Files indexed", str(result.get("files_indexed"))),
                      ("Files removed", str(result.get("files_removed"))),
                      ("Files in the index", str(result.get("files_total"))),
                      ("Seconds", str(result.get("seconds")))]

    return Plan(f"Sync of integration {s.integration_id}", "POST", "/sync", {"integration_id": s.integration_id},
                lambda c: c.repos.sync(s.integration_id), finish)


# --- docflow ----------------------------------------------------------------------------------

_PR_FIELDS = (("number", "pr_number"), ("title", "pr_title"), ("body", "pr_body"), ("author", "pr_author"))


def pr_data(s: CiSettings, ctx: CiContext) -> dict[str, Any]:
    """The pull request as the service takes it: flags win over what the CI system knows.

    Keys: number, title, body, author, head_branch, head_sha, url, fork (and screenshots, added
    by the operation)."""
    pr = ctx.pull_request
    data: dict[str, Any] = {}
    for key, name in _PR_FIELDS:
        flag = s.values.get(name)
        data[key] = flag if flag is not None else getattr(pr, key, None)
    data["head_branch"] = s.pr_branch or (pr.branch if pr else None) or ctx.branch
    data["head_sha"] = s.pr_sha or (pr.sha if pr else None) or ctx.sha
    if pr and pr.url:
        data["url"] = pr.url
    if pr and pr.fork:
        data["fork"] = True
    from .settings import BY_NAME

    if data["body"] is None:
        # Some systems never tell the description (Jenkins has no CHANGE_* variable for it): an
        # empty body is a valid pull request; the plan then rests on the code alone.
        data["body"] = ""
    for key, most in (("title", PR_TITLE_MAX), ("body", PR_BODY_MAX)):
        data[key] = clip(data[key], most)
    missing = [BY_NAME[name] for key, name in _PR_FIELDS if data[key] is None]
    if missing and pr is None and ctx.event and not ctx.builds_pull_request:
        raise InputError(f"docflow: this run is a {ctx.event} event, not a pull request: run the step on "
                         f"pull requests, or pass " + ", ".join(spec.flag for spec in missing))
    if missing:
        where = {"github": "a pull_request event payload", "gitlab": "merge request pipeline variables",
                 "jenkins": "CHANGE_* variables of a multibranch pull request build"}.get(ctx.provider)
        hint = f" (not found in {where})" if where else ""
        raise InputError("\n".join(f"docflow: missing the pull request's {spec.name[3:]}{hint}: pass "
                                   f"{spec.flag} or set {spec.env}" for spec in missing))
    return {k: v for k, v in data.items() if v is not None}


CLIPPED = "… (clipped)"


def clip(text: str | None, most: int) -> str | None:
    """``text`` within ``most`` characters (the service's bound, which refuses more): a longer one
    keeps its start and ends with ``CLIPPED``, so a reader sees that something was cut."""
    if text is None or len(text) <= most:
        return text
    return text[:most - len(CLIPPED)] + CLIPPED


PAGE_ROWS = 12  # pages of a suggestion shown in the summary's table; the result file has them all


def page_rows(pages: list[dict]) -> list[tuple[str, str]]:
    """The summary's rows for a suggestion page by page: the action (edited, for review, worth a
    look) and the page with its first reason, at most ``PAGE_ROWS``, the rest counted."""
    rows = [(str(p.get("action") or "worth a look").capitalize(),
             f"{p.get('path')}: {(p.get('why') or [''])[0]}".rstrip(": ")) for p in pages[:PAGE_ROWS]]
    if len(pages) > PAGE_ROWS:
        rows.append(("More pages", f"{len(pages) - PAGE_ROWS} more in the result file"))
    return rows


def plan_docflow(s: CiSettings, ctx: CiContext) -> Plan:
    _require(s, "integration_id")
    data = pr_data(s, ctx)
    shots = collect(s.screenshots, s.screenshots_dir, s.screenshots_map, s.max_screenshot_mb)
    screenshots = {shot.route: str(shot.path) for shot in shots}
    shown = dict(data, screenshots=[{"route": x.route, "file": x.path.name, "type": x.kind, "bytes": x.size}
                                    for x in shots])

    def finish(result: dict, out: Outcome) -> None:
        out.item_id = result.get("suggestion_id") or result.get("item_id")
        out.url = result.get("url")
        out.facts += [("Pull request", f"#{data['number']} {data['title']}"),
                      ("Screenshots", str(len(shots)))]
        if result.get("existing"):  # one suggestion per pull request and commit: a re-run gets that one
            out.facts.append(("Suggestion", f"{out.item_id}, made before for commit "
                                            f"{str(result.get('head_sha') or '')[:12]}: no new one"))
        if result.get("screenshots_attached"):  # ... and the screenshots of the re-run
            out.facts.append(("Screenshots attached", ", ".join(result["screenshots_attached"])))
        out.findings += [Finding("warning", str(w)) for w in result.get("warnings") or []]
        if result.get("verdict"):
            out.facts.append(("Verdict", str(result["verdict"])))
        out.facts += page_rows(result.get("pages") or [])

    return Plan(f"Docflows suggestion for pull request #{data['number']}", "POST", "/docflows/generate",
                {"integration_id": s.integration_id, "pr_data": shown},
                lambda c: c.docflows.generate(integration_id=s.integration_id, pr_data=data,
                                              screenshots=screenshots or None), finish,
                notes=[f"{len(shots)} screenshot(s), sent as multipart/form-data"] if shots else [])


# --- convert ----------------------------------------------------------------------------------

def read_spec(source: Path, flag: str, *, bundled: bool) -> str:
    """A spec file of the workspace as text; an OpenAPI spec split across files (``$ref:
    ./schemas/pet.yaml``) as one document. Each problem is an InputError naming ``flag``."""
    if not source.is_file():
        raise InputError(f"{flag}: {source} not found")
    try:
        content = source.read_text(encoding="utf-8", errors="strict") if source.stat().st_size else ""
    except UnicodeDecodeError:
        raise InputError(f"{flag}: {source} is not UTF-8 text") from None
    if not content.strip():
        raise InputError(f"{flag}: {source} is empty")
    if bundled:
        from ..bundle import BundleError, bundle

        try:
            content = bundle(source, content).text
        except BundleError as exc:
            raise InputError(f"{flag}: {exc}") from None
    return content


def plan_convert(s: CiSettings, ctx: CiContext) -> Plan:
    _require(s, "input_file", "source_type")
    source = Path(s.input_file)
    content = read_spec(source, "--input-file", bundled=s.source_type == "openapi")
    default = source.with_suffix(CONVERT_TARGETS[s.target])
    if s.output and s.output.endswith(("/", os.sep)):  # a folder, as cp takes one: the default name in it
        output = Path(s.output) / default.name
    else:
        output = Path(s.output) if s.output else default
    if output.is_dir():  # refused before anything is sent, not found out once the job is done
        raise InputError(f"--output: {output} is a folder: name a file, or end it with / to write "
                         f"{default.name} into it")
    if (why := unwritable(output)) is not None:
        raise InputError(f"--output: {output} cannot be written: {why}")
    if output.resolve() == source.resolve():
        raise InputError(f"--output: {output} would overwrite the input; choose another path")

    def finish(result: dict, out: Outcome) -> None:
        document = result.get("document") or result.get("content")
        if not isinstance(document, str):
            raise InputError("convert: the service's result holds no document")
        try:
            write_atomically(output, document)  # never a half-written result in place of a good one
        except OSError as exc:  # the job is done: its result and the outputs are still reported
            out.status, out.error = "failed", f"could not write {output}: {exc.strerror or exc}"
            return
        out.output_path, out.url = str(output), result.get("url")
        out.item_id = result.get("item_id") or result.get("conversion_id")
        out.facts += [("Input", str(source)), ("Format", s.target), ("Written to", str(output))]

    return Plan(f"Convert {source.name} ({s.source_type} to {s.target})", "POST", "/convert",
                {"source_type": s.source_type, "content": f"<{len(content)} characters of {source.name}>",
                 "target_format": s.target},
                lambda c: c.convert.create(source_type=s.source_type, content=content, target_format=s.target),
                finish)


# --- api-scan-pr ------------------------------------------------------------------------------

def plan_api_scan_pr(s: CiSettings, ctx: CiContext) -> Plan:
    _require(s, "scan_id")
    targets = list(dict.fromkeys(s.to or ("docs",)))
    unknown = [t for t in targets if t not in ("docs", "source")]
    if unknown:
        raise InputError(f"--to: expected docs and/or source, got {', '.join(unknown)}")
    if "docs" in targets:
        _require(s, "repo")
    body = {"targets": targets, "integration_id": s.repo, "file_path": s.path, "source_file_path": s.source_path,
            "spec": s.spec, "commit_message": s.commit_message}
    body = {k: v for k, v in body.items() if v is not None}

    def finish(answer, out: Outcome) -> None:
        prs, errors = answer.pull_requests, answer.errors
        urls = list(prs.values()) if isinstance(prs, dict) else list(prs or [])
        out.pull_requests = [str(u) for u in urls if u]
        out.url = out.pull_requests[0] if out.pull_requests else None
        problems = errors.items() if isinstance(errors, dict) else enumerate(errors or [])
        for target, reason in problems:
            out.findings.append(Finding("error", f"{target}: {reason}" if isinstance(target, str) else str(reason)))
        out.result = {"pull_requests": prs, "errors": errors}
        out.facts += [("Targets", ", ".join(targets))] + [("Pull request", u) for u in out.pull_requests]
        if out.findings:  # as the CLI: every requested target must open; the others still did
            out.status = "failed"
            out.error = f"{len(out.findings)} of {len(targets)} target(s) could not be opened"

    return Plan(f"Pull requests from API scan {s.scan_id}", "POST", f"/oas/scans/{s.scan_id}/pull-request", body,
                lambda c: c.oas.open_pull_request(
                    s.scan_id, targets=targets, integration_id=s.repo, file_path=s.path,
                    source_file_path=s.source_path, spec=s.spec, commit_message=s.commit_message),
                finish, waits=False)


# --- validate ---------------------------------------------------------------------------------

def findings_of(result: dict) -> list[Finding]:
    items = result.get("findings") or result.get("issues") or []
    out = []
    for item in items if isinstance(items, list) else []:
        if not isinstance(item, dict):
            continue
        severity = str(item.get("severity") or item.get("level") or "error").lower()
        severity = {"warn": "warning", "info": "notice", "hint": "notice"}.get(severity, severity)
        line = item.get("line")
        out.append(Finding(severity if severity in ("error", "warning", "notice") else "error",
                           str(item.get("message") or item.get("title") or item),
                           item.get("file") or item.get("path"), line if isinstance(line, int) else None,
                           item.get("rule") or item.get("code")))
    return out


def plan_validate(s: CiSettings, ctx: CiContext) -> Plan:
    flags = {k: s.values[k] for k in ("run_swagger", "run_redocly", "run_ai_fix", "run_ai_content")
             if s.values[k] is not None}
    upload = None
    if s.file:  # the spec of the pull request, not the one saved on the service
        upload = (Path(s.file).name, read_spec(Path(s.file), "--file", bundled=True))

    def finish(result: dict, out: Outcome) -> None:
        out.findings = findings_of(result)
        if upload is not None:  # point annotations at the file in the workspace
            out.findings = [replace(f, file=s.file) if f.file in (None, "", upload[0]) else f for f in out.findings]
        out.item_id = result.get("scan_id")  # the api-scans item: input scan-id of api-scan-pr
        errors = sum(f.severity == "error" for f in out.findings)
        warnings = sum(f.severity == "warning" for f in out.findings)
        out.facts += [("Errors", str(errors)), ("Warnings", str(warnings)), ("Fail on", s.fail_on)]
        failing = {"never": False, "warning": errors + warnings > 0, "error": errors > 0}[s.fail_on]
        if failing:
            out.status, out.error = "failed", f"{errors} error(s), {warnings} warning(s) (fail-on {s.fail_on})"

    body = dict(flags, file=f"<{len(upload[1])} characters of {s.file}>") if upload else flags
    title = f"API-readiness validation of {s.file}" if upload else "API-readiness validation"
    return Plan(title, "POST", "/oas/validate", body, lambda c: c.oas.validate(**flags, file=upload), finish)


# --- check ------------------------------------------------------------------------------------

def plan_check(s: CiSettings, ctx: CiContext) -> Plan:
    # Each ID by the rule of every other ID input (settings' int kind): a whole number of at most
    # MAX_ID; str.isdigit is no test ('²' is a digit int() refuses).
    ids = [convert(_ID, raw, "--ids") for raw in s.ids or ()]
    body = {"ids": ids or None, "dismiss_done": s.dismiss_done or None, "ai": False if s.no_ai else None}
    body = {k: v for k, v in body.items() if v is not None}

    def finish(result: dict, out: Outcome) -> None:
        rows = result.get("suggestions") or result.get("results") or []
        for row in rows if isinstance(rows, list) else []:
            if isinstance(row, dict):
                verdict = row.get("verdict", "?")
                extra = f" (pull request {row['pr_state']})" if row.get("pr_state") else ""
                out.facts.append((f"Suggestion {row.get('id')}", f"{verdict}{extra}"))

    return Plan("Docs check of Docflows suggestions", "POST", "/docflows/check-docs", body,
                lambda c: c.docflows.check_many(ids=ids or None, dismiss_done=s.dismiss_done or None,
                                                ai=False if s.no_ai else None), finish)


_ID = replace(BY_NAME["ids"], kind="int")  # one element of --ids


PLANNERS = {"sync": plan_sync, "docflow": plan_docflow, "convert": plan_convert, "api-scan-pr": plan_api_scan_pr,
            "validate": plan_validate, "check": plan_check}


def carry_out(plan: Plan, client, reporter: Reporter, timeout: float | None) -> Outcome:
    """Send the plan; for a job, wait for it with progress in a log group."""
    from ..client import JobTimeoutError

    outcome = Outcome(plan.title, "completed")
    answer = plan.send(client)
    if not plan.waits:
        plan.finish(answer, outcome)
        return outcome
    outcome.job_id = answer.job_id
    if timeout == 0:  # start the job, don't wait for it: not even one poll
        outcome.status = "running"
        return outcome
    last: list[str] = []

    def progress(job) -> None:
        p = job.progress
        if p is None:
            return
        line = f"{p.message}" + (f" ({p.done}/{p.total})" if p.done is not None and p.total else "")
        if not last or last[-1] != line:
            last.append(line)
            reporter.write(line)

    with reporter.group(f"{plan.title}: job {answer.job_id}"):
        try:
            job = client.jobs.wait(answer.job_id, timeout=timeout, on_progress=progress)
        except JobTimeoutError:
            outcome.status = "running"
            return outcome
    outcome.result = job.result
    if job.status == "failed":
        outcome.status = "failed"
        outcome.error = f"{job.error.title}: {job.error.detail}" if job.error else "the job failed"
        return outcome
    plan.finish(job.result or {}, outcome)
    return outcome
