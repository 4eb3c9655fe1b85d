"""The Editor's checks (groundwork for issue 5)."""

from docsvc.server.engines.docflows.editor import review

EXISTING = {"docs/install.md", "docs/img/flow.png", "docs/guide/index.md"}


def checks(files, renames=()):
    result = review(files, lambda p: p in EXISTING, renames)
    return [(c.path, c.line, c.check) for c in result.comments], result


def test_a_clean_page_passes():
    comments, result = checks({"docs/guide/index.md": "# Guide\n\nSee [install](../install.md#linux) and "
                                                      "![flow](../img/flow.png).\n\n## Options\n\n"
                                                      "```sh\n# not a heading\n[not](a-link.md)\n```\n"})
    assert comments == [] and result.passed


def test_broken_links_and_images_are_named_with_their_line():
    comments, result = checks({"docs/guide/index.md": "# Guide\n\n[gone](missing.md)\n\n![shot](img/none.png)\n"
                                                      "[web](https://example.com/x.md) [anchor](#options)\n"
                                                      "`[code](nope.md)` and [outside](../../../etc.md)\n"})
    assert comments == [("docs/guide/index.md", 3, "broken-link"), ("docs/guide/index.md", 5, "broken-image"),
                        ("docs/guide/index.md", 7, "broken-link")]
    assert not result.passed
    assert result.comments[0].message == "link target missing.md does not exist (docs/guide/missing.md)"


def test_code_blocks_are_read_as_the_planner_reads_them():
    # a ```` block that shows a ``` one, and a fence indented in an admonition's body, are code
    page = ("# A\n\n````markdown\n```sh\n# not a heading\n```\n[not](a-link.md)\n````\n\n"
            "!!! note\n    ```md\n    [not](a-link.md)\n    ```\n\n[gone](missing.md)\n")
    comments, _ = checks({"docs/a.md": page})
    assert comments == [("docs/a.md", 15, "broken-link")]


def test_an_unclosed_code_fence():
    comments, _ = checks({"docs/a.md": "# A\n\n```bash\nrun --force\n\n## Later\n"})
    assert comments == [("docs/a.md", 3, "code-fence")]


def test_heading_levels_and_duplicates():
    comments, _ = checks({"docs/a.md": "# A\n\n### Too deep\n\n## Options\n\ntext\n\n## Options\n"})
    assert comments == [("docs/a.md", 3, "heading-level"), ("docs/a.md", 9, "duplicate-heading")]


def test_old_names_left_behind_by_a_rename():
    comments, result = checks({"docs/a.md": "# A\n\nUse `--docs-dir`.\n\nOld: --docs-root here.\n",
                               "docs/b.rst": "Use --docs-root\n--docs-rooted is another flag\n"},
                              renames=[("--docs-root", "--docs-dir")])
    assert comments == [("docs/a.md", 5, "leftover-name"), ("docs/b.rst", 1, "leftover-name")]
    assert "renamed to '--docs-dir'" in result.comments[0].message


def test_the_editor_checks_a_draft_against_the_renames_and_the_paths_known_when_asked():
    from docsvc.server.engines.docflows.editor import checked_against
    from docsvc.server.engines.docflows.facts_model import Fact

    facts = [Fact("flag", "renamed", "--ssl-keyfile", "main.py", "rule", old="--keyfile"),
             Fact("flag", "added", "--workers", "main.py", "rule")]
    written: dict[str, str] = {}
    renames, exists = checked_against(facts, {"docs/index.md"}, written)
    assert renames == [("--keyfile", "--ssl-keyfile")]
    assert exists("docs/index.md") and not exists("docs/new.md")
    written["docs/new.md"] = "# New"  # a page the draft writes after the check was set up
    assert exists("docs/new.md")
