"""``docsvc validate`` and ``docsvc api-scan open-pr``: API readiness of the organisation's spec."""

from __future__ import annotations

from pathlib import Path

import click

from .. import exit_codes
from .context import CliExit, client
from .output import emit, json_option, status
from .bundle import remote_refs_option, spec_bytes, spec_refused
from .examples import examples
from .progress import timeout_option, wait_for_job
from .params import ID

SEVERITIES = ("error", "warning", "notice")
STAGES = {"swagger": "structural validation against the OpenAPI schemas",
          "redocly": "the Redocly recommended lint rules",
          "ai-fix": "mechanical fixes into a corrected spec",
          "ai-content": "generated summaries and descriptions"}


def _stage_options(func):
    for name, what in reversed(STAGES.items()):
        func = click.option(f"--{name}/--no-{name}", f"run_{name.replace('-', '_')}", default=None,
                            help=f"{what} (default: the saved configuration)")(func)
    return func


def findings_lines(findings: list[dict]) -> list[str]:
    """Findings grouped by severity, each ``file:line  rule  message``."""
    lines = []
    for severity in SEVERITIES:
        group = [f for f in findings if f.get("severity") == severity]
        if not group:
            continue
        lines.append(f"{severity}s ({len(group)}):" if severity != "notice" else f"notices ({len(group)}):")
        for f in group:
            where = f"{f.get('file') or ''}:{f['line']}" if f.get("line") else (f.get("file") or "")
            pointer = f"  #{f['pointer']}" if f.get("pointer") and not f.get("line") else ""
            lines.append(f"  {where}{pointer}  [{f.get('rule')}] {f.get('message')}")
    return lines


@examples("docsvc validate --no-ai-content --fail-on warning",
          "docsvc validate --file api/openapi.yaml  # your own spec, split across files or not",
          "docsvc validate --file openapi.json --no-ai-fix --json")
@click.command()
@_stage_options
@click.option("--file", "spec_file", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="check this spec instead of the configured one (bundled into one document first)")
@remote_refs_option
@click.option("--fail-on", type=click.Choice(["error", "warning", "never"]), default="error", show_default=True,
              help="exit 1 when findings of this severity (or worse) are found")
@timeout_option("the scan goes on in the service")
@json_option
def validate(spec_file: Path | None, allow_remote_refs: bool, fail_on: str, timeout: float | None, as_json: bool,
             **stages) -> None:
    """[addition] Run the saved API-readiness configuration and print the findings by severity.

    Wraps POST /oas/validate, which the interface leaves without a CLI command. The result is an
    API scan (api-scans item); open pull requests from it with: docsvc api-scan open-pr SCAN_ID.
    With --file the service checks that spec with the same stages and rules (the saved
    configuration's choices, or the defaults without one); a spec split across files is sent as
    one document, so lines then count in that document (docsvc bundle shows it)."""
    from ..client import UnprocessableEntityError

    upload = (spec_file.name, spec_bytes(spec_file, allow_remote=allow_remote_refs)) if spec_file else None
    api = client()
    try:
        ref = api.oas.validate(**stages, file=upload)
    except UnprocessableEntityError as exc:
        if spec_file is None:
            raise
        raise spec_refused(spec_file, exc) from None
    status(f"API-readiness scan queued (job {ref.job_id})")
    result = wait_for_job(api, ref, "validate", timeout)
    findings = result.get("findings") or []
    counts = {s: sum(f.get("severity") == s for f in findings) for s in SEVERITIES}

    def render(r) -> list[str]:
        spec = r.get("spec") or {}
        where = "uploaded" if spec.get("uploaded") else (f"on {spec.get('branch')} "
                                                          f"({str(spec.get('commit', ''))[:12]})")
        lines = [f"API scan {r.get('scan_id')}: {spec.get('path')} {where}"]
        lines += findings_lines(findings)  # fixes are among them, as notices
        if r.get("generated"):
            lines.append(f"generated {len(r['generated'])} summary/description text(s), each marked as generated")
        lines.append(f"{counts['error']} error(s), {counts['warning']} warning(s), {counts['notice']} notice(s); "
                     f"{len(r.get('fixes') or [])} fix(es) in the corrected spec")
        return lines

    emit(result, as_json, render)
    failing = {"never": False, "warning": counts["error"] + counts["warning"] > 0, "error": counts["error"] > 0}
    if failing[fail_on]:
        raise CliExit(f"validate: {counts['error']} error(s), {counts['warning']} warning(s) (--fail-on {fail_on})",
                      exit_codes.FAILED)


@examples("docsvc api-scan open-pr 6", "docsvc api-scan open-pr 6 --to source --to docs")
@click.group("api-scan")
def api_scan() -> None:
    """API scans: open pull requests with a scan's corrected (or pre-processed) spec."""


@examples(
    "docsvc api-scan open-pr 6 --repo 2",
    "docsvc api-scan open-pr 6 --to docs --repo 2 --path docs/openapi.yaml",
    "docsvc api-scan open-pr 6 --to source --source-path api/openapi.yaml -m 'Fix the spec'",
)
@api_scan.command("open-pr")
@click.argument("scan_id", type=ID)
@click.option("--to", "targets", type=click.Choice(["source", "docs"]), multiple=True,
              help="where: docs (a docs repository; the default) and/or source (the spec's own repository, "
                   "on the branch and path set in API Specs); repeatable")
@click.option("--repo", type=ID, default=None, metavar="INTEGRATION_ID",
              help="docs target: the integration whose docs repository gets the pull request")
@click.option("--path", default=None, help="docs target: file path (default: the spec's path)")
@click.option("--source-path", default=None, help="source target: file path (default: the spec's path)")
@click.option("--spec", type=click.Choice(["prepped"]), default=None,
              help="use the pre-processed spec instead of the AI-corrected one")
@click.option("-m", "--message", "commit_message", default=None, help="commit message")
@json_option
def open_pr(scan_id: int, targets: tuple[str, ...], repo: int | None, path: str | None, source_path: str | None,
            spec: str | None, commit_message: str | None, as_json: bool) -> None:
    """Open pull requests from API scan SCAN_ID; the scan tracks them. With both targets the scan
    follows the docs pull request. A target that fails is reported; the other is still opened."""
    targets = tuple(dict.fromkeys(targets or ("docs",)))
    if "docs" in targets and repo is None:
        raise click.UsageError("--repo INTEGRATION_ID is required for the docs target")
    answer = client().oas.open_pull_request(scan_id, targets=list(targets), integration_id=repo, file_path=path,
                                             source_file_path=source_path, spec=spec, commit_message=commit_message)
    prs = answer.pull_requests if isinstance(answer.pull_requests, dict) else dict(enumerate(answer.pull_requests or []))
    errors = answer.errors if isinstance(answer.errors, dict) else dict(enumerate(answer.errors or []))
    emit(answer, as_json, lambda _a: [f"{target}: {url}" for target, url in prs.items()])
    for target, reason in errors.items():
        status(f"{target}: not opened: {reason}")
    if errors:
        raise CliExit(f"api-scan open-pr: {len(errors)} of {len(targets)} target(s) failed", exit_codes.FAILED)


def register(cli: click.Group) -> None:
    cli.add_command(validate)
    cli.add_command(api_scan)
