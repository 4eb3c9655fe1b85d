"""GitHub Actions: workflow commands on stdout, ``$GITHUB_OUTPUT`` and ``$GITHUB_STEP_SUMMARY``.

The runner reads any stdout line that starts (after blanks) with ``::`` as a workflow command,
and ``##[`` as an old-style one; so a line of text never starts that way, and a carriage return
cannot split one line into two.
"""

from __future__ import annotations

import contextlib
import re
import uuid
from typing import Iterator, Mapping

from ...controls import escape_controls
from .base import Finding, Reporter

_COMMAND_START = re.compile(r"^(\s*)(::|##\[)")


def _escape_data(text: str) -> str:
    """A workflow command's data: GitHub's own encoding, and other control characters made visible."""
    return escape_controls(text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


class GitHubReporter(Reporter):
    name = "github"
    annotation_limit = 10  # GitHub shows 10 errors and 10 warnings per step

    def escape(self, line: str) -> str:
        line = escape_controls(line.replace("\r", "%0D"))
        return _COMMAND_START.sub(lambda m: f"{m.group(1)}{m.group(2)[0]} {m.group(2)[1:]}", line)

    def mask(self, secret: str) -> None:
        if secret:
            self._raw(f"::add-mask::{_escape_data(secret)}")  # the one line that must show it, exactly
            super().mask(secret)

    @contextlib.contextmanager
    def group(self, title: str) -> Iterator[None]:
        self.emit(f"::group::{_escape_data(title)}")
        try:
            yield
        finally:
            self.emit("::endgroup::")

    def annotate(self, finding: Finding) -> None:
        command = {"error": "error", "warning": "warning"}.get(finding.severity, "notice")
        props = []
        if finding.file:
            props.append(f"file={_escape_property(finding.file)}")
            if finding.line:
                props.append(f"line={finding.line}")
        if finding.rule:
            props.append(f"title={_escape_property(finding.rule)}")
        self.emit(f"::{command}{' ' + ','.join(props) if props else ''}::{_escape_data(finding.message)}")

    def outputs(self, values: Mapping[str, str]) -> None:
        path = self.env.get("GITHUB_OUTPUT")
        if not path:
            return super().outputs(values)
        with open(path, "a", encoding="utf-8") as out:
            for key, value in values.items():
                # A fresh delimiter per value: no value can end the block early.
                delimiter = f"ghadelimiter_{uuid.uuid4()}"
                out.write(f"{key}<<{delimiter}\n{value}\n{delimiter}\n")

    def summary(self, markdown: str) -> None:
        path = self.env.get("GITHUB_STEP_SUMMARY")
        if path:
            with open(path, "a", encoding="utf-8") as out:
                out.write(markdown.rstrip("\n") + "\n")
        self.write_summary_file(markdown)
