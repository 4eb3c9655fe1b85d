"""The reporter of a plain terminal (local runs); CI systems override what they do differently.

Text reaches a log only through ``write``, which passes each line through ``escape``: whatever the
service or a pull request put in it (a file name, a message) shows as text and cannot drive the
terminal or the CI system. The reporters' own commands (groups, annotations) go through ``emit``,
which does not escape. Every line, either way, leaves without the secrets given to ``mask`` (as
``***``, whether or not the CI system masks them too), a URL's user information, and the value of a
secret query parameter (``docsvc.credentials.hidden_query``: a conversion's share link, ``?key=``).
"""

from __future__ import annotations

import contextlib
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Mapping, TextIO

from ...controls import escape_controls
from ...credentials import redacted, url_secrets_hidden


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
        # Under a limit, one notice place is kept from the start for the count of findings past it
        # (close_findings): annotations cannot be taken back once the limit shows it is needed.
        self._reserved: dict[str, int] = {} if self.annotation_limit is None else {"notice": 1}
        self._held_back = 0
        self.counts = {"error": 0, "warning": 0}  # every finding shown or held back: the errors/warnings outputs
        self._secrets: list[str] = []

    # -- the log ------------------------------------------------------------------------------

    def emit(self, line: str) -> None:
        """One line as given, but for secrets: for the reporter's own commands."""
        # a message may quote a repository URL with its token, or a share link with its key
        self._raw(url_secrets_hidden(self.scrub(line)))

    def _raw(self, line: str) -> None:
        self.stream.write(line + "\n")
        self.stream.flush()

    def scrub(self, text: str) -> str:
        """``text`` with each secret given to ``mask`` replaced by ``***``."""
        return redacted(text, self._secrets)

    def escape(self, line: str) -> str:
        return escape_controls(line)

    def write(self, text: str) -> None:
        """Text for people, escaped line by line."""
        for line in self.scrub(str(text)).split("\n"):  # before escaping changes how a secret reads
            self.emit(self.escape(line))

    def mask(self, secret: str) -> None:
        """Hide a secret in the log: from here on no line shows it (and the CI system masks it too)."""
        if secret and secret not in self._secrets:
            self._secrets.append(secret)

    @contextlib.contextmanager
    def group(self, title: str) -> Iterator[None]:
        self.write(f"== {title}")
        yield

    # -- findings -----------------------------------------------------------------------------

    def reserve(self, severity: str) -> None:
        """Keep a place within the limit for a line of the step's own (``finding(..., own=True)``)."""
        self._reserved[severity] = self._reserved.get(severity, 0) + 1

    def finding(self, finding: Finding, *, own: bool = False, tally: bool = True) -> None:
        """Show one finding, as an annotation where the CI system has them, within its limit. The
        step's ``own`` line (its error, its skip notice) is always shown, in a reserved place if any.
        Every finding of the step passes here, so here it is counted (``counts``); ``tally=False``
        for a line that only sums up findings counted already ("validation: 3 error(s)")."""
        if tally and finding.severity in self.counts:
            self.counts[finding.severity] += 1
        if own:
            if self._reserved.get(finding.severity):
                self._reserved[finding.severity] -= 1
            self._annotated[finding.severity] = self._annotated.get(finding.severity, 0) + 1
            self.annotate(finding)
            return
        if self.annotation_limit is not None and finding.severity in ("error", "warning", "notice"):
            count = self._annotated.get(finding.severity, 0)
            if count + self._reserved.get(finding.severity, 0) >= self.annotation_limit:
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
            self.finding(Finding("notice", f"{held} more finding(s) are not annotated here (the limit is "
                                           f"{self.annotation_limit} per severity): see the job summary"),
                         own=True, tally=False)

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
