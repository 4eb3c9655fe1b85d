"""The Markdown summary of one operation: a heading, what happened, a table of facts, findings.
It is built from the outcome only, which never holds the API key."""

from __future__ import annotations

from .operations import Outcome

_ICON = {"completed": "✅", "failed": "❌", "running": "⏳", "dry-run": "📝"}


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def render(outcome: Outcome, run_url: str | None = None) -> str:
    lines = [f"### {_ICON.get(outcome.status, '')} docsvc: {outcome.title}".replace("  ", " "), ""]
    state = {"completed": "Completed", "failed": "Failed", "running": "Still running at the timeout",
             "dry-run": "Dry run: nothing was sent"}.get(outcome.status, outcome.status)
    lines.append(f"**{state}**" + (f": {outcome.error}" if outcome.error else ""))
    lines.append("")
    rows = list(outcome.facts)
    if outcome.job_id:
        rows.insert(0, ("Job", f"`{outcome.job_id}`"))
    if outcome.url:
        rows.append(("Link", outcome.url))
    if outcome.item_id is not None:
        rows.append(("Item", str(outcome.item_id)))
    if run_url:
        rows.append(("Run", run_url))
    if rows:
        lines += ["| | |", "|---|---|"] + [f"| {_cell(k)} | {_cell(v)} |" for k, v in rows] + [""]
    if outcome.findings:
        lines += ["| Severity | Where | Finding |", "|---|---|---|"]
        for f in outcome.findings:
            where = f"{f.file}:{f.line}" if f.file and f.line else (f.file or "")
            lines.append(f"| {f.severity} | {_cell(where)} | {_cell(f.message)} |")
        lines.append("")
    return "\n".join(lines)
