"""The Writer's page structures through the real CLI and service (issue 36): a click option added
becomes a line in the docs' ``--help`` output and a row in the options table; an option deprecated
gets its deprecation mark with the release the change ships in."""

from __future__ import annotations

from tests.support import GitRemote, docflow, docflow_project
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
