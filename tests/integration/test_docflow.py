"""Docflows from a real pull request through the real CLI and service (first part of issue 5)."""

from __future__ import annotations

import json

import pytest

from tests.support import PNG, GitRemote, git, new_suggestion, run_cli
from tests.unit.test_facts import PY_NEW, PY_OLD
from tests.unit.test_planner_writer import DOCS


LEGACY_MESSAGE = ('LEGACY = (\n    "The old mode goes in 3.0.\\n"\n'
                  '    "See https://deploy.example.org/en/stable/legacy.html#the-legacy-mode"\n)\n')


@pytest.fixture(scope="module")
def project(service, tmp_path_factory):
    root = tmp_path_factory.mktemp("docflow")
    key = service.admin("init", "--org", "Flows", "--admin-email", "ada@flows.test")
    code = GitRemote(root, "code", {"app/cli.py": PY_OLD, "tests/test_cli.py": "def test_a():\n    pass\n"})
    code.branch("rename-docs-root", {"app/cli.py": PY_NEW}, "Rename --docs-root, add --dry-run")
    code.branch("only-tests", {"tests/test_cli.py": "def test_b():\n    pass\n"}, "Only tests")
    code.branch("warn-legacy", {"app/messages.py": LEGACY_MESSAGE}, "Say when --legacy goes")
    docs = GitRemote(root, "docs", DOCS)
    integration = service.admin("integrations", "add", "--org", "Flows", "--name", "app", "--code-repo",
                                str(code.bare), "--docs-repo", str(docs.bare))
    work = root / "cwd"
    work.mkdir()
    (work / "docsvc.yaml").write_text(f"integration_id: {integration}\n")
    cli = lambda *a: run_cli(*a, key=key, base_url=service.base_url, cwd=work)  # noqa: E731
    assert cli("sync", "--integration-id", integration).returncode == 0
    return cli


def test_a_pull_request_becomes_a_suggestion_with_a_real_diff(project):
    made = project("docflow", "--pr-number", "7", "--pr-title", "Rename --docs-root", "--pr-body", "Also --dry-run",
                   "--pr-author", "ana", "--pr-branch", "rename-docs-root", "--json")
    assert made.returncode == 0, made.stderr
    result = json.loads(made.stdout)
    assert result["files"] == ["docs/cli.md", "docs/env.md"]
    # --legacy stands only in a heading of legacy.md: worth a look, not edited
    assert [w["path"] for w in result["worth_a_look"]] == ["docs/legacy.md"]
    assert result["editor_passed"] is True
    facts = {f["text"] for f in result["facts"]}
    assert "flag --docs-root renamed to --docs-dir" in facts and "flag --retries default 3 → 5" in facts
    suggestion = str(result["suggestion_id"])

    diff = project("items", "diff", "docflows", suggestion)
    assert diff.returncode == 0, diff.stderr
    lines = diff.stdout.splitlines()
    for expected in ["--- a/docs/cli.md", "+++ b/docs/cli.md",
                     "-| `--docs-root` | `docs` | folder of the docs |",
                     "+| `--docs-dir` | `docs` | folder of the docs |",
                     "-| `--retries` | `3` | how often to retry |", "+| `--retries` | `5` | how often to retry |",
                     "-| `--legacy` | | old mode |", "+| `--dry-run` | — | show what would happen |",
                     "-Run `deploy --docs-root site/` to publish from another folder.",
                     "+Run `deploy --docs-dir site/` to publish from another folder.",
                     "+- `DEPLOY_REGION`: defaults to `eu-west-1`"]:
        assert expected in lines, expected
    assert "\x1b[" not in diff.stdout  # no colour off a terminal
    as_data = json.loads(project("items", "diff", "docflows", suggestion, "--json").stdout)
    assert as_data["diff"].splitlines() == lines[:len(as_data["diff"].splitlines())]  # the same diff, for scripts
    assert [f["path"] for f in as_data["files"]] == ["docs/cli.md", "docs/env.md"]
    assert "diff" not in json.loads(project("items", "diff", "docflows", suggestion, "--stat", "--json").stdout)

    stat = project("items", "diff", "docflows", suggestion, "--stat")
    assert stat.stdout.splitlines() == ["  docs/cli.md  +4 -4", "  docs/env.md  +1 -0", "pull request: none yet"]
    listed = json.loads(project("items", "list", "docflows", "--json").stdout)
    assert [i["title"] for i in listed] == ["PR #7: Rename --docs-root"]


def test_a_pull_request_that_changes_only_tests_needs_no_docs_change(project):
    made = project("docflow", "--pr-number", "8", "--pr-title", "Tests", "--pr-body", "", "--pr-author", "ana",
                   "--pr-branch", "only-tests")
    assert made.returncode == 0, made.stderr
    assert made.stdout.startswith("No documentation change needed for PR #8:")


def test_docflow_needs_the_integration_in_docsvc_yaml(project, tmp_path):
    done = run_cli("docflow", "--pr-number", "1", "--pr-title", "t", "--pr-body", "b", "--pr-author", "a",
                   key="dsv_x", base_url="http://127.0.0.1:9", cwd=tmp_path)
    assert done.returncode == 2 and "integration_id is missing" in done.stderr


def test_an_unknown_branch_fails_with_the_reason(project):
    done = project("docflow", "--pr-number", "99", "--pr-title", "t", "--pr-body", "b", "--pr-author", "a",
                   "--pr-branch", "no-such-branch")
    assert done.returncode == 1 and "Pull request not found" in done.stderr


def test_history_and_restore(project):
    suggestion = new_suggestion(project, 10)
    history = project("items", "history", "docflows", suggestion)
    assert history.returncode == 0, history.stderr
    lines = history.stdout.splitlines()
    assert lines[0] == "Information Architect: 2 page(s) planned"
    assert any(line.startswith("  docs/cli.md (direct, 0.9): mentions --docs-root") for line in lines)
    assert "Writer: edited 2 file(s) [version 1]" in lines and "Editor: passed" in lines
    kept = json.loads(project("items", "history", "docflows", suggestion, "--json").stdout)
    assert [r.get("version") for r in kept] == [None, 1, None]

    restored = project("items", "restore", "docflows", suggestion, "1")
    assert restored.stdout.strip() == f"Restored version 1 of suggestion {suggestion}; the text before it is kept " \
                                      "as version 2"
    again = project("items", "history", "docflows", suggestion).stdout.splitlines()
    assert again[-1].startswith("Restore by ada") and again[-1].endswith("[version 2]")
    missing = project("items", "restore", "docflows", suggestion, "9")
    assert missing.returncode == 1 and "has no version 9 (versions: 1, 2)" in missing.stderr


def test_dismiss_as_rejected_or_done(project):
    first, second = new_suggestion(project, 11), new_suggestion(project, 12)
    refused = project("items", "dismiss", "docflows", first)  # stdin is not a terminal
    assert refused.returncode == 2 and "pass --yes" in refused.stderr
    done = project("items", "dismiss", "docflows", first, "--yes")
    assert done.returncode == 0 and done.stdout.split()[-1] == "rejected"
    as_done = project("items", "dismiss", "docflows", second, "--yes", "--done")
    assert as_done.stdout.split()[-1] == "done"
    twice = project("items", "dismiss", "docflows", second, "--yes")
    assert twice.returncode == 1 and "already dismissed" in twice.stderr


def test_approve_opens_a_docs_branch_and_records_it(project, service):
    suggestion = new_suggestion(project, 13)
    refused = project("items", "approve", "docflows", suggestion)
    assert refused.returncode == 2 and "a release is required" in refused.stderr
    approved = project("items", "approve", "docflows", suggestion, "--new-release", "3.1", "--json")
    assert approved.returncode == 0, approved.stderr
    answer = json.loads(approved.stdout)
    pr = answer["pull_request"]
    assert (answer["release_name"], answer["status"], pr["state"]) == ("3.1", "in_review", "open")
    assert answer["release_notes"] == "include"  # the service's own suggestion: flags were renamed and added
    # The branch is in the docs repository, with the suggestion's text.
    docs_bare = next(p for p in service.workdir.parent.parent.glob("docflow*/docs.git"))
    shown = git("show", f"{pr['branch']}:docs/cli.md", cwd=docs_bare)
    assert "| `--docs-dir` | `docs` | folder of the docs |" in shown
    assert git("log", "-1", "--format=%an %s", pr["branch"], cwd=docs_bare) == "docsvc Docs for PR #13: PR 13"
    listed = {i["id"]: i for i in json.loads(project("items", "list", "docflows", "--json").stdout)}
    assert listed[int(suggestion)]["release_name"] == "3.1"
    assert listed[int(suggestion)]["pull_request"]["url"].endswith(f"#{pr['branch']}")
    again = project("items", "approve", "docflows", suggestion, "--release", str(answer["release_id"]))
    assert again.returncode == 1 and "already approved" in again.stderr
    # The approver signed off every file: each is Reviewed (✓), and the pull request's state is given.
    stat = project("items", "diff", "docflows", suggestion, "--stat").stdout.splitlines()
    assert stat[-1] == f"pull request: open {pr['url']}"
    assert all(line.startswith("✓ ") for line in stat[:-1]), stat


def test_request_changes_applies_what_it_can_read_and_costs_credits(project, service):
    suggestion = new_suggestion(project, 14)
    done = project("items", "request-changes", "docflows", suggestion, "-m",
                   'replace "folder of the docs" with "where the docs live"; rename section "Other notes" to '
                   '"Notes"\nmake it friendlier', "--file", "docs/cli.md")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        'applied: replace "folder of the docs" with "where the docs live"',
        'could not apply: rename section "Other notes" to "Notes"',  # limited to docs/cli.md
        "could not apply: make it friendlier", "Editor: passed"]
    assert "+| `--docs-dir` | `docs` | where the docs live |" in project("items", "diff", "docflows", suggestion).stdout
    history = project("items", "history", "docflows", suggestion).stdout.splitlines()
    assert any(line.startswith("Changes requested by ada: replace") for line in history)
    assert "Writer (revision): applied 1 of 3 instruction(s) [version 2]" in history
    # Two instructions are still open: the dashboard shows the request as needing attention.
    board = json.loads(project("dashboard", "--json").stdout)
    assert (int(suggestion), "ada") in [(i["id"], i["requested_by"]) for i in board["attention"]["changes_requested"]]
    assert service.admin("credits", "show", "--org", "Flows") == "92"  # 100 - 8
    # Nothing the Writer can apply: free, and the history still says who asked for what.
    vague = project("items", "request-changes", "docflows", suggestion, "-m", "make it shorter")
    assert vague.returncode == 0 and vague.stdout.splitlines()[0] == "could not apply: make it shorter"
    history = project("items", "history", "docflows", suggestion).stdout.splitlines()
    assert any(line.startswith("Changes requested by ada: make it shorter") for line in history)
    assert service.admin("credits", "show", "--org", "Flows") == "92"

    service.admin("credits", "set", "--org", "Flows", "--amount", "3")
    broke = project("items", "request-changes", "docflows", suggestion, "-m", 'remove "--retries"')
    assert broke.returncode == 1 and "Not enough credits: request-changes costs 8, the balance is 3" in broke.stderr
    assert service.admin("credits", "show", "--org", "Flows") == "3"
    service.admin("credits", "set", "--org", "Flows", "--amount", "100")


def test_sync_latest_code_adds_what_the_draft_lacks(project, service):
    suggestion = new_suggestion(project, 15)
    quiet = project("items", "sync", "docflows", suggestion)
    assert quiet.stdout.strip() == f"Suggestion {suggestion}: the pull request has no new commits"
    before = int(service.admin("credits", "show", "--org", "Flows"))

    code = next(p for p in service.workdir.parent.parent.glob("docflow*/code-work"))
    git("checkout", "-q", "rename-docs-root", cwd=code)
    text = (code / "app" / "cli.py").read_text().replace(
        '    return parser', '    parser.add_argument("--timeout", default="30s", help="give up after this long")\n'
                           '    return parser')
    (code / "app" / "cli.py").write_text(text)
    git("commit", "-q", "-am", "add --timeout", cwd=code)
    git("push", "-q", "origin", "rename-docs-root", cwd=code)
    stat = json.loads(project("items", "diff", "docflows", suggestion, "--stat", "--json").stdout)
    assert stat["new_commits"] is True

    synced = project("items", "sync", "docflows", suggestion)
    assert synced.returncode == 0, synced.stderr
    assert f"Suggestion {suggestion} synced to" in synced.stdout and "(8 credits)" in synced.stdout
    assert "  new: flag --timeout added" in synced.stdout and "  updated: docs/cli.md" in synced.stdout
    assert "+| `--timeout` | `30s` | give up after this long |" in \
        project("items", "diff", "docflows", suggestion).stdout
    assert int(service.admin("credits", "show", "--org", "Flows")) == before - 8
    assert json.loads(project("items", "diff", "docflows", suggestion, "--stat", "--json").stdout)["new_commits"] is False


def test_the_human_output_lists_what_was_not_edited(project):
    made = project("docflow", "--pr-number", "9", "--pr-title", "Rename --docs-root", "--pr-body", "",
                   "--pr-author", "ana", "--pr-branch", "rename-docs-root")
    assert made.returncode == 0, made.stderr
    lines = made.stdout.splitlines()
    at = lines.index("Worth a look (weaker signs, not edited):")
    assert lines[at + 1].startswith("  docs/legacy.md: ") and "--legacy" in lines[at + 1]
    assert lines[-1].startswith("See it with: docsvc items diff docflows ")


def test_the_page_a_changed_message_links_to_is_planned_for_review(project):
    made = project("docflow", "--pr-number", "11", "--pr-title", "Say when --legacy goes", "--pr-body", "",
                   "--pr-author", "ana", "--pr-branch", "warn-legacy", "--json")
    assert made.returncode == 0, made.stderr
    result = json.loads(made.stdout)
    # the link's path ends as docs/legacy.md's, and the page holds its anchor ("## The --legacy mode")
    assert result["files"] == [] and result["open_points"][0].startswith("docs/legacy.md: review by hand")
    plan = json.loads(project("items", "history", "docflows", str(result["suggestion_id"]), "--json").stdout)
    [page] = plan[0]["pages"]  # the Information Architect's round
    assert (page["path"], page["mode"]) == ("docs/legacy.md", "related")
    assert page["reasons"] == ["the changed code links to it: https://deploy.example.org/en/stable/legacy.html"
                               "#the-legacy-mode (the section at line 3) [changed lines]"]


def test_outside_text_reaches_the_terminal_escaped(project):
    # a pull request's title is the author's to choose: an escape sequence in it must not clear the
    # reader's screen or retitle the terminal, in the docflow's own output or in a list later
    title = "Say when \x1b[2J\x1b]0;pwned\x07--legacy goes"
    shown = "Say when \\x1b[2J\\x1b]0;pwned\\x07--legacy goes"
    made = project("docflow", "--pr-number", "12", "--pr-title", title, "--pr-body", "", "--pr-author", "ana",
                   "--pr-branch", "warn-legacy")
    assert made.returncode == 0, made.stderr
    listed = project("items", "list", "docflows")
    assert "\x1b" not in made.stdout + made.stderr + listed.stdout + listed.stderr
    assert f"PR #12: {shown}" in listed.stdout
    # the data stays as given: --json escapes it the JSON way
    assert f"PR #12: {title}" in [i["title"] for i in json.loads(project("items", "list", "docflows", "--json").stdout)]


def test_approve_says_which_release_option_is_wrong(project):
    both = project("items", "approve", "docflows", "1", "--release", "1", "--new-release", "x")
    assert both.returncode == 2 and "give one of --release or --new-release, not both" in both.stderr
    neither = project("items", "approve", "docflows", "1")
    assert neither.returncode == 2 and "a release is required: give --release ID or --new-release NAME" in neither.stderr


# --- a dismissed suggestion (Rejected or Done) takes no changing action ---------------------------

def _credits(service) -> str:
    return service.admin("credits", "show", "--org", "Flows")


@pytest.mark.parametrize("number, how", [(30, "--done"), (31, None)])
def test_a_dismissed_suggestion_refuses_every_change_before_charging(project, service, number, how):
    suggestion = new_suggestion(project, number)
    assert project("items", "request-changes", "docflows", suggestion, "-m",
                   'replace "folder of the docs" with "where the docs live"').returncode == 0  # a version 2
    status = "done" if how else "rejected"
    dismissed = project("items", "dismiss", "docflows", suggestion, "--yes", *([how] if how else []))
    assert dismissed.returncode == 0, dismissed.stderr
    before = {"credits": _credits(service), "diff": project("items", "diff", "docflows", suggestion).stdout,
              "stat": project("items", "diff", "docflows", suggestion, "--stat").stdout,
              "history": project("items", "history", "docflows", suggestion, "--json").stdout,
              "shots": project("items", "screenshots", "docflows", suggestion).stdout}
    for args, doing in [
        (("request-changes", "docflows", suggestion, "-m", 'replace "where the docs live" with "docs folder"'),
         "changed (request-changes)"),
        (("sync", "docflows", suggestion), "synced with the latest code"),
        (("restore", "docflows", suggestion, "1"), "restored"),
        (("screenshots", "docflows", suggestion, "--take", "/settings"), "given screenshots"),
        (("check", "docflows", suggestion), "checked against the docs"),
        (("approve", "docflows", suggestion, "--new-release", "9.9"), "approved"),
    ]:
        refused = project("items", *args)
        assert refused.returncode == 1, (args, refused.stdout)
        assert refused.stderr.strip() == f"Error: Docflows suggestion {suggestion} is already dismissed ({status}); " \
                                         f"it cannot be {doing}", args
    after = {"credits": _credits(service), "diff": project("items", "diff", "docflows", suggestion).stdout,
             "stat": project("items", "diff", "docflows", suggestion, "--stat").stdout,
             "history": project("items", "history", "docflows", suggestion, "--json").stdout,
             "shots": project("items", "screenshots", "docflows", suggestion).stdout}
    assert after == before  # no credit taken, no text, Reviewed mark, version or screenshot changed
    assert "9.9" not in project("releases", "list").stdout


def test_a_dismissed_suggestion_keeps_its_status(project):
    suggestion = new_suggestion(project, 32)
    assert project("items", "dismiss", "docflows", suggestion, "--yes").returncode == 0
    moved = project("items", "status", "docflows", suggestion, "todo")
    assert moved.returncode == 1
    assert moved.stderr.strip() == f"Error: Docflows suggestion {suggestion} is already dismissed (rejected); it " \
                                   "cannot be moved to todo"
    assert project("items", "status", "docflows", suggestion, "done").returncode == 1  # dismiss --done is too late
    # The status it has, again: no change, and a note on it is welcome.
    noted = project("items", "status", "docflows", suggestion, "rejected", "--note", "same as PR #31")
    assert noted.returncode == 0, noted.stderr
    listed = {i["id"]: i for i in json.loads(project("items", "list", "docflows", "--json").stdout)}
    assert (listed[int(suggestion)]["work_status"], listed[int(suggestion)]["status_note"]) == \
        ("rejected", "same as PR #31")
    approve = project("items", "approve", "docflows", suggestion, "--release", "1")
    assert approve.returncode == 1 and "is already dismissed (rejected); it cannot be approved" in approve.stderr


def test_docflow_again_at_the_same_commit_attaches_the_uploaded_screenshots(project, tmp_path):
    def docflow(number: int, *extra: str):
        return project("docflow", "--pr-number", str(number), "--pr-title", "t", "--pr-body", "", "--pr-author",
                       "wes", "--pr-branch", "rename-docs-root", *extra)

    first = docflow(33)
    assert first.returncode == 0, first.stderr
    suggestion = first.stdout.split()[1]
    shot = tmp_path / "ok.png"
    shot.write_bytes(PNG)
    again = docflow(33, "--screenshot", f"/settings={shot}")
    assert again.returncode == 0, again.stderr
    assert again.stdout.startswith(f"Suggestion {suggestion} for PR #33, made before for commit ")
    assert "Screenshots attached: /settings" in again.stdout.splitlines()
    listed = project("items", "screenshots", "docflows", suggestion).stdout.splitlines()
    assert [line for line in listed if "/settings" in line] == ["✓ /settings ok.png: uploaded from CI"]

    # A dismissed suggestion takes none: the run still answers with it, and warns.
    assert project("items", "dismiss", "docflows", suggestion, "--yes").returncode == 0
    other = tmp_path / "other.png"
    other.write_bytes(PNG)
    dropped = docflow(33, "--screenshot", f"/about={other}")
    assert dropped.returncode == 0, dropped.stderr
    assert f"warning: the 1 uploaded screenshot(s) were not kept: Docflows suggestion {suggestion} is already " \
           "dismissed (rejected); it cannot be given screenshots" in dropped.stderr
    assert "/about" not in project("items", "screenshots", "docflows", suggestion).stdout


def test_restoring_another_text_takes_the_reviewed_mark_of_the_files_it_changes(project):
    def marks() -> list[str]:  # each file's mark and path, without its counts
        stat = project("items", "diff", "docflows", suggestion, "--stat").stdout.splitlines()[:-1]
        return [line.rsplit("  ", 1)[0] for line in stat]

    suggestion = new_suggestion(project, 34)
    assert project("items", "request-changes", "docflows", suggestion, "-m",
                   'replace "folder of the docs" with "where the docs live"').returncode == 0  # cli.md: version 2
    assert project("items", "approve", "docflows", suggestion, "--new-release", "3.4").returncode == 0
    assert marks() == ["✓ docs/cli.md", "✓ docs/env.md"]
    assert project("items", "restore", "docflows", suggestion, "1").returncode == 0
    # cli.md reads as version 1 again: not what the approver signed off; env.md did not change
    assert marks() == ["  docs/cli.md", "✓ docs/env.md"]
