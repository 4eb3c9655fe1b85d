"""Checking Docflows suggestions against the docs repository as it changes: every verdict."""

from __future__ import annotations

import json
import re

import pytest

from tests.support import GitRemote, git, run_cli
from tests.unit.test_facts import PY_NEW, PY_OLD
from tests.unit.test_planner_writer import DOCS


class Project:
    def __init__(self, service, root):
        self.key = service.admin("init", "--org", "Checks", "--admin-email", "ada@checks.test")
        self.code = GitRemote(root, "code", {"app/cli.py": PY_OLD})
        self.code.branch("feature", {"app/cli.py": PY_NEW}, "feature")
        self.docs = GitRemote(root, "docs", DOCS)
        integration = service.admin("integrations", "add", "--org", "Checks", "--name", "app", "--code-repo",
                                    str(self.code.bare), "--docs-repo", str(self.docs.bare))
        self.cwd = root / "cwd"
        self.cwd.mkdir()
        (self.cwd / "docsvc.yaml").write_text(f"integration_id: {integration}\n")
        self.service = service
        assert self("sync", "--integration-id", integration).returncode == 0

    def __call__(self, *args):
        return run_cli(*args, key=self.key, base_url=self.service.base_url, cwd=self.cwd)

    def suggest(self, number: int) -> str:
        made = self("docflow", "--pr-number", str(number), "--pr-title", "t", "--pr-body", "", "--pr-author", "a",
                    "--pr-branch", "feature", "--json")
        assert made.returncode == 0, made.stderr
        suggestion = json.loads(made.stdout)["suggestion_id"]
        assert suggestion, made.stdout
        return str(suggestion)

    def suggested_text(self, suggestion: str, path: str) -> str:
        """The file as the suggestion would make it, rebuilt from its diff."""
        diff = self("items", "diff", "docflows", suggestion).stdout
        text = DOCS[path].split("\n")
        block = diff.split(f"+++ b/{path}\n", 1)[1].split("\n--- a/", 1)[0]
        out, old_line = [], 0
        for line in block.splitlines():
            header = re.match(r"@@ -(\d+)", line)
            if header:
                start = int(header.group(1)) - 1
                out += text[old_line:start]
                old_line = start
            elif line.startswith("+"):
                out.append(line[1:])
            elif line.startswith("-"):
                old_line += 1
            elif line.startswith(" "):
                out.append(line[1:])
                old_line += 1
        return "\n".join(out + text[old_line:])

    def check(self, *args) -> list[str]:
        done = self("items", "check", "docflows", *args)
        assert done.returncode == 0, done.stderr
        return done.stdout.splitlines()


@pytest.fixture(scope="module")
def project(service, tmp_path_factory):
    return Project(service, tmp_path_factory.mktemp("checks"))


def test_every_verdict(project):
    a = project.suggest(1)
    assert project.check(a) == [f"{a}: still needed (pull request open)"]

    # Someone applies the suggestion's edit to cli.md by hand: that file is already in the docs.
    applied = project.suggested_text(a, "docs/cli.md")
    project.docs.commit({"docs/cli.md": applied}, "apply by hand")
    lines = project.check(a)
    assert lines[0] == f"{a}: still needed (pull request open)"  # env.md is not
    assert f"  docs/cli.md: already in the docs: the docs read exactly as the suggestion would make them" in lines

    # Apply the rest: the whole suggestion is in the docs, and --dismiss-done dismisses it.
    project.docs.commit({"docs/env.md": project.suggested_text(a, "docs/env.md")}, "rest")
    assert project.check(a, "--dismiss-done") == [f"{a}: already in the docs (pull request open) — dismissed as done"]
    listed = {i["id"]: i for i in json.loads(project("items", "list", "docflows", "--json").stdout)}
    assert listed[int(a)]["work_status"] == "done"


def test_the_extra_reading_costs_a_credit_and_sees_past_formatting(project, service):
    project.docs.commit(DOCS, "back to the original docs again")
    d = project.suggest(4)
    # Applied by hand, but the new row written with other spacing and emphasis.
    by_hand = project.suggested_text(d, "docs/cli.md").replace(
        "| `--dry-run` | — | show what would happen |", "|  **--dry-run**  | — |  Show what would happen |")
    project.docs.commit({"docs/cli.md": by_hand, "docs/env.md": project.suggested_text(d, "docs/env.md")}, "by hand")
    before = int(service.admin("credits", "show", "--org", "Checks"))
    assert project.check(d, "--no-ai")[0] == f"{d}: probably already in the docs (pull request open)"
    assert int(service.admin("credits", "show", "--org", "Checks")) == before  # the text check is free
    assert project.check(d)[0] == f"{d}: already in the docs (pull request open)"
    assert int(service.admin("credits", "show", "--org", "Checks")) == before - 1


def test_probably_and_updated_and_merged(project):
    project.docs.commit(DOCS, "back to the original docs")
    b = project.suggest(2)
    # Most of the edit is there, one added line is missing: probably, never dismissed.
    partial = project.suggested_text(b, "docs/cli.md").replace("| `--dry-run` | — | show what would happen |\n", "")
    project.docs.commit({"docs/cli.md": partial, "docs/env.md": project.suggested_text(b, "docs/env.md")},
                        "most of it")
    lines = project.check(b, "--dismiss-done")
    assert lines[0] == f"{b}: probably already in the docs (pull request open)"
    assert lines[1].startswith("  docs/cli.md: probably already in the docs: ") and "missing:" in lines[1]

    # The docs change elsewhere: the edit is applied again on their new text.
    project.docs.commit(DOCS | {"docs/cli.md": DOCS["docs/cli.md"] + "\n## See also\n\nThe guide.\n"}, "more docs")
    c = project.suggest(3)
    project.docs.commit({"docs/cli.md": DOCS["docs/cli.md"] + "\n## See also\n\nThe guide, updated.\n"}, "edit")
    lines = project.check(c)
    assert f"  docs/cli.md: updated to fit changed docs: the docs changed since the suggestion was drafted" in lines
    diff = project("items", "diff", "docflows", c).stdout
    assert "+| `--docs-dir` | `docs` | folder of the docs |" in diff
    assert "The guide" not in diff  # drafted on the new text: the docs' own change is not undone

    # The pull request is merged into the code's default branch.
    git("merge", "-q", "--ff-only", "feature", cwd=project.code.work)
    git("push", "-q", "origin", "main", cwd=project.code.work)
    assert project.check(c)[0].endswith("(pull request merged)")


def test_check_needs_an_id_or_all_and_knows_unknown_ids(project):
    assert project("items", "check", "docflows").returncode == 2
    unknown = project("items", "check", "docflows", "9999")
    assert unknown.returncode == 1 and "Docflows suggestion 9999 not found" in unknown.stderr
    everything = project.check("--all", "--no-ai")
    assert everything and all(re.match(r"^(\d+: |  )", line) for line in everything)



def test_a_pull_request_whose_branch_is_gone_is_closed(project):
    project.code.branch("attempts", {"app/cli.py": PY_NEW.replace("--retries", "--attempts")}, "rename --retries")
    made = project("docflow", "--pr-number", "5", "--pr-title", "t", "--pr-body", "", "--pr-author", "a",
                   "--pr-branch", "attempts", "--json")
    suggestion = str(json.loads(made.stdout)["suggestion_id"])
    git("push", "-q", "origin", "--delete", "attempts", cwd=project.code.work)
    assert project.check(suggestion)[0].endswith("(pull request closed)")
