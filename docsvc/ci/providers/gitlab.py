"""GitLab CI: collapsible log sections, coloured findings and a dotenv report for later jobs.

GitLab reads ``ESC[0Ksection_start:...`` in the log as a section marker: text from outside goes
through ``escape`` (control characters made visible), so only this module writes those.
"""

from __future__ import annotations

import contextlib
import re
import time
from typing import Iterator, Mapping

from ...files import write_atomically
from .base import Finding, Reporter

_ESC = "\x1b"


class GitLabReporter(Reporter):
    name = "gitlab"

    @contextlib.contextmanager
    def group(self, title: str) -> Iterator[None]:
        section = "docsvc_" + re.sub(r"[^a-z0-9_]+", "_", title.lower()).strip("_")[:60]
        self.emit(f"{_ESC}[0Ksection_start:{int(time.time())}:{section}[collapsed=true]\r{_ESC}[0K"
                  f"{self.escape(title)}")
        try:
            yield
        finally:
            self.emit(f"{_ESC}[0Ksection_end:{int(time.time())}:{section}\r{_ESC}[0K")

    def annotate(self, finding: Finding) -> None:
        colour = {"error": "31", "warning": "33"}.get(finding.severity, "36")
        where = f"{finding.file}:{finding.line}: " if finding.file and finding.line else \
            f"{finding.file}: " if finding.file else ""
        self.emit(f"{_ESC}[{colour}m{finding.severity.upper()}{_ESC}[0m {self.escape(where + finding.message)}")

    def outputs(self, values: Mapping[str, str]) -> None:
        super().outputs(values)
        path = self.settings.dotenv_file
        if not path:
            return
        # dotenv reports hold one line per variable: line breaks in a value are flattened.
        lines = [f"{dotenv_name(key)}={' '.join(value.splitlines())}" for key, value in values.items()]
        write_atomically(path, "\n".join(lines) + "\n")

    def summary(self, markdown: str) -> None:
        with self.group("docsvc summary"):
            self.write(markdown.rstrip("\n"))
        self.write_summary_file(markdown)


def dotenv_name(output: str) -> str:
    """The variable an output becomes in the dotenv report (``job-id``: ``DOCSVC_JOB_ID``); the docs
    site's CI reference lists them by this same rule."""
    return "DOCSVC_" + output.upper().replace("-", "_")
