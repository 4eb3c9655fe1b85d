"""The Feature Author Writer's rules, the Editor's release-notes suggestion, and the rendering of a
release's notes (issue 7)."""

from types import SimpleNamespace

from docsvc.server.engines.docflows.editor import review, suggest_release_notes
from docsvc.server.engines.feature_author import draft_path, write_draft
from docsvc.server.services.release_notes import render

BRIEF = """Bulk export lets admins download every report of a workspace as one ZIP file.

Users can export all reports at once. You can pick CSV or JSON.

- schedule a weekly export
- `--format` — csv or json (default csv)
- --include-archived: also export archived reports

## Steps
1. Open Reports
2. Click **Export all**

```sh
docsvc export --format json
```

Exports cannot include dashboards. See [the guide](../guide.md).
"""


def section(markdown: str, heading: str) -> list[str]:
    lines = markdown.split("\n")
    start = lines.index(f"## {heading}") + 2
    end = next((i for i in range(start, len(lines)) if lines[i].startswith("## ")), len(lines))
    return [line for line in lines[start:end] if line]


def test_the_writer_sorts_the_brief_into_the_page_sections():
    page = write_draft("Bulk export", BRIEF).markdown
    assert page.startswith("# Bulk export\n\n## Overview\n\n")
    headings = [line for line in page.split("\n") if line.startswith("## ")]
    assert headings == ["## Overview", "## What you can do", "## How to use it", "## Options",
                        "## Limitations and notes"]
    assert section(page, "Overview") == ["Bulk export lets admins download every report of a workspace as one ZIP "
                                         "file."]
    assert section(page, "What you can do") == ["- Export all reports at once.", "- Pick CSV or JSON.",
                                                "- Schedule a weekly export."]
    assert section(page, "How to use it") == ["1. Open Reports.", "2. Click **Export all**.", "```sh",
                                              "docsvc export --format json", "```"]
    assert section(page, "Options") == ["| Option | Description |", "|---|---|",
                                        "| `--format` | csv or json (default csv) |",
                                        "| `--include-archived` | also export archived reports |"]
    assert section(page, "Limitations and notes") == ["- Exports cannot include dashboards.",
                                                      "- See [the guide](../guide.md)."]


def test_each_placement_names_its_rule():
    notes = write_draft("Bulk export", BRIEF).notes
    assert "line 3: What you can do ← Export all reports at once ('users can' sentence)".replace(
        "('users", "(a 'users") in notes
    assert any(n.startswith("line 10: How to use it ← Open Reports (a list item under a How to use it") for n in notes)
    assert any("(a list item that starts with an option)" in n for n in notes)
    assert any(n.startswith("line 13: How to use it ← a code block") for n in notes)


def test_sentences_with_step_words_become_steps_and_a_bare_brief_still_has_an_overview():
    page = write_draft("Dark mode", "Then open Settings. Finally, pick Dark.").markdown
    assert section(page, "How to use it") == ["1. Open Settings.", "2. Pick Dark."]
    assert section(page, "Overview") == ["This page describes Dark mode."]
    assert "## What you can do" not in page and "## Options" not in page


def test_no_options_table_when_no_option_is_named():
    assert "## Options" not in write_draft("Teams", "Users can create teams.").markdown


def test_the_editor_passes_a_good_draft_and_flags_a_dead_link_and_an_open_fence():
    path = draft_path("Bulk export", "docs")
    assert path == "docs/features/bulk-export.md"
    good = review({path: write_draft("Bulk export", BRIEF).markdown}, lambda p: p in {path, "docs/guide.md"})
    assert good.passed
    for brief, check in (("Users can export.\n\nSee [setup](../missing.md).\n", "broken-link"),
                         ("Users can export.\n\n```sh\ndocsvc export\n", "code-fence")):
        bad = review({path: write_draft("Bulk export", brief).markdown}, lambda p: p == path)
        assert [c.check for c in bad.comments] == [check] and not bad.passed


def test_the_editor_release_notes_suggestion_and_its_rules():
    cats = ["Billing", "Exports", "CLI"]
    feature = suggest_release_notes("Bulk export", "Users can export billing reports. More text.", cats)
    assert (feature["release_notes"], feature["rn_section"], feature["rn_category"], feature["rn_note"]) == \
        ("include", "feature", "Billing", "Users can export billing reports.")
    assert feature["rules"][0].startswith("section feature: no words of a fix")
    assert "category Billing: the text names it" in feature["rules"]
    faster = suggest_release_notes("Faster CLI exports", "Exports finish in half the time.", cats)
    assert (faster["rn_section"], faster["rn_category"]) == ("enhancement", "CLI")  # the first the title names
    assert faster["rules"][0] == "section enhancement: the title says it improves something that exists ('Faster')"
    assert suggest_release_notes("Fix crash on login", "", cats)["rn_section"] == "bug"
    assert suggest_release_notes("Webhook retries", "", cats)["rn_section"] == "developer"
    assert suggest_release_notes("Known issue: slow sync", "", cats)["rn_section"] == "known-issue"
    internal = suggest_release_notes("Cleanup", "A refactor of the exporter; no user-facing change.", [])
    assert (internal["release_notes"], internal["rn_category"], internal["rn_note"]) == \
        ("skip", "Other", "A refactor of the exporter; no user-facing change.")
    assert suggest_release_notes("Title only", "## Heading\n", [])["rn_note"] == "Title only"


def entry(section, category, note, badge=None):
    return SimpleNamespace(section=section, category=category, note=note, badge=badge)


def test_release_notes_render_by_section_then_category():
    entries = [entry("bug", "Other", "Login no longer crashes."),
               entry("feature", "Exports", "Bulk export.", "Feature Author"),
               entry("feature", "Other", "Dark mode."),
               entry("developer", "Retired", "New webhook."),
               entry("feature", "Billing", "Invoices in PDF."),
               entry("developer", "CLI", "docsvc --json everywhere.")]
    assert render("5.0", entries, ["Billing", "Exports", "CLI"]).split("\n") == [
        "# Release notes: 5.0", "",
        "## New features", "",
        "### Billing", "", "- Invoices in PDF.", "",
        "### Exports", "", "- Bulk export. _[Feature Author]_", "",
        "### Other", "", "- Dark mode.", "",
        "## Bug fixes", "",
        "### Other", "", "- Login no longer crashes.", "",
        "## For developers", "",
        "### CLI", "", "- docsvc --json everywhere.", "",
        "### Retired", "", "- New webhook.", ""]


def test_an_empty_queue_says_so():
    assert render("5.0", [], []) == "# Release notes: 5.0\n\n_No entries in the release-notes queue yet._\n"


def test_a_numbered_list_written_inline_is_one_step_per_number():
    # On a numbered line of its own, and inside a paragraph (issue 14).
    for brief in ("1. Build the image 2. If it fails, rebuild without the cache.",
                  "To ship it: 1. Build the image 2. If it fails, rebuild without the cache.",
                  "## Steps\n\n1) Build the image 2) If it fails, rebuild without the cache."):
        page = write_draft("Images", brief).markdown
        assert section(page, "How to use it") == ["1. Build the image.",
                                                  "2. If it fails, rebuild without the cache."], brief


def test_a_number_that_is_a_value_does_not_start_a_step():
    page = write_draft("Retries", "## Steps\n1. Set retries to 2. Then restart the worker\n2. Check the log").markdown
    assert section(page, "How to use it") == ["1. Set retries to 2. Then restart the worker.", "2. Check the log."]
    page = write_draft("Retries", "Version 1. Then restart the worker.").markdown
    assert section(page, "How to use it") == ["1. Restart the worker."]
