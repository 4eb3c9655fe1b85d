"""Jenkins: plain log lines (no workflow commands) and a summary file to archive."""

from __future__ import annotations

from .base import Reporter

DEFAULT_SUMMARY = "docsvc-summary.md"


class JenkinsReporter(Reporter):
    name = "jenkins"

    def summary(self, markdown: str) -> None:
        self.write_summary_file(markdown)
        if not self.settings.summary_file:
            from pathlib import Path

            Path(DEFAULT_SUMMARY).write_text(markdown, encoding="utf-8")
        self.write(f"Summary written to {self.settings.summary_file or DEFAULT_SUMMARY} (archive it)")
