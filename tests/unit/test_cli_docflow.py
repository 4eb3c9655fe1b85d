"""``docsvc docflow``'s output for people: what was left for them is shown, and a long list of
weaker signs is cut with its length said."""

from __future__ import annotations

from docsvc.cli.docflows import MAX_LOOKS, _worth_a_look


def test_a_long_worth_a_look_list_is_cut_and_says_how_many_more():
    looks = [{"path": f"docs/p{n}.md", "reason": f"mentions x (line {n})"} for n in range(MAX_LOOKS + 3)]
    lines = _worth_a_look({"worth_a_look": looks})
    assert lines[0] == "Worth a look (weaker signs, not edited):"
    assert lines[1:-1] == [f"  docs/p{n}.md: mentions x (line {n})" for n in range(MAX_LOOKS)]
    assert lines[-1] == "  … and 3 more (--json lists them all)"
    assert _worth_a_look({"worth_a_look": looks[:2]})[-1] == "  docs/p1.md: mentions x (line 1)"
    assert _worth_a_look({"worth_a_look": []}) == []


def test_a_suggestion_is_shown_page_by_page_with_why_and_why_not_edited():
    from docsvc.cli.docflows import page_lines

    pages = [{"path": "docs/cli.md", "action": "edited", "mode": "direct", "why": ["mentions --x (line 3)"]},
             {"path": "docs/guide.md", "action": "for review", "mode": "related",
              "why": ["names site_url", "not edited: no fact says what to write"]},
             {"path": "docs/faq.md", "action": "worth a look", "why": ["speaks of zsh (line 4) — words alone"]}]
    assert page_lines(pages) == [
        "Edited:", "  docs/cli.md: mentions --x (line 3)",
        "For review (planned, not edited):", "  docs/guide.md: names site_url",
        "    not edited: no fact says what to write",
        "Worth a look (weaker signs, not edited):", "  docs/faq.md: speaks of zsh (line 4) — words alone"]
