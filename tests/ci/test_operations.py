"""Every CI operation through ``entrypoint.py``'s code, against interface-shaped answers."""

import json

import pytest

from docsvc.client.testing import multipart_parts
from tests.ci.helpers import JOB, body, job_done, parse_github_outputs, routes, run

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 32
JPEG = b"\xff\xd8\xff\xe0" + b"\x00" * 32
WEBP = b"RIFF\x24\x00\x00\x00WEBPVP8 " + b"\x00" * 20


def test_sync_reports_its_result():
    api = routes({("POST", "/api/v1/sync"): (202, {"status": "queued", "job_id": JOB}),
                  ("GET", f"/api/v1/jobs/{JOB}"): (200, job_done({"commit": "a" * 40, "files_indexed": 3}))})
    code, log, _ = run(["sync", "--integration-id", "7"], api=api)
    assert code == 0 and "Sync of integration 7: completed" in log
    assert body(api.requests[0]) == {"integration_id": 7}
    assert api.requests[0].headers["idempotency-key"]


def test_docflow_uploads_checked_screenshots_with_the_pr_data(tmp_path):
    (tmp_path / "index.png").write_bytes(PNG)
    (tmp_path / "settings__billing.jpg").write_bytes(JPEG)
    (tmp_path / "notes.txt").write_text("not an image, not picked up")
    api = routes({("POST", "/api/v1/docflows/generate"): (202, {"status": "queued", "job_id": JOB}),
                  ("GET", f"/api/v1/jobs/{JOB}"): (200, job_done({"suggestion_id": 42, "url": "http://s/42"}))})
    code, log, _ = run(["docflow", "--integration-id", "3", "--pr-number", "9", "--pr-title", "Add --force",
                        "--pr-body", "", "--pr-author", "ana", "--pr-branch", "force", "--pr-sha", "abc",
                        "--screenshots-dir", str(tmp_path), "--screenshot", f"/about=/{tmp_path}/index.png"],
                       api=api, env={"DOCSVC_PR_BODY": "from the environment"})
    assert code == 0, log
    parts = multipart_parts(api.requests[0])
    fields = {p.name: p for p in parts if p.filename is None}
    files = [(p.name, p.filename, p.content) for p in parts if p.filename]
    assert fields["integration_id"].content == b"3"
    data = json.loads(fields["pr_data"].content)
    assert {k: data[k] for k in ("number", "title", "body", "author", "head_branch", "head_sha")} == {
        "number": 9, "title": "Add --force", "body": "from the environment", "author": "ana",
        "head_branch": "force", "head_sha": "abc"}
    assert sorted(s["route"] for s in data["screenshots"]) == ["/", "/about", "/settings/billing"]
    assert sorted(content for _, _, content in files) == sorted([PNG, PNG, JPEG])
    assert {name for name, _, _ in files} == {"screenshots"}


def test_docflow_summary_says_page_by_page_what_was_edited_and_what_is_worth_a_look(tmp_path):
    from docsvc.ci.operations import PAGE_ROWS

    pages = [{"path": "docs/cli.md", "action": "edited", "why": ["mentions --force (line 3)"]},
             {"path": "docs/faq.md", "action": "worth a look", "why": ["speaks of zsh (line 4) — words alone"]}]
    pages += [{"path": f"docs/p{n}.md", "action": "worth a look", "why": ["x"]} for n in range(PAGE_ROWS)]
    api = routes({("POST", "/api/v1/docflows/generate"): (202, {"status": "queued", "job_id": JOB}),
                  ("GET", f"/api/v1/jobs/{JOB}"): (200, job_done({"suggestion_id": 42, "pages": pages}))})
    summary = tmp_path / "summary.md"
    code, log, _ = run(["docflow", "--integration-id", "3", "--pr-number", "9", "--pr-title", "Add --force",
                        "--pr-body", "", "--pr-author", "ana"], api=api,
                       env={"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": str(summary)})
    assert code == 0, log
    text = summary.read_text()
    assert "| Edited | docs/cli.md: mentions --force \\(line 3\\) |" in text  # the service's text, escaped
    assert "| Worth a look | docs/faq.md: speaks of zsh \\(line 4\\) — words alone |" in text
    assert f"| More pages | {len(pages) - PAGE_ROWS} more in the result file |" in text


def test_docflow_screenshot_problems_are_one_line_each_and_nothing_is_sent(tmp_path):
    (tmp_path / "big.png").write_bytes(PNG + b"\x00" * (2 * 1024 * 1024))
    (tmp_path / "fake.png").write_bytes(b"GIF89a not really")
    (tmp_path / "ok.webp").write_bytes(WEBP)
    api = routes({})
    code, log, _ = run(["docflow", "--integration-id", "3", "--pr-number", "1", "--pr-title", "t", "--pr-body", "b",
                        "--pr-author", "a", "--max-screenshot-mb", "1",
                        "--screenshot", f"/big={tmp_path}/big.png", "--screenshot", f"/gif={tmp_path}/fake.png",
                        "--screenshot", f"/missing={tmp_path}/nope.png", "--screenshot", f"/ok={tmp_path}/ok.webp"],
                       api=api)
    assert code == 2 and api.requests == []
    errors = [line for line in log.splitlines() if line.startswith("error:")]
    assert errors == [
        f"error: screenshot {tmp_path}/big.png (route /big): 2.0 MB is over the 1 MB limit",
        f"error: screenshot {tmp_path}/fake.png (route /gif): not a PNG, JPEG or WebP image",
        f"error: screenshot {tmp_path}/nope.png (route /missing): file not found"]


def test_docflow_with_a_mapping_file(tmp_path):
    shots = tmp_path / "shots"
    shots.mkdir()
    (shots / "a.png").write_bytes(PNG)
    (shots / "b.png").write_bytes(PNG)
    (tmp_path / "map.yaml").write_text("a.png: /dashboard\n")
    args = ["docflow", "--dry-run", "--integration-id", "3", "--pr-number", "1", "--pr-title", "t",
            "--pr-body", "b", "--pr-author", "a", "--screenshots-dir", str(shots)]
    code, log, _ = run(args + ["--screenshots-map", str(tmp_path / "map.yaml")])
    assert code == 2 and "error: --screenshots-map: no route for b.png in" in log
    (tmp_path / "map.yaml").write_text("a.png: /dashboard\nb.png: /billing\n")
    code, log, _ = run(args + ["--screenshots-map", str(tmp_path / "map.yaml")])
    assert code == 0 and '"route": "/billing"' in log and '"route": "/dashboard"' in log


def test_dry_run_sends_nothing_and_never_prints_the_key(tmp_path):
    api = routes({})
    code, log, _ = run(["sync", "--integration-id", "4", "--dry-run"], api=api)
    assert code == 0 and api.requests == []
    assert "Dry run: would POST http://docsvc.test/api/v1/sync" in log and '"integration_id": 4' in log
    assert "dsv_test_key_123" not in log


def test_the_workspace_docsvc_yaml_gives_the_integration_after_flags_and_environment(tmp_path):
    (tmp_path / "docsvc.yaml").write_text("integration_id: 7\n")
    code, log, _ = run(["sync", "--dry-run"], api=routes({}))
    assert code == 0 and '"integration_id": 7' in log
    code, log, _ = run(["sync", "--dry-run"], api=routes({}), env={"DOCSVC_INTEGRATION_ID": "8"})
    assert code == 0 and '"integration_id": 8' in log
    (tmp_path / "docsvc.yaml").write_text("integration_id: yes\n")
    code, log, _ = run(["sync", "--dry-run", "--integration-id", "9"], api=routes({}))
    assert code == 2 and "docsvc.yaml: integration_id must be an integer, got True" in log


def test_missing_key_is_exit_4_with_an_annotation_and_a_summary(tmp_path):
    summary = tmp_path / "summary.md"
    code, log, _ = run(["sync", "--integration-id", "4"], env={
        "DOCSVC_API_KEY": "", "GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": str(summary)})
    assert code == 4
    assert [line for line in log.splitlines() if line.startswith("::error")] == [
        "::error::Sync of integration 4: DOCSVC_API_KEY missing"]
    assert "**Failed**: DOCSVC\\_API\\_KEY missing" in summary.read_text()


@pytest.mark.parametrize("env, message", [
    ({"DOCSVC_INTEGRATION_ID": "twelve"}, "DOCSVC_INTEGRATION_ID: expected a whole number, got 'twelve'"),
    ({"DOCSVC_CI_PROVIDER": "github", "DOCSVC_TIMEOUT": "-1"}, "DOCSVC_TIMEOUT: must not be negative, got -1"),
    ({"DOCSVC_TIMEOUT": "NaN"}, "DOCSVC_TIMEOUT: expected a finite number, got 'NaN'"),
    ({"DOCSVC_API_KEY": "dsv_a b"}, "DOCSVC_API_KEY: must be printable ASCII without spaces "
                                    "(check for a stray space, quote, control or non-ASCII character)"),
    ({"DOCSVC_API_KEY": "dsv_é"}, "DOCSVC_API_KEY: must be printable ASCII without spaces "
                                  "(check for a stray space, quote, control or non-ASCII character)"),
])
def test_input_errors_write_the_summary_and_one_error_annotation_each(tmp_path, env, message):
    summary = tmp_path / "summary.md"
    api = routes({})
    code, log, _ = run(["sync"], api=api, env={"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": str(summary),
                                                "DOCSVC_INTEGRATION_ID": "1", **env})
    assert code == 2 and api.requests == []
    assert [line for line in log.splitlines() if line.startswith("::error")] == [f"::error::{message}"]
    assert "**Failed**" in summary.read_text()
    assert not any(key in summary.read_text() + log for key in ("dsv_a b", "dsv_é"))


def test_a_key_with_a_trailing_newline_is_trimmed(tmp_path):
    api = routes({("POST", "/api/v1/sync"): (202, {"status": "queued", "job_id": JOB}),
                  ("GET", f"/api/v1/jobs/{JOB}"): (200, job_done({"files_indexed": 1}))})
    code, log, _ = run(["sync", "--integration-id", "1"], api=api, env={"DOCSVC_API_KEY": "dsv_test_key_123\n"})
    assert code == 0
    assert api.requests[0].headers["authorization"] == "Bearer dsv_test_key_123"


def test_convert_writes_the_document_next_to_the_input(tmp_path):
    spec = tmp_path / "petstore.yaml"
    spec.write_text("openapi: 3.0.0\ninfo: {title: Pets, version: '1'}\npaths: {}\n")
    api = routes({("POST", "/api/v1/convert"): (202, {"status": "queued", "job_id": JOB}),
                  ("GET", f"/api/v1/jobs/{JOB}"): (200, job_done({"document": "# Pets\n", "item_id": 5,
                                                                  "url": "http://docsvc.test/c/5"}))})
    out = tmp_path / "gh-output"
    code, log, _ = run(["convert", "--input-file", str(spec), "--source-type", "openapi", "--target", "sphinx"],
                       api=api, env={"GITHUB_ACTIONS": "true", "GITHUB_OUTPUT": str(out)})
    assert code == 0, log
    assert (tmp_path / "petstore.rst").read_text() == "# Pets\n"
    assert body(api.requests[0])["content"].startswith("openapi: 3.0.0")
    outputs = parse_github_outputs(out.read_text())
    assert (outputs["output-path"], outputs["item-id"], outputs["url"]) == (str(tmp_path / "petstore.rst"), "5",
                                                                            "http://docsvc.test/c/5")


def test_convert_sends_a_split_spec_as_one_document_and_a_broken_ref_is_an_input_error(tmp_path):
    spec = tmp_path / "petstore.yaml"
    spec.write_text("openapi: 3.0.0\ninfo: {title: Pets, version: '1'}\npaths: {}\ncomponents:\n"
                    "  schemas:\n    Pet: {$ref: './pet.yaml'}\n")
    (tmp_path / "pet.yaml").write_text("type: object\n")
    api = routes({("POST", "/api/v1/convert"): (202, {"status": "queued", "job_id": JOB}),
                  ("GET", f"/api/v1/jobs/{JOB}"): (200, job_done({"document": "# Pets\n", "item_id": 5}))})
    code, log, _ = run(["convert", "--input-file", str(spec), "--source-type", "openapi"], api=api)
    assert code == 0, log
    assert "Pet:\n      type: object" in body(api.requests[0])["content"]
    (tmp_path / "pet.yaml").unlink()
    api = routes({})
    code, log, _ = run(["convert", "--input-file", str(spec), "--source-type", "openapi"], api=api)
    assert code == 2 and api.requests == []
    assert "$ref ./pet.yaml at /components/schemas/Pet: no such file" in log


@pytest.mark.parametrize("answer, code, annotations", [
    ({"pull_requests": {"docs": "https://gh/acme/docs/pull/3", "source": "https://gh/acme/api/pull/8"}}, 0, []),
    # one target failing fails the step (as the CLI), yet the other pull request is opened and output
    ({"pull_requests": {"docs": "https://gh/acme/docs/pull/3"}, "errors": {"source": "branch is protected"}}, 1,
     ["::error::source: branch is protected"]),
    ({"pull_requests": {}, "errors": {"docs": "no access", "source": "branch is protected"}}, 1,
     ["::error::docs: no access", "::error::source: branch is protected"]),
])
def test_api_scan_pr_opens_what_it_can(tmp_path, answer, code, annotations):
    api = routes({("POST", "/api/v1/oas/scans/12/pull-request"): (200, answer)})
    out = tmp_path / "gh-output"
    got, log, _ = run(["api-scan-pr", "--scan-id", "12", "--to", "docs", "--to", "source", "--repo", "4",
                       "--path", "docs/api.yaml"], api=api, env={"GITHUB_ACTIONS": "true", "GITHUB_OUTPUT": str(out)})
    assert got == code
    assert body(api.requests[0]) == {"targets": ["docs", "source"], "integration_id": 4, "file_path": "docs/api.yaml"}
    for annotation in annotations:
        assert annotation in log
    prs = parse_github_outputs(out.read_text())["pull-requests"].splitlines()
    assert prs == [u for u in (answer["pull_requests"] or {}).values()]


FINDINGS = {"findings": [
    {"severity": "error", "message": "operationId missing", "file": "openapi.yaml", "line": 12, "rule": "oas3-id"},
    {"severity": "warning", "message": "no description", "file": "openapi.yaml", "line": 30}]}


@pytest.mark.parametrize("fail_on, code", [("never", 0), ("warning", 1), ("error", 1)])
def test_validate_fail_on_and_annotations_with_file_and_line(fail_on, code):
    api = routes({("POST", "/api/v1/oas/validate"): (202, {"status": "queued", "job_id": JOB}),
                  ("GET", f"/api/v1/jobs/{JOB}"): (200, job_done(FINDINGS))})
    got, log, _ = run(["validate", "--fail-on", fail_on, "--run-redocly"], api=api, env={"GITHUB_ACTIONS": "true"})
    assert got == code
    assert body(api.requests[0]) == {"run_redocly": True}
    assert "::error file=openapi.yaml,line=12,title=oas3-id::operationId missing" in log
    assert "::warning file=openapi.yaml,line=30::no description" in log


def test_validate_warnings_only_pass_with_fail_on_error():
    api = routes({("POST", "/api/v1/oas/validate"): (202, {"status": "queued", "job_id": JOB}),
                  ("GET", f"/api/v1/jobs/{JOB}"): (200, job_done({"findings": FINDINGS["findings"][1:]}))})
    assert run(["validate"], api=api)[0] == 0


def test_gitlab_validate_writes_a_junit_report_and_a_dotenv(tmp_path):
    api = routes({("POST", "/api/v1/oas/validate"): (202, {"status": "queued", "job_id": JOB}),
                  ("GET", f"/api/v1/jobs/{JOB}"): (200, job_done(FINDINGS))})
    import xml.etree.ElementTree as ET

    junit, dotenv = tmp_path / "junit.xml", tmp_path / "out.env"
    code, log, _ = run(["validate", "--junit-file", str(junit), "--dotenv-file", str(dotenv)], api=api,
                       env={"GITLAB_CI": "true"})
    assert code == 1
    suite = ET.parse(junit).getroot().find("testsuite")
    # an error and a warning; with fail-on error only the error is a failure
    assert (suite.get("tests"), suite.get("failures")) == ("2", "1")
    assert "section_start:" in log and "[collapsed=true]" in log and "section_end:" in log
    env = dict(line.split("=", 1) for line in dotenv.read_text().splitlines())
    assert env["DOCSVC_JOB_ID"] == JOB and env["DOCSVC_STATUS"] == "failed"
    assert json.loads(env["DOCSVC_RESULT"]) == FINDINGS


def test_check_sends_ids_and_lists_verdicts(tmp_path):
    api = routes({("POST", "/api/v1/docflows/check-docs"): (202, {"status": "queued", "job_id": JOB}),
                  ("GET", f"/api/v1/jobs/{JOB}"): (200, job_done({"suggestions": [
                      {"id": 4, "verdict": "already in the docs", "pr_state": "merged"},
                      {"id": 5, "verdict": "still needed"}]}))})
    summary = tmp_path / "summary.md"
    code, log, _ = run(["check", "--ids", "4,5", "--dismiss-done", "--no-ai", "--ci-provider", "jenkins",
                        "--summary-file", str(summary)], api=api)
    assert code == 0
    assert body(api.requests[0]) == {"ids": [4, 5], "dismiss_done": True, "ai": False}
    text = summary.read_text()
    assert "| Suggestion 4 | already in the docs \\(pull request merged\\) |" in text
    assert "| Suggestion 5 | still needed |" in text


def test_failed_job_is_exit_1_with_the_reason():
    api = routes({("POST", "/api/v1/sync"): (202, {"status": "queued", "job_id": JOB}),
                  ("GET", f"/api/v1/jobs/{JOB}"): (200, job_done(None, "failed", {
                      "title": "Repository unreachable", "detail": "fatal: repository not found"}))})
    code, log, _ = run(["sync", "--integration-id", "1"], api=api, env={"GITHUB_ACTIONS": "true"})
    assert code == 1
    assert "::error::Sync of integration 1: Repository unreachable: fatal: repository not found" in log


@pytest.mark.parametrize("timeout_ok, code, annotation", [("false", 8, "::error::"), ("true", 0, "::warning::")])
def test_still_running_at_the_timeout(timeout_ok, code, annotation):
    api = routes({("POST", "/api/v1/sync"): (202, {"status": "queued", "job_id": JOB}),
                  ("GET", f"/api/v1/jobs/{JOB}"): (200, {"job_id": JOB, "status": "queued"})})
    got, log, _ = run(["sync", "--integration-id", "1", "--timeout", "0.05", "--timeout-ok", timeout_ok], api=api,
                      env={"GITHUB_ACTIONS": "true"})
    assert got == code
    assert f"{annotation}" in log and f"job {JOB} is still running after 0.05 s" in log


def test_timeout_0_starts_the_job_and_reports_its_id_without_waiting(tmp_path):
    """As the input says: 0 starts the job and does not wait; that is a success, not exit 8."""
    api = routes({("POST", "/api/v1/sync"): (202, {"status": "queued", "job_id": JOB})})
    out, summary = tmp_path / "gh-output", tmp_path / "summary.md"
    code, log, _ = run(["sync", "--integration-id", "1", "--timeout", "0"], api=api, env={
        "GITHUB_ACTIONS": "true", "GITHUB_OUTPUT": str(out), "GITHUB_STEP_SUMMARY": str(summary)})
    assert code == 0 and [r.method for r in api.requests] == ["POST"]
    assert [line for line in log.splitlines() if line.startswith("::")] == [
        "::add-mask::dsv_test_key_123",
        f"::notice::job {JOB} started; not waiting for it (timeout 0): the job-id output names it"]
    outputs = parse_github_outputs(out.read_text())
    assert (outputs["job-id"], outputs["status"], outputs["errors"]) == (JOB, "running", "0")
    assert "**Still running**" in summary.read_text()


def test_api_errors_map_to_exit_codes():
    api = routes({("POST", "/api/v1/sync"): (403, {"title": "Forbidden", "status": 403, "detail": "not yours"})})
    code, log, _ = run(["sync", "--integration-id", "1"], api=api)
    assert code == 4 and "not yours" in log


def test_github_masks_the_key_before_anything_else_and_keeps_it_out_of_the_summary(tmp_path):
    api = routes({("POST", "/api/v1/sync"): (202, {"status": "queued", "job_id": JOB}),
                  ("GET", f"/api/v1/jobs/{JOB}"): (200, job_done({"files_indexed": 1}))})
    summary, out = tmp_path / "summary.md", tmp_path / "out"
    code, log, _ = run(["sync", "--integration-id", "1"], api=api, env={
        "GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": str(summary), "GITHUB_OUTPUT": str(out)})
    assert log.splitlines()[0] == "::add-mask::dsv_test_key_123"
    assert log.count("dsv_test_key_123") == 1
    assert "::group::Sync of integration 1: job job-0001" in log and "::endgroup::" in log
    text = summary.read_text()
    assert text.startswith("### ✅ docsvc: Sync of integration 1") and "| Files indexed | 1 |" in text
    assert "dsv_test_key_123" not in text + out.read_text()


def test_github_outputs_survive_values_that_look_like_delimiters(tmp_path):
    tricky = {"note": "line one\nEOF\nghadelimiter_x\nline four"}
    api = routes({("POST", "/api/v1/sync"): (202, {"status": "queued", "job_id": JOB}),
                  ("GET", f"/api/v1/jobs/{JOB}"): (200, job_done(tricky))})
    out = tmp_path / "out"
    run(["sync", "--integration-id", "1"], api=api, env={"GITHUB_ACTIONS": "true", "GITHUB_OUTPUT": str(out)})
    assert json.loads(parse_github_outputs(out.read_text())["result"]) == tricky


def test_jenkins_writes_a_summary_file_to_archive(tmp_path):
    api = routes({("POST", "/api/v1/sync"): (202, {"status": "queued", "job_id": JOB}),
                  ("GET", f"/api/v1/jobs/{JOB}"): (200, job_done({"files_indexed": 2}))})
    target = tmp_path / "reports" / "docsvc.md"
    code, log, _ = run(["sync", "--integration-id", "1", "--summary-file", str(target)], api=api,
                       env={"JENKINS_URL": "https://ci/"})
    assert code == 0 and "::" not in log and f"Summary written to {target}" in log
    assert "| Files indexed | 2 |" in target.read_text()


@pytest.mark.parametrize("args, message", [
    (["sync", "--integration-id", "x"], "--integration-id: expected a whole number, got 'x'"),
    (["sync", "--integration-id", "1", "--timeout", "-5"], "--timeout: must not be negative"),
    (["validate", "--fail-on", "sometimes"], "--fail-on: expected one of never, warning, error"),
    (["convert", "--input-file", "nope.yaml", "--source-type", "openapi"], "--input-file: nope.yaml not found"),
    (["api-scan-pr", "--scan-id", "2", "--to", "wiki"], "--to: expected docs and/or source, got wiki"),
    (["api-scan-pr", "--scan-id", "2"], "api-scan-pr: missing --repo (or DOCSVC_REPO)"),
    # --ids by the rule of every other ID: '²' passes str.isdigit but is no number, and 2**31-1 at most
    (["sync", "--integration-id", "1", "--timeout", "nan"], "--timeout: expected a finite number, got 'nan'"),
    (["sync", "--integration-id", "1", "--timeout", "inf"], "--timeout: expected a finite number, got 'inf'"),
    (["docflow", "--max-screenshot-mb=-Infinity"], "--max-screenshot-mb: expected a finite number"),
    (["check", "--ids", "4,²"], "--ids: expected a whole number, got '²'"),
    (["check", "--ids", "4", "--ids", str(2 ** 31)], "--ids: expected a positive number of at most 2147483647"),
])
def test_bad_inputs_are_one_clear_line_and_exit_2(tmp_path, args, message):
    code, log, _ = run(args, api=routes({}), cwd=tmp_path)
    assert code == 2 and message in log and "Traceback" not in log


def test_environment_variables_are_inputs_too():
    api = routes({("POST", "/api/v1/sync"): (202, {"status": "queued", "job_id": JOB}),
                  ("GET", f"/api/v1/jobs/{JOB}"): (200, job_done({}))})
    assert run(["sync"], api=api, env={"DOCSVC_INTEGRATION_ID": "11"})[0] == 0
    assert body(api.requests[0]) == {"integration_id": 11}
    api2 = routes({("POST", "/api/v1/sync"): (202, {"status": "queued", "job_id": JOB}),
                   ("GET", f"/api/v1/jobs/{JOB}"): (200, job_done({}))})
    run(["sync", "--integration-id", "12"], api=api2, env={"DOCSVC_INTEGRATION_ID": "11"})
    assert body(api2.requests[0]) == {"integration_id": 12}  # the flag wins


def test_mapped_names_outside_the_screenshots_folder_are_refused(tmp_path):
    """The mapping file's names stay inside --screenshots-dir, links followed: ../ and absolute
    paths (a pull request's map.yaml could name any image of the runner) and a link out of it."""
    shots = tmp_path / "repo" / "shots"
    shots.mkdir(parents=True)
    (shots / "a.png").write_bytes(PNG)
    secret = tmp_path / "secret.png"
    secret.write_bytes(PNG)
    (shots / "inside").symlink_to(tmp_path)
    args = ["docflow", "--dry-run", "--integration-id", "3", "--pr-number", "1", "--pr-title", "t",
            "--pr-body", "b", "--pr-author", "a", "--screenshots-dir", str(shots),
            "--screenshots-map", str(tmp_path / "map.yaml")]
    for name in ("../../secret.png", str(secret), "inside/secret.png"):
        (tmp_path / "map.yaml").write_text(json.dumps({"a.png": "/a", name: "/leak"}))
        code, log, _ = run(args)
        errors = [line for line in log.splitlines() if line.startswith("error:")]
        assert code == 2 and errors == [f"error: --screenshots-map: {name} in {tmp_path / 'map.yaml'} is outside "
                                        f"--screenshots-dir {shots} (links followed); name files inside it"], log
        assert "secret.png" not in log.replace(f"error: --screenshots-map: {name}", "")
    (tmp_path / "map.yaml").write_text("a.png: /a\n")
    (shots / "b.png").symlink_to(secret)  # a link in the folder itself
    code, log, _ = run(args[:-2])
    assert code == 2 and f"error: --screenshots-dir: b.png in {shots} links outside the folder" in log


@pytest.mark.parametrize("operation", ["frobnicate", "", "sync-all"])
def test_an_unknown_operation_is_one_annotated_line_with_a_summary_and_outputs(tmp_path, capsys, operation):
    """An empty ``operation:`` input gives "": still one annotation, exit 2, never argparse's usage dump."""
    summary, out = tmp_path / "summary.md", tmp_path / "out"
    code, log, _ = run([operation], api=routes({}), env={
        "GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": str(summary), "GITHUB_OUTPUT": str(out)})
    assert code == 2 and capsys.readouterr().err == ""
    assert [line for line in log.splitlines() if line.startswith("::error")] == [
        f"::error::unknown operation {operation!r}; operations: sync, docflow, convert, api-scan-pr, validate, check"]
    assert parse_github_outputs(out.read_text())["status"] == "failed"
    assert "**Failed**" in summary.read_text()


def test_an_operation_in_another_case_is_that_operation():
    code, log, _ = run([" Sync", "--integration-id", "4", "--dry-run"], api=routes({}))
    assert code == 0 and "Dry run: would POST http://docsvc.test/api/v1/sync" in log


def _convert_api():
    return routes({("POST", "/api/v1/convert"): (202, {"status": "queued", "job_id": JOB}),
                   ("GET", f"/api/v1/jobs/{JOB}"): (200, job_done({"document": "# Pets\n", "item_id": 5}))})


def _spec(tmp_path):
    spec = tmp_path / "petstore.yaml"
    spec.write_text("openapi: 3.0.0\ninfo: {title: Pets, version: '1'}\npaths: {}\n")
    return spec


@pytest.mark.parametrize("args, message", [
    (["--output", "{dir}"], "--output: {dir} is a folder: name a file, or end it with / to write petstore.md into it"),
    (["--result-file", "{dir}"], "--result-file: {dir} is a folder: name a file"),
    (["--result-file", "results/"], "--result-file: results/ is a folder: name a file"),
    (["--summary-file", "{dir}/"], "--summary-file: {dir}/ is a folder: name a file"),
    (["--output", "{file}/out.md"], "--output: {file}/out.md cannot be written: {file} is not a folder"),
    (["--result-file", "{file}/r.json"], "--result-file: {file}/r.json cannot be written: {file} is not a folder"),
])
def test_a_file_input_naming_a_folder_or_under_a_file_is_refused_before_anything_is_sent(tmp_path, args, message):
    folder = tmp_path / "docs"
    folder.mkdir()
    (tmp_path / "notes.txt").write_text("")  # a file where a folder must be
    args = [a.replace("{dir}", str(folder)).replace("{file}", str(tmp_path / "notes.txt")) for a in args]
    api, out = routes({}), tmp_path / "gh-output"
    code, log, _ = run(["convert", "--input-file", str(_spec(tmp_path)), "--source-type", "openapi", *args], api=api,
                       env={"GITHUB_ACTIONS": "true", "GITHUB_OUTPUT": str(out)})
    assert code == 2 and api.requests == [] and "Traceback" not in log
    assert [line for line in log.splitlines() if line.startswith("::error")] == [
        "::error::" + message.replace("{dir}", str(folder)).replace("{file}", str(tmp_path / "notes.txt"))]
    assert parse_github_outputs(out.read_text())["status"] == "failed"
    assert not (tmp_path / "results").exists()


def test_convert_output_ending_in_a_slash_writes_into_that_folder(tmp_path):
    out = tmp_path / "gh-output"
    code, log, _ = run(["convert", "--input-file", str(_spec(tmp_path)), "--source-type", "openapi",
                        "--output", f"{tmp_path}/site/docs/"], api=_convert_api(),
                       env={"GITHUB_ACTIONS": "true", "GITHUB_OUTPUT": str(out)})
    assert code == 0, log
    assert (tmp_path / "site" / "docs" / "petstore.md").read_text() == "# Pets\n"
    assert parse_github_outputs(out.read_text())["output-path"] == f"{tmp_path}/site/docs/petstore.md"


def test_a_file_that_cannot_be_written_is_one_line_and_the_rest_is_still_written(tmp_path):
    """/proc takes no new file: the converted document and the summary file fail once the job is done;
    the result file, the outputs and the job summary are still written, and the step fails."""
    out, summary = tmp_path / "gh-output", tmp_path / "step-summary.md"
    code, log, _ = run(["convert", "--input-file", str(_spec(tmp_path)), "--source-type", "openapi",
                        "--output", "/proc/petstore.md", "--summary-file", "/proc/docsvc-summary.md"],
                       api=_convert_api(), env={"GITHUB_ACTIONS": "true", "GITHUB_OUTPUT": str(out),
                                                "GITHUB_STEP_SUMMARY": str(summary)})
    assert code == 1 and "Traceback" not in log
    assert [line for line in log.splitlines() if line.startswith("::error")] == [
        "::error::Convert petstore.yaml (openapi to docusaurus): could not write /proc/petstore.md: "
        "No such file or directory",
        "::error::could not write /proc/docsvc-summary.md: No such file or directory"]
    outputs = parse_github_outputs(out.read_text())
    assert (outputs["job-id"], outputs["status"], outputs["errors"]) == (JOB, "failed", "2")  # both lines above
    assert json.loads((tmp_path / "docsvc-convert-result.json").read_text())["document"] == "# Pets\n"
    assert "could not write /proc/petstore.md" in summary.read_text()


def _sync_failed_api():
    return routes({("POST", "/api/v1/sync"): (202, {"status": "queued", "job_id": JOB}),
                   ("GET", f"/api/v1/jobs/{JOB}"): (200, job_done(None, "failed",
                                                                   {"title": "Repository unreachable"}))})


@pytest.mark.parametrize("case", ["output in /proc", "failed job", "no key", "validate"])
def test_the_errors_output_counts_every_error_annotation(tmp_path, case):
    """``errors`` is the number of error annotations, whatever they are: the step's own error (a file
    it could not write, a failed job, no key) counts when no finding says it; validate's line that
    only sums up its findings does not count again."""
    (tmp_path / "values.yaml").write_text("replicas: 1\n")
    args, api, env = {
        "output in /proc": (["convert", "--input-file", str(tmp_path / "values.yaml"), "--source-type", "helm",
                             "--target", "md", "--output", "/proc/out.md"], _convert_api(), {}),  # no new file there
        "failed job": (["sync", "--integration-id", "1"], _sync_failed_api(), {}),
        "no key": (["sync", "--integration-id", "1"], routes({}), {"DOCSVC_API_KEY": ""}),
        "validate": (["validate"], routes({
            ("POST", "/api/v1/oas/validate"): (202, {"status": "queued", "job_id": JOB}),
            ("GET", f"/api/v1/jobs/{JOB}"): (200, job_done({"findings": [
                {"severity": "error", "message": "a"}, {"severity": "error", "message": "b"},
                {"severity": "warning", "message": "c"}]}))}), {}),
    }[case]
    out = tmp_path / "gh-output"
    code, log, _ = run(args, api=api, env={"GITHUB_ACTIONS": "true", "GITHUB_OUTPUT": str(out), **env}, cwd=tmp_path)
    assert code != 0 and "Traceback" not in log
    errors = [line for line in log.splitlines() if line.startswith("::error")]
    outputs = parse_github_outputs(out.read_text())
    expected = 2 if case == "validate" else len(errors)
    assert (outputs["status"], outputs["errors"]) == ("failed", str(expected)), errors
    assert len(errors) == (3 if case == "validate" else 1)


def test_a_result_file_that_cannot_be_written_fails_a_completed_step(tmp_path):
    api = routes({("POST", "/api/v1/sync"): (202, {"status": "queued", "job_id": JOB}),
                  ("GET", f"/api/v1/jobs/{JOB}"): (200, job_done({"files_indexed": 1}))})
    out = tmp_path / "gh-output"
    code, log, _ = run(["sync", "--integration-id", "1", "--result-file", "/proc/result.json"], api=api,
                       env={"GITHUB_ACTIONS": "true", "GITHUB_OUTPUT": str(out)})
    assert code == 1 and "Traceback" not in log
    assert "::error::could not write /proc/result.json: No such file or directory" in log
    outputs = parse_github_outputs(out.read_text())
    assert (outputs["job-id"], outputs["result-file"], outputs["errors"]) == (JOB, "", "1")


def test_docflow_clips_a_long_title_and_body_to_the_service_bounds_and_the_dry_run_shows_them_clipped():
    from docsvc.models.limits import PR_BODY_MAX, PR_TITLE_MAX

    title, text = "T" * (PR_TITLE_MAX + 1), "b" * 70_000 + "THE END"
    args = ["docflow", "--integration-id", "3", "--pr-number", "9", "--pr-title", title, "--pr-author", "ana"]
    api = routes({("POST", "/api/v1/docflows/generate"): (202, {"status": "queued", "job_id": JOB}),
                  ("GET", f"/api/v1/jobs/{JOB}"): (200, job_done({"suggestion_id": 42}))})
    code, log, _ = run(args, api=api, env={"DOCSVC_PR_BODY": text})
    assert code == 0, log
    sent = body(api.requests[0])["pr_data"]
    assert (len(sent["title"]), len(sent["body"])) == (PR_TITLE_MAX, PR_BODY_MAX)
    assert sent["title"].endswith("T… (clipped)") and sent["body"].endswith("b… (clipped)")
    code, log, _ = run(args + ["--dry-run"], api=routes({}), env={"DOCSVC_PR_BODY": text})
    assert code == 0 and "THE END" not in log and len(log) < PR_BODY_MAX + 5000
    shown = json.loads(log[log.index("{"):log.rindex("}") + 1])["pr_data"]
    assert shown["body"] == sent["body"] and shown["title"] == sent["title"]
    # within the bounds, nothing changes
    code, log, _ = run(args[:5] + ["--pr-title", "short", "--pr-author", "ana", "--dry-run"], api=routes({}),
                       env={"DOCSVC_PR_BODY": "b" * PR_BODY_MAX})
    assert "clipped" not in log


def test_docflow_reports_the_suggestion_made_before_for_the_same_commit(tmp_path):
    """One suggestion per pull request and commit: a re-run's job answers with the one made before
    (``existing``); the summary says so and the item-id output is that suggestion."""
    summary, outputs = tmp_path / "summary.md", tmp_path / "outputs"
    api = routes({("POST", "/api/v1/docflows/generate"): (202, {"status": "queued", "job_id": JOB}),
                  ("GET", f"/api/v1/jobs/{JOB}"): (200, job_done({"suggestion_id": 42, "existing": True,
                                                                  "head_sha": "ab" * 20, "files": ["docs/a.md"]}))})
    code, log, _ = run(["docflow", "--integration-id", "3", "--pr-number", "9", "--pr-title", "Add --force",
                        "--pr-body", "", "--pr-author", "ana", "--pr-sha", "ab" * 20], api=api,
                       env={"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": str(summary),
                            "GITHUB_OUTPUT": str(outputs)})
    assert code == 0, log
    assert "42, made before for commit abababababab: no new one" in summary.read_text()
    assert parse_github_outputs(outputs.read_text())["item-id"] == "42"


@pytest.mark.parametrize("answer, summary_has, warnings", [
    ({"screenshots_attached": ["/", "/settings"]}, "| Screenshots attached | /, /settings |", "0"),
    ({"warnings": ["the 1 uploaded screenshot(s) were not kept: Docflows suggestion 42 is already dismissed "
                   "(rejected); it cannot be given screenshots"]}, "were not kept: Docflows suggestion 42", "1"),
])
def test_docflow_reports_what_became_of_a_re_runs_screenshots(tmp_path, answer, summary_has, warnings):
    """A re-run at the same commit: the suggestion made before takes its screenshots (a summary row),
    or, dismissed, takes none (a warning, and the step still succeeds)."""
    (tmp_path / "index.png").write_bytes(PNG)
    summary, outputs = tmp_path / "summary.md", tmp_path / "outputs"
    api = routes({("POST", "/api/v1/docflows/generate"): (202, {"status": "queued", "job_id": JOB}),
                  ("GET", f"/api/v1/jobs/{JOB}"): (200, job_done({"suggestion_id": 42, "existing": True,
                                                                  "head_sha": "ab" * 20, **answer}))})
    code, log, _ = run(["docflow", "--integration-id", "3", "--pr-number", "9", "--pr-title", "t", "--pr-body", "",
                        "--pr-author", "ana", "--pr-sha", "ab" * 20, "--screenshot", f"/={tmp_path}/index.png"],
                       api=api, env={"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": str(summary),
                                     "GITHUB_OUTPUT": str(outputs)})
    assert code == 0, log
    assert summary_has in summary.read_text() + log
    assert parse_github_outputs(outputs.read_text())["warnings"] == warnings
