"""Docflows plans the docs page the changed code links to (issue 13): a warning's or an error's
"see https://…" beside the change names the page that documents it."""

from __future__ import annotations

from pathlib import Path

from docsvc.server.engines.docflows.changed_names import changed_code
from docsvc.server.engines.docflows.evidence.pages import PageIndex
from docsvc.server.engines.docflows.linked_pages import Link, anchors, linked_pages, links_near_changes
from docsvc.server.engines.docflows.planner import plan
from docsvc.server.engines.docflows.writer import write
from docsvc.server.engines.git import Mirror
from tests.support import GitRemote

PAGES = {
    "doc/en/deprecations.rst": "Deprecations\n============\n\n.. _callspec2-renamed:\n\nCallSpec2 renamed\n"
                               "-----------------\n\nThe old name stays for a while.\n",
    "doc/en/how-to/assert.rst": "Assertions\n==========\n\nReturn not None\n---------------\n\nText.\n",
    "doc/en/index.rst": "pytest\n======\n\nWelcome.\n",
    "doc/en/changelog.rst": "Changelog\n=========\n\nSee https://docs.pytest.org/en/stable/changelog.html\n",
    "docs/guide/troubleshooting.md": "# Troubleshooting\n\n## 431 Request Header Fields Too Large\n\nText.\n",
    "docs/config/troubleshooting.md": "# Other troubleshooting\n\nText.\n",
    "docs/advanced/ssl.md": "# SSL\n\n## Client certificates {#client-certs}\n\nText.\n",
}


def resolved(urls: list[str]) -> list[tuple[str, int | None]]:
    return [(link.page, link.line) for link in linked_pages(urls, PAGES, PAGES.get)]


def test_a_link_leads_to_the_page_whose_path_ends_as_its_own():
    # by two parts of the path, whatever the host and version folders before them
    assert resolved(["https://vite.dev/guide/troubleshooting.html#_431-request-header-fields-too-large"]) == [
        ("docs/guide/troubleshooting.md", 3)]
    # by the page's name alone only with an anchor the page holds (here a reStructuredText label)
    assert resolved(["https://docs.pytest.org/en/stable/deprecations.html#callspec2-renamed"]) == [
        ("doc/en/deprecations.rst", 4)]
    assert resolved(["https://docs.pytest.org/en/stable/how-to/assert.html#return-not-none"]) == [
        ("doc/en/how-to/assert.rst", 4)]
    # another site's page of the same name, with an anchor this page lacks, is not ours
    assert resolved(["https://docs.python.org/3.10/library/ssl.html#ssl.SSLContext.minimum_version"]) == []
    assert resolved(["https://example.org/ssl#client-certs"]) == [("docs/advanced/ssl.md", 3)]
    # a name two pages share, and nothing to tell them apart: no page
    assert resolved(["https://vite.dev/troubleshooting"]) == []
    # the site's root and a page that is not there: no page
    assert resolved(["https://docs.pytest.org/", "https://docs.pytest.org/en/stable/contact.html"]) == []


def test_anchors_are_headings_labels_and_ids_and_nothing_in_code():
    found = anchors("docs/page.md", "# Heading `one`\n\n## Two {#custom-id}\n\n<a name=\"legacy\"></a>\n\n"
                                    "Setext\n------\n\n```sh\n# install it\npip install x  # id=\"nope\"\n```\n")
    assert found == {"headingone": 1, "twocustomid": 3, "customid": 3, "legacy": 5, "setext": 7}
    found = anchors("doc/page.rst", "Title\n=====\n\n.. _my-label:\n\nPart\n----\n\nExample::\n\n"
                                    "    .. _not-a-label:\n\n    Not a title\n    -----------\n")
    assert found == {"title": 1, "mylabel": 4, "part": 6}


def test_a_link_counts_beside_a_change_in_the_same_statement_only():
    hunk = [' CALLSPEC2_RENAMED = Warning(',
            '     "CallSpec2 has been renamed to CallSpec.\\n"',
            '+    "The CallSpec2 alias will be removed in pytest 10.\\n"',
            '     "Update imports to use CallSpec instead.\\n"',
            '     "See https://docs.pytest.org/en/stable/deprecations.html#callspec2-renamed"',
            ' )']
    assert links_near_changes([hunk]) == ["https://docs.pytest.org/en/stable/deprecations.html#callspec2-renamed"]
    # a blank line between, or more than two lines away: another statement
    assert links_near_changes([hunk[:3] + [" ", hunk[4]]]) == []
    assert links_near_changes([hunk[:3] + [hunk[3], hunk[3], hunk[4]]]) == []
    # on the changed line itself, trailing punctuation left out
    assert links_near_changes([["+# see https://x.org/docs/cli/."]]) == ["https://x.org/docs/cli/"]


def test_the_page_a_link_leads_into_is_planned_for_review_a_whole_page_is_worth_a_look_a_changelog_neither():
    links = [Link("https://docs.pytest.org/en/stable/deprecations.html#callspec2-renamed", "doc/en/deprecations.rst", 4),
             Link("https://docs.pytest.org/en/stable/how-to/assert.html", "doc/en/how-to/assert.rst", None),
             Link("https://docs.pytest.org/en/stable/changelog.html#x", "doc/en/changelog.rst", 3)]
    index = PageIndex(PAGES)
    result = plan([], index.find, index.read, total_pages=len(index), links=links)
    assert [(p.path, p.mode) for p in result.pages] == [("doc/en/deprecations.rst", "related")]
    assert result.pages[0].reasons == ["the changed code links to it: https://docs.pytest.org/en/stable/deprecations"
                                       ".html#callspec2-renamed (the section at line 4) [changed lines]"]
    assert result.worth_a_look == [{"path": "doc/en/how-to/assert.rst", "reason": "the changed code links to it: "
                                    "https://docs.pytest.org/en/stable/how-to/assert.html [changed lines] — to the "
                                    "page, not to a section of it"}]
    assert write(result, index.read).files == {}  # reviewed by a person, not edited


def test_a_warning_reworded_beside_its_link_reaches_the_page_from_a_real_repository(tmp_path: Path):
    message = ('WARNING = DeprecationWarning(\n    "Old is renamed to New.\\n"\n{extra}'
               '    "See https://docs.example.org/en/stable/deprecations.html#callspec2-renamed"\n)\n')
    remote = GitRemote(tmp_path, "app", {"src/app/deprecated.py": message.format(extra=""),
                                         "tests/test_it.py": "# https://docs.example.org/en/stable/deprecations.html\n"})
    mirror = Mirror.for_url(tmp_path / "data", str(remote.bare))
    mirror.fetch()
    base = mirror.head("main")
    remote.commit({"src/app/deprecated.py": message.format(extra='    "Old goes in 10.\\n"\n'),
                   "tests/test_it.py": "# https://docs.example.org/en/stable/how-to/assert.html\n"}, "timeline")
    mirror.fetch()
    urls = links_near_changes(changed_code(mirror, base, mirror.head("main")))
    assert urls == ["https://docs.example.org/en/stable/deprecations.html#callspec2-renamed"]  # tests left out
    assert [link.page for link in linked_pages(urls, PAGES, PAGES.get)] == ["doc/en/deprecations.rst"]
