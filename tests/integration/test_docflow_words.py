"""A pull request's words through the real CLI and service: a page its body speaks of, and that
nothing in the code points at, is listed as worth a look with its reason (the words, where), and
is not edited; the suggestion shows page by page what was edited and why."""

from __future__ import annotations

import json

import pytest

from tests.support import GitRemote, docflow_project
from tests.unit.test_facts import PY_NEW, PY_OLD
from tests.unit.test_planner_writer import DOCS

MIRRORS = ("# Mirrors\n\nA mirror keeps a copy of every upload close to its readers.\n\n"
           "The mirror cache is refreshed each night; stale entries expire after a week.\n")
BODY = "Uploads now go through the mirror cache, so stale entries no longer linger."


@pytest.fixture(scope="module")
def cli(service, tmp_path_factory):
    root = tmp_path_factory.mktemp("pr-words")  # not "docflow*": test_docflow finds its docs remote by that name
    code = GitRemote(root, "code", {"app/cli.py": PY_OLD})
    code.branch("rename", {"app/cli.py": PY_NEW}, "Rename --docs-root, add --dry-run")
    return docflow_project(service, root, "Words", code, {**DOCS, "docs/mirrors.md": MIRRORS})


def test_a_body_naming_a_concept_lists_its_page_as_worth_a_look_with_the_reason(cli):
    made = cli("docflow", "--pr-number", "21", "--pr-title", "Rename --docs-root", "--pr-body", BODY,
               "--pr-author", "ana", "--pr-branch", "rename", "--json")
    assert made.returncode == 0, made.stderr
    result = json.loads(made.stdout)
    assert "docs/mirrors.md" not in result["files"]  # words alone never edit a page
    [look] = [w for w in result["worth_a_look"] if w["path"] == "docs/mirrors.md"]
    assert look["reason"].startswith("the pull request's title and body speak of ")
    assert "mirrors (line 1)" in look["reason"] and "cache (line 5)" in look["reason"]
    by_page = {p["path"]: p for p in result["pages"]}
    assert by_page["docs/mirrors.md"]["action"] == "worth a look"
    assert by_page["docs/cli.md"]["action"] == "edited" and by_page["docs/cli.md"]["why"]
    # the stored suggestion says the same, page by page
    summary = json.loads(cli("items", "diff", "docflows", str(result["suggestion_id"]), "--stat", "--json").stdout)
    assert [(p["path"], p["action"]) for p in summary["pages"]] == [(p["path"], p["action"]) for p in result["pages"]]


def test_the_terminal_shows_the_suggestion_page_by_page(cli):
    made = cli("docflow", "--pr-number", "22", "--pr-title", "Rename --docs-root", "--pr-body", BODY,
               "--pr-author", "ana", "--pr-branch", "rename")
    assert made.returncode == 0, made.stderr
    lines = made.stdout.splitlines()
    edited, looks = lines.index("Edited:"), lines.index("Worth a look (weaker signs, not edited):")
    assert edited < looks
    assert any(line.startswith("  docs/cli.md: ") for line in lines[edited:looks])
    [mirrors] = [line for line in lines[looks:] if line.startswith("  docs/mirrors.md: ")]
    assert "mirrors (line 1)" in mirrors and mirrors.endswith("— words alone")
