"""Machine-read reports of findings, one builder each: JUnit XML (GitLab's test widget, Jenkins'
``junit`` step), SARIF 2.1.0 (GitHub code scanning) and GitLab's Code Quality JSON.

Builders are pure: findings in, text out. Which of them a step writes is the runner's choice; the
files are written whole or not at all (``docsvc.files.write_atomically``).
"""

from __future__ import annotations

import hashlib
import json
from typing import Iterable
from xml.sax.saxutils import escape, quoteattr

from .. import __version__
from .providers import Finding

__all__ = ["SEVERITY_RANK", "at_or_above", "codequality", "junit", "sarif", "severities"]

SEVERITY_RANK = {"notice": 0, "warning": 1, "error": 2}
_FAIL_ON_RANK = {"warning": 1, "error": 2}  # "never": nothing fails
_XML_INVALID = dict.fromkeys([*range(0, 9), 11, 12, *range(14, 32)], "\ufffd")  # XML 1.0 has no C0 controls


def at_or_above(finding: Finding, fail_on: str) -> bool:
    """Whether ``finding`` fails a step whose threshold is ``fail_on`` (error, warning, never)."""
    threshold = _FAIL_ON_RANK.get(fail_on)
    return threshold is not None and SEVERITY_RANK.get(finding.severity, 2) >= threshold


def _xml(text: str) -> str:
    return text.translate(_XML_INVALID)


def junit(findings: list[Finding], suite: str, fail_on: str, error: str | None = None) -> str:
    """One test case per finding; a failure only for findings at or above ``fail_on``, and for the
    step's own ``error``. A clean run is one passing case, so the widget shows a green run."""
    cases, failures = [], 0
    if error:
        failures += 1
        cases.append(f"    <testcase classname={quoteattr(_xml(suite))} name=\"the step\">"
                     f"<failure type=\"error\" message={quoteattr(_xml(error))}>{escape(_xml(error))}</failure>"
                     f"</testcase>")
    for n, f in enumerate(findings, 1):
        name = quoteattr(_xml(f"{f.file or 'spec'}:{f.line or 0} {f.rule or f.severity} #{n}"))
        body = ""
        if at_or_above(f, fail_on):
            failures += 1
            body = (f"<failure type={quoteattr(f.severity)} message={quoteattr(_xml(f.message))}>"
                    f"{escape(_xml(f.message))}</failure>")
        elif f.severity != "notice":
            body = f"<system-out>{escape(_xml(f.severity + ': ' + f.message))}</system-out>"
        cases.append(f"    <testcase classname={quoteattr(_xml(suite))} name={name}>{body}</testcase>")
    if not cases:
        cases.append(f"    <testcase classname={quoteattr(_xml(suite))} name=\"no findings\"></testcase>")
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<testsuites tests="{len(cases)}" failures="{failures}">\n'
            f'  <testsuite name={quoteattr(_xml(suite))} tests="{len(cases)}" failures="{failures}">\n'
            + "\n".join(cases) + "\n  </testsuite>\n</testsuites>\n")


_SARIF_LEVEL = {"error": "error", "warning": "warning", "notice": "note"}
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def sarif(findings: list[Finding], information_uri: str | None = None) -> str:
    """A SARIF 2.1.0 log with one run of the ``docsvc`` tool: a rule per rule id seen, a result per
    finding, located by file and line when the finding has them."""
    rule_ids = list(dict.fromkeys(f.rule or f.severity for f in findings))
    driver = {"name": "docsvc", "version": __version__, "semanticVersion": __version__,
              "rules": [{"id": rule, "shortDescription": {"text": rule}} for rule in rule_ids]}
    if information_uri:
        driver["informationUri"] = information_uri
    results = []
    for f in findings:
        rule = f.rule or f.severity
        result: dict = {"ruleId": rule, "ruleIndex": rule_ids.index(rule), "level": _SARIF_LEVEL.get(f.severity, "error"),
                        "message": {"text": f.message or rule}}
        if f.file:
            location: dict = {"artifactLocation": {"uri": f.file}}
            if f.line:
                location["region"] = {"startLine": f.line}
            result["locations"] = [{"physicalLocation": location}]
        results.append(result)
    log = {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [{"tool": {"driver": driver}, "results": results}]}
    return json.dumps(log, indent=2, ensure_ascii=False) + "\n"


_CODEQUALITY_SEVERITY = {"error": "major", "warning": "minor", "notice": "info"}


def codequality(findings: list[Finding]) -> str:
    """GitLab's Code Quality report: a JSON array of issues with a stable fingerprint each, so the
    merge request widget can tell new findings from fixed ones between pipelines."""
    issues, seen = [], set()
    for f in findings:
        key = "\x1f".join((f.rule or "", f.file or "", str(f.line or 0), f.message))
        fingerprint = hashlib.sha256(key.encode()).hexdigest()
        if fingerprint in seen:  # the same finding twice is one issue to GitLab
            continue
        seen.add(fingerprint)
        issues.append({"description": f.message, "check_name": f.rule or f.severity, "fingerprint": fingerprint,
                       "severity": _CODEQUALITY_SEVERITY.get(f.severity, "major"),
                       "location": {"path": f.file or "openapi", "lines": {"begin": f.line or 1}}})
    return json.dumps(issues, indent=2, ensure_ascii=False) + "\n"


def severities(findings: Iterable[Finding]) -> dict[str, int]:
    counts = {"error": 0, "warning": 0, "notice": 0}
    for f in findings:
        counts[f.severity if f.severity in counts else "error"] += 1
    return counts
