"""The reporter of a plain terminal (local runs); CI systems override what they do differently.

Text reaches a log only through ``write``, which passes each line through ``escape``: whatever the
service or a pull request put in it (a file name, a message) shows as text and cannot drive the
terminal or the CI system. The reporters' own commands (masks, groups, annotations) go through
``emit``, which does not escape.
"""

from __future__ import annotations

import contextlib
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Mapping, TextIO

from ...controls import escape_controls
from ...credentials import hidden


@dataclass(frozen=True)
class Finding:
    """A problem to show: an error or a warning, with the file and line when known."""

    severity: str  # error | warning | notice
    message: str
    file: str | None = None
    line: int | None = None
    rule: str | None = None


class Reporter:
    name = "local"
    # Annotations the CI system shows per step; the rest are counted in a notice and listed in the
    # summary. None: no such limit (a terminal, a plain log).
    annotation_limit: int | None = None

    def __init__(self, env: Mapping[str, str], settings, stream: TextIO | None = None) -> None:
        self.env = env
        self.settings = settings
        self.stream = stream or sys.stdout
        self._annotated: dict[str, int] = {}
        self._held_back = 0

    # -- the log ------------------------------------------------------------------------------

    def emit(self, line: str) -> None:
        """One line exactly as given: for the reporter's own commands."""
        self.stream.write(hidden(line) + "\n")  # a message may quote a repository URL with its token
        self.stream.flush()

    def escape(self, line: str) -> str:
        return escape_controls(line)

    def write(self, text: str) -> None:
        """Text for people, escaped line by line."""
        for line in str(text).split("\n"):
            self.emit(self.escape(line))

    def mask(self, secret: str) -> None:
        """Hide a secret in the CI log; a terminal never shows it in the first place."""

    @contextlib.contextmanager
    def group(self, title: str) -> Iterator[None]:
        self.write(f"== {title}")
        yield

    # -- findings -----------------------------------------------------------------------------

    def finding(self, finding: Finding) -> None:
        """Show one finding, as an annotation where the CI system has them, within its limit."""
        if self.annotation_limit is not None and finding.severity in ("error", "warning", "notice"):
            count = self._annotated.get(finding.severity, 0)
            if count >= self.annotation_limit:
                self._held_back += 1
                return
            self._annotated[finding.severity] = count + 1
        self.annotate(finding)

    def annotate(self, finding: Finding) -> None:
        where = f"{finding.file}:{finding.line}: " if finding.file and finding.line else \
            f"{finding.file}: " if finding.file else ""
        self.write(f"{finding.severity}: {where}{finding.message}")

    def close_findings(self) -> None:
        """Say how many findings went unannotated (they are all in the summary)."""
        if self._held_back:
            held, self._held_back = self._held_back, 0
            self.annotate(Finding("notice", f"{held} more finding(s) are not annotated here (the limit is "
                                            f"{self.annotation_limit} per severity): see the job summary"))

    # -- outputs and files ----------------------------------------------------------------------

    def outputs(self, values: Mapping[str, str]) -> None:
        for key, value in values.items():
            if value:
                self.write(f"{key}: {value}")

    def summary(self, markdown: str) -> None:
        self.write_summary_file(markdown)

    def write_summary_file(self, markdown: str) -> None:
        path = self.settings.summary_file
        if path:
            from ...files import write_atomically

            write_atomically(path, markdown)
