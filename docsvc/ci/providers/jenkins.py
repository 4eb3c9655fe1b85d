"""Jenkins: plain log lines (no workflow commands) and a summary file to archive."""

from __future__ import annotations

from .base import Reporter

DEFAULT_SUMMARY = "docsvc-summary.md"


class JenkinsReporter(Reporter):
    name = "jenkins"

    def summary(self, markdown: str) -> None:
        from ...files import write_atomically

        self.write_summary_file(markdown)
        if not self.settings.summary_file:
            write_atomically(DEFAULT_SUMMARY, markdown)
        self.write(f"Summary written to {self.settings.summary_file or DEFAULT_SUMMARY} (archive it)")
