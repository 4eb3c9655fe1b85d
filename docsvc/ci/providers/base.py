"""The reporter of a plain terminal (local runs); CI systems override what they do differently."""

from __future__ import annotations

import contextlib
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Mapping, TextIO


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

    def __init__(self, env: Mapping[str, str], settings, stream: TextIO | None = None) -> None:
        self.env = env
        self.settings = settings
        self.stream = stream or sys.stdout

    def write(self, line: str) -> None:
        self.stream.write(line + "\n")
        self.stream.flush()

    def mask(self, secret: str) -> None:
        """Hide a secret in the CI log; a terminal never shows it in the first place."""

    @contextlib.contextmanager
    def group(self, title: str) -> Iterator[None]:
        self.write(f"== {title}")
        yield

    def finding(self, finding: Finding) -> None:
        where = f"{finding.file}:{finding.line}: " if finding.file and finding.line else \
            f"{finding.file}: " if finding.file else ""
        self.write(f"{finding.severity}: {where}{finding.message}")

    def outputs(self, values: Mapping[str, str]) -> None:
        for key, value in values.items():
            if value:
                self.write(f"{key}: {value}")

    def summary(self, markdown: str) -> None:
        self.write_summary_file(markdown)

    def write_summary_file(self, markdown: str) -> None:
        path = self.settings.summary_file
        if path:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            Path(path).write_text(markdown, encoding="utf-8")

    def junit(self, findings: list[Finding], suite: str) -> None:
        """Only GitLab reads JUnit reports from this step."""
