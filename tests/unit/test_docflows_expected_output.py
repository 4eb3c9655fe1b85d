"""The output the tests expect, changed by a pull request: the pages whose examples show the old
output are planned for review."""

from __future__ import annotations

from pathlib import Path

from docsvc.server.engines.docflows.changed_names import diff_of
from docsvc.server.engines.docflows.evidence.pages import PageIndex
from docsvc.server.engines.docflows.expected_output import OutputChange, output_changes, outputs_between
from docsvc.server.engines.docflows.planner import plan
from docsvc.server.engines.git import Mirror
from tests.support import GitRemote


def test_what_a_test_expects_is_in_its_strings_and_its_data_files():
    hunks = [
        ("tests/test_cli.py", [
            '-    assert "Usage: main.py [OPTIONS] [NAME]" in result.output',
            '+    assert "Usage: main.py [OPTIONS] [name]" in result.output',
            "-    assert result.exit_code == 0",  # the test's code, not output
            "+    assert result.exit_code == 2",
            "-    result = runner.invoke(app, ['-v'])",  # a span too short to tell a page by
            "+    result = runner.invoke(app, ['-q'])",
            '-    assert "Error: Missing option" in result.output',  # rewritten, not an output changed
            '+    check_missing(result)',
        ]),
        ("tests/assets/help.md", ["-* `--name TEXT`: [default: World]", "+* `--name <str>`: [default: World]"]),
        ("tests/test_api.py", ['-    client.send_request(timeout=5)', '+    client.send_message(timeout=5)']),
        ("tests/test_git.py", ['-    clone("git@github.com:owner/repo.git")', '+    clone("git@localhost:owner/repo.git")',
                               '-    get("https://httpstatuses.com/404")', '+    get("https://developer.mozilla.org/404")']),
        # what a table-driven test feeds the program is its fixture; what it wants is output
        ("pkg/archive_test.go", ['-\t\t\tName:    "bin.tar.gz",', '+\t\t\tName:    "bin.tgz",',
                                 '-\t\t\tformat="tar.gz",', '+\t\t\tformat="tgz",',
                                 '-\t\t\twant:    "archive bin.tar.gz written",', '+\t\t\twant:    "archive bin.tgz written",']),
    ]
    assert output_changes(hunks) == [
        OutputChange("[NAME]", "[name]", "tests/test_cli.py"),
        OutputChange("name TEXT", "name <str>", "tests/assets/help.md"),
        OutputChange(".tar.gz written", ".tgz written", "pkg/archive_test.go"),
    ]


def test_a_quote_mark_beside_the_span_is_the_tests_code_not_context():
    hunks = [("tests/test_help.py", [
        '-    assert "Usage: main.py create [OPTIONS] USERNAME" in result.output',
        '+    assert "Usage: main.py create [OPTIONS] {username}" in result.output',
        "-    assert result.output == 'NAME'",  # the whole string: the quotes stay, a bare NAME is anybody's
        "+    assert result.output == 'name'",
    ])]
    assert output_changes(hunks) == [OutputChange("] USERNAME", "] {username}", "tests/test_help.py"),
                                     OutputChange("'NAME'", "'name'", "tests/test_help.py")]


def _pages() -> PageIndex:
    help_screen = "```console\n$ python main.py --help\nUsage: main.py [OPTIONS] [NAME]\n```\n"
    return PageIndex({
        "docs/arguments.md": "# Arguments\n\nCheck it:\n\n" + help_screen,
        "docs/prose.md": "# Names\n\nThe help shows `[NAME]` for an optional argument.\n",  # not an example
        "docs/release-notes.md": "# Release notes\n\n" + help_screen,  # never planned
        **{f"docs/page{n}.md": f"# Page {n}\n\nText.\n" for n in range(12)},
    })


def test_a_page_whose_example_shows_output_the_tests_no_longer_expect_is_planned_for_review():
    index = _pages()
    change = OutputChange("[NAME]", "[name]", "tests/test_cli.py")
    result = plan([], index.find, index.read, total_pages=len(index), outputs=[change])
    assert [(p.path, p.mode) for p in result.pages] == [("docs/arguments.md", "related")]
    assert result.pages[0].reasons == ["shows output the tests now expect otherwise: '[NAME]' (line 7) is now "
                                       "'[name]' in tests/test_cli.py [tests' expected output]"]


def test_output_shown_on_a_quarter_of_the_pages_tells_none_apart():
    index = PageIndex({f"docs/p{n}.md": f"# P{n}\n\n```\nUsage: app [OPTIONS]\n```\n" if n < 5 else f"# P{n}\n"
                       for n in range(16)})
    change = OutputChange("[OPTIONS]", "[options]", "tests/test_cli.py")
    assert plan([], index.find, index.read, total_pages=len(index), outputs=[change]).pages == []


def test_the_output_a_pull_request_changes_is_read_from_its_tests_when_it_changes_code(tmp_path: Path):
    test = 'def test_help(runner):\n    assert "Usage: app [OPTIONS] [NAME]" in runner.invoke(app).output\n'
    remote = GitRemote(tmp_path, "app", {"src/app/cli.py": "def main(): ...\n", "tests/test_cli.py": test})
    mirror = Mirror.for_url(tmp_path / "data", str(remote.bare))
    new_test = test.replace("[NAME]", "[name]")

    def outputs_of(files: dict[str, str]) -> list[OutputChange]:
        mirror.fetch()
        base = mirror.head("main")
        remote.commit(files, "change")
        mirror.fetch()
        head = mirror.head("main")
        code_changed = any(not p.startswith("tests/") for p in files)
        return outputs_between(diff_of(mirror, base, head), code_changed)

    assert outputs_of({"src/app/cli.py": "def main(): return 1\n", "tests/test_cli.py": new_test}) == [
        OutputChange("[NAME]", "[name]", "tests/test_cli.py")]
    # a test changed alone: what users see is as it was
    assert outputs_of({"tests/test_cli.py": test}) == []


def test_a_span_that_closes_a_bracket_is_reprinted_after_the_word_it_closes():
    from docsvc.server.engines.docflows.structures.expected_output import _spans, reprinted

    # ``] USERNAME`` of ``[OPTIONS] USERNAME``: the bracket closes OPTIONS, the span is whole
    assert reprinted("Usage: main.py create [OPTIONS] USERNAME", "] USERNAME", "] {username}") == \
        "Usage: main.py create [OPTIONS] {username}"
    # a span that ends amid a word is still part of another (a file's name)
    assert _spans("see 'mkdocs.yml'", "'mkdocs.") == []
    assert _spans("Usage: app [NAMES]", "[NAME") == []
