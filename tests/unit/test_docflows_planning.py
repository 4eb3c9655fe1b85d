"""How surely the planner's weaker signs plan a page (issue 36), each on a small real git
repository with one pull request, planned as the ``docflow.generate`` job plans it: the facts, the
names on the changed lines and the pull request's title and body against the docs pages.

- the pull request's words single out one page (its BM25 score far above every other page's): that
  page is planned for review, not edited; words several pages share about as much only make them
  worth a look.
"""

from __future__ import annotations

from pathlib import Path

from docsvc.server.engines.docflows.changed_names import code_hunks, diff_of, name_changes
from docsvc.server.engines.docflows.evidence.pages import PageIndex
from docsvc.server.engines.docflows.facts import facts_between
from docsvc.server.engines.docflows.outline import REVIEW, outline
from docsvc.server.engines.docflows.planner import plan
from docsvc.server.engines.docflows.words import said_in
from docsvc.server.engines.git import Mirror
from tests.support import GitRemote

# Eight pages on their own subjects; "option" and "command" stand on every one of them.
DOCS = {
    "docs/index.md": "# Deploy\n\nDeploy ships a site. Every option and command is listed in the reference.\n",
    "docs/install.md": "# Install\n\nInstall with pip. Each command takes an option or two.\n",
    "docs/completion.md": ("# Shell completion\n\nDeploy completes commands in bash. The completion script is "
                           "sourced from your shell profile; each option is completed too.\n"),
    "docs/mirrors.md": "# Mirrors\n\nA mirror keeps a copy. The command syncs it with an option.\n",
    "docs/themes.md": "# Themes\n\nA theme styles the pages. The command takes an option for it.\n",
    "docs/plugins.md": "# Plugins\n\nPlugins hook into the build. An option turns one off; a command lists them.\n",
    "docs/logging.md": "# Logging\n\nThe log says what each command did, with an option for how much.\n",
    "docs/faq.md": "# FAQ\n\nWhy does the command need an option? Because.\n",
}

CODE = '''def complete(shell):
    """Print the completion script for ``shell``."""
    return SCRIPTS[shell]
'''

CHANGE = {"app/shell.py": CODE.replace("return SCRIPTS[shell]", "return render_script(SCRIPTS[shell])")}


def _plan(tmp_path: Path, code: dict[str, str], change: dict[str, str | None], docs: dict[str, str],
          title: str, body: str = ""):
    """The plan of a pull request that commits ``change`` on ``code``, titled ``title``."""
    remote = GitRemote(tmp_path, "app", code)
    mirror = Mirror.for_url(tmp_path / "data", str(remote.bare))
    mirror.fetch()
    base = mirror.head("main")
    remote.commit(change, title)
    mirror.fetch()
    head = mirror.head("main")
    index = PageIndex(docs)
    names = name_changes(code_hunks(diff_of(mirror, base, head)))
    return plan(facts_between(mirror, base, head), index.find, index.read, total_pages=len(index), names=names,
                family=index.family, said=said_in(title, body), words=index.bm25)


def test_words_that_single_out_one_page_plan_it_for_review_not_edited(tmp_path):
    result = _plan(tmp_path, {"app/shell.py": CODE},
                   CHANGE,
                   DOCS, "Shell completion for zsh profiles")
    [page] = result.pages
    assert (page.path, page.mode) == ("docs/completion.md", "related")
    assert page.reasons == ["the pull request's title and body speak of completion (line 1), profile (line 3), "
                            "shell (line 1), words specific to this page, far more than to any other (score "
                            "10.8; no other page shares 2 of them) [pull request's words]"]
    [row] = [r for r in outline([{"path": p.path, "mode": p.mode, "reasons": p.reasons} for p in result.pages],
                                (), result.worth_a_look) if r["path"] == "docs/completion.md"]
    assert row["action"] == REVIEW and row["why"][-1].startswith("not edited: no fact")


def test_words_two_pages_share_alike_only_make_them_worth_a_look(tmp_path):
    # enough pages for a word on two of them to be specific still
    docs = {**DOCS, **{f"docs/topic{n}.md": f"# Topic {n}\n\nThe command takes an option.\n" for n in range(8)},
            "docs/shells.md": "# Shells\n\nBash and zsh profiles source the completion script.\n"}
    result = _plan(tmp_path, {"app/shell.py": CODE},
                   CHANGE,
                   docs, "Shell completion for zsh profiles")
    assert result.pages == []
    assert {look["path"] for look in result.worth_a_look} == {"docs/completion.md", "docs/shells.md"}


def test_the_best_of_very_few_pages_is_singled_out_by_nothing(tmp_path):
    docs = {p: DOCS[p] for p in ("docs/index.md", "docs/install.md", "docs/completion.md")}
    result = _plan(tmp_path, {"app/shell.py": CODE},
                   CHANGE,
                   docs, "Shell completion for zsh profiles")
    assert result.pages == []
    assert [look["path"] for look in result.worth_a_look] == ["docs/completion.md"]


def test_a_test_only_change_stays_quiet_however_clearly_its_words_point(tmp_path):
    result = _plan(tmp_path, {"app/shell.py": CODE, "tests/test_shell.py": "def test_zsh():\n    pass\n"},
                   {"tests/test_shell.py": "def test_zsh():\n    assert True\n"},
                   DOCS, "Shell completion for zsh profiles")
    assert (result.pages, result.worth_a_look) == ([], [])



def test_an_example_programs_changed_names_are_no_evidence_of_a_page():
    diff = [("examples/tutorial/flaskr/db.py", ["-    db = get_db()", "+    db = current_app.get_db_conn()"]),
            ("src/flask/app.py", ["-    def open_resource(self):", "+    def open_resource(self, mode):"])]
    assert set(name_changes(code_hunks(diff, examples=False)).counts) == {"open_resource"}
    assert {"get_db", "get_db_conn", "open_resource"} <= set(name_changes(code_hunks(diff)).counts)


def test_a_dotted_name_the_title_says_counts_as_changed_when_the_code_changes_its_last_part():
    from collections import Counter

    from docsvc.server.engines.docflows.changed_names import NameChanges

    docs = {**DOCS, "docs/config.md": "# Config\n\nLoad a file with `config.from_file`.\n"}
    index = PageIndex(docs)
    names = NameChanges(Counter({"from_file": 2}), frozenset())
    result = plan([], index.find, index.read, total_pages=len(index), names=names,
                  said=said_in("clean up config.from_file docs", ""), words=index.bm25)
    assert [(p.path, p.mode) for p in result.pages] == [("docs/config.md", "related")]
    assert result.pages[0].reasons[0].startswith("the pull request's title names config.from_file, which the page "
                                                 "documents (line 3); the code changes it too")


def test_a_new_file_beside_the_files_a_page_shows_plans_that_page_for_review():
    docs = {**DOCS, "docs/optional.md": "# Optional\n\n{* docs_src/optional/tutorial000_py39.py hl[4] *}\n",
            "docs/links.md": "# Links\n\nSee docs_src/optional/tutorial000_py39.py on GitHub.\n"}  # named, not shown
    index = PageIndex(docs)
    result = plan([], index.find, index.read, total_pages=len(index),
                  added=["docs_src/optional/tutorial000_an_py39.py", "tests/test_optional/test_tutorial000.py"])
    assert [(p.path, p.mode) for p in result.pages] == [("docs/optional.md", "related")]
    assert result.pages[0].reasons == ["shows a file of docs_src/optional/ (line 3), where the pull request adds "
                                       "tutorial000_an_py39.py [git: file added]"]
    # a folder many pages show files of tells none apart
    many = PageIndex({**docs, **{f"docs/more{n}.md": f"# More\n\n{{* docs_src/optional/t{n}.py *}}\n" for n in range(3)}})
    assert plan([], many.find, many.read, total_pages=len(many), added=["docs_src/optional/new.py"]).pages == []


def test_a_page_planned_on_a_function_the_words_and_the_code_share_carries_its_dropped_parameter(tmp_path):
    code = "class Type:\n    def shell_complete(self, ctx, param, args, incomplete):\n        return []\n"
    page = ("Completion\n==========\n\nOverride ``shell_complete`` on your type:\n\n"
            "-   ``ctx`` - The current context.\n-   ``param`` - The parameter asking.\n"
            "-   ``args`` - The arguments before it.\n-   ``incomplete`` - The partial word.\n")
    docs = {"docs/completion.rst": page, "docs/index.rst": "Index\n=====\n\nThe args of a command.\n"}
    result = _plan(tmp_path, {"app/types.py": code}, {"app/types.py": code.replace("args, ", "")}, docs,
                   "Drop args from `shell_complete`")
    planned = {p.path: p for p in result.pages}
    assert [f.name for f in planned["docs/completion.rst"].facts] == ["Type.shell_complete(args)"]
    assert "docs/index.rst" not in planned
