"""The CI layer within every limit and safe with any text: small outputs, capped summaries and
annotations, reports for every findings consumer, escaped logs and summaries, a bounded --timeout,
and fork pull requests without secrets."""

from __future__ import annotations

import json
import os
import re
import socket
import threading
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.ci.helpers import JOB, job_done, parse_github_outputs, routes, run
from tests.support import free_port, run_cli

TOOLS = Path(__file__).resolve().parents[2] / ".tools" / "node_modules"
SARIF_SCHEMA = TOOLS / "@microsoft" / "jest-sarif" / "lib" / "schemas" / "sarif-2.1.0-rtm.5.json"


def many_findings(n: int) -> dict:
    """As many findings as a lint of a 3,000-operation spec gives, each with a long message."""
    return {"findings": [
        {"severity": "error" if i % 3 == 0 else "warning", "rule": f"rule-{i % 7}", "file": "openapi.yaml",
         "line": i + 1, "message": f"operation #{i} at /paths/~1items~1{i}/get: " + "x" * 200}
        for i in range(n)]}


def validate(tmp_path, result, env=None, extra=()):
    api = routes({("POST", "/api/v1/oas/validate"): (202, {"status": "queued", "job_id": JOB}),
                  ("GET", f"/api/v1/jobs/{JOB}"): (200, job_done(result))})
    files = {name: tmp_path / name for name in ("summary.md", "outputs", "junit.xml", "out.sarif", "cq.json")}
    base = {"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": str(files["summary.md"]),
            "GITHUB_OUTPUT": str(files["outputs"])}
    code, log, _ = run(["validate", "--junit-file", str(files["junit.xml"]), "--sarif-file", str(files["out.sarif"]),
                        "--codequality-file", str(files["cq.json"]), "--result-file", str(tmp_path / "result.json"),
                        *extra], api=api, env={**base, **(env or {})}, cwd=tmp_path)
    return code, log, files


def test_thousands_of_findings_stay_within_githubs_limits(tmp_path):
    result = many_findings(4000)
    code, log, files = validate(tmp_path, result)
    assert code == 1
    outputs = parse_github_outputs(files["outputs"].read_text())
    assert files["outputs"].stat().st_size < 4096  # outputs stay small ...
    assert outputs["result"] == "" and outputs["errors"] == "1334" and outputs["warnings"] == "2666"
    assert json.loads(Path(outputs["result-file"]).read_text()) == result  # ... the result file has it all
    summary = files["summary.md"].read_text()
    assert len(summary.encode()) < 1024 * 1024
    assert "_Showing " in summary and " of 4000 findings" in summary
    annotations = [line for line in log.splitlines() if line.startswith(("::error", "::warning", "::notice"))]
    # 9 findings and the step's own error: GitHub shows 10 error annotations per step
    assert sum(line.startswith("::error file=") for line in annotations) == 9
    assert "::error::API-readiness validation: 1334 error(s), 2666 warning(s) (fail-on error)" in annotations
    assert sum(line.startswith("::warning file=") for line in annotations) == 10
    assert any("more finding(s) are not annotated here" in line for line in annotations)


@pytest.mark.parametrize("severity", ["error", "warn", "info"])
def test_findings_past_the_limit_are_counted_within_it_whatever_their_severity(tmp_path, severity):
    """GitHub drops every annotation past 10 of a severity in a step: the counting notice is one of
    the 10 notices, or the notice that says findings are missing would be missing itself."""
    result = {"findings": [{"severity": severity, "rule": "r", "file": "openapi.yaml", "line": i + 1,
                            "message": f"finding {i}"} for i in range(106)]}
    _, log, _ = validate(tmp_path, result, extra=("--fail-on", "never"))
    annotations = [line for line in log.splitlines() if line.startswith(("::error", "::warning", "::notice"))]
    for kind in ("::error", "::warning", "::notice"):
        assert sum(line.startswith(kind) for line in annotations) <= 10, (kind, annotations)
    counted = [line for line in annotations if "more finding(s) are not annotated here" in line]
    assert len(counted) == 1 and counted[0].startswith("::notice::"), annotations
    shown = sum(line.startswith("::") and " file=" in line for line in annotations)
    held = int(counted[0].split("::notice::")[1].split()[0])
    assert shown + held == 106


def test_reports_fail_only_at_or_above_fail_on_and_exist_when_clean(tmp_path):
    result = {"findings": [{"severity": "warning", "message": "no description", "file": "a.yaml", "line": 3,
                            "rule": "info-description"}]}
    code, _, files = validate(tmp_path, result)
    assert code == 0  # fail-on error: a warning does not fail the step ...
    suite = ET.parse(files["junit.xml"]).getroot().find("testsuite")
    assert (suite.get("tests"), suite.get("failures")) == ("1", "0")  # ... nor the JUnit report
    code, _, files = validate(tmp_path, result, extra=("--fail-on", "warning"))
    assert code == 1
    assert ET.parse(files["junit.xml"]).getroot().find("testsuite").get("failures") == "1"
    clean = tmp_path / "clean"
    clean.mkdir()
    code, _, files = validate(clean, {"findings": []})
    assert code == 0
    suite = ET.parse(files["junit.xml"]).getroot().find("testsuite")
    assert (suite.get("tests"), suite.get("failures")) == ("1", "0")
    assert json.loads(files["out.sarif"].read_text())["runs"][0]["results"] == []


@pytest.mark.skipif(not SARIF_SCHEMA.exists() and not os.environ.get("CI"),
                    reason="scripts/setup-ci-tools installs the SARIF schema (in CI a missing schema fails)")
def test_sarif_is_valid_against_the_sarif_2_1_0_schema(tmp_path):
    import jsonschema  # Microsoft's schema has a pattern jsonschema-rs refuses to compile

    result = many_findings(50)
    result["findings"].append({"severity": "notice", "message": "a note without a place"})
    _, _, files = validate(tmp_path, result)
    log = json.loads(files["out.sarif"].read_text())
    validator = jsonschema.Draft7Validator(json.loads(SARIF_SCHEMA.read_text()))
    errors = [e.message for e in validator.iter_errors(log)]
    assert errors == []
    run_ = log["runs"][0]
    assert len(run_["results"]) == 51 and run_["results"][0]["locations"][0]["physicalLocation"]["region"] == {
        "startLine": 1}
    assert {r["id"] for r in run_["tool"]["driver"]["rules"]} == {f"rule-{i}" for i in range(7)} | {"notice"}


def test_gitlab_gets_a_code_quality_report(tmp_path):
    result = {"findings": [{"severity": "error", "message": "operationId missing", "file": "api.yaml", "line": 12,
                            "rule": "operation-operationId"}] * 2}
    dotenv = tmp_path / "out.env"
    code, _, files = validate(tmp_path, result, env={"GITHUB_ACTIONS": "", "GITLAB_CI": "true"},
                              extra=("--dotenv-file", str(dotenv)))
    assert code == 1
    issues = json.loads(files["cq.json"].read_text())
    assert len(issues) == 1  # the same finding twice is one issue
    assert issues[0]["severity"] == "major" and issues[0]["location"] == {"path": "api.yaml", "lines": {"begin": 12}}
    assert len(issues[0]["fingerprint"]) == 64
    assert len(dotenv.read_bytes()) < 5 * 1024


HOSTILE = "::error::pwned\r\n::set-output name=x::1\x1b[31mred\x1b[0K|cell|<img src=x onerror=alert(1)>[link](http://e.vil)"


def failed_sync_on_github(tmp_path, *answers: dict) -> tuple[int, str, str]:
    """A sync step on GitHub whose job answers ``answers`` in turn: (exit code, log, summary)."""
    import httpx

    from docsvc.client.testing import MockAPI

    summary, answered = tmp_path / "summary.md", iter(answers)

    def answer(request):
        if request.url.path == "/api/v1/sync":
            return httpx.Response(202, json={"status": "queued", "job_id": JOB})
        return httpx.Response(200, json=next(answered))

    code, log, _ = run(["sync", "--integration-id", "1"], api=MockAPI(answer),
                       env={"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": str(summary)})
    return code, log, summary.read_text()


def test_text_from_the_service_cannot_drive_the_log_or_the_summary(tmp_path):
    progress = {"job_id": JOB, "status": "running", "progress": {"message": HOSTILE, "percent": 50}}
    code, log, text = failed_sync_on_github(tmp_path, progress, job_done(None, "failed", {"title": "Bad",
                                                                                          "detail": HOSTILE}))
    assert code == 1
    commands = [line for line in log.splitlines() if line.lstrip().startswith("::")]
    # only the step's own commands: the mask, the group, and one error annotation with the text as data
    assert [c.split("::")[1].split(" ")[0] for c in commands] == ["add-mask", "group", "endgroup", "error"]
    assert "%0D%0A::set-output" in commands[-1] and "\x1b" not in log
    assert ": :error::pwned%0D" in log  # the progress line, neutralised
    assert not re.search(r"(?<!\\)<img", text) and not re.search(r"(?<!\\)\]\(http", text)
    assert "\x1b" not in text and "\r" not in text
    assert "\\|cell\\|" in text and "\\<img src=x onerror=alert\\(1\\)\\>" in text


def test_a_token_in_a_url_the_service_quotes_reaches_neither_the_log_nor_the_summary(tmp_path):
    """Defence in depth: the service hides them itself (docsvc.credentials), and so does the CI layer."""
    detail = "code repository https://x-access-token:ghp_SECRET@github.com/acme/app.git: fatal: gone"
    code, log, text = failed_sync_on_github(tmp_path, job_done(None, "failed", {"title": "Repository unreachable",
                                                                                "detail": detail}))
    assert code == 1 and "ghp_SECRET" not in log + text
    assert "https://***@github.com/acme/app.git" in log


def test_gitlab_log_shows_control_characters_instead_of_obeying_them(tmp_path):
    api = routes({("POST", "/api/v1/sync"): (202, {"status": "queued", "job_id": JOB}),
                  ("GET", f"/api/v1/jobs/{JOB}"): (200, job_done(None, "failed", {
                      "title": "Bad", "detail": "\x1b[0Ksection_start:1:evil\r\x1b[0Kfake"}))})
    code, log, _ = run(["sync", "--integration-id", "1", "--dotenv-file", str(tmp_path / "e.env")], api=api,
                       env={"GITLAB_CI": "true"})
    assert code == 1
    assert "section_start:1:evil" in log and "\\x1b[0Ksection_start:1:evil\\x0d" in log
    assert log.count("\x1b[0Ksection_start") == 2  # the step's own two sections (job, summary)


def test_a_big_convert_result_goes_to_the_result_file(tmp_path):
    spec = tmp_path / "big.yaml"
    spec.write_text("openapi: 3.0.0\n")
    document = "# API\n" + "x" * 3_000_000
    api = routes({("POST", "/api/v1/convert"): (202, {"status": "queued", "job_id": JOB}),
                  ("GET", f"/api/v1/jobs/{JOB}"): (200, job_done({"document": document, "item_id": 5}))})
    out = tmp_path / "outputs"
    code, _, _ = run(["convert", "--input-file", str(spec), "--source-type", "openapi", "--target", "md"], api=api,
                     env={"GITHUB_ACTIONS": "true", "GITHUB_OUTPUT": str(out)}, cwd=tmp_path)
    assert code == 0
    outputs = parse_github_outputs(out.read_text())
    assert out.stat().st_size < 4096 and outputs["result"] == ""
    assert json.loads(Path(outputs["result-file"]).read_text())["document"] == document
    assert Path(outputs["output-path"]).read_text() == document


@pytest.fixture()
def silent_server():
    """Accepts connections and never answers (until the test ends)."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    held, stop = [], threading.Event()

    def accept():
        sock.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(sock.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    stop.set()
    thread.join(2)
    for conn in held:
        conn.close()
    sock.close()


def test_timeout_bounds_the_step_against_a_silent_server(tmp_path, silent_server):
    from docsvc.ci import main
    import io

    out = io.StringIO()
    started = time.monotonic()
    code = main(["sync", "--integration-id", "1", "--timeout", "1.5"], stream=out, cwd=tmp_path,
                env={"DOCSVC_API_KEY": "dsv_test_key_123", "DOCSVC_BASE_URL": silent_server, "GITHUB_ACTIONS": "true",
                     "GITHUB_STEP_SUMMARY": str(tmp_path / "s.md")})
    took = time.monotonic() - started
    assert code == 1 and took < 6, (code, took)
    assert "no answer within the time limit" in out.getvalue()
    assert (tmp_path / "s.md").read_text().startswith("### ❌ docsvc: Sync of integration 1")


def test_cli_timeout_bounds_the_command_against_a_silent_server(tmp_path, silent_server):
    started = time.monotonic()
    done = run_cli("sync", "--integration-id", "1", "--timeout", "1.5", key="dsv_k", base_url=silent_server,
                   cwd=tmp_path)
    assert time.monotonic() - started < 8
    assert done.returncode == 1 and "no answer within the time limit" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_a_fork_pull_request_without_the_secret_is_skipped_with_a_notice(tmp_path):
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"pull_request": {
        "number": 5, "title": "t", "body": "", "user": {"login": "outsider"},
        "head": {"ref": "patch", "sha": "abc", "repo": {"fork": True, "full_name": "outsider/app"}},
        "base": {"ref": "main", "repo": {"full_name": "acme/app"}}, "html_url": "https://github.com/acme/app/pull/5"}}))
    summary = tmp_path / "summary.md"
    api = routes({})
    code, log, _ = run(["docflow", "--integration-id", "1"], api=api, env={
        "DOCSVC_API_KEY": "", "GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "pull_request",
        "GITHUB_EVENT_PATH": str(event), "GITHUB_REPOSITORY": "acme/app", "GITHUB_STEP_SUMMARY": str(summary)})
    assert code == 0 and api.requests == []
    assert any(line.startswith("::notice::") and "fork" in line and "workflow_run" in line for line in log.splitlines())
    assert not any(line.startswith("::error") for line in log.splitlines())
    assert "**Skipped**" in summary.read_text()


@pytest.mark.parametrize("text, shown", [
    ("#7 is a heading at the start", "\\#7 is a heading at the start"),
    ("pull request #7", "pull request #7"),
    ("- a list item", "\\- a list item"),
    ("12. a numbered item", "12\\. a numbered item"),
    ("took 1.5 s", "took 1.5 s"),
    ("a|b", "a\\|b"),
    ("[x](javascript:alert(1))", "\\[x\\]\\(javascript:alert\\(1\\)\\)"),
    ("line\r\nbreak", "line break"),
    ("&lt;entity", "\\&lt;entity"),
    ("cc @acme/security-team", "cc @&#8203;acme/security-team"),  # no mention, no notification
    ("login at https://evil.example/x", "login at https:&#8203;//evil.example/x"),  # no autolink
    ("or www.evil.example", "or www&#8203;.evil.example"),
    ("costs $x$ and $$y$$", "costs \\$x\\$ and \\$\\$y\\$\\$"),  # no math
    ("from https://u:ghp_SECRET@h/r.git", "from https:&#8203;//\\*\\*\\*@&#8203;h/r.git"),  # no token
])
def test_markdown_escaping(text, shown):
    from docsvc.ci.summary import md

    assert md(text) == shown
