"""The pull request's words as evidence (``engines/docflows/words.py`` and the planner's use of
them): BM25 weighs a word by how few pages hold it, a name written as code is strong, a common word
never counts, words alone only make a page worth a look, and a pull request whose code says nothing
user-facing stays quiet however much its body says."""

from __future__ import annotations

from collections import Counter

from docsvc.server.engines.docflows.changed_names import NameChanges
from docsvc.server.engines.docflows.evidence.pages import PageIndex
from docsvc.server.engines.docflows.facts_model import Fact
from docsvc.server.engines.docflows.outline import outline, with_looks
from docsvc.server.engines.docflows.planner import plan
from docsvc.server.engines.docflows.words import Bm25, said_in, stem, words_of

# Ten pages, each on its own subject; "option" and "command" stand on every one of them.
DOCS = {
    "docs/index.md": "# Deploy\n\nDeploy ships a site. Every option and command is listed in the reference.\n",
    "docs/install.md": "# Install\n\nInstall with pip. Each command takes an option or two.\n",
    "docs/completion.md": ("# Shell completion\n\nDeploy completes commands in bash. The completion script is "
                           "sourced from your shell profile; each option is completed too.\n\n"
                           "Set `DEPLOY_COMPLETE` to generate the script.\n"),
    "docs/mirrors.md": "# Mirrors\n\nA mirror keeps a copy. The command syncs it with an option.\n",
    "docs/config.md": ("# Configuration\n\nEach command reads deploy.toml; an option beats it.\n\n"
                       "### site_url\n\nThe address the site is served at.\n\n"
                       "### retries\n\nHow often an upload is tried.\n"),
    "docs/themes.md": "# Themes\n\nA theme styles the pages. The command takes an option for it.\n",
    "docs/plugins.md": "# Plugins\n\nPlugins hook into the build. An option turns one off; a command lists them.\n",
    "docs/upload.md": "# Uploads\n\nThe upload command sends files; the option `--chunk-size` splits them.\n",
    "docs/logging.md": "# Logging\n\nThe log says what each command did, with an option for how much.\n",
    "docs/faq.md": "# FAQ\n\nWhy does the command need an option? Because.\n",
}


def find(term):  # every page: the planner checks each mention itself
    return list(DOCS)


def planned(facts=(), changed=(), title="", body=""):
    """The plan for a pull request whose code changes ``facts`` and the names ``changed``, with
    its ``title`` and ``body``."""
    index = PageIndex(DOCS)
    names = NameChanges(Counter({name: 1 for name in changed}), frozenset())
    return plan(list(facts), find, DOCS.get, total_pages=len(index), names=names, said=said_in(title, body),
                words=index.bm25)


# --- BM25 --------------------------------------------------------------------------------------

def test_a_word_on_one_page_weighs_more_than_a_word_on_every_page():
    stats = Bm25(DOCS)
    assert stats.idf(stem("completion")) > stats.idf(stem("option")) > 0
    assert stats.specific(stem("completion")) and stats.specific(stem("mirror"))
    assert not stats.specific(stem("option")) and not stats.specific(stem("command"))
    assert not stats.specific("nowhere")  # on no page: says nothing about any


def test_the_score_ranks_the_page_about_the_words_first():
    stats = Bm25(DOCS)
    query = Counter(words_of("shell completion for the bash profile"))
    assert stats.score("docs/completion.md", query) > stats.score("docs/install.md", query) == 0
    [match] = stats.matches(query)
    assert match.path == "docs/completion.md"
    assert dict(match.words)["completion"] == 1  # the word as the page writes it, and its first line
    assert dict(match.words)["bash"] == 3


def test_one_shared_word_is_chance_and_stop_words_are_never_read():
    stats = Bm25(DOCS)
    assert stats.matches(Counter(words_of("completion"))) == []  # MIN_WORDS: one word is chance
    assert words_of("Fixes the issue and closes it, thanks") == []  # boilerplate of pull requests
    assert words_of("ignore_unknown_options") == ["ignor", "unknown", "option"]  # names split into words


def test_what_a_pull_request_names_as_code():
    said = said_in("Override `site_url` with --dev-addr",
                   "Reads `deploy.toml` and DEPLOY_HOME, see docs/config.md and theme.palette.primary, e.g. "
                   "`deploy --force now`.\n\n- [x] I added tests\n<!-- template: --hidden -->\n"
                   "Co-authored-by: Ada <ada@example.com>\nhttps://example.com/--not-this")
    # backticked first, then what prose shows as code; the template's --hidden and the link's not at all
    assert said.names == ("site_url", "--dev-addr", "deploy.toml", "--force", "DEPLOY_HOME", "docs/config.md",
                          "theme.palette.primary")
    assert said.in_title == {"site_url", "--dev-addr"}
    assert said.words["overrid"] == 2 and "templat" not in said.words and "ada" not in said.words  # the title twice


# --- the evidence combined ---------------------------------------------------------------------

def test_a_body_naming_concepts_of_two_pages_makes_them_worth_a_look_not_edited():
    upload = Fact("flag", "added", "--parallel", "app/cli.py", "argparse option")
    result = planned([upload], changed=["--parallel"], title="Faster uploads",
                     body="Shell completion in bash profiles, and mirrors keep a copy in sync.")
    assert {"docs/completion.md", "docs/mirrors.md"}.isdisjoint(p.path for p in result.pages)
    [look] = [w for w in result.worth_a_look if w["path"] == "docs/completion.md"]
    assert "completion (line 1)" in look["reason"] and look["reason"].endswith("— words alone")
    assert "docs/mirrors.md" in {w["path"] for w in result.worth_a_look}


def test_a_common_word_is_never_evidence():
    upload = Fact("flag", "added", "--parallel", "app/cli.py", "argparse option")
    result = planned([upload], changed=["--parallel"], title="Option for the command",
                     body="The `option` and the `command` of each page.")
    assert not any("pull request's" in w["reason"] for w in result.worth_a_look)
    assert not any("pull request's" in r for p in result.pages for r in p.reasons)


def test_a_backticked_name_is_strong_when_the_code_changes_it_too():
    result = planned(changed=["site_url", "serve_locally"], title="Override `site_url` when serving")
    [page] = result.pages
    assert (page.path, page.mode) == ("docs/config.md", "related")  # for review, not edited: no fact says what
    assert page.reasons == ["the pull request's title names site_url, which the page documents (line 5); "
                            "the code changes it too [pull request's words]"]


def test_a_backticked_name_the_code_does_not_change_is_only_worth_a_look():
    result = planned(changed=["serve_locally"], title="Say more about `--chunk-size`")
    assert result.pages == []
    assert result.worth_a_look == [{"path": "docs/upload.md", "reason": "the pull request's title names "
                                    "--chunk-size, which the page documents (line 3) [pull request's words] — "
                                    "the code does not change it"}]


def test_the_title_s_words_beside_a_name_of_the_code_single_out_a_page_for_review_not_edited():
    # DEPLOY_COMPLETE alone is one name of the code's (fewer than MIN_NAMES); the title's words
    # single the page out (no other shares two of them): planned for review, both reasons said.
    result = planned(changed=["DEPLOY_COMPLETE"], title="Shell completion for zsh profiles")
    [page] = result.pages
    assert (page.path, page.mode) == ("docs/completion.md", "related")
    assert "completion (line 1)" in page.reasons[0] and "far more than to any other" in page.reasons[0]
    assert "DEPLOY_COMPLETE (line 5)" in page.reasons[0]


def test_a_test_only_change_with_a_chatty_body_stays_quiet():
    result = planned(title="Shell completion tests", body="Covers `site_url`, `--chunk-size`, DEPLOY_COMPLETE, "
                     "the shell completion script in bash profiles, mirrors and themes.")
    assert (result.pages, result.worth_a_look) == ([], [])


# --- the suggestion page by page ---------------------------------------------------------------

def test_the_outline_says_page_by_page_what_was_edited_and_why_not():
    plan_pages = [{"path": "docs/config.md", "mode": "direct", "reasons": ["mentions --x (line 3)"]},
                  {"path": "docs/upload.md", "mode": "conceptual", "reasons": ["documents --y (line 2)"]},
                  {"path": "docs/completion.md", "mode": "related", "reasons": ["names DEPLOY_COMPLETE"]}]
    rows = outline(plan_pages, ["docs/config.md"], [{"path": "docs/faq.md", "reason": "words alone"}],
                   ["docs/upload.md:4: --z is new; describe it beside --y"])
    assert [(r["path"], r["action"]) for r in rows] == [
        ("docs/config.md", "edited"), ("docs/upload.md", "for review"), ("docs/completion.md", "for review"),
        ("docs/faq.md", "worth a look")]
    assert rows[1]["why"] == ["documents --y (line 2)", "not edited: --z is new; describe it beside --y"]
    assert rows[2]["why"][-1].startswith("not edited: no fact of the pull request says what to write")


def test_a_planned_page_whose_draft_the_editor_dropped_says_so_and_a_later_round_adds_its_own():
    dropped = "the Writer's draft was dropped: the row has 4 cells; its table has 3 columns (line 7) " \
              "[Editor: table-columns]"
    plan_pages = [{"path": "docs/settings.md", "mode": "direct", "reasons": ["documents --x (line 3)"]},
                  {"path": "docs/usage.md", "mode": "direct", "reasons": ["shows --help (line 3)"]}]
    rows = outline(plan_pages, ["docs/usage.md"], [{"path": "docs/settings.md", "reason": dropped}])
    assert rows[1] == {"path": "docs/settings.md", "action": "for review", "mode": "direct",
                       "why": ["documents --x (line 3)", f"not edited: {dropped}"]}
    later = with_looks(rows, [{"path": "docs/usage.md", "reason": dropped},
                              {"path": "docs/settings.md", "reason": dropped},
                              {"path": "docs/env.md", "reason": dropped}])
    assert [(r["path"], r["action"], r["why"][-1]) for r in later] == [
        ("docs/usage.md", "edited", f"not updated: {dropped}"), ("docs/settings.md", "for review",
                                                                 f"not edited: {dropped}"),
        ("docs/env.md", "worth a look", dropped)]
    assert len(later[1]["why"]) == 2 and len(rows[0]["why"]) == 1  # said once; the rows given stay as they were


def test_a_reference_entry_s_heading_documents_its_name_as_code():
    from docsvc.server.engines.docflows.evidence.docs import as_code

    assert as_code("### site_url", "site_url") and as_code("## `--retries`", "--retries")
    assert not as_code("## The --legacy mode", "--legacy")  # a heading about something else that names it


def test_a_name_mkdocstrings_renders_by_its_import_path_is_documented_as_code():
    from docsvc.server.engines.docflows.evidence.docs import as_code

    assert as_code("#### ::: mkdocs.plugins.event_priority", "event_priority")
    assert as_code("::: app.plugins.BasePlugin.on_serve", "on_serve")
    assert not as_code("::: mkdocs.plugins.event_priority", "plugins")  # the module, not the name rendered
