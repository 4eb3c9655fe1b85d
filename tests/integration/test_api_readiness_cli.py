"""API readiness through the real CLI and the real local service, with real git repositories:
``docsvc validate`` on the saved configuration, the scan it leaves, and ``docsvc api-scan open-pr``
to the source and docs repositories (one failing while the other opens); a scan made another way
(``docsvc-server items add``, an older row, a spec file gone) is a one-line refusal, never a 500."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
import yaml

from tests.support import GitRemote, LocalService, git, run_cli, stored

SPEC = """\
openapi: 3.0.3
info:
  title: Orders
  version: 1.0.0
servers:
  - url: https://orders.example.test/
paths:
  /orders/:
    get:
      summary: List orders
      operationId: listOrders
      responses:
        "200":
          description: The orders
  /orders/{orderId}:
    get:
      tags: [orders]
      responses:
        "200":
          description: One order
"""
BAD_LINES = {"/paths/~1orders~1": 8, "/paths/~1orders~1{orderId}/get": 16}
# each fix (rule, pointer in the corrected spec) and its line in SPEC, the file read, though the first
# fix renamed /orders/: the renamed path, a 400 added to its get's responses, an operationId added,
# a path parameter declared on its path, a tag declared where the operation uses it
FIX_LINES = {("no-server-trailing-slash", "/servers/0/url"): 6, ("no-path-trailing-slash", "/paths/~1orders"): 8,
             ("operation-4xx-response", "/paths/~1orders/get/responses/400"): 12,
             ("path-parameters-defined", "/paths/~1orders~1{orderId}/parameters/0"): 15,
             ("operation-operationId", "/paths/~1orders~1{orderId}/get/operationId"): 16,
             ("tag-description", "/tags/0"): 17,
             ("operation-4xx-response", "/paths/~1orders~1{orderId}/get/responses/400"): 18}


@dataclass
class Org:
    svc: LocalService
    key: str
    code: GitRemote
    docs: GitRemote
    integration: int
    root: Path

    def cli(self, *args: str, key: str | None = None):
        return run_cli(*args, key=key or self.key, base_url=self.svc.base_url)


@pytest.fixture(scope="module")
def org(service: LocalService, tmp_path_factory) -> Org:
    root = tmp_path_factory.mktemp("api-readiness")
    key = service.admin("init", "--org", "Orders Inc", "--admin-email", "ada@orders.test")
    code = GitRemote(root, "orders-api", {"api/openapi.yaml": SPEC, "README.md": "# Orders\n"})
    docs = GitRemote(root, "orders-docs", {"docs/index.md": "# Orders docs\n"})
    integration = int(service.admin("integrations", "add", "--org", "Orders Inc", "--name", "orders",
                                    "--code-repo", str(code.bare), "--docs-repo", str(docs.bare)))
    return Org(service, key, code, docs, integration, root)


def test_validate_without_a_configuration_says_how_to_set_one(org: Org):
    done = org.cli("validate")
    assert done.returncode == 1
    assert "docsvc-server api-specs set" in done.stderr and "Traceback" not in done.stderr


@pytest.fixture(scope="module")
def scan(org: Org) -> dict:
    saved = json.loads(org.svc.admin("api-specs", "set", "--org", "Orders Inc", "--integration",
                                     str(org.integration), "--path", "api/openapi.yaml", "--ai-fix"))
    assert saved["branch"] == "main" and saved["path"] == "api/openapi.yaml" and saved["run_ai_fix"] is True
    done = org.cli("validate", "--ai-content", "--json", "--fail-on", "never")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_findings_carry_rule_file_and_line(scan: dict):
    findings = scan["findings"]
    rules = {f["rule"] for f in findings}
    assert {"operation-operationId", "operation-summary", "no-path-trailing-slash", "operation-4xx-response",
            "path-parameters-defined", "no-server-trailing-slash"} <= rules, rules
    for finding in findings:
        assert finding["severity"] in ("error", "warning", "notice")
        assert finding["file"] == "api/openapi.yaml"
    missing_id = [f for f in findings if f["rule"] == "operation-operationId" and f["source"] != "fix"]
    assert [f["pointer"].startswith("/paths/~1orders~1{orderId}/get") for f in missing_id] == [True]
    assert missing_id[0]["line"] == BAD_LINES["/paths/~1orders~1{orderId}/get"]
    slash = next(f for f in findings if f["rule"] == "no-path-trailing-slash" and f["source"] != "fix")
    assert slash["line"] == BAD_LINES["/paths/~1orders~1"]
    assert scan["fixes"], "the fix stage ran"
    fixed = {(f["rule"], f["pointer"]): f["line"] for f in findings if f["message"].startswith("Fixed: ")}
    assert fixed == FIX_LINES
    assert scan["generated"], "the content stage ran"
    assert scan["spec"]["path"] == "api/openapi.yaml" and len(scan["spec"]["commit"]) == 40


def test_text_output_groups_findings_by_severity_and_fails_on_errors(org: Org, scan: dict):
    done = org.cli("validate", "--no-ai-fix")
    lines = done.stdout.splitlines()
    headings = [line for line in lines if line.endswith(":") and not line.startswith(" ")]
    assert headings and all(h.split(" ")[0] in ("errors", "warnings", "notices") for h in headings)
    assert any("api/openapi.yaml:16" in line and "[operation-operationId]" in line for line in lines)
    errors = sum(f["severity"] == "error" for f in scan["findings"])
    assert done.returncode == (1 if errors else 0), done.stderr
    warned = org.cli("validate", "--no-ai-fix", "--fail-on", "warning")
    assert warned.returncode == 1 and "(--fail-on warning)" in warned.stderr


def test_text_output_puts_each_fix_on_its_line_of_the_file_read(org: Org, scan: dict):
    done = org.cli("validate", "--fail-on", "never")
    assert done.returncode == 0, done.stderr
    fixed = [line.split() for line in done.stdout.splitlines() if "] Fixed: " in line]
    assert sorted((words[1].strip("[]"), words[0]) for words in fixed) == sorted(
        (rule, f"api/openapi.yaml:{line}") for (rule, _), line in FIX_LINES.items())


def test_open_pr_to_both_targets_and_the_scan_follows_the_docs_one(org: Org, scan: dict):
    done = org.cli("api-scan", "open-pr", str(scan["scan_id"]), "--to", "source", "--to", "docs",
                   "--repo", str(org.integration), "--path", "reference/openapi.yaml", "--json")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert set(answer["pull_requests"]) == {"source", "docs"} and not answer["errors"]
    source_branch = answer["pull_requests"]["source"].split("#")[-1]
    docs_branch = answer["pull_requests"]["docs"].split("#")[-1]
    corrected = git("show", f"{source_branch}:api/openapi.yaml", cwd=org.code.bare)
    assert git("show", f"{docs_branch}:reference/openapi.yaml", cwd=org.docs.bare) == corrected
    fixed = yaml.safe_load(corrected)
    assert "/orders" in fixed["paths"] and "/orders/" not in fixed["paths"]  # trailing slash fixed
    assert fixed["paths"]["/orders/{orderId}"]["get"].get("operationId")  # operationId added
    listed = json.loads(org.cli("items", "list", "api-scans", "--json").stdout)
    item = next(i for i in listed if i["id"] == scan["scan_id"])
    assert item["pull_request"]["url"] == answer["pull_requests"]["docs"]


def test_prepped_spec_and_one_failing_target(org: Org, scan: dict):
    broken = int(org.svc.admin("integrations", "add", "--org", "Orders Inc", "--name", "gone",
                               "--code-repo", str(org.root / "missing-code.git"),
                               "--docs-repo", str(org.root / "missing-docs.git")))
    done = org.cli("api-scan", "open-pr", str(scan["scan_id"]), "--to", "docs", "--to", "source",
                   "--repo", str(broken), "--spec", "prepped")
    assert done.returncode == 1
    assert done.stdout.startswith("source: ")  # the source target still opened
    assert "docs: not opened:" in done.stderr and "Traceback" not in done.stderr
    branch = done.stdout.split("#")[-1].strip()
    prepped = yaml.safe_load(git("show", f"{branch}:api/openapi.yaml", cwd=org.code.bare))
    assert "/orders/" in prepped["paths"]  # the pre-processed spec: not corrected


def test_docs_target_needs_a_repo_and_unknown_scans_are_404(org: Org, scan: dict):
    done = org.cli("api-scan", "open-pr", str(scan["scan_id"]))
    assert done.returncode == 2 and "--repo" in done.stderr
    done = org.cli("api-scan", "open-pr", "999999", "--repo", str(org.integration))
    assert done.returncode == 1 and "not found" in done.stderr


def branches(remote: GitRemote, root: Path) -> set[str]:
    return {line.split("\t")[1] for line in git("ls-remote", str(remote.bare), cwd=root).splitlines()}


def test_a_scan_added_by_the_admin_command_is_refused_saying_what_it_lacks(org: Org, scan: dict):
    made = org.svc.admin("items", "add", "api-scans", "--org", "Orders Inc", "--title", "Readiness scan by hand")
    before = branches(org.docs, org.root) | branches(org.code, org.root)
    for args in (("--to", "docs", "--repo", str(org.integration), "--path", "docs/x.yaml"),
                 ("--to", "source",), ("--to", "source", "--to", "docs", "--repo", str(org.integration)),
                 ("--repo", str(org.integration), "--spec", "prepped")):
        done = org.cli("api-scan", "open-pr", made, *args)
        assert done.returncode == 1, (args, done.stdout)
        assert f"API scan {made} has no stored spec" in done.stderr and "docsvc validate" in done.stderr, done.stderr
        assert "internal error" not in done.stderr and "Traceback" not in done.stderr
    response = httpx.post(f"{org.svc.base_url}/api/v1/oas/scans/{made}/pull-request",
                          headers={"Authorization": f"Bearer {org.key}"},
                          json={"targets": ["docs"], "integration_id": org.integration, "file_path": "docs/api.yaml"})
    assert response.status_code == 409 and "no stored spec" in response.json()["detail"]
    assert branches(org.docs, org.root) | branches(org.code, org.root) == before  # nothing pushed


def test_a_scan_whose_spec_file_is_gone_is_refused(org: Org, scan: dict):
    done = org.cli("validate", "--no-ai-fix", "--no-ai-content", "--json", "--fail-on", "never")
    assert done.returncode == 0, done.stderr
    scan_id = json.loads(done.stdout)["scan_id"]
    (org.svc.data_dir / stored(org.svc, scan_id)["prepped"]).unlink()
    done = org.cli("api-scan", "open-pr", str(scan_id), "--repo", str(org.integration))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert f"API scan {scan_id}'s pre-processed spec is no longer in the service's data directory" in done.stderr


def test_an_older_scan_without_its_spec_record_still_opens_where_it_can(org: Org, scan: dict):
    done = org.cli("validate", "--no-ai-content", "--json", "--fail-on", "never")
    assert done.returncode == 0, done.stderr
    scan_id = json.loads(done.stdout)["scan_id"]

    def older(data: dict) -> None:  # no spec record, fixes and pull requests in shapes this code never wrote
        del data["spec"]
        data["fixes"] = ["renamed a path"]
        data["pull_requests"] = [{"url": "https://example.test/old"}]

    stored(org.svc, scan_id, older)
    done = org.cli("api-scan", "open-pr", str(scan_id), "--to", "docs", "--to", "source",
                   "--repo", str(org.integration), "--path", "reference/older.yaml")
    assert done.returncode == 1 and "Traceback" not in done.stderr and "internal error" not in done.stderr
    assert done.stdout.startswith("docs: ")  # the docs target still opened
    assert "source: not opened: the scan does not record the repository its spec was read from" in done.stderr
    branch = done.stdout.split("#")[-1].strip()
    assert "/orders" in yaml.safe_load(git("show", f"{branch}:reference/older.yaml", cwd=org.docs.bare))["paths"]
    done = org.cli("api-scan", "open-pr", str(scan_id), "--repo", str(org.integration))  # no --path, none recorded
    assert done.returncode == 1 and "the scan records no path for its spec" in done.stderr, done.stderr
    assert stored(org.svc, scan_id)["pull_requests"][0] == {"url": "https://example.test/old"}  # kept as it was
