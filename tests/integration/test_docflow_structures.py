"""The Writer's page structures through the real CLI and service (issue 36): a click option added
becomes a line in the docs' ``--help`` output and a row in the options table; an option deprecated
gets its deprecation mark with the release the change ships in."""

from __future__ import annotations

import json

from tests.support import GitRemote, docflow, docflow_project, git
from tests.unit.test_docflows_structures import CLI, OPTIONS_RST, SETTINGS, USAGE

MANIFEST = '[project]\nname = "greet"\nversion = "1.3.0.dev0"\n'
# pages of other subjects: a name on every page is nobody's evidence
OTHER_PAGES = {f"docs/guide/{topic}.md": f"# {topic.title()}\n\nAbout {topic}.\n"
               for topic in ("install", "faq", "history", "support", "design", "plugins", "themes", "deploy", "testing",
                             "security")}


def test_a_new_click_option_and_a_deprecated_one_are_written_where_the_docs_list_options(service, tmp_path):
    code = GitRemote(tmp_path, "code", {"greet.py": CLI, "pyproject.toml": MANIFEST})
    code.branch("loud", {"greet.py": CLI.replace(
        'help="Who to greet.")', 'help="Who to greet.", deprecated=True)').replace(
        '@click.option("--count", default=1, help="How many times.")\n',
        '@click.option("--count", default=1, help="How many times.")\n'
        '@click.option("--loud", is_flag=True, help="Shout the greeting.")\n')}, "Add --loud, deprecate --name")
    cli = docflow_project(service, tmp_path, "Structures", code,
                          {"docs/usage.md": USAGE, "docs/settings.md": SETTINGS, "docs/options.rst": OPTIONS_RST,
                           **OTHER_PAGES})
    result = docflow(cli, 4, "loud", "Add --loud, deprecate --name")
    assert result["files"] == ["docs/options.rst", "docs/settings.md", "docs/usage.md"]
    assert result["editor_passed"] is True
    diff = cli("items", "diff", "docflows", str(result["suggestion_id"])).stdout.splitlines()
    for line in ["+  --loud           Shout the greeting.",  # click's help format, in the block's column
                 "+| `--loud` | — | Shout the greeting. |",  # the code gives no default
                 "+.. option:: --loud", "+   Shout the greeting.",
                 "+   .. deprecated:: 1.3"]:
        assert line in diff, line
    assert not [line for line in diff if line.startswith("-") and not line.startswith("---")]  # nothing deleted


def test_sync_latest_code_drafts_go_through_the_editor_s_checks_as_the_first_draft_does(service, tmp_path):
    """A settings table whose rows carry a stray last cell: a row shaped like them would not have
    its table's columns. The first suggestion drops that draft (the page is worth a look), and so
    does Sync Latest Code when a new commit adds another option; its help line is still written."""
    stray = SETTINGS.replace(" |\n| `", " | |\n| `").replace("times. |\n", "times. | |\n")
    code = GitRemote(tmp_path, "code", {"greet.py": CLI, "pyproject.toml": MANIFEST})
    louder = CLI.replace('@click.option("--count", default=1, help="How many times.")\n',
                         '@click.option("--count", default=1, help="How many times.")\n'
                         '@click.option("--loud", is_flag=True, help="Shout the greeting.")\n')
    code.branch("loud", {"greet.py": louder}, "Add --loud")
    cli = docflow_project(service, tmp_path, "Refreshed", code, {"docs/usage.md": USAGE, "docs/settings.md": stray,
                                                                 **OTHER_PAGES})
    first = docflow(cli, 5, "loud", "Add --loud")
    assert first["files"] == ["docs/usage.md"]
    assert [look["path"] for look in first["worth_a_look"]] == ["docs/settings.md"]
    suggestion = str(first["suggestion_id"])

    git("checkout", "-q", "loud", cwd=code.work)
    code.commit({"greet.py": louder.replace(
        '@click.option("--loud", is_flag=True, help="Shout the greeting.")\n',
        '@click.option("--loud", is_flag=True, help="Shout the greeting.")\n'
        '@click.option("--quiet", is_flag=True, help="Whisper the greeting.")\n')}, "Add --quiet", branch="loud")
    synced = cli("items", "sync", "docflows", suggestion, "--json")
    assert synced.returncode == 0, synced.stderr
    result = json.loads(synced.stdout)
    assert result["added"] == ["flag --quiet added"] and result["updated_files"] == ["docs/usage.md"]
    assert [look["path"] for look in result["worth_a_look"]] == ["docs/settings.md"]
    assert "[Editor: table-columns]" in result["worth_a_look"][0]["reason"]
    diff = cli("items", "diff", "docflows", suggestion).stdout
    assert "+  --quiet          Whisper the greeting." in diff and "`--quiet`" not in diff
    summary = json.loads(cli("items", "diff", "docflows", suggestion, "--stat", "--json").stdout)
    assert [f["path"] for f in summary["files"]] == ["docs/usage.md"]
    settings = next(page for page in summary["pages"] if page["path"] == "docs/settings.md")
    assert settings["action"] == "for review" and "[Editor: table-columns]" in settings["why"][-1]
