"""GitLab CI: collapsible log sections, a dotenv report for later jobs, a JUnit report."""

from __future__ import annotations

import contextlib
import re
import time
from pathlib import Path
from typing import Iterator, Mapping
from xml.sax.saxutils import escape, quoteattr

from .base import Finding, Reporter

_ESC = "\x1b"


class GitLabReporter(Reporter):
    name = "gitlab"

    @contextlib.contextmanager
    def group(self, title: str) -> Iterator[None]:
        section = "docsvc_" + re.sub(r"[^a-z0-9_]+", "_", title.lower()).strip("_")
        self.write(f"{_ESC}[0Ksection_start:{int(time.time())}:{section}[collapsed=true]\r{_ESC}[0K{title}")
        try:
            yield
        finally:
            self.write(f"{_ESC}[0Ksection_end:{int(time.time())}:{section}\r{_ESC}[0K")

    def finding(self, finding: Finding) -> None:
        colour = {"error": "31", "warning": "33"}.get(finding.severity, "36")
        where = f"{finding.file}:{finding.line}: " if finding.file and finding.line else \
            f"{finding.file}: " if finding.file else ""
        self.write(f"{_ESC}[{colour}m{finding.severity.upper()}{_ESC}[0m {where}{finding.message}")

    def outputs(self, values: Mapping[str, str]) -> None:
        super().outputs(values)
        path = self.settings.dotenv_file
        if not path:
            return
        # dotenv reports hold one line per variable: newlines in a value (JSON) are flattened.
        lines = [f"DOCSVC_{key.upper().replace('-', '_')}={value.replace(chr(10), ' ')}"
                 for key, value in values.items()]
        Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")

    def summary(self, markdown: str) -> None:
        with self.group("docsvc summary"):
            for line in markdown.rstrip("\n").splitlines():
                self.write(line)
        self.write_summary_file(markdown)

    def junit(self, findings: list[Finding], suite: str) -> None:
        path = self.settings.junit_file
        if not path:
            return
        failures = [f for f in findings if f.severity in ("error", "warning")]
        cases = []
        for n, f in enumerate(findings, 1):
            name = quoteattr(f"{f.file or 'spec'}:{f.line or 0} {f.rule or f.severity} #{n}")
            body = f"<failure type={quoteattr(f.severity)} message={quoteattr(f.message)}>" \
                   f"{escape(f.message)}</failure>" if f in failures else ""
            cases.append(f'    <testcase classname={quoteattr(suite)} name={name}>{body}</testcase>')
        if not cases:
            cases.append(f'    <testcase classname={quoteattr(suite)} name="no findings"></testcase>')
        xml = (f'<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n  <testsuite name={quoteattr(suite)} '
               f'tests="{max(1, len(findings))}" failures="{len(failures)}">\n' + "\n".join(cases) +
               "\n  </testsuite>\n</testsuites>\n")
        Path(path).write_text(xml, encoding="utf-8")
