"""Information Architect and Writer on a realistic pull request (groundwork for issue 5)."""

import dataclasses

from docsvc.server.engines.docflows.editor import review
from docsvc.server.engines.docflows.evidence.model import NO_CHANGE
from docsvc.server.engines.docflows.facts import facts_of_change
from docsvc.server.engines.docflows.planner import plan
from docsvc.server.engines.docflows.writer import write
from tests.unit.test_facts import PY_NEW, PY_OLD

DOCS = {
    "docs/cli.md": """# Command line

| Flag | Default | Description |
|---|---|---|
| `--docs-root` | `docs` | folder of the docs |
| `--retries` | `3` | how often to retry |
| `--legacy` | | old mode |

Run `deploy --docs-root site/` to publish from another folder.
""",
    "docs/env.md": """# Environment

- `DEPLOY_TOKEN`: the token that authorises a deploy
""",
    "docs/legacy.md": """# Upgrading

## The --legacy mode

It keeps the old behaviour.

## Other notes

Nothing else.
""",
    "docs/unrelated.md": "# Unrelated\n\nNothing about flags.\n",
}


def find(term):  # stands in for the docs index: every page, the planner checks each mention
    return list(DOCS)


def test_the_plan_names_pages_reasons_and_confidence():
    facts = facts_of_change("app/cli.py", PY_OLD, PY_NEW)
    result = plan(facts, find, DOCS.get)
    by_path = {p.path: p for p in result.pages}
    assert set(by_path) == {"docs/cli.md", "docs/env.md"}
    # --legacy stands only in a heading of prose there: worth a look, never edited
    assert [w["path"] for w in result.worth_a_look] == ["docs/legacy.md"]
    assert "in prose only" in result.worth_a_look[0]["reason"]
    assert by_path["docs/cli.md"].mode == "direct" and by_path["docs/cli.md"].confidence == 0.9
    assert any("mentions --docs-root (line 5); the pull request renames it to --docs-dir" in r
               for r in by_path["docs/cli.md"].reasons)
    assert by_path["docs/env.md"].mode == "conceptual" and by_path["docs/env.md"].confidence == 0.6
    assert any("documents DEPLOY_TOKEN (line 3), another env of app/cli.py; DEPLOY_REGION is new beside it" in r
               for r in by_path["docs/env.md"].reasons)
    assert result.verdict == "documentation change planned"
    assert any(u.startswith("symbol Deployer added: no docs page documents it") for u in result.unaffected)


def test_the_draft_edits_in_the_format_of_the_page_and_passes_the_editor():
    facts = facts_of_change("app/cli.py", PY_OLD, PY_NEW)
    draft = write(plan(facts, find, DOCS.get), DOCS.get)
    assert draft.files["docs/cli.md"] == """# Command line

| Flag | Default | Description |
|---|---|---|
| `--docs-dir` | `docs` | folder of the docs |
| `--retries` | `5` | how often to retry |
| `--dry-run` | — | show what would happen |

Run `deploy --docs-dir site/` to publish from another folder.
"""
    assert draft.files["docs/env.md"] == """# Environment

- `DEPLOY_TOKEN`: the token that authorises a deploy
- `DEPLOY_REGION`: defaults to `eu-west-1`
"""
    assert "docs/legacy.md" not in draft.files
    assert all("[rule: " in note for note in draft.notes)
    renames = [(f.old, f.name) for f in facts if f.change == "renamed"]
    assert review(draft.files, lambda p: True, renames).passed


def test_a_change_only_to_tests_needs_no_docs_change():
    facts = facts_of_change("tests/test_cli.py", "def test_a():\n    pass\n", "def test_b():\n    pass\n")
    result = plan(facts, find, DOCS.get)
    assert result.pages == [] and result.verdict == NO_CHANGE


def test_removed_names_mentioned_only_in_prose_are_left_for_a_person():
    facts = facts_of_change("app/cli.py", PY_OLD, PY_OLD.replace(
        '    parser.add_argument("--docs-root", default="docs", help="folder of the docs")\n', ""))
    draft = write(plan(facts, find, DOCS.get), DOCS.get)
    assert "| `--docs-root`" not in draft.files["docs/cli.md"]
    assert draft.open_points == ["docs/cli.md:8: --docs-root is still mentioned; the pull request removes it"]


def test_a_name_left_on_many_lines_is_listed_line_by_line_five_times_then_once():
    facts = facts_of_change("app/cli.py", PY_OLD, PY_OLD.replace(
        '    parser.add_argument("--docs-root", default="docs", help="folder of the docs")\n', ""))
    docs = {**DOCS, "docs/cli.md": DOCS["docs/cli.md"] + "".join(
        f"\nStep {n}: pass `--docs-root` again.\n" for n in range(8))}
    draft = write(plan(facts, find, docs.get), docs.get)
    points = [p for p in draft.open_points if "--docs-root" in p]
    assert len(points) == 6 and all(p.startswith("docs/cli.md:") for p in points)
    assert points[-1].startswith("docs/cli.md: --docs-root is still mentioned on 4 more line(s) (")
    assert points[-1].endswith("); the pull request removes it")


def test_two_facts_of_one_name_leave_each_open_point_once():
    """Two facts that name the same thing (a method removed from two classes) find the same lines."""
    facts = facts_of_change("app/cli.py", PY_OLD, PY_OLD.replace(
        '    parser.add_argument("--docs-root", default="docs", help="folder of the docs")\n', ""))
    removal = next(f for f in facts if f.name == "--docs-root")
    docs = {**DOCS, "docs/cli.md": DOCS["docs/cli.md"] + "\nStep 1: pass `--docs-root` again.\n"}
    twin = dataclasses.replace(removal, path="app/other_cli.py")
    points = [p for p in write(plan(facts + [twin], find, docs.get), docs.get).open_points if "--docs-root" in p]
    assert points and len(points) == len(set(points))


def test_page_structure_counts_lines_at_newlines_even_with_carriage_returns():
    """A lone CR ends a line for markdown-it, not for the editor: both must count the same lines (a CR
    in a page once made the structure point past its last line, and the suggestion fail)."""
    from docsvc.server.engines.docflows.structure import blocks

    text = "# Title\r\n\r\nIntro\rstill the intro\n\n- `--one`: first\n- `--two`: second\r\n"
    found = blocks("docs/page.md", text)
    lines = text.split("\n")
    assert all(0 <= b.start < b.end <= len(lines) for b in found)
    items = [b for b in found if b.kind == "item"]
    assert [lines[b.start] for b in items] == ["- `--one`: first", "- `--two`: second\r"]


def test_an_added_item_copies_a_separator_on_the_siblings_own_line_only():
    """A sibling item whose name ends its line, with a nested list below, has no separator to copy:
    the new item is one line (a separator once reached into the next line and split the new item
    across the nested list's marker, and the next edit of the page failed)."""
    page = {"docs/env.md": "# Environment\n\n- `DEPLOY_TOKEN`\n  - the token that authorises a deploy\n"}
    facts = facts_of_change("app/cli.py", PY_OLD, PY_NEW)
    draft = write(plan(facts, lambda term: list(page), page.get), page.get)
    added = draft.files["docs/env.md"].split("\n")
    assert "- `DEPLOY_REGION` — defaults to `eu-west-1`" in added
