"""Feature Author drafts, the release-notes queue and Release Composer through the real CLI and
service (issue 7, items 1 and 2)."""

from __future__ import annotations

import json

import pytest

from tests.support import GitRemote, new_suggestion, run_cli
from tests.unit.test_facts import PY_NEW, PY_OLD
from tests.unit.test_planner_writer import DOCS

GOOD_BRIEF = """Bulk export lets admins download every report of a workspace as one ZIP file.

Users can export all reports at once from the CLI.

- `--format` — csv or json
1. Open Reports
2. Click Export all

Exports cannot include dashboards. See [the command line](../cli.md).
"""
BAD_BRIEF = "Users can export.\n\nSee [setup](../setup.md) first.\n"  # docs/setup.md does not exist


@pytest.fixture(scope="module")
def project(service, tmp_path_factory):
    root = tmp_path_factory.mktemp("drafts")
    key = service.admin("init", "--org", "Authors", "--admin-email", "ada@authors.test", "--admin-name", "Ada")
    code = GitRemote(root, "code", {"app/cli.py": PY_OLD})
    code.branch("rename-docs-root", {"app/cli.py": PY_NEW}, "Rename --docs-root")
    docs = GitRemote(root, "docs", DOCS)
    integration = service.admin("integrations", "add", "--org", "Authors", "--name", "app", "--code-repo",
                                str(code.bare), "--docs-repo", str(docs.bare))
    assert service.admin_lines("categories", "set", "--org", "Authors", "Billing", "Exports", "CLI") == \
        ["Billing", "Exports", "CLI"]
    release = service.admin("releases", "add", "--org", "Authors", "--name", "5.0")
    work = root / "cwd"
    work.mkdir()
    (work / "docsvc.yaml").write_text(f"integration_id: {integration}\n")
    cli = lambda *a: run_cli(*a, key=key, base_url=service.base_url, cwd=work)  # noqa: E731
    assert cli("sync", "--integration-id", integration).returncode == 0
    cli.release = release
    cli.service = service
    return cli


def make_draft(project, title: str, brief: str, *extra: str) -> dict:
    made = project("feature-drafts", "create", "--title", title, "--brief", brief, *extra, "--json")
    assert made.returncode == 0, made.stderr
    return json.loads(made.stdout)


def test_categories_are_shown_in_order(project):
    assert project.service.admin_lines("categories", "show", "--org", "Authors") == ["Billing", "Exports", "CLI"]


def test_a_draft_the_editor_rejects_is_refused_approval_and_shows_its_comments(project):
    made = project("feature-drafts", "create", "--title", "Setup wizard", "--brief", BAD_BRIEF)
    assert made.returncode == 0, made.stderr
    lines = made.stdout.splitlines()
    draft = lines[0].split()[1].rstrip(":")
    assert lines[1] == "Editor: not passed, 1 comment(s):"
    assert lines[2].startswith("  docs/features/setup-wizard.md:") and lines[2].endswith(
        "link target ../setup.md does not exist (docs/setup.md) (broken-link)")

    refused = project("items", "approve", "feature-drafts", draft)
    assert refused.returncode == 1
    assert refused.stderr.startswith("Error: the Editor has not passed this draft (1 comment(s))")
    shown = project("feature-drafts", "show", draft)
    assert "Editor: not passed, 1 comment(s):" in shown.stdout and "Not signed off yet" in shown.stdout
    assert json.loads(project("feature-drafts", "show", draft, "--json").stdout)["work_status"] == "in_progress"


def test_a_good_draft_is_decided_approved_and_joins_the_queue_with_its_badge(project):
    made = make_draft(project, "Bulk export", GOOD_BRIEF, "--release", project.release)
    assert made["editor_passed"] is True  # the link to ../cli.md resolves in the indexed docs
    draft = str(made["item_id"])
    assert "## Options\n\n| Option | Description |\n|---|---|\n| `--format` | csv or json |" in made["page"]

    suggested = project("items", "release-notes", "feature-drafts", draft)
    assert suggested.returncode == 0, suggested.stderr
    lines = suggested.stdout.splitlines()
    assert lines[:5] == ["Release notes (the Editor's suggestion; no decision recorded yet): include",
                         "  section: feature", "  category: CLI",
                         "  note: Bulk export lets admins download every report of a workspace as one ZIP file.",
                         "  release: 5.0"]
    assert "  rule: category CLI: the text names it" in lines

    refused = project("items", "release-notes", "feature-drafts", draft, "--notes", "include", "--category", "Games")
    assert refused.returncode == 1
    assert "'Games' is not one of your product categories; allowed: Billing, Exports, CLI, Other" in refused.stderr
    usage = project("items", "release-notes", "feature-drafts", draft, "--section", "bug")
    assert usage.returncode == 2 and "--section changes the release-notes decision: give --notes include or --notes skip with it" in usage.stderr

    changed = project("items", "release-notes", "feature-drafts", draft, "--notes", "include", "--section", "feature",
                      "--category", "exports", "--note", "Export every report as one ZIP.")
    assert changed.returncode == 0, changed.stderr
    assert changed.stdout.splitlines()[:4] == ["Release notes (the recorded decision): include", "  section: feature",
                                               "  category: Exports", "  note: Export every report as one ZIP."]
    decided = json.loads(project("items", "release-notes", "feature-drafts", draft, "--json").stdout)
    assert decided["source"] == "decision" and decided["rn_category"] == "Exports"
    assert project("release-notes", "queue", "--release", project.release).stderr.strip() == \
        f"Release {project.release} has no release-notes entries yet."  # not approved yet

    wrong = project("items", "approve", "feature-drafts", draft, "--release", project.release)
    assert wrong.returncode == 2 and "--release apply to docflows only" in wrong.stderr
    approved = project("items", "approve", "feature-drafts", draft)
    assert approved.returncode == 0, approved.stderr
    assert approved.stdout.splitlines()[1] == ("Release notes: included in release 5.0 (feature, Exports) with the "
                                               "Feature Author badge: Export every report as one ZIP.")
    shown = json.loads(project("feature-drafts", "show", draft, "--json").stdout)
    assert shown["work_status"] == "done"
    assert (shown["sign_off"]["name"], shown["sign_off"]["user_id"]) == ("Ada", 1) and shown["sign_off"]["at"]
    queue = json.loads(project("release-notes", "queue", "--release", project.release, "--json").stdout)
    assert [(e["item_id"], e["tool"], e["rn_section"], e["rn_category"], e["badge"]) for e in queue] == \
        [(int(draft), "feature-drafts", "feature", "Exports", "Feature Author")]

    # Changing the decision of an approved draft moves its entry; skip takes it out.
    project("items", "release-notes", "feature-drafts", draft, "--notes", "include", "--section", "enhancement")
    queue = json.loads(project("release-notes", "queue", "--release", project.release, "--json").stdout)
    assert [(e["rn_section"], e["rn_note"]) for e in queue] == [("enhancement", "Export every report as one ZIP.")]
    project("items", "release-notes", "feature-drafts", draft, "--notes", "skip")
    assert json.loads(project("release-notes", "queue", "--release", project.release, "--json").stdout) == []
    project("items", "release-notes", "feature-drafts", draft, "--notes", "include", "--section", "feature")
    assert len(json.loads(project("release-notes", "queue", "--release", project.release, "--json").stdout)) == 1


def test_an_included_draft_needs_a_release(project):
    draft = str(make_draft(project, "Dark mode", "Users can switch to a dark theme.")["item_id"])
    refused = project("items", "approve", "feature-drafts", draft)
    assert refused.returncode == 1 and "a release is required" in refused.stderr
    skipped = project("items", "approve", "feature-drafts", draft, "--notes", "skip")
    assert skipped.returncode == 0 and skipped.stdout.splitlines()[1] == "Release notes: skipped"


def test_release_notes_assemble_the_queue_and_follow_new_entries(project):
    other = project.service.admin("releases", "add", "--org", "Authors", "--name", "5.1")
    composer = project("release-notes", "create", "--release", other)
    assert composer.returncode == 0, composer.stderr
    item = composer.stdout.strip()
    assert project("release-notes", "show", item).stdout == "# Release notes: 5.1\n\n" \
                                                             "_No entries in the release-notes queue yet._\n"
    again = project("release-notes", "create", "--release", other)
    assert again.returncode == 1 and f"already has a Release Composer item ({item})" in again.stderr

    draft = str(make_draft(project, "Invoice PDFs", "Users can download invoices as PDF.", "--release", other)[
        "item_id"])
    assert project("items", "approve", "feature-drafts", draft, "--category", "Billing").returncode == 0
    suggestion = new_suggestion(project, 20)
    refused = project("items", "approve", "docflows", suggestion, "--release", other, "--category", "Nope")
    assert refused.returncode == 1 and "allowed: Billing, Exports, CLI, Other" in refused.stderr
    approved = project("items", "approve", "docflows", suggestion, "--release", other, "--notes", "include",
                       "--section", "enhancement", "--note", "--docs-root is now --docs-dir.")
    assert approved.returncode == 0, approved.stderr

    shown = project("release-notes", "show", item)
    assert shown.stdout.splitlines() == [
        "# Release notes: 5.1", "",
        "## New features", "", "### Billing", "", "- Users can download invoices as PDF. _[Feature Author]_", "",
        "## Enhancements", "", "### Other", "", "- --docs-root is now --docs-dir."]

    # A suggestion tagged with the release and dismissed as done joins too, and stays.
    done = new_suggestion(project, 21)
    assert project("items", "tag", "docflows", done, "--release", other).returncode == 0
    assert project("items", "dismiss", "docflows", done, "--yes", "--done").returncode == 0
    queue = json.loads(project("release-notes", "queue", "--release", other, "--json").stdout)
    assert [(e["tool"], e["item_id"], e["badge"]) for e in queue] == [
        ("feature-drafts", int(draft), "Feature Author"), ("docflows", int(suggestion), None),
        ("docflows", int(done), None)]
    assert "- PR 21" in project("release-notes", "show", item).stdout
    listed = json.loads(project("items", "list", "release-notes", "--json").stdout)
    assert [(i["id"], i["release_name"]) for i in listed] == [(int(item), "5.1")]


def test_a_draft_without_a_page_yet_shows_what_is_absent_in_words(project):
    """A draft made without its job (as the demo's) has no page, no review and no suggestion: said so,
    as other commands say none, not Python's None or a list of 0 comments."""
    draft = project.service.admin("items", "add", "feature-drafts", "--org", "Authors", "--title", "SSO with SAML")
    shown = project("feature-drafts", "show", draft)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.splitlines() == [
        f"Draft {draft}: SSO with SAML [todo]",
        "Editor: not reviewed yet (the draft has no page yet)",
        "Release notes: no decision recorded yet, and no suggestion from the Editor yet",
        "  release: none (needed to include it)",
        "Not signed off yet"]
    notes = project("items", "release-notes", "feature-drafts", draft)
    assert notes.stdout.splitlines() == shown.stdout.splitlines()[2:4]
    skipped = project("items", "release-notes", "feature-drafts", draft, "--notes", "skip")
    assert skipped.returncode == 0, skipped.stderr
    assert skipped.stdout.splitlines() == [
        "Release notes (the recorded decision): skip", "  section: feature", "  category: Other", "  note: SSO with SAML",
        "  release: none (needed to include it)"]
    assert "None" not in shown.stdout + notes.stdout + skipped.stdout


def test_unknown_ids_are_not_found(project):
    for args in (("feature-drafts", "show", "9999"), ("release-notes", "show", "9999"),
                 ("release-notes", "queue", "--release", "9999"),
                 ("items", "release-notes", "feature-drafts", "9999")):
        done = project(*args)
        assert done.returncode == 1 and "not found" in done.stderr, args


def test_a_step_list_written_inline_becomes_one_step_per_number(project):
    brief = ("Image builds run in CI.\n\n"
             "1. Build the image 2. If it fails, rebuild it without the cache 3. Push the image\n")
    draft = make_draft(project, "Image builds", brief)
    lines = draft["page"].split("\n")
    steps = lines[lines.index("## How to use it") + 2:]
    assert steps[:4] == ["1. Build the image.", "2. If it fails, rebuild it without the cache.",
                         "3. Push the image.", ""]
