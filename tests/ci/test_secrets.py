"""What the CI layer does with the secrets it holds: the API key goes only to a service the pipeline
chose, a key the service echoes back is written nowhere, a share link's key stays out of the log,
and the step's own error shows however many findings came before it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.ci.helpers import JOB, job_done, parse_github_outputs, routes, run
from tests.ci.test_comments import TOKEN, forge, github_env  # noqa: F401  (forge: the fixture)

KEY = "dsv_test_key_123"  # what tests.ci.helpers.run sends
PR_BASE_URL = "http://127.0.0.1:18802"  # a host the pull request's docsvc.yaml names


def sync_api(result=None, status="completed", error=None):
    return routes({("POST", "/api/v1/sync"): (202, {"status": "queued", "job_id": JOB}),
                   ("GET", f"/api/v1/jobs/{JOB}"): (200, job_done(result, status, error))})


def github_pull_request(tmp_path: Path) -> dict:
    """A GitHub pull_request run whose base-url input was ``${{ vars.DOCSVC_BASE_URL }}``, unset."""
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"pull_request": {
        "number": 7, "title": "t", "body": "", "user": {"login": "ana"},
        "head": {"ref": "f", "sha": "abc", "repo": {"full_name": "acme/app"}},
        "base": {"ref": "main", "repo": {"full_name": "acme/app"}}}}))
    return {"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": str(event),
            "DOCSVC_BASE_URL": ""}


PULL_REQUESTS = {
    "github": github_pull_request,
    "gitlab": lambda tmp_path: {"GITLAB_CI": "true", "CI_MERGE_REQUEST_IID": "7", "DOCSVC_BASE_URL": "",
                                "DOCSVC_DOTENV_FILE": str(tmp_path / "out.env")},
    # GitLab CI/CD for external repositories builds a GitHub pull request: no CI_MERGE_REQUEST_* at all
    "gitlab-external": lambda tmp_path: {"GITLAB_CI": "true", "CI_PIPELINE_SOURCE": "external_pull_request_event",
                                         "CI_EXTERNAL_PULL_REQUEST_IID": "5", "DOCSVC_BASE_URL": "",
                                         "DOCSVC_DOTENV_FILE": str(tmp_path / "out.env")},
    # the pipeline source alone says so, whichever variables are missing
    "gitlab-source-only": lambda tmp_path: {"GITLAB_CI": "true", "CI_PIPELINE_SOURCE": "merge_request_event",
                                            "DOCSVC_BASE_URL": "", "DOCSVC_DOTENV_FILE": str(tmp_path / "out.env")},
    "jenkins": lambda tmp_path: {"JENKINS_URL": "https://ci.test/", "CHANGE_ID": "7", "DOCSVC_BASE_URL": ""},
}


@pytest.mark.parametrize("system", sorted(PULL_REQUESTS))
def test_a_pull_requests_docsvc_yaml_cannot_send_the_pipelines_key_elsewhere(tmp_path, system):
    (tmp_path / "docsvc.yaml").write_text(f"integration_id: 1\nbase_url: {PR_BASE_URL}\n")
    api = sync_api({})
    code, log, _ = run(["sync"], api=api, env=PULL_REQUESTS[system](tmp_path), cwd=tmp_path)
    assert code == 2 and api.requests == []  # nothing sent, the key least of all
    errors = [line for line in log.splitlines() if "refused" in line and not line.startswith("|")]  # GitLab: + summary
    assert len(errors) == 1, log
    assert (f"./docsvc.yaml base_url ({PR_BASE_URL}) refused: on a pull request that file is the pull request's "
            f"code, and the API key comes from DOCSVC_API_KEY; set base-url (DOCSVC_BASE_URL) in the pipeline"
            in errors[0])
    # the flag spelling names the flag
    code, log, _ = run(["sync", "--api-key", KEY], api=api, env=PULL_REQUESTS[system](tmp_path), cwd=tmp_path)
    assert code == 2 and "the API key comes from --api-key;" in log and api.requests == []


def test_the_workspace_base_url_still_serves_its_own_key_and_runs_that_are_no_pull_request(tmp_path):
    (tmp_path / "docsvc.yaml").write_text(f"integration_id: 1\nbase_url: {PR_BASE_URL}\n")
    api = sync_api({})  # not a pull request: the workspace is the pipeline's own code
    code, _, _ = run(["sync"], api=api, env={"JENKINS_URL": "https://ci.test/", "DOCSVC_BASE_URL": ""}, cwd=tmp_path)
    assert code == 0 and str(api.requests[0].url).startswith(PR_BASE_URL)
    (tmp_path / "docsvc.yaml").write_text(f"integration_id: 1\nbase_url: {PR_BASE_URL}\napi_key: dsv_the_prs_own\n")
    api = sync_api({})  # key and address from the same file: nothing of the pipeline's goes anywhere
    code, _, _ = run(["sync"], api=api, env={**github_pull_request(tmp_path), "DOCSVC_API_KEY": ""}, cwd=tmp_path)
    assert code == 0 and str(api.requests[0].url).startswith(PR_BASE_URL)
    assert api.requests[0].headers["authorization"] == "Bearer dsv_the_prs_own"
    api = sync_api({})  # the pipeline names the service: the file's base_url is not used
    code, _, _ = run(["sync"], api=api, env={**github_pull_request(tmp_path), "DOCSVC_BASE_URL": "http://docsvc.test"},
                     cwd=tmp_path)
    assert code == 0 and str(api.requests[0].url).startswith("http://docsvc.test/")


def test_a_key_the_service_echoes_back_is_written_nowhere(tmp_path, forge):  # noqa: F811
    """Not in the log, the outputs, the result file, the summary (where Markdown escaping would turn
    it into ``dsv\\_test...``, which no mask matches), nor the pull-request comment; nor the comment
    token."""
    echoed = f"key {KEY} (token {TOKEN}) is not allowed here"
    api = sync_api({"echo": echoed, KEY: [TOKEN]}, "failed", {"title": "Refused", "detail": echoed})
    summary, outputs = tmp_path / "summary.md", tmp_path / "outputs"
    env = {**github_env(tmp_path, forge.url), "GITHUB_STEP_SUMMARY": str(summary), "GITHUB_OUTPUT": str(outputs)}
    code, log, _ = run(["sync", "--integration-id", "1"], api=api, env=env, cwd=tmp_path)
    assert code == 1
    values = parse_github_outputs(outputs.read_text())
    result_file = Path(values["result-file"]).read_text()
    written = {"log": log.replace(f"::add-mask::{KEY}", "").replace(f"::add-mask::{TOKEN}", ""),
               "outputs": outputs.read_text(), "result file": result_file, "summary": summary.read_text(),
               "comment": forge.comments[-1]["body"]}
    for where, text in written.items():
        for secret in (KEY, TOKEN, KEY.replace("_", "\\_"), TOKEN.replace("_", "\\_")):
            assert secret not in text, where
    assert json.loads(result_file) == {"echo": "key *** (token ***) is not allowed here", "***": ["***"]}
    assert "Refused: key \\*\\*\\* \\(token \\*\\*\\*\\) is not allowed here" in written["summary"]
    assert "::error::Sync of integration 1: Refused: key *** (token ***) is not allowed here" in log


def test_a_progress_line_that_quotes_the_key_is_scrubbed_on_every_system(tmp_path):
    import httpx

    from docsvc.client.testing import MockAPI

    answers = iter([{"job_id": JOB, "status": "running", "progress": {"message": f"using {KEY}", "percent": 5}},
                    job_done({})])

    def answer(request):
        if request.url.path == "/api/v1/sync":
            return httpx.Response(202, json={"status": "queued", "job_id": JOB})
        return httpx.Response(200, json=next(answers))

    code, log, _ = run(["sync", "--integration-id", "1"], api=MockAPI(answer), env={"JENKINS_URL": "https://ci/"})
    assert code == 0 and "using ***" in log and KEY not in log


SHARE = "http://docsvc.test/api/v1/conversions/5/document?key=Sh4reK3ySecret_0123456789abcdef"


def test_a_share_link_keeps_its_key_everywhere_but_the_log(tmp_path):
    spec = tmp_path / "api.yaml"
    spec.write_text("openapi: 3.0.0\n")
    api = routes({("POST", "/api/v1/convert"): (202, {"status": "queued", "job_id": JOB}),
                  ("GET", f"/api/v1/jobs/{JOB}"): (200, job_done({"document": "# API\n", "item_id": 5,
                                                                  "url": SHARE}))})
    summary, outputs = tmp_path / "summary.md", tmp_path / "outputs"
    code, log, _ = run(["convert", "--input-file", str(spec), "--source-type", "openapi", "--target", "md"], api=api,
                       env={"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": str(summary),
                            "GITHUB_OUTPUT": str(outputs)}, cwd=tmp_path)
    assert code == 0
    assert "Sh4reK3ySecret" not in log
    assert "completed; link: http://docsvc.test/api/v1/conversions/5/document?key=***" in log
    assert "::add-mask::Sh4reK3ySecret" not in log  # not masked: GitHub would drop job outputs carrying it
    values = parse_github_outputs(outputs.read_text())
    assert values["url"] == SHARE  # the link is there to be shared
    assert json.loads(Path(values["result-file"]).read_text())["url"] == SHARE
    assert f"]({SHARE})" in summary.read_text()
    # Where the outputs go to the log (GitLab, Jenkins, a terminal) the log hides it, the dotenv keeps it.
    dotenv = tmp_path / "out.env"
    code, log, _ = run(["convert", "--input-file", str(spec), "--source-type", "openapi", "--target", "md",
                        "--dotenv-file", str(dotenv)], api=api, env={"GITLAB_CI": "true"}, cwd=tmp_path)
    masked = SHARE.replace(SHARE.split("=")[1], "***")
    assert code == 0 and "Sh4reK3ySecret" not in log and "url: " + masked in log
    # the summary printed to the log: its link row readable, the key masked in both of the link's URLs
    link_row = next(line for line in log.splitlines() if line.startswith("| Link |"))
    assert link_row.endswith(f"({masked}) |") and "?key=***](" in link_row, link_row
    assert f"DOCSVC_URL={SHARE}\n" in dotenv.read_text()


def many_errors(n: int) -> dict:
    return {"findings": [{"severity": "error", "rule": "r", "file": "openapi.yaml", "line": i + 1,
                          "message": f"problem {i}"} for i in range(n)]}


@pytest.mark.parametrize("errors", [9, 10, 12, 40])
def test_the_steps_own_error_is_annotated_however_many_findings_come_first(tmp_path, errors):
    api = routes({("POST", "/api/v1/oas/validate"): (202, {"status": "queued", "job_id": JOB}),
                  ("GET", f"/api/v1/jobs/{JOB}"): (200, job_done(many_errors(errors)))})
    code, log, _ = run(["validate", "--junit-file", str(tmp_path / "j.xml"), "--sarif-file", str(tmp_path / "s")],
                       api=api, env={"GITHUB_ACTIONS": "true"}, cwd=tmp_path)
    assert code == 1
    annotations = [line for line in log.splitlines() if line.startswith("::error")]
    own = f"::error::API-readiness validation: {errors} error(s), 0 warning(s) (fail-on error)"
    assert own in annotations
    assert len(annotations) <= 10  # GitHub shows 10 error annotations per step: the step's own is one of them
    assert sum(line.startswith("::error file=") for line in annotations) == min(errors, 9)
    if errors > 9:
        assert f"::notice::{errors - 9} more finding(s) are not annotated here" in log
