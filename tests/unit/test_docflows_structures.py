"""The Writer's page structures (issue 36), each on a small real git repository with one pull
request: facts read from the two commits, the pages planned, the draft written and checked by the
Editor, as the ``docflow.generate`` job does it."""

from __future__ import annotations

from pathlib import Path

import pytest

from docsvc.server.engines.docflows.editor import dropped, review
from docsvc.server.engines.docflows.evidence.model import Plan, PlannedPage
from docsvc.server.engines.docflows.evidence.pages import PageIndex
from docsvc.server.engines.docflows.facts import facts_between
from docsvc.server.engines.docflows.facts_model import Fact
from docsvc.server.engines.docflows.planner import plan
from docsvc.server.engines.docflows.release import release_of
from docsvc.server.engines.docflows.structure import python_modules, renders_module
from docsvc.server.engines.docflows.structures import STRUCTURES, Structure
from docsvc.server.engines.docflows.writer import write
from docsvc.server.engines.git import Mirror
from tests.support import GitRemote

CLI = '''import click


@click.command()
@click.option("-v", "--verbose", is_flag=True, help="Print more.")
@click.option("--name", default="world", help="Who to greet.")
@click.option("--count", default=1, help="How many times.")
def main(verbose, name, count):
    """Greet."""
'''

USAGE = """# Usage

```console
$ greet --help
Usage: greet [OPTIONS]

  Greet.

Options:
  -v, --verbose    Print more.
  --name TEXT      Who to greet.
  --count INTEGER  How many times.
  --help           Show this message and exit.
```
"""

SETTINGS = """# Settings

| Option | Default | Description |
|---|---|---|
| `--verbose` | `False` | Print more. |
| `--name` | `world` | Who to greet. |
| `--count` | `1` | How many times. |
"""

OPTIONS_RST = """Options
=======

.. option:: --name

   Who to greet.

.. option:: --count

   How many times.

   .. versionadded:: 1.2
"""


def _run(tmp_path: Path, code: dict[str, str], docs: dict[str, str], change: dict[str, str | None],
         title: str | None = None):
    """A code repository with ``code``, a pull request committing ``change`` (titled ``title``):
    the facts, the plan on ``docs``, the draft, and the Editor's review of it against the pages as
    they were."""
    remote = GitRemote(tmp_path, "app", code)
    mirror = Mirror.for_url(tmp_path / "data", str(remote.bare))
    mirror.fetch()
    base = mirror.head("main")
    remote.commit(change, "the pull request")
    mirror.fetch()
    head = mirror.head("main")
    facts = facts_between(mirror, base, head)
    index = PageIndex(docs)
    planned = plan(facts, index.find, index.read, total_pages=len(index))
    draft = write(planned, index.read, release_of(mirror, base, head), title, code_files=mirror.tree(head, "."))
    checked = review(draft.files, lambda p: True, originals={p: docs[p] for p in draft.files})
    return facts, planned, draft, checked


def test_every_structure_says_what_it_carries_behind_one_interface():
    assert all(isinstance(s, Structure) and s.name and s.carries for s in STRUCTURES)
    assert len({s.name for s in STRUCTURES}) == len(STRUCTURES)


def test_a_click_option_added_gets_its_help_line_and_its_table_row(tmp_path):
    new = CLI.replace('@click.option("--count", default=1, help="How many times.")\n',
                      '@click.option("--count", default=1, help="How many times.")\n'
                      '@click.option("--shout-prefix", default=">>", help="The text each greeting starts with '
                      'when it is shouted, before the name itself.")\n')
    facts, planned, draft, checked = _run(tmp_path, {"greet.py": CLI, "pyproject.toml": '[project]\nname = "greet"\n'},
                                          {"docs/usage.md": USAGE, "docs/settings.md": SETTINGS},
                                          {"greet.py": new})
    assert [(f.name, f.shows) for f in facts] == [("--shout-prefix", "TEXT")]
    usage = draft.files["docs/usage.md"].split("\n")
    # click's own format, as click prints it: the value's type name, the help column moved to the
    # new widest option's width plus two, the help wrapped at 78 columns, before --help as the code has it
    at = usage.index("Options:")
    assert usage[at + 1:at + 7] == ["  -v, --verbose        Print more.",
                                    "  --name TEXT          Who to greet.",
                                    "  --count INTEGER      How many times.",
                                    "  --shout-prefix TEXT  The text each greeting starts with when it is shouted,",
                                    "                       before the name itself.",
                                    "  --help               Show this message and exit."]
    assert "| `--shout-prefix` | `>>` | The text each greeting starts with when it is shouted, before the name " \
           "itself. |" in draft.files["docs/settings.md"].split("\n")
    assert checked.passed, checked.comments
    # the help block's page has no table of its siblings: that is no open point once its line is written
    assert not [p for p in draft.open_points if p.startswith("docs/usage.md")]


def test_an_argparse_option_added_moves_the_help_column_and_shows_its_destination(tmp_path):
    code = ('import argparse\n\nparser = argparse.ArgumentParser()\n'
            'parser.add_argument("--host", help="Host to bind.")\n'
            'parser.add_argument("--port", type=int, help="Port to bind.")\n')
    new = code + 'parser.add_argument("--max-size", help="Largest body.")\n' \
                 'parser.add_argument("--quiet", action="store_true", help="No output.")\n'
    page = ("# Serve\n\n```text\noptions:\n  -h, --help   show this help message and exit\n"
            "  --host HOST  Host to bind.\n  --port PORT  Port to bind.\n```\n")
    _, _, draft, _ = _run(tmp_path, {"serve.py": code}, {"docs/serve.md": page}, {"serve.py": new})
    # as argparse prints it: the help column moved to the widest option's width plus two
    assert draft.files["docs/serve.md"].split("\n")[4:9] == [
        "  -h, --help           show this help message and exit", "  --host HOST          Host to bind.",
        "  --port PORT          Port to bind.", "  --max-size MAX_SIZE  Largest body.",
        "  --quiet              No output."]


def test_a_cobra_flag_gets_its_line_with_pflag_s_type_name_and_its_default_as_the_siblings_say_theirs(tmp_path):
    code = ('package cmd\n\nimport "github.com/spf13/cobra"\n\nfunc init() {\n'
            '\trootCmd.Flags().StringP("output", "o", "out", "where to write")\n'
            '\trootCmd.Flags().Bool("verbose", false, "print more")\n}\n')
    new = code.replace('\trootCmd.Flags().Bool(', '\trootCmd.Flags().Duration("timeout", 0, "how long to wait")\n'
                                                  '\trootCmd.Flags().String("lang", "en", "the language")\n'
                                                  '\trootCmd.Flags().Bool(')
    page = ("# app\n\n```\nFlags:\n  -h, --help            help for app\n"
            '  -o, --output string   where to write (default "out")\n      --verbose         print more\n```\n')
    _, _, draft, _ = _run(tmp_path, {"cmd/root.go": code}, {"docs/app.md": page}, {"cmd/root.go": new})
    lines = draft.files["docs/app.md"].split("\n")
    # cobra pads a flag without a shorthand to the long forms' column; a zero default goes unsaid;
    # the help column moves to the widest flag plus pflag's three spaces, as pflag prints it
    assert lines[lines.index("Flags:") + 1:][:5] == [
        "  -h, --help               help for app", '  -o, --output string      where to write (default "out")',
        "      --timeout duration   how long to wait", '      --lang string        the language (default "en")',
        "      --verbose            print more"]


def test_a_setting_added_as_a_class_field_gets_a_reference_entry(tmp_path):
    code = ('from dataclasses import dataclass\n\n\n@dataclass\nclass Settings:\n'
            '    timeout: int = 30\n    """Seconds to wait for the server."""\n'
            '    retries: int = 3\n    """How often to retry a failed request."""\n')
    new = code + '    backoff: float = 1.5\n    """Factor the wait grows by between retries."""\n'
    page = ("Settings\n========\n\n.. confval:: timeout\n\n   Seconds to wait for the server.\n\n"
            ".. confval:: retries\n\n   How often to retry a failed request.\n")
    _, _, draft, checked = _run(tmp_path, {"app/settings.py": code}, {"docs/settings.rst": page},
                                {"app/settings.py": new})
    assert draft.files["docs/settings.rst"].endswith(
        ".. confval:: retries\n\n   How often to retry a failed request.\n\n"
        ".. confval:: backoff\n\n   Factor the wait grows by between retries.\n")
    assert checked.passed, checked.comments


def test_an_option_deprecated_gets_a_deprecation_mark_with_the_coming_release(tmp_path):
    new = CLI.replace('help="Who to greet.")', 'help="Who to greet.", deprecated=True)')
    code = {"greet.py": CLI, "pyproject.toml": '[project]\nname = "greet"\nversion = "1.3.0.dev0"\n'}
    facts, _, draft, checked = _run(tmp_path, code, {"docs/options.rst": OPTIONS_RST}, {"greet.py": new})
    assert [f.describe() for f in facts] == ["flag --name deprecated: its definition says so"]
    # in its directive's body, the version written as the page writes its versions (1.2: two parts)
    assert ".. option:: --name\n\n   Who to greet.\n\n   .. deprecated:: 1.3\n\n.. option:: --count" in \
        draft.files["docs/options.rst"]
    assert checked.passed, checked.comments


def test_a_deprecated_option_without_a_known_release_is_pointed_out(tmp_path):
    new = CLI.replace('help="Who to greet.")', 'help="Who to greet.", deprecated="Use --to.")')
    _, _, draft, _ = _run(tmp_path, {"greet.py": CLI}, {"docs/options.rst": OPTIONS_RST}, {"greet.py": new})
    assert draft.files == {}
    assert any(p.startswith("docs/options.rst: --name is now deprecated (line(s) 4)") for p in draft.open_points)


def test_requires_python_raised_restates_the_install_sentence(tmp_path):
    manifest = '[project]\nname = "greet"\nrequires-python = ">=3.8"\n'
    install = ("# Install\n\ngreet needs Python 3.8 or later:\n\n    pip install greet\n\n"
               "Python 3.8.1 fixed a bug we met; we test on Python 3.8, 3.9 and 3.12.\n\n"
               "In Python 3.8 and later the output keeps its order. If your code supports Python 3.8 through\n"
               "3.12, say so. The runtime requires Python 3.8-3.12.\n")
    facts, planned, draft, _ = _run(tmp_path, {"greet.py": CLI, "pyproject.toml": manifest},
                                    {"docs/install.md": install, "docs/usage.md": USAGE},
                                    {"pyproject.toml": manifest.replace(">=3.8", ">=3.9")})
    assert [(f.kind, f.old, f.new) for f in facts] == [("requirement", ">=3.8", ">=3.9")]
    assert [p.path for p in planned.pages] == ["docs/install.md"]
    # the statement of the minimum changes; a patch release, a list of tested versions, the language's
    # history ("In Python 3.8 and later"), the user's own code and a span a person rewords do not
    assert draft.files["docs/install.md"] == install.replace("Python 3.8 or later", "Python 3.9 or later")


def test_a_requirement_statement_stale_before_the_pull_request_is_pointed_out_not_rewritten(tmp_path):
    manifest = '[project]\nname = "greet"\nrequires-python = ">=3.8"\n'
    install = "# Install\n\ngreet needs Python 3.8 or later.\n\nThe plugin needs Python 3.6+ too.\n"
    editors = "# Editors\n\nThe plugin requires Vim built with Python 3.7+ support.\n\nAny Python 3+ will do here.\n"
    faq = "# FAQ\n\nIt requires Python 3+ to run.\n"
    _, planned, draft, _ = _run(tmp_path, {"greet.py": CLI, "pyproject.toml": manifest},
                                {"docs/install.md": install, "docs/editors.md": editors, "docs/faq.md": faq,
                                 "docs/usage.md": USAGE}, {"pyproject.toml": manifest.replace(">=3.8", ">=3.9")})
    # the statement of 3.8 was made stale by the pull request; those of 3.6 and 3.7 were stale before
    # it; "Python 3+" is less precise, not wrong
    assert [p.path for p in planned.pages] == ["docs/install.md"]
    assert draft.files["docs/install.md"] == install.replace("Python 3.8 or later", "Python 3.9 or later")
    assert "docs/install.md: line 5 states python 3.6 as the minimum, not 3.8, the one before the pull request: " \
           "stale before it, so not rewritten; check whether it should say 3.9" in draft.open_points
    assert [(look["path"], look["reason"].split(":")[0]) for look in planned.worth_a_look] == [
        ("docs/editors.md", "states python 3.7 as the minimum (line 3), not 3.8")]


@pytest.mark.parametrize(("manifest", "old", "new", "before", "after"), [
    ("package.json", '{"name": "greet", "engines": {"node": ">=16.0.0"}}',
     '{"name": "greet", "engines": {"node": ">=18.0.0"}}', "Requires Node.js 16 or newer.",
     "Requires Node.js 18 or newer."),
    ("go.mod", "module example.org/greet\n\ngo 1.20\n", "module example.org/greet\n\ngo 1.21\n",
     "Build it with Go 1.20 or later.", "Build it with Go 1.21 or later."),
])
def test_node_engines_and_the_go_directive_raised_restate_their_statements(tmp_path, manifest, old, new, before,
                                                                           after):
    install = f"# Install\n\n{before}\n"
    _, _, draft, _ = _run(tmp_path, {manifest: old, "examples/package.json": '{"engines": {"node": ">=12"}}'},
                          {"docs/install.md": install, "docs/usage.md": USAGE},
                          {manifest: new, "examples/package.json": '{"engines": {"node": ">=14"}}'})
    # the project's own manifest speaks for it; an example's does not
    assert draft.files == {"docs/install.md": f"# Install\n\n{after}\n"}


def test_a_generated_reference_page_gets_no_edit_and_says_why(tmp_path):
    new = CLI.replace('@click.option("--count", default=1, help="How many times.")\n',
                      '@click.option("--count", default=1, help="How many times.")\n'
                      '@click.option("--loud", is_flag=True, help="Shout.")\n')
    page = ("CLI\n===\n\nThe options ``--name`` and ``--count`` are the ones you need.\n\n"
            ".. click:: greet:main\n   :prog: greet\n   :nested: full\n")
    _, planned, draft, _ = _run(tmp_path, {"greet.py": CLI}, {"docs/cli.rst": page}, {"greet.py": new})
    assert [p.path for p in planned.pages] == ["docs/cli.rst"]
    assert draft.files == {}
    assert "docs/cli.rst: no edit for --loud: the docs build generates this reference from the code " \
           "(.. click:: greet:main)" in draft.open_points


@pytest.mark.parametrize(("old", "new", "check"), [
    ("Title\n=====\n\n.. _opts:\n\nOptions\n-------\n\nSee :ref:`opts`.\n",
     "Title\n=====\n\nOptions\n-------\n\nSee :ref:`opts`.\n", "removed-target"),
    ("Title\n=====\n\n* a\n\nText.\n", "Title\n=====\n\n* a\nb\n\nText.\n", "parse"),
    ("# T\n\n| a | b |\n|---|---|\n| `x` | y |\n", "# T\n\n| a | b |\n|---|---|\n| `x` | y |\n| `z` | w | v |\n",
     "table-columns"),
    ("# T\n\n| a | b |\n|---|---|\n| `x` | y |\n", "# T\n\n| a | b |\n|---|---|\n| `x` | y |\n| `x` | z |\n",
     "duplicate-item"),
    ("Opts\n====\n\n.. option:: --x\n\n   One.\n", "Opts\n====\n\n.. option:: --x\n\n   One.\n\n.. option:: --x\n\n"
     "   Two.\n", "duplicate-item"),
    ("# API\n\n::: app.Client\n    :docstring:\n", "# API\n\n::: app.Client\n    :docstring:\n\n::: app.Client\n",
     "duplicate-item"),
])
def test_the_editor_drops_a_draft_that_leaves_the_page_worse(old, new, check):
    path = "docs/page.md" if old.startswith("#") else "docs/page.rst"
    result = review({path: new}, lambda p: True, originals={path: old})
    assert [c.check for c in result.comments] == [check]
    assert dropped(result)[path].startswith("the Writer's draft was dropped: ")


def test_a_label_each_section_repeats_is_no_duplicate_entry():
    # fastify's option sections each open with "+ Default: ..."; a new section says its own
    old = "# Options\n\n## `http`\n\n+ Default: `null`\n\nThe socket.\n"
    new = old + "\n## `http3`\n\n+ Default: `false`\n\nUse HTTP/3.\n"
    assert review({"docs/p.md": new}, lambda p: True, originals={"docs/p.md": old}).passed
    twice = old + "\n+ Default: `false`\n"  # the same label twice in one section is
    assert [c.check for c in review({"docs/p.md": twice}, lambda p: True,
                                    originals={"docs/p.md": old}).comments] == ["duplicate-item"]


def test_the_editor_does_not_blame_a_draft_for_the_page_s_own_faults_or_sphinx_directives():
    old = "Title\n=====\n\n* a\nb\n\n.. option:: --x\n\n   One.\n"  # a fault of its own already
    new = old + "\n.. option:: --y\n\n   Two.\n\n   .. deprecated:: 1.3\n"
    assert review({"docs/p.rst": new}, lambda p: True, originals={"docs/p.rst": old}).passed


def test_a_function_the_package_exports_joins_its_exported_siblings_reference(tmp_path):
    termui = ('def prompt(text):\n    """Ask."""\n\n\ndef hidden_prompt_func(text):\n    """A helper."""\n\n\n'
              'def getchar():\n    """Read a key."""\n')
    init = "from .termui import getchar, prompt\n"
    api = ("API\n===\n\n.. module:: pkg\n\n.. autofunction:: prompt\n\n.. autofunction:: getchar\n\n"
           ".. autofunction:: echo\n")
    _, _, draft, _ = _run(tmp_path, {"pkg/__init__.py": init, "pkg/termui.py": termui, "pkg/utils.py": "def echo():\n"
                                     "    pass\n"}, {"docs/api.rst": api},
                          {"pkg/termui.py": termui + '\n\ndef pause():\n    """Wait for a key."""\n',
                           "pkg/__init__.py": "from .termui import getchar, pause, prompt\n"})
    # the module's own helper, which the package does not import, is no sibling the page left out
    assert draft.files["docs/api.rst"] == api.replace(".. autofunction:: getchar\n",
                                                      ".. autofunction:: getchar\n\n.. autofunction:: pause\n")


# pages of other subjects: a name on every page is nobody's evidence
OTHER_PAGES = {f"docs/{topic}.md": f"# {topic}\n\nAbout {topic}.\n" for topic in (
    "install", "faq", "history", "support", "design", "plugins", "themes", "deploy", "testing", "security", "upgrade",
    "license", "glossary", "changes", "tutorial", "index")}


def test_a_page_that_only_refers_to_a_sibling_s_documentation_elsewhere_is_not_its_list(tmp_path):
    decorators = ('def pass_context(f):\n    """Pass the context."""\n\n\n'
                  'def make_pass_decorator(kind):\n    """Make a decorator."""\n')
    api = "API\n===\n\n.. module:: pkg\n\n.. autofunction:: pass_context\n\n.. autofunction:: make_pass_decorator\n"
    guide = ("Complex\n=======\n\nThis is provided by the :func:`make_pass_decorator` factory, and\n"
             ":func:`~pkg.pass_context` passes the context.\n")
    options = "# Options\n\nSee the [`make_pass_decorator` factory](api.md) and {func}`pass_context`.\n"
    _, planned, _, _ = _run(tmp_path, {"pkg/__init__.py": decorators},
                            {"docs/api.rst": api, "docs/complex.rst": guide, "docs/options.md": options,
                             **OTHER_PAGES},
                            {"pkg/__init__.py": decorators + '\n\ndef pass_meta_key(key):\n    """Pass a key."""\n'})
    # the guides name the siblings by a cross-reference to the reference that documents them
    assert [p.path for p in planned.pages] == ["docs/api.rst"]


def test_a_page_that_only_refers_to_a_class_has_its_own_variable_not_the_class_s_parameter(tmp_path):
    testing = 'class Result:\n    """What a run gave."""\n\n    def __init__(self, runner, stdout_bytes):\n        pass\n'
    page = ("Testing\n=======\n\nThe return value is a :class:`Result` object.\n\n.. code-block:: python\n\n"
            "   runner = CliRunner()\n   result = runner.invoke(hello)\n")
    facts, planned, _, _ = _run(tmp_path, {"pkg/testing.py": testing}, {"docs/testing.rst": page, **OTHER_PAGES},
                                {"pkg/testing.py": testing.replace("runner, stdout_bytes", "runner, stdout_bytes, out")})
    assert [(f.kind, f.name) for f in facts] == [("parameter", "Result(out)")]
    # the example's ``runner`` is its own: the page documents no Result, it refers to its reference
    assert planned.pages == []


def _setup_py(arguments: str) -> str:
    """A ``setup.py`` calling ``setup`` with these keyword arguments (written a line each)."""
    return f"from setuptools import setup\n\nsetup(\n    name='app',\n{arguments})\n"


def test_a_new_version_is_shown_where_the_docs_show_the_program_s_version_output(tmp_path):
    setup = _setup_py("    entry_points={\n        'console_scripts': [\n            'hello = greet.__main__:main',\n"
                      "        ],\n    },\n")
    install = ("# Install\n\n```bash\n$ pip install greet\n$ hello --version\n# 1.1.0.dev0\n```\n\n"
               "Any Python will do:\n\n```console\n$ python --version\nPython 3.11.4\n```\n")
    facts, planned, draft, checked = _run(
        tmp_path, {"setup.py": setup, "greet/__init__.py": '__version__ = "1.2.0.dev0"\n'},
        {"docs/install.md": install, "docs/usage.md": "# Usage\n\nRun `hello` to greet.\n"},
        {"greet/__init__.py": '__version__ = "1.2.0"\n'})
    assert [(f.kind, f.old, f.new, f.siblings) for f in facts] == [
        ("version", "1.2.0.dev0", "1.2.0", ("hello", "greet"))]
    assert [p.path for p in planned.pages] == ["docs/install.md"]
    # the version the project's own program prints, stale as it was, is now the new one; Python's is not its
    assert draft.files["docs/install.md"] == install.replace("# 1.1.0.dev0", "# 1.2.0")
    assert checked.passed, checked.comments


def test_a_function_moved_to_another_module_gets_its_new_dotted_path_where_the_old_one_is_gone(tmp_path):
    init = 'def schedule(jobs):\n    """Run the jobs."""\n\n\ndef reformat(src):\n    """Reformat."""\n'
    page = ("Reference\n=========\n\n.. autofunction:: pkg.reformat\n\n.. autofunction:: pkg.schedule\n\n"
            "Call ``schedule`` with the jobs.\n")
    facts, planned, draft, checked = _run(
        tmp_path, {"src/pkg/__init__.py": init}, {"docs/reference.rst": page},
        {"src/pkg/__init__.py": 'def reformat(src):\n    """Reformat."""\n',
         "src/pkg/concurrency.py": 'def schedule(jobs):\n    """Run the jobs."""\n'})
    assert [(f.change, f.old, f.name) for f in facts] == [("renamed", "pkg.schedule", "pkg.concurrency.schedule")]
    # the dotted path is rewritten; the bare name, still right, is not
    assert draft.files["docs/reference.rst"] == page.replace(":: pkg.schedule", ":: pkg.concurrency.schedule")
    assert checked.passed, checked.comments


def test_a_function_moved_yet_imported_where_it_was_keeps_its_path(tmp_path):
    init = 'def schedule(jobs):\n    """Run the jobs."""\n'
    facts, _, draft, _ = _run(
        tmp_path, {"src/pkg/__init__.py": init}, {"docs/reference.rst": ".. autofunction:: pkg.schedule\n"},
        {"src/pkg/__init__.py": "from .concurrency import schedule\n", "src/pkg/concurrency.py": init})
    assert not [f for f in facts if f.change == "renamed"]
    assert ".. autofunction:: pkg.schedule" in draft.files.get("docs/reference.rst", ".. autofunction:: pkg.schedule")


def test_a_page_that_names_a_moved_function_only_bare_is_not_planned(tmp_path):
    init = 'def run_jobs(jobs):\n    """Run the jobs."""\n\n\ndef reformat(src):\n    """Reformat."""\n'
    _, planned, draft, _ = _run(
        tmp_path, {"src/pkg/__init__.py": init}, {"docs/usage.md": "# Usage\n\nCall `run_jobs` with the jobs.\n"},
        {"src/pkg/__init__.py": 'def reformat(src):\n    """Reformat."""\n',
         "src/pkg/concurrency.py": 'def run_jobs(jobs):\n    """Run the jobs."""\n'})
    assert planned.pages == [] and draft.files == {}


def test_a_repository_moved_in_the_manifest_leads_the_docs_links_to_its_new_address(tmp_path):
    setup = _setup_py("    project_urls={\n        'GitHub': 'https://github.com/acme/app',\n    },\n")
    page = ("# Contributing\n\nReport bugs on [GitHub](https://github.com/acme/app/issues).\n\n"
            "```console\n$ git clone https://github.com/acme/app.git\n```\n\n"
            "Plugins live in [app-plugins](https://github.com/acme/app-plugins).\n")
    packaging = "# Packaging\n\n```console\n$ wget https://api.github.com/repos/acme/app/tarball/2.5.0\n```\n"
    facts, planned, draft, checked = _run(
        tmp_path, {"setup.py": setup, "app/__init__.py": ""},
        {"docs/contributing.md": page, "docs/packaging.md": packaging, "docs/usage.md": "# Usage\n\nRun `app`.\n"},
        {"setup.py": setup.replace("acme/app", "acme/app-cli")})
    assert [(f.kind, f.old, f.name) for f in facts] == [("repository", "github.com/acme/app",
                                                         "github.com/acme/app-cli")]
    assert sorted(p.path for p in planned.pages) == ["docs/contributing.md", "docs/packaging.md"]
    # GitHub's API address of the same repository moves with it
    assert draft.files["docs/packaging.md"] == packaging.replace("repos/acme/app/", "repos/acme/app-cli/")
    # another repository whose name only starts alike stays
    assert draft.files["docs/contributing.md"] == page.replace("acme/app/", "acme/app-cli/").replace(
        "acme/app.git", "acme/app-cli.git")
    assert checked.passed, checked.comments


def test_links_into_the_branch_the_manifest_no_longer_names_lead_into_the_new_one(tmp_path):
    setup = _setup_py("    project_urls={\n        'Changelog': 'https://github.com/acme/app/blob/master/CHANGES.md',\n"
                      "    },\n")
    page = ("# Contributing\n\nSee [the configs](https://github.com/acme/app/blob/master/docs/configs/).\n\n"
            "Run a version from master, or [another fork's](https://github.com/other/app/blob/master/x.py).\n")
    facts, planned, draft, checked = _run(
        tmp_path, {"setup.py": setup, "app/__init__.py": ""}, {"docs/contributing.md": page},
        {"setup.py": setup.replace("blob/master", "blob/main")})
    assert [(f.kind, f.old, f.name) for f in facts] == [("repository", "github.com/acme/app@master",
                                                         "github.com/acme/app@main")]
    # only the links into the project's own branch: the word in prose and another repository's stay
    assert draft.files["docs/contributing.md"] == page.replace("acme/app/blob/master", "acme/app/blob/main")
    assert checked.passed, checked.comments


def test_a_dependency_s_address_moved_in_the_manifest_is_no_move_of_the_project(tmp_path):
    pyproject = ('[project]\nname = "app"\ndependencies = ["lib @ git+https://github.com/someone/lib"]\n\n'
                 '[project.urls]\nSource = "https://github.com/acme/app"\n'
                 'Issues = "https://github.com/acme/app/issues"\n')
    page = "# Credits\n\nBuilt on [lib](https://github.com/someone/lib).\n"
    facts, _, draft, _ = _run(tmp_path, {"pyproject.toml": pyproject, "app/__init__.py": ""}, {"docs/credits.md": page},
                              {"pyproject.toml": pyproject.replace("someone/lib", "fork/lib")})
    assert not [f for f in facts if f.kind == "repository"] and draft.files == {}


PREVIEW = '''from enum import Enum, auto


class Preview(Enum):
    """Individual preview style features."""

    hug_parens = auto()
    wrap_long_values = auto()
    string_processing = auto()
'''

FUTURE = """# Preview style

Currently, the following features are included in the preview style:

- `hug_parens`: Hug parentheses with braces and square brackets.
- `wrap_long_values`: Wrap long dictionary values in parentheses.
- `string_processing`: Split long strings and merge short ones.
"""


@pytest.mark.parametrize("title, written", [
    ("fix: Remove parens around sole list items (#4312)",
     "- `remove_list_item_parens`: Remove parens around sole list items."),
    ("Speed up the tokenizer (#4313)", None),  # the title speaks of something else: no description
    ("Refactor the list of parens (#4314)", None),  # two words of the name's four: not about it
])
def test_a_name_added_without_help_text_is_described_by_the_pull_request_s_title_that_names_it(
        tmp_path, title, written):
    new = PREVIEW.replace("    string_processing = auto()\n",
                          "    string_processing = auto()\n    remove_list_item_parens = auto()\n")
    _, _, draft, checked = _run(tmp_path, {"mode.py": PREVIEW}, {"docs/future.md": FUTURE}, {"mode.py": new}, title)
    if written is None:
        assert "docs/future.md" not in draft.files
        assert any("the code gives no help text" in p for p in draft.open_points)
        return
    lines = draft.files["docs/future.md"].split("\n")
    assert lines[lines.index("- `string_processing`: Split long strings and merge short ones.") + 1] == written
    assert any("described by the pull request's title" in n for n in draft.notes)
    assert checked.passed, checked.comments


def test_a_title_describes_only_the_one_name_of_its_kind_the_pull_request_adds(tmp_path):
    new = PREVIEW.replace("    string_processing = auto()\n", "    string_processing = auto()\n"
                          "    remove_list_item_parens = auto()\n    remove_tuple_parens = auto()\n")
    _, _, draft, _ = _run(tmp_path, {"mode.py": PREVIEW}, {"docs/future.md": FUTURE}, {"mode.py": new},
                          "Remove parens around list items and tuples")
    assert "docs/future.md" not in draft.files


def test_a_help_screen_shows_no_title_where_the_code_gives_no_help_text(tmp_path):
    new = CLI.replace('@click.option("--count", default=1, help="How many times.")\n',
                      '@click.option("--count", default=1, help="How many times.")\n'
                      '@click.option("--shout", is_flag=True)\n')
    _, _, draft, _ = _run(tmp_path, {"greet.py": CLI}, {"docs/usage.md": USAGE}, {"greet.py": new},
                          "Add a shout flag")
    assert "  --shout" in draft.files["docs/usage.md"].split("\n")  # click prints no help for it


OUTPUT_OPTIONS = '''import argparse

OUT_HEADERS = "h"
parser = argparse.ArgumentParser()
parser.add_argument("--headers", "-H", action="store_const", const=OUT_HEADERS,
                    help=f"Print only the response headers. Shortcut for --print={OUT_HEADERS}.")
parser.add_argument("--body", "-b", action="store_const", const="b", help="Print only the response body.")
'''

PRINTED = """# Output

|          Option | What is printed                        |
| --------------: | -------------------------------------- |
| `--headers, -H` | Only the response headers are printed  |
|    `--body, -b` | Only the response body is printed      |
"""


def test_an_f_string_help_text_and_the_short_form_fill_a_right_aligned_table_row(tmp_path):
    new = OUTPUT_OPTIONS.replace(
        'parser.add_argument("--body"',
        'parser.add_argument("--meta", "-m", action="store_const", const="m",\n'
        '                    help=f"Print only the response metadata. Shortcut for --print={OUT_META}.")\n'
        'parser.add_argument("--body"')
    facts, _, draft, checked = _run(tmp_path, {"cli.py": OUTPUT_OPTIONS}, {"docs/output.md": PRINTED},
                                    {"cli.py": new})
    # the sentence holding a value the file does not bind is left out; one it binds is filled in
    assert [(f.name, f.note, f.short) for f in facts] == [("--meta", "Print only the response metadata.", "-m")]
    lines = draft.files["docs/output.md"].split("\n")
    assert lines[lines.index("| `--headers, -H` | Only the response headers are printed  |") + 1] == \
        "|    `--meta, -m` | Print only the response metadata.      |"
    assert checked.passed, checked.comments


def test_a_bound_f_string_value_is_filled_in_the_help_text():
    from docsvc.server.engines.docflows.facts_python import python_items

    items = python_items(OUTPUT_OPTIONS, "cli.py")
    assert [i.signature for i in items if i.name == "--headers"] == \
        ["Print only the response headers. Shortcut for --print=h."]


def test_a_click_float_option_s_integer_default_is_shown_as_click_prints_it(tmp_path):
    code = ('import click\n\n\n@click.command()\n'
            '@click.option("--limit", type=int, default=10, help="Most requests.", show_default=True)\n'
            'def main(limit):\n    pass\n')
    new = code.replace('def main(', '@click.option("--ping", type=float, default=20, help="Ping interval.", '
                                    'show_default=True)\ndef main(')
    page = ("# Usage\n\n```\nOptions:\n  --limit INTEGER  Most requests.  [default: 10]\n"
            "  --help           Show this message and exit.\n```\n")
    _, _, draft, _ = _run(tmp_path, {"app.py": code}, {"docs/usage.md": page}, {"app.py": new})
    assert "  --ping FLOAT     Ping interval.  [default: 20.0]" in draft.files["docs/usage.md"].split("\n")


ARGS_GO = """package cobra

// NoArgs returns an error if any args are included.
func NoArgs(args []string) error { return nil }

// ArbitraryArgs never returns an error.
func ArbitraryArgs(args []string) error { return nil }

// ExactValidArgs returns an error if there are not exactly N args.
//
// Deprecated: use ExactArgs instead
func ExactValidArgs(n int) error { return nil }
"""

VALIDATORS = """# Arguments

The following validators are built in:

- `NoArgs` - report an error if there are any positional args.
- `ArbitraryArgs` - accept any number of args.
"""


def test_a_go_function_s_doc_comment_describes_it_and_a_deprecated_sibling_left_out_is_no_choice(tmp_path):
    new = ARGS_GO.replace("// ArbitraryArgs", "// NoDuplicateArgs returns an error if any arg is given twice.\n"
                          "func NoDuplicateArgs(args []string) error { return nil }\n\n// ArbitraryArgs")
    _, _, draft, checked = _run(tmp_path, {"go.mod": "module example.org/cobra\n\ngo 1.21\n", "args.go": ARGS_GO},
                                {"docs/args.md": VALIDATORS}, {"args.go": new})
    lines = draft.files["docs/args.md"].split("\n")
    # the doc comment without the name Go's convention starts it with
    assert lines[lines.index("- `NoArgs` - report an error if there are any positional args.") + 1] == \
        "- `NoDuplicateArgs` - returns an error if any arg is given twice."
    assert checked.passed, checked.comments


ERRORS = '''"""The exceptions:

* HTTPError
  + TooManyRedirects
  + BodyUnavailable
"""


class HTTPError(Exception):
    """Any HTTP error."""


class TooManyRedirects(HTTPError):
    """Too many redirects."""
'''

EXCEPTIONS = """# Exceptions

* HTTPError
    * TooManyRedirects
    * BodyUnavailable
* InvalidURL

## Exception classes

::: app.TooManyRedirects
    :docstring:

::: app.BodyUnavailable
    :docstring:

::: app.HTTPError
    :docstring:
"""

BODY_UNAVAILABLE = '\n\nclass BodyUnavailable(HTTPError):\n    """The body cannot be read again."""\n'


def test_a_class_gone_from_the_code_leaves_its_reference_directive_and_its_item_in_a_hierarchy(tmp_path):
    _, _, draft, checked = _run(tmp_path, {"app/__init__.py": ERRORS + BODY_UNAVAILABLE},
                                {"docs/exceptions.md": EXCEPTIONS},
                                {"app/__init__.py": ERRORS})  # only the module's docstring still names it
    assert draft.files["docs/exceptions.md"] == EXCEPTIONS.replace("    * BodyUnavailable\n", "").replace(
        "::: app.BodyUnavailable\n    :docstring:\n\n", "")
    assert checked.passed, checked.comments


def test_a_class_the_code_still_names_keeps_its_reference_and_is_pointed_out(tmp_path):
    _, _, draft, _ = _run(tmp_path, {"app/__init__.py": ERRORS + BODY_UNAVAILABLE,
                                     "app/compat.py": "def unavailable(app):\n    return app.HTTPError\n"},
                          {"docs/exceptions.md": EXCEPTIONS},
                          {"app/__init__.py": ERRORS,
                           "app/compat.py": "def unavailable(app):\n    return app.BodyUnavailable\n"})
    assert "docs/exceptions.md" not in draft.files
    assert any("BodyUnavailable is still mentioned" in p for p in draft.open_points)


WRAPPED = """# Preview style

Currently, the following features are included in the preview style:

- `hug_parens`: Hug parentheses with braces and square brackets when the call has a sole
  argument.
- `wrap_long_values`: Wrap long dictionary values in parentheses, so that the value can
  be split across lines.
- `string_processing`: Split long strings and merge short ones.
"""


def test_a_new_item_is_wrapped_as_its_hand_wrapped_siblings_are(tmp_path):
    new = PREVIEW.replace("    string_processing = auto()\n",
                          "    string_processing = auto()\n    wrap_comprehension_in = auto()\n")
    _, _, draft, checked = _run(tmp_path, {"mode.py": PREVIEW}, {"docs/future.md": WRAPPED}, {"mode.py": new},
                                "Wrap the `in` clause of comprehensions across lines if necessary (#4699)")
    lines = draft.files["docs/future.md"].split("\n")
    at = lines.index("- `string_processing`: Split long strings and merge short ones.") + 1
    # at the widest line the siblings wrap at (88 columns), the rest indented as theirs
    assert lines[at:at + 2] == ["- `wrap_comprehension_in`: Wrap the `in` clause of comprehensions across lines if",
                                "  necessary."]
    assert checked.passed, checked.comments


def _written(path: str, page: str, fact: Fact, code_files: list[str] | None = None):
    return write(Plan([PlannedPage(path, "direct", 1.0, [], [fact])], []), {path: page}.get, code_files=code_files)


def test_a_new_name_is_no_mkdocstrings_object_beside_its_siblings_blocks():
    """'::: a.b.Name' renders an object by its import path: a new setting or variable gets no such
    line made from a sibling's path (it would name an object that does not exist)."""
    page = "# Navigation\n\n::: mkdocs.structure.nav.Navigation.pages\n\n::: mkdocs.structure.nav.Navigation.nav\n"
    setting = Fact(kind="config", change="added", name="exclude_docs", path="mkdocs/config/defaults.py",
                   rule="python: setting of class MkDocsConfig", new="None", note="Patterns to exclude.",
                   siblings=("pages", "nav"), follows=("pages", "nav"))
    assert _written("docs/themes.md", page, setting).files == {}
    env_page = "# Environment\n\n::: app.settings.APP_VERBOSE\n\n::: app.settings.APP_QUIET\n"
    variable = Fact(kind="env", change="added", name="APP_COLOR", path="app/cli.py", rule="environment variable",
                    note="Colour the output.", siblings=("APP_VERBOSE", "APP_QUIET"), follows=("APP_QUIET",))
    draft = _written("docs/env.md", env_page, variable)
    assert draft.files == {}
    assert draft.open_points == ["docs/env.md: APP_COLOR is new; its siblings are rendered from the code here "
                                 "(::: app.settings.APP_VERBOSE): add its own '::: ' line if it belongs on this page"]


GREETING = "# Greeting\n\nThe `greet` function says hello.\n\n::: app.greeting.greet\n"


@pytest.mark.parametrize("code_files", [None, ["app/__init__.py", "app/greeting.py"]])
def test_an_mkdocstrings_line_of_one_function_renders_no_new_name_beside_it(code_files):
    """'::: a.b.func' renders one function (or class), not the members of a module: a new class of
    the module gets no 'the docs build generates it' there, known by the changed file alone
    (``None``) or by the repository's files; '::: a.b', a module, does render it."""
    new_class = Fact(kind="symbol", change="added", name="Greeter", path="app/greeting.py",
                     rule="python: public class")
    assert _written("docs/api.md", GREETING, new_class, code_files).open_points == [
        "docs/api.md: Greeter is new; its siblings are not documented here in a table, list, directive or "
        "section of their own, so no place for it was found"]
    module_page = GREETING.replace("::: app.greeting.greet", "::: app.greeting")
    assert _written("docs/api.md", module_page, new_class, code_files).open_points == [
        "docs/api.md: no edit for Greeter: the docs build generates this reference from the code (::: app.greeting)"]
    # the function's line renders its own signature: a new parameter of it needs no edit either
    parameter = Fact(kind="parameter", change="added", name="greet(loud)", path="app/greeting.py",
                     rule="python: parameter")
    assert _written("docs/api.md", GREETING, parameter, code_files).open_points == [
        "docs/api.md: no edit for loud: the docs build generates this reference from the code "
        "(::: app.greeting.greet)"]


def test_what_an_mkdocstrings_line_renders_is_told_by_the_repository_s_modules():
    modules = python_modules(["src/app/__init__.py", "src/app/greeting.py", "src/app/parts/form.py", "README.md"])
    assert {"app", "app.greeting", "src.app.greeting", "app.parts", "app.parts.form"} <= modules
    assert [renders_module(name, "src/app/other.py", modules) for name in (
        "app.greeting", "app.parts", "app.greeting.greet", "app.Greeter", "greeting.greet")] == [
        True, True, False, False, False]
    # without the repository's files, by the changed file: its module or a package it stands in, or a
    # name in that module; a name in a package's __init__ may be a submodule's
    assert [renders_module(name, "src/app/greeting.py") for name in (
        "app.greeting", "app", "app.greeting.greet", "app.other", "other.thing")] == [True, True, False, None, None]
    assert renders_module("app.greeting", "src/app/__init__.py") is None


def test_a_renamed_option_re_aligns_the_help_column_as_click_prints_it(tmp_path):
    new = CLI.replace('"--count"', '"--repeat-count"')
    facts, _, draft, checked = _run(tmp_path, {"greet.py": CLI}, {"docs/usage.md": USAGE}, {"greet.py": new})
    assert [f.describe() for f in facts] == ["flag --count renamed to --repeat-count"]
    usage = draft.files["docs/usage.md"].split("\n")
    at = usage.index("Options:")
    assert usage[at + 1:at + 5] == ["  -v, --verbose           Print more.", "  --name TEXT             Who to greet.",
                                    "  --repeat-count INTEGER  How many times.",
                                    "  --help                  Show this message and exit."]
    assert checked.passed, checked.comments


def test_a_help_column_at_click_s_cap_stays_and_a_longer_option_s_help_goes_below_it(tmp_path):
    long = "--times-to-say-hello-to-everyone"  # wider than click's 30 columns with INTEGER
    new = CLI.replace('"--count"', f'"{long}"')
    _, _, draft, _ = _run(tmp_path, {"greet.py": CLI}, {"docs/usage.md": USAGE}, {"greet.py": new})
    usage = draft.files["docs/usage.md"].split("\n")
    at = usage.index("Options:")
    pad = " " * 34  # click: the option part at 30 columns at most, indented 2, then 2 spaces
    assert usage[at + 1:at + 6] == ["  -v, --verbose" + pad[15:] + "Print more.",
                                    "  --name TEXT" + pad[13:] + "Who to greet.",
                                    f"  {long} INTEGER", pad + "How many times.",
                                    "  --help" + pad[8:] + "Show this message and exit."]


def test_a_help_block_not_aligned_on_one_column_keeps_its_other_lines(tmp_path):
    ragged = USAGE.replace("  --name TEXT      Who to greet.", "  --name TEXT   Who to greet.")
    new = CLI.replace('"--count"', '"--repeat-count"')
    _, _, draft, _ = _run(tmp_path, {"greet.py": CLI}, {"docs/usage.md": ragged}, {"greet.py": new})
    before, after = ragged.split("\n"), draft.files["docs/usage.md"].split("\n")
    assert [(b, a) for b, a in zip(before, after) if a != b] == [
        ("  --count INTEGER  How many times.", "  --repeat-count INTEGER  How many times.")]


def test_a_help_block_of_a_rest_page_indented_as_a_whole_is_re_aligned_too(tmp_path):
    page = "Usage\n=====\n\n.. code-block:: console\n\n" + "\n".join(
        "   " + line if line else "" for line in USAGE.split("```console\n", 1)[1].split("```")[0].split("\n")) + "\n"
    new = CLI.replace('"--count"', '"--repeat-count"')
    _, _, draft, checked = _run(tmp_path, {"greet.py": CLI}, {"docs/usage.rst": page}, {"greet.py": new})
    assert "     --name TEXT             Who to greet.\n     --repeat-count INTEGER  How many times.\n" in \
        draft.files["docs/usage.rst"]
    assert checked.passed, checked.comments


def test_a_parameter_dropped_from_a_method_points_out_the_calls_that_pass_it(tmp_path):
    code = ('class Client:\n    """An HTTP client."""\n\n'
            '    def send(self, request, *, stream=False, auth=None):\n        """Send a request."""\n\n'
            '    def get(self, url, params=None):\n        """Get a resource."""\n')
    new = code.replace("stream=False, ", "").replace("params=None", "params=None, timeout=5")
    page = ("# Advanced\n\nUse `Client.send` to send a request you built yourself; pass `stream` to read the "
            "body in parts.\n\n```python\nclient = Client()\nresponse = client.send(\n    request,\n"
            "    stream=True,\n)\nclient.get(url, params={'stream': 1})\n```\n")
    facts, planned, draft, _ = _run(tmp_path, {"app/client.py": code}, {"docs/advanced.md": page},
                                    {"app/client.py": new})
    # a method's new parameter breaks no call: only the one that goes is a fact
    assert [f.describe() for f in facts] == ["parameter stream dropped from the signature of Client.send"]
    assert draft.files == {}
    assert "docs/advanced.md:7: this call of Client.send passes stream, which the pull request drops from its " \
           "signature: update the call [rule: changed signature]" in draft.open_points
    assert not any(p.startswith("docs/advanced.md:11:") and "call" in p for p in draft.open_points)


CAPPED_CLI = '''import click


@click.command()
@click.option("--level", type=click.Choice(["critical", "error", "warning", "info", "debug"]), help="Log level.")
@click.option("--keyfile", help="SSL key file")
@click.option("--cert-reqs", default=0, show_default=True,
              help="Whether client certificate is required (see stdlib ssl module's)")
@click.option("--name", default="world", help="Who to greet.")
def main(level, keyfile, cert_reqs, name):
    """Greet."""
'''

CAPPED_HELP = """Options:
  --level [critical|error|warning|info|debug]
                                  Log level.
  --keyfile TEXT                  SSL key file
  --cert-reqs INTEGER             Whether client certificate is required (see
                                  stdlib ssl module's)  [default: 0]
  --name TEXT                     Who to greet.
  --help                          Show this message and exit.
"""


def test_options_renamed_in_a_help_block_at_click_s_cap_keep_its_column_and_their_wrapped_help(tmp_path):
    # the block as click prints it: an option wider than the cap, its help below it at the column
    page = "# Usage\n\n```\n$ greet --help\nUsage: greet [OPTIONS]\n\n" + CAPPED_HELP + "```\n"
    new = CAPPED_CLI.replace('"--keyfile"', '"--ssl-keyfile"').replace('"--cert-reqs"', '"--ssl-cert-reqs"')
    _, _, draft, checked = _run(tmp_path, {"greet.py": CAPPED_CLI}, {"docs/usage.md": page}, {"greet.py": new})
    # what click prints after the rename
    assert draft.files["docs/usage.md"] == page.replace(
        "  --keyfile TEXT                  SSL key file", "  --ssl-keyfile TEXT              SSL key file").replace(
        "  --cert-reqs INTEGER             Whether", "  --ssl-cert-reqs INTEGER         Whether")
    assert checked.passed, checked.comments


def test_a_dropped_parameter_s_call_is_pointed_out_once(tmp_path):
    code = 'def send(request, *, stream=False):\n    """Send a request."""\n'
    page = "# Sending\n\n```python\nresponse = send(request, stream=True)\n```\n"
    _, _, draft, _ = _run(tmp_path, {"app/client.py": code}, {"docs/sending.md": page},
                          {"app/client.py": code.replace(", *, stream=False", "")})
    assert [p for p in draft.open_points if p.startswith("docs/sending.md:4:")] == [
        "docs/sending.md:4: this call of send passes stream, which the pull request drops from its signature: "
        "update the call [rule: changed signature]"]


def test_an_option_removed_from_a_rest_help_block_re_aligns_the_column_left(tmp_path):
    shout = '@click.option("--shout-every-greeting", is_flag=True, help="Shout.")\n'
    loud = CLI.replace('@click.option("--name"', shout + '@click.option("--name"') \
        .replace("verbose, name, count", "verbose, shout_every_greeting, name, count")
    page = ("Usage\n=====\n\n.. code-block:: console\n\n   $ greet --help\n   Options:\n"
            "     -v, --verbose           Print more.\n     --shout-every-greeting  Shout.\n"
            "     --name TEXT             Who to greet.\n     --help                  Show this message and exit.\n")
    _, _, draft, _ = _run(tmp_path, {"greet.py": loud}, {"docs/usage.rst": page}, {"greet.py": CLI})
    assert "   Options:\n     -v, --verbose  Print more.\n     --name TEXT    Who to greet.\n" \
           "     --help         Show this message and exit.\n" in draft.files["docs/usage.rst"]


def _output_plan(path: str, reason: str) -> Plan:
    return Plan([PlannedPage(path, "related", 0.5, [reason])], [])


def test_output_the_tests_expect_otherwise_is_printed_anew_in_the_page_s_examples():
    from docsvc.server.engines.docflows.expected_output import OutputChange

    page = ("# Help\n\nThe help says NAME is required:\n\n```console\n$ main --help\nUsage: main [OPTIONS] [NAME]\n\n"
            "Arguments:\n  [NAME]  [default: World]  │\n```\n\n```python\nsave('my_template.html')\n"
            "print('[NAME]')\n```\n")
    changes = [OutputChange("[NAME]", "[name]", "tests/test_help.py"),
               OutputChange("[default: World]", "[default: Wade Wilson]", "tests/test_help.py"),
               OutputChange(".html'", ".md'", "tests/test_files.py")]
    reason = "shows output the tests now expect otherwise: '[NAME]' (line 7) [tests' expected output]"
    draft = write(_output_plan("docs/help.md", reason), {"docs/help.md": page}.get, outputs=changes)
    lines = draft.files["docs/help.md"].split("\n")
    assert lines[6] == "Usage: main [OPTIONS] [name]"
    # a wider span takes its width from the spaces after it: the box's edge stays where it was
    assert lines[9] == "  [name]  [default: Wade Wilson] │"
    assert len(lines[9]) == len("  [NAME]  [default: World]  │") + 5
    # prose, and code the reader writes (python), are left as they are
    assert "The help says NAME is required:" in lines and "print('[NAME]')" in lines
    assert "save('my_template.html')" in lines


def test_a_span_that_starts_with_a_mark_stands_whole_after_a_word():
    from docsvc.server.engines.docflows.expected_output import OutputChange

    page = ("# Create\n\n```console\n$ main create --help\nUsage: main create [OPTIONS] USERNAME\n"
            "$ main build -f main.yml\n```\n")
    reason = "shows output the tests now expect otherwise: '] USERNAME' (line 5) [tests' expected output]"
    changes = [OutputChange("] USERNAME", "] {username}", "tests/test_help.py"),
               OutputChange("NAME", "name", "tests/test_help.py"), OutputChange("main.", "yaml.", "tests/test_x.py")]
    draft = write(_output_plan("docs/create.md", reason), {"docs/create.md": page}.get, outputs=changes)
    lines = draft.files["docs/create.md"].split("\n")
    # a bracket's neighbour (OPTIONS's S) is no part of the span; a bare word inside another word is
    assert lines[4] == "Usage: main create [OPTIONS] {username}"
    # ... and so is a dotted name's dot: main.yml is another name than main.
    assert lines[5] == "$ main build -f main.yml"

def test_output_shown_on_a_page_not_planned_for_it_is_left_for_its_plan():
    from docsvc.server.engines.docflows.expected_output import OutputChange

    page = "# Help\n\n```console\nUsage: main [OPTIONS] [NAME]\n```\n"
    draft = write(_output_plan("docs/help.md", "speaks of main [names]"), {"docs/help.md": page}.get,
                  outputs=[OutputChange("[NAME]", "[name]", "tests/test_help.py")])
    assert draft.files == {}


EXAMPLE = ("import typer\n\napp = typer.Typer()\n\n\ndef check(name: str):\n    if name != 'Camila':\n"
           "        raise typer.Exit()\n\n\n@app.command()\ndef main(name: str):\n    print(name)\n")
GROWN = EXAMPLE.replace("        raise typer.Exit()\n", "        raise typer.Exit()\n    return name\n")


def test_line_numbers_a_page_includes_a_changed_file_by_follow_its_lines():
    page = ("# Check\n\n{* docs_src/check.py hl[6:8,11:13] *}\n\n--8<-- \"docs_src/check.py:11:13\"\n\n"
            "Another file: {* docs_src/other.py hl[6:8] *}\n")
    plan = Plan([PlannedPage("docs/check.md", "related", 0.5, ["shows or links docs_src/check.py (line 3)"])], [])
    draft = write(plan, {"docs/check.md": page}.get, files={"docs_src/check.py": (EXAMPLE, GROWN)})
    lines = draft.files["docs/check.md"].split("\n")
    # the highlighted function grew by its new last line; the command below it moved down one
    assert lines[2] == "{* docs_src/check.py hl[6:9,12:14] *}"
    assert lines[4] == '--8<-- "docs_src/check.py:12:14"'
    assert lines[6] == "Another file: {* docs_src/other.py hl[6:8] *}"


def test_a_literalinclude_s_lines_follow_and_a_rewritten_range_is_pointed_out():
    page = ("Check\n=====\n\n.. literalinclude:: ../docs_src/check.py\n   :lines: 11-13\n   :emphasize-lines: 2\n\n"
            ".. literalinclude:: ../docs_src/check.py\n   :lines: 1-3\n")
    rewritten = GROWN.replace("import typer\n", "import typer as t\n")
    plan = Plan([PlannedPage("docs/check.rst", "related", 0.5, ["shows or links docs_src/check.py"])], [])
    draft = write(plan, {"docs/check.rst": page}.get, files={"docs_src/check.py": (EXAMPLE, rewritten)})
    lines = draft.files["docs/check.rst"].split("\n")
    assert lines[4:6] == ["   :lines: 12-14", "   :emphasize-lines: 2"]  # relative to the lines selected
    assert lines[8] == "   :lines: 1-3"
    assert "docs/check.rst:9: includes lines of docs_src/check.py that the pull request removes or rewrites: " \
           "check which lines to show" in draft.open_points


ERRORS_JS = """const createError = require('@fastify/error')
const codes = {
  FST_ERR_NOT_FOUND: createError('FST_ERR_NOT_FOUND', 'Not Found', 404),
  FST_ERR_BAD_URL: createError('FST_ERR_BAD_URL', 'Invalid url', 400),
}
module.exports = codes
"""
ERRORS_MD = """# Errors

**Table of contents**
- [Errors](#errors)
  - [Error codes](#error-codes)
    - [FST_ERR_NOT_FOUND](#fst_err_not_found)
    - [FST_ERR_BAD_URL](#fst_err_bad_url)
    - [FST_ERR_CTP_EMPTY_TYPE](#fst_err_ctp_empty_type)
    - [FST_ERR_CTP_INVALID_TYPE](#fst_err_ctp_invalid_type)

    - [FST_ERR_HOOK_INVALID_TYPE](#fst_err_hook_invalid_type)

## Error codes

| Code | Description | How to solve |
| ---- | ----------- | ------------ |
| <a id="fst_err_not_found">FST_ERR_NOT_FOUND</a> | 404 Not Found | - |
| <a id="fst_err_bad_url">FST_ERR_BAD_URL</a> | The router received an invalid url. | Use a valid url. |
"""


def test_an_error_code_added_gets_its_link_in_the_table_of_contents_with_its_anchor_spelled_as_its_siblings(
        tmp_path):
    new = ERRORS_JS.replace("  FST_ERR_BAD_URL:", "  FST_ERR_NOT_FN: createError('FST_ERR_NOT_FN', 'Not a function')"
                            ",\n  FST_ERR_BAD_URL:")
    facts, planned, draft, checked = _run(tmp_path, {"lib/errors.js": ERRORS_JS}, {"docs/Errors.md": ERRORS_MD},
                                          {"lib/errors.js": new})
    assert [f.describe() for f in facts] == ["enum FST_ERR_NOT_FN added"]
    lines = draft.files["docs/Errors.md"].split("\n")
    # after the one above it in the code, in the tight list (one stray blank line in it is no style)
    at = lines.index("    - [FST_ERR_NOT_FOUND](#fst_err_not_found)")
    assert lines[at + 1:at + 3] == ["    - [FST_ERR_NOT_FN](#fst_err_not_fn)",
                                    "    - [FST_ERR_BAD_URL](#fst_err_bad_url)"]
    assert checked.passed, checked.comments


@pytest.mark.parametrize(("message", "said"), [
    ("Invalid listen options: '%s'", "Invalid listen options"),
    ("Content type parser '%s' already present.", "Content type parser already present."),
    ("Port %d is busy", "Port is busy"),
    ("Use 100%s of it", "Use 100%s of it"),  # no value filled in where a word runs into it
    ("Defaults to %(default)s.", "Defaults to %(default)s."),  # argparse's own, shown as the default
])
def test_a_new_entry_describes_a_message_without_the_values_it_fills_in(message, said):
    from docsvc.server.engines.docflows.structures.common import described

    assert described(message) == said


def test_a_row_whose_name_cell_carries_its_anchor_is_shaped_with_the_new_name_s_anchor():
    from docsvc.server.engines.docflows.structure import blocks
    from docsvc.server.engines.docflows.structures.table_rows import TableRows

    lines = ERRORS_MD.split("\n")
    row = next(b for b in blocks("docs/Errors.md", ERRORS_MD)
               if b.kind == "row" and "FST_ERR_BAD_URL" in lines[b.start])
    assert TableRows().shape(row, lines, "FST_ERR_BAD_URL", "FST_ERR_NOT_FN", "Not a function", None) == \
        ['| <a id="fst_err_not_fn">FST_ERR_NOT_FN</a> | Not a function. | — |']  # a full stop as its sibling
    # an anchor not spelled from the sibling's name: the new one's is not known, no row
    odd = lines[:row.start] + ['| <a id="bad-url">FST_ERR_BAD_URL</a> | x | y |']
    assert TableRows().shape(row, odd, "FST_ERR_BAD_URL", "FST_ERR_NOT_FN", "Not a function", None) is None


SERVER_DTS = """export interface FastifyServerOptions {
  /** Maximum payload, in bytes.
   * @default 1048576 */
  bodyLimit?: number,
  /** Close idle connections after this many milliseconds.
   * @default 72000 */
  keepAliveTimeout?: number,
}
"""
SERVER_MD = """# Server

**Table of contents**
- [Factory](#factory)
  - [`bodyLimit`](#bodylimit)
  - [`keepAliveTimeout`](#keepalivetimeout)

## Factory

### `bodyLimit`
<a id="factory-body-limit"></a>

Maximum payload, in bytes.

### `keepAliveTimeout`
<a id="factory-keep-alive-timeout"></a>

Close idle connections after this many milliseconds.
"""


def test_a_setting_given_a_section_is_linked_from_the_page_s_table_of_contents_beside_its_siblings(tmp_path):
    new = SERVER_DTS.replace("  /** Close idle", "  /** Trust the X-Forwarded-* headers.\n   * @default false */\n"
                             "  trustProxy?: boolean,\n  /** Close idle")
    facts, planned, draft, checked = _run(tmp_path, {"fastify.d.ts": SERVER_DTS}, {"docs/Server.md": SERVER_MD},
                                          {"fastify.d.ts": new})
    assert [f.describe() for f in facts] == ["config trustProxy added"]
    lines = draft.files["docs/Server.md"].split("\n")
    # the section, then its link, its anchor spelled as the siblings' are (their title, lower case)
    assert "### `trustProxy`" in lines and '<a id="factory-trust-proxy"></a>' in lines
    at = lines.index("  - [`bodyLimit`](#bodylimit)")
    assert lines[at + 1:at + 3] == ["  - [`trustProxy`](#trustproxy)", "  - [`keepAliveTimeout`](#keepalivetimeout)"]
    assert checked.passed, checked.comments


def test_a_table_of_contents_gets_no_link_where_the_draft_wrote_no_entry(tmp_path):
    new = SERVER_DTS.replace("  /** Close idle", "  trustProxy?: boolean,\n  /** Close idle")
    facts, planned, draft, checked = _run(tmp_path, {"fastify.d.ts": SERVER_DTS}, {"docs/Server.md": SERVER_MD},
                                          {"fastify.d.ts": new})
    assert [f.describe() for f in facts] == ["config trustProxy added"]
    assert "docs/Server.md" not in draft.files  # no help text, no default: no section, so no link to it


def test_an_error_code_removed_takes_its_row_and_its_link_in_the_table_of_contents(tmp_path):
    new = ERRORS_JS.replace("  FST_ERR_BAD_URL: createError('FST_ERR_BAD_URL', 'Invalid url', 400),\n", "")
    facts, planned, draft, checked = _run(tmp_path, {"lib/errors.js": ERRORS_JS}, {"docs/Errors.md": ERRORS_MD},
                                          {"lib/errors.js": new})
    assert [f.describe() for f in facts] == ["enum FST_ERR_BAD_URL removed"]
    text = draft.files["docs/Errors.md"]
    assert "FST_ERR_BAD_URL" not in text and "[FST_ERR_NOT_FOUND](#fst_err_not_found)" in text
    assert "| <a id=\"fst_err_not_found\">FST_ERR_NOT_FOUND</a> | 404 Not Found | - |" in text.split("\n")
    assert checked.passed, checked.comments


def test_a_commander_option_gets_its_help_line_with_its_short_form_and_value_placeholder(tmp_path):
    code = ("const { program } = require('commander')\n"
            "program\n  .option('-p, --port <number>', 'port to listen on', 8080)\n"
            "  .option('--verbose', 'print more')\n")
    new = code.replace("  .option('--verbose'", "  .option('-H, --host <name>', 'host to bind')\n  .option('--verbose'")
    page = ("# cli\n\n```\nUsage: serve [options]\n\nOptions:\n"
            "  -p, --port <number>  port to listen on (default: 8080)\n"
            "  --verbose            print more\n"
            "  -h, --help           display help for command\n```\n")
    facts, _, draft, _ = _run(tmp_path, {"bin/serve.js": code}, {"docs/cli.md": page}, {"bin/serve.js": new})
    assert [(f.name, f.shows, f.short) for f in facts] == [("--host", "<name>", "-H")]
    lines = draft.files["docs/cli.md"].split("\n")
    assert lines[lines.index("Options:") + 1:][:4] == [
        "  -p, --port <number>  port to listen on (default: 8080)", "  -H, --host <name>    host to bind",
        "  --verbose            print more", "  -h, --help           display help for command"]


def test_a_cobra_flag_with_a_shorthand_gets_it_in_its_help_line(tmp_path):
    code = ('package cmd\n\nfunc init() {\n\trootCmd.Flags().StringP("output", "o", "out", "where to write")\n'
            '\trootCmd.Flags().Bool("verbose", false, "print more")\n}\n')
    new = code.replace('\trootCmd.Flags().Bool(',
                       '\trootCmd.Flags().StringVarP(&lang, "lang", "l", "", "the language")\n\trootCmd.Flags().Bool(')
    page = ("# app\n\n```\nFlags:\n  -h, --help            help for app\n"
            '  -o, --output string   where to write (default "out")\n      --verbose         print more\n```\n')
    _, _, draft, _ = _run(tmp_path, {"cmd/root.go": code}, {"docs/app.md": page}, {"cmd/root.go": new})
    lines = draft.files["docs/app.md"].split("\n")
    assert lines[lines.index("Flags:") + 1:][:4] == [
        "  -h, --help            help for app", '  -o, --output string   where to write (default "out")',
        "  -l, --lang string     the language", "      --verbose         print more"]


UTILS = """Utilities
=========

Screen Clearing
---------------

.. versionadded:: 2.0

To clear the terminal screen you can use the :func:`clear` function.

Example::

    import click

    click.clear()


Getting Characters
------------------

.. versionadded:: 2.0

For this click provides the :func:`getchar` function which reads a character.

Example::

    import click

    c = click.getchar()


Launching Editors
-----------------

Click supports launching editors through :func:`edit`.
"""

PAUSE_DOC = """This command stops execution and waits for the user to press any
key to continue.

.. versionadded:: 2.1

:param info: the info string to print before pausing."""


def _function(name: str, doc: str, bare: bool = True) -> Fact:
    return Fact("symbol", "added", name, "click/termui.py", "python: public function",
                siblings=("getchar", "clear", "edit"), follows=("getchar", "clear"), doc=doc, bare=bare)


def test_a_new_function_gets_a_section_like_its_siblings_after_the_one_above_it_in_the_code():
    draft = _written("docs/utils.rst", UTILS, _function("pause", PAUSE_DOC))
    lines = draft.files["docs/utils.rst"].split("\n")
    at = lines.index("``pause``")
    # after getchar's section (the function above it), before the next heading, titled as code
    assert lines.index("Getting Characters") < at < lines.index("Launching Editors")
    assert lines[at + 1] == "-" * len("``pause``")
    # the version its docstring gives, where the siblings' sections carry a mark; its first paragraph
    assert lines[at + 3] == ".. versionadded:: 2.1"
    assert lines[at + 5:at + 7] == ["This command stops execution and waits for the user to press any",
                                    "key to continue."]
    # the sibling's example, calling the new function (which takes no argument)
    assert lines[at + 8:at + 12] == ["Example::", "", "    import click", ""] and lines[at + 12] == "    click.pause()"
    assert ":param info:" not in draft.files["docs/utils.rst"]


def test_a_new_function_s_section_takes_its_docstring_s_example_and_none_it_must_invent():
    doc = "This function combines :func:`echo` and :func:`style`::\n\n    click.secho('Hi', fg='green')"
    md = "# Utils\n\n## Clearing\n\nUse the `clear()` function.\n\n## Characters\n\nUse `getchar()` to read one.\n"
    draft = _written("docs/utils.md", md, _function("secho", doc, bare=False))
    text = draft.files["docs/utils.md"]
    assert "## `secho`\n\nThis function combines `echo` and `style`:\n\n```python\nclick.secho('Hi', fg='green')\n```" \
        in text
    # a function without a docstring, or a page whose sections do not each introduce a sibling: nothing
    assert "docs/utils.md" not in _written("docs/utils.md", md, _function("secho", "")).files
    single = "# Utils\n\n## Clearing\n\nUse the `clear()` function.\n\n## Other\n\nNothing.\n"
    assert "docs/utils.md" not in _written("docs/utils.md", single, _function("secho", doc)).files


def test_a_function_s_docstring_and_whether_it_takes_no_argument_are_read_from_the_code():
    from docsvc.server.engines.docflows.facts_python import python_items

    items = {i.name: i for i in python_items('def pause(info="x"):\n    """Wait.\n\n    More."""\n\n'
                                             'def secho(text, **styles):\n    pass\n', "click/termui.py")}
    assert (items["pause"].doc, items["pause"].bare) == ("Wait.\n\nMore.", True)
    assert (items["secho"].doc, items["secho"].bare) == ("", False)


def test_an_option_line_with_a_value_placeholder_is_about_that_option():
    from docsvc.server.engines.docflows.structures.common import _about

    assert all(_about(line, "--name") for line in ["--name TEXT  Who.", "  -n, --name TEXT  Who.",
                                                   "--name=<value>  Who.", "--name [a|b]  Who."])
    assert not any(_about(line, "--name") for line in ["--names TEXT  Who.", "--name is the option"])


def test_a_removed_option_s_entry_with_a_value_placeholder_goes_whole():
    page = "Options\n=======\n\n--name TEXT   Who to greet.\n--count INTEGER   How many.\n"
    draft = _written("docs/cli.rst", page, Fact("flag", "removed", "--name", "cli.py",
                                                "python: click/typer/argparse option"))
    assert draft.files["docs/cli.rst"] == "Options\n=======\n\n--count INTEGER   How many.\n"


def test_a_tutorial_whose_sections_come_back_to_a_function_gets_no_section_for_a_new_one():
    tutorial = UTILS.replace("Click supports launching editors through :func:`edit`.",
                             "Now :func:`getchar` again, in a longer example.")
    assert "docs/utils.rst" not in _written("docs/utils.rst", tutorial, _function("pause", PAUSE_DOC)).files


PARAMETERS = """Completion
==========

Override ``complete`` on your type. It takes these arguments:

-   ``ctx`` - The current context.
-   ``param`` - The parameter asking.
-   ``args`` - The arguments before the incomplete value.
-   ``incomplete`` - The partial word.

Other ``args`` are passed on:

-   ``args`` - What the command line held.
-   ``rest`` - Anything else.
"""


def test_a_parameter_its_function_no_longer_takes_loses_its_item_in_that_function_s_parameter_list():
    fact = Fact("parameter", "removed", "Type.complete(args)", "app/types.py", "python: public method signature",
                siblings=("ctx", "param", "incomplete"))
    path = "docs/completion.rst"
    draft = write(Plan([PlannedPage(path, "related", 0.55, [], [fact])], []), {path: PARAMETERS}.get)
    # the other list does not document the function's parameters: it keeps its item
    assert draft.files[path] == PARAMETERS.replace("-   ``args`` - The arguments before the incomplete value.\n", "")
    uncertain = Fact("parameter", "removed", "Type.complete(args)", "app/types.py", "python: public method signature")
    assert path not in write(Plan([PlannedPage(path, "related", 0.55, [], [uncertain])], []),
                             {path: PARAMETERS}.get).files


def test_a_parameter_list_that_misses_one_of_the_parameters_left_keeps_the_dropped_one_s_item():
    # ``args`` renamed to ``words``: the item is to be reworded by a person, not deleted
    fact = Fact("parameter", "removed", "Type.complete(args)", "app/types.py", "python: public method signature",
                siblings=("ctx", "param", "words", "incomplete"))
    path = "docs/completion.rst"
    assert path not in write(Plan([PlannedPage(path, "related", 0.55, [], [fact])], []), {path: PARAMETERS}.get).files


def test_a_reworded_help_text_is_wrapped_in_the_help_screen_as_the_framework_wraps_it():
    from docsvc.server.engines.docflows.structures.base import Draft
    from docsvc.server.engines.docflows.structures.mentions import _reword_help

    screen = ["```", "Usage: app [OPTIONS]", "", "Options:",
              "  --host TEXT                     Bind socket to this host.  [default:",
              "                                  127.0.0.1]",
              "  --port INTEGER                  Bind socket to this port.  [default: 8000]",
              "  --help                          Show this message and exit.", "```"]
    fact = Fact(kind="flag", change="help-changed", name="--port", old="Bind socket to this port.",
                new="Bind socket to this port. If 0, an available port will be picked.", path="app.py", rule="t")
    lines = _reword_help(fact, "docs/usage.md", list(screen), Draft())
    # click wraps the help text at 78 columns under its column; the other rows stay as they were
    assert lines == screen[:6] + [
        "  --port INTEGER                  Bind socket to this port. If 0, an available",
        "                                  port will be picked.  [default: 8000]"] + screen[7:]


@pytest.mark.parametrize(("shows", "item"), [
    ("FLOAT", "* `--ws-ping <float>` - WebSocket ping interval."),
    ("INTEGER", "* `--ws-ping <int>` - WebSocket ping interval."),  # the page's word for the type
    ("", "* `--ws-ping` - WebSocket ping interval."),  # a flag shows no value
])
def test_a_new_option_s_item_shows_its_value_as_its_siblings_show_theirs(shows, item):
    from docsvc.server.engines.docflows.structure import blocks
    from docsvc.server.engines.docflows.structures.table_rows import TableRows

    page = ("# Settings\n\n* `--ws <str>` - Set the WebSockets implementation. **Default:** *'auto'*.\n"
            "* `--ws-max-size <int>` - Set the WebSockets max message size, in bytes.\n")
    lines = page.split("\n")
    model = next(b for b in blocks("docs/settings.md", page) if b.kind == "item" and "--ws-max-size" in lines[b.start])
    assert TableRows().shape(model, lines, "--ws-max-size", "--ws-ping", "WebSocket ping interval", None,
                             shows=shows) == [item]


def test_a_help_text_a_help_screen_wraps_over_several_lines_is_reworded_over_its_row():
    from docsvc.server.engines.docflows.structures.base import Draft
    from docsvc.server.engines.docflows.structures.mentions import _reword_help

    screen = ["```", "Usage: app [OPTIONS]", "", "Options:",
              "  --date-header / --no-date-header",
              "                                  Enable/Disable default Date header.",
              "  --allow-ips TEXT                Comma seperated list of IPs to trust with",
              "                                  proxy headers. Defaults to the",
              "                                  $FORWARDED_ALLOW_IPS environment variable if",
              "                                  available, or '127.0.0.1'.",
              "  --help                          Show this message and exit.", "```"]
    old = ("Comma seperated list of IPs to trust with proxy headers. Defaults to the $FORWARDED_ALLOW_IPS environment "
           "variable if available, or '127.0.0.1'.")
    fact = Fact(kind="flag", change="help-changed", name="--allow-ips", old=old,
                new=old.replace("seperated", "separated"), path="app.py", rule="t")
    lines = _reword_help(fact, "docs/usage.md", list(screen), Draft())
    assert lines == screen[:6] + ["  --allow-ips TEXT                Comma separated list of IPs to trust with",
                                  *screen[7:]]
    # a row wrapped otherwise than the framework wraps it is not re-wrapped by guess
    column = " " * 34
    hand = screen[:7] + [column + "proxy headers.",
                         column + "Defaults to the $FORWARDED_ALLOW_IPS environment variable if",
                         column + "available, or '127.0.0.1'."] + screen[10:]
    assert _reword_help(fact, "docs/usage.md", list(hand), Draft()) == hand


def test_a_removed_code_s_link_in_the_table_of_contents_goes_with_its_row():
    from docsvc.server.engines.docflows.structures.base import Draft, Page
    from docsvc.server.engines.docflows.structures.removals import Removals

    # the contents stand above every heading; the codes under the one that names lib/warnings.js
    page = ("<h1 align=\"center\">Fastify</h1>\n\n- [Warnings](#warnings)\n"
            "  - [Deprecation Codes](#deprecation-codes)\n"
            "    - [FSTDEP010](#FSTDEP010)\n    - [FSTDEP012](#FSTDEP012)\n\n## Warnings\n\n### Deprecation Codes\n\n"
            "| Code | Description |\n| ---- | ----------- |\n"
            "| <a id=\"FSTDEP010\">FSTDEP010</a> | Modifying `reply.sent` is deprecated. |\n"
            "| <a id=\"FSTDEP012\">FSTDEP012</a> | `request.context` is deprecated. |\n")
    fact = Fact(kind="enum", change="removed", name="FSTDEP010", path="lib/warnings.js", rule="t")
    editing = Page("docs/Warnings.md", page.split("\n"), Draft())
    Removals().write(fact, editing)
    new = "\n".join(editing.lines)
    assert new == page.replace("    - [FSTDEP010](#FSTDEP010)\n", "").replace(
        "| <a id=\"FSTDEP010\">FSTDEP010</a> | Modifying `reply.sent` is deprecated. |\n", "")
    assert review({"docs/Warnings.md": new}, lambda p: True, originals={"docs/Warnings.md": page}).passed


def test_a_new_error_code_s_section_says_its_message_as_its_siblings_say_theirs(tmp_path):
    page = ("# Errors\n\n## FST_ERR_NOT_FOUND\n<a id=\"FST_ERR_NOT_FOUND\"></a>\n\nThe resource was not found.\n\n"
            "## FST_ERR_BAD_URL\n<a id=\"FST_ERR_BAD_URL\"></a>\n\nThe router received an invalid url.\n")
    new = ERRORS_JS.replace(
        "}\nmodule", "  FST_ERR_LISTEN: createError('FST_ERR_LISTEN', \"Invalid listen options: '%s'\", 500),"
        "\n}\nmodule")
    _, _, draft, checked = _run(tmp_path, {"lib/errors.js": ERRORS_JS}, {"docs/Errors.md": page},
                                {"lib/errors.js": new})
    # the value the message fills in is no part of it; a full stop as the siblings' messages end with
    assert draft.files["docs/Errors.md"] == page + ("\n## FST_ERR_LISTEN\n<a id=\"FST_ERR_LISTEN\"></a>\n\n"
                                                    "Invalid listen options.\n")
    assert checked.passed, checked.comments


GREET_GO = """package main

func main() {
	app := &cli.App{Flags: []cli.Flag{
		&cli.StringFlag{Name: "lang", Aliases: []string{"l"}, Value: "english", Usage: "language for the greeting"},
		&cli.BoolFlag{Name: "loud", Usage: "shout it"},
	}}
	app.Run(os.Args)
}
"""
GREET_HELP = """# Flags

```
GLOBAL OPTIONS:
   --lang value, -l value  language for the greeting (default: "english")
   --loud                  shout it (default: false)
   --help, -h              show help (default: false)
```
"""


def test_a_urfave_cli_flag_added_gets_its_help_line_with_its_alias_after_it(tmp_path):
    new = GREET_GO.replace('		&cli.BoolFlag{', '		&cli.StringFlag{Name: "config", Aliases: []string{"c"}, '
                           'Value: "app.toml", Usage: "Load configuration from `FILE`"},\n		&cli.BoolFlag{')
    facts, _, draft, checked = _run(tmp_path, {"cmd/greet/main.go": GREET_GO}, {"docs/flags.md": GREET_HELP},
                                    {"cmd/greet/main.go": new})
    assert [(f.name, f.shows, f.short) for f in facts if f.kind == "flag"] == [("--config", "FILE", "-c")]
    # urfave/cli's format: the value again after the alias, the placeholder unquoted, the default as the siblings'
    assert draft.files["docs/flags.md"].split("\n")[4:8] == [
        '   --lang value, -l value  language for the greeting (default: "english")',
        '   --config FILE, -c FILE  Load configuration from FILE (default: "app.toml")',
        "   --loud                  shout it (default: false)",
        "   --help, -h              show help (default: false)"]
    assert checked.passed, checked.comments


def test_a_new_function_is_rendered_by_its_import_path_after_its_sibling_s_line():
    """A page that renders each name of a module by its import path (``#### ::: pkg.mod.name``)
    gets the new function's own line after its nearest sibling's, the module's path as the
    sibling's line gives it; a name of another file is not rendered from that module."""
    page = ("# Plugins\n\n#### ::: app.plugins.event_priority\n    options:\n        heading_level: 4\n\n"
            "Text.\n\n#### ::: app.errors.PluginError\n")
    fact = Fact(kind="symbol", change="added", name="get_plugin_logger", path="src/app/plugins.py",
                rule="python: public function", siblings=("event_priority", "get_plugins"))
    draft = _written("docs/plugins.md", page, fact)
    assert draft.files["docs/plugins.md"].split("\n")[2:8] == [
        "#### ::: app.plugins.event_priority", "    options:", "        heading_level: 4", "",
        "#### ::: app.plugins.get_plugin_logger", ""]
    elsewhere = Fact(kind="symbol", change="added", name="get_plugin_logger", path="app/hooks.py",
                     rule="python: public function", siblings=("event_priority",))
    assert "docs/plugins.md" not in _written("docs/plugins.md", page, elsewhere).files


OPTION_EXAMPLES = """# Client side SSL certificate

To use a client side certificate, pass the path of the cert file with `--cert`:

```bash
$ http --cert=client.pem https://example.org
```

If the private key is not in the cert file, pass the path of the key file with `--cert-key`:

```bash
$ http --cert=client.crt --cert-key=client.key https://example.org
```

## SSL version
"""


def test_a_new_option_s_example_follows_its_nearest_sibling_s_where_the_page_shows_options_so():
    fact = Fact(kind="flag", change="added", name="--cert-key-pass", path="app/cli.py", rule="t", new="None",
                note="The passphrase of the private key. Only needed if --cert-key\n is given.",
                siblings=("--cert-key", "--verbose", "--cert"))
    draft = _written("docs/README.md", OPTION_EXAMPLES, fact)
    lines = draft.files["docs/README.md"].split("\n")
    at = lines.index("$ http --cert=client.crt --cert-key=client.key https://example.org") + 2
    assert lines[at:at + 4] == [
        "", "```bash", "$ http --cert=client.crt --cert-key=client.key --cert-key-pass=CERT_KEY_PASS https://example.org",
        "```"]
    # the sentence introducing it is a person's, from the help text
    assert draft.open_points == ["docs/README.md: introduce the example of --cert-key-pass as the one of --cert-key is "
                                 "introduced; the code's help text: The passphrase of the private key. Only needed if "
                                 "--cert-key is given."]
    # a switch takes no value; no help text: nothing written
    switch = Fact(kind="flag", change="added", name="--no-cert-check", path="app/cli.py", rule="t", new="False",
                  note="Skip the check.", siblings=("--cert-key",))
    assert "--cert-key=client.key --no-cert-check https" in _written("docs/README.md", OPTION_EXAMPLES,
                                                                     switch).files["docs/README.md"]
    silent = Fact(kind="flag", change="added", name="--cert-key-pass", path="app/cli.py", rule="t",
                  siblings=("--cert-key",))
    assert _written("docs/README.md", OPTION_EXAMPLES, silent).files == {}


def test_a_new_option_whose_siblings_have_entries_gets_no_example():
    page = OPTION_EXAMPLES + "\n## Options\n\n* `--cert-key` - The key file.\n* `--cert` - The cert file.\n"
    fact = Fact(kind="flag", change="added", name="--cert-key-pass", path="app/cli.py", rule="t", new="None",
                note="The passphrase of the private key.", siblings=("--cert-key", "--cert"))
    written = _written("docs/README.md", page, fact).files["docs/README.md"]
    assert "--cert-key-pass=" not in written and "* `--cert-key-pass`" in written
