"""The Markdown summary of one operation: a heading, what happened, a table of facts, findings.

It is built from the outcome only, which never holds the API key. Every piece of text that came
from outside (a pull-request title, a file name, a message of the service) is Markdown-escaped,
so it shows as the text it is and cannot add links, images, HTML or table cells. The summary
stays under ``SUMMARY_LIMIT`` bytes (GitHub refuses a step summary over 1 MiB): past it, the
findings table is cut with a note pointing to the full report.
"""

from __future__ import annotations

import re
from urllib.parse import quote

from ..credentials import hidden
from .operations import Outcome

__all__ = ["SUMMARY_LIMIT", "md", "render"]

SUMMARY_LIMIT = 1024 * 1024 - 64 * 1024  # GitHub's 1 MiB, with room for other steps' appends
_ICON = {"completed": "✅", "failed": "❌", "running": "⏳", "dry-run": "📝", "skipped": "⏭️"}
_STATE = {"completed": "Completed", "failed": "Failed", "running": "Still running",
          "dry-run": "Dry run: nothing was sent", "skipped": "Skipped"}
# CommonMark lets a backslash escape any ASCII punctuation; these are the ones that mean something
# anywhere in a line (emphasis, code, links and images, HTML, entities, table cells, strikethrough).
_SPECIAL = re.compile(r"([\\`*_{}\[\]()<>|~&$])")  # $: GitHub's math
# ... and these only at the start of one (a heading, a list item, a numbered item).
_LEADING = re.compile(r"^(\s*)(?:([#+\-])|(\d{1,9})([.)])(?=\s|$))")
_BREAKS = re.compile(r"[\r\n\u2028\u2029\x0b\x0c\x85]+")
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f]")
# What GitHub makes live in plain text: @mentions (a summary posted as a pull-request comment would
# notify the team named) and bare links (``https://…``, ``www.…``). A zero-width space after the @,
# and inside the scheme's ``://`` or after ``www``, keeps the text as it reads and dead.
_LIVE = re.compile(r"@|(?<=[A-Za-z]):(?=//)|(?i:\bwww)(?=\.)")
_ZWSP = "&#8203;"


def md(text: object) -> str:
    """``text`` as literal Markdown on one line: specials backslash-escaped, line breaks as spaces."""
    one_line = _BREAKS.sub(" ", _CONTROL.sub("", hidden(str(text))))
    escaped = _LIVE.sub(lambda m: m.group(0) + _ZWSP, _SPECIAL.sub(r"\\\1", one_line))
    return _LEADING.sub(lambda m: m.group(1) + (f"\\{m.group(2)}" if m.group(2) else f"{m.group(3)}\\{m.group(4)}"),
                        escaped)


def link(url: str | None, text: str | None = None) -> str:
    """A link to an http(s) address; anything else is shown as escaped text, never followed."""
    if not url:
        return ""
    url = hidden(url)
    if not re.match(r"^https?://", url, re.I):
        return md(url)
    return f"[{md(text or url)}]({quote(url, safe=':/?#[]@!$&*+,;=%~-._')})"


def render(outcome: Outcome, run_url: str | None = None, *, result_file: str | None = None,
           limit: int = SUMMARY_LIMIT) -> str:
    lines = [f"### {_ICON.get(outcome.status, '')} docsvc: {md(outcome.title)}".replace("  ", " "), ""]
    state = _STATE.get(outcome.status, md(outcome.status))
    lines += [f"**{state}**" + (f": {md(outcome.error)}" if outcome.error else ""), ""]
    rows = [(md(k), md(v)) for k, v in outcome.facts]
    if outcome.job_id:
        rows.insert(0, ("Job", md(outcome.job_id)))
    if outcome.url:
        rows.append(("Link", link(outcome.url)))
    if outcome.item_id is not None:
        rows.append(("Item", md(outcome.item_id)))
    if run_url:
        rows.append(("Run", link(run_url)))
    if rows:
        lines += ["| | |", "|---|---|"] + [f"| {k} | {v} |" for k, v in rows] + [""]
    head = "\n".join(lines)
    if not outcome.findings:
        return head
    table = ["| Severity | Where | Finding |", "|---|---|---|"]
    size = len(head.encode()) + 200  # the table head and the truncation note
    shown = 0
    for f in outcome.findings:
        where = f"{f.file}:{f.line}" if f.file and f.line else (f.file or "")
        row = f"| {f.severity} | {md(where)} | {md(f.message)} |"
        size += len(row.encode()) + 1
        if size > limit:
            break
        table.append(row)
        shown += 1
    if shown < len(outcome.findings):
        where = f" in {md(result_file)}" if result_file else ""
        more = f" (run: {link(run_url)})" if run_url else ""
        table.append("")
        table.append(f"_Showing {shown} of {len(outcome.findings)} findings: the summary has a size limit. "
                     f"All of them are in the full report{where}{more}._")
    return head + "\n" + "\n".join(table) + "\n"
