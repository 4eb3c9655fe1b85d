"""Version marks of new items: the release a change ships in, read from the code's version, and
the mark a page gives its items ("*Introduced in 1.2.0*", ``.. versionadded:: 8.4``) copied for a
new one with that release."""

from __future__ import annotations

from pathlib import Path

import pytest

from docsvc.server.engines.docflows.facts import facts_of_change
from docsvc.server.engines.docflows.release import coming_release, declared_version, in_form, release_of
from docsvc.server.engines.docflows.version_marks import mark_of
from docsvc.server.engines.docflows.writer import write
from docsvc.server.engines.git import Mirror
from tests.support import GitRemote
from tests.unit.test_docflows_evidence import SETTINGS_PAGE, instead_of_options, planned


@pytest.mark.parametrize(("path", "text", "version"), [
    ("pyproject.toml", '[project]\nname = "app"\nversion = "2.5.0.dev0"\n', "2.5.0.dev0"),
    ("pyproject.toml", '[tool.poetry]\nname = "app"\nversion = "1.8.3"\n', "1.8.3"),
    ("pyproject.toml", '[project]\nname = "app"\ndynamic = ["version"]\n', None),  # the build sets it
    ("setup.cfg", "[metadata]\nname = app\nversion = 3.1\n", "3.1"),
    ("setup.cfg", "[metadata]\nname = app\nversion = attr: app.__version__\n", None),
    ("package.json", '{"name": "app", "version": "3.10.0-dev"}', "3.10.0-dev"),
    ("package.json", '{"name": "root", "private": true}', None),
    ("Cargo.toml", '[package]\nname = "app"\nversion = "0.4.1"\n', "0.4.1"),
    ("app/__init__.py", '"""App."""\n__version__ = "1.4.0"\n', "1.4.0"),
    ("app/__init__.py", '__version__ = importlib.metadata.version("app")\n', None),
    ("pyproject.toml", "[project\nversion = ", None),  # broken: says nothing
])
def test_the_version_a_file_states_as_written(path, text, version):
    assert declared_version(path, text) == version


@pytest.mark.parametrize(("old", "new", "release"), [
    ("1.4.0", "1.5.0", "1.5.0"),  # a release's own pull request sets it
    ("2.4.0", "2.5.0.dev0", "2.5.0"),  # a development version leads to its release
    ("2.5.0.dev0", "2.5.0.dev0", "2.5.0"),
    ("3.9.0", "3.10.0-dev", "3.10.0"),
    ("9.0.0rc1", "9.0.0rc1", "9.0.0"),
    ("1.4.0", "1.4.0", None),  # released and left alone: a patch or a minor next? not said
    ("1.4.0.post1", "1.4.0.post1", None),
    (None, None, None),
])
def test_the_coming_release_is_what_the_version_leads_to_or_is_set_to(old, new, release):
    assert coming_release(old, new) == release


@pytest.mark.parametrize(("written", "release", "form"), [
    ("1.4", "1.5.0", "1.5"), ("1.4", "1.5.1", "1.5.1"), ("1.2.0", "2.5", "2.5.0"), ("v3.5.0", "3.10.0", "v3.10.0"),
    ("8.4", "9.0.0", "9.0"),
])
def test_a_release_is_written_as_the_page_writes_versions(written, release, form):
    assert in_form(written, release) == form


def test_the_release_is_read_from_the_projects_one_version(tmp_path: Path):
    remote = GitRemote(tmp_path, "app", {"src/app/__init__.py": '__version__ = "1.4.0"\n',
                                         "src/app/cli.py": "def main(): ...\n"})
    mirror = Mirror.for_url(tmp_path / "data", str(remote.bare))

    def after(files: dict[str, str]) -> str | None:
        mirror.fetch()
        base = mirror.head("main")
        remote.commit(files, "change")
        mirror.fetch()
        return release_of(mirror, base, mirror.head("main"))

    assert after({"src/app/cli.py": "def main(): return 1\n"}) is None  # version left alone
    assert after({"src/app/__init__.py": '__version__ = "1.5.0"\n'}) == "1.5.0"
    assert after({"src/app/__init__.py": '__version__ = "1.6.0.dev0"\n'}) == "1.6.0"
    # a second package of another version: neither is the project's one version
    assert after({"src/other/__init__.py": '__version__ = "0.1.0.dev0"\n'}) is None
    # the manifest states it, and it comes first
    assert after({"pyproject.toml": '[project]\nname = "app"\nversion = "2.0.0a1"\n'}) == "2.0.0"


@pytest.mark.parametrize("line", [
    "NEW: **New in version 1.4.**", "*Introduced in 1.2.0*", "_First available in v3.5.0_", "   .. versionadded:: 8.4",
    "Added in version 2.0.", "Since v2.1",
])
def test_a_version_mark_is_a_line_that_says_only_when_its_item_came(line):
    assert mark_of(line) is not None


@pytest.mark.parametrize("line", [
    "_First available in v1.9.0, default value changed from `avoid` to `always` in v2.0.0_",  # history
    "Use parallel execution when using the new (`>=1.1.0`) installer.", "Python 3.8 and newer.",
    ".. versionchanged:: 8.0", "Version 1.4", "1.4.0",
    "```{versionadded} 1.2",  # MyST's fence: a block, copied by its first line it would be left open
])
def test_a_line_that_says_more_is_no_version_mark(line):
    assert mark_of(line) is None


def _settings_change():
    old = ('default_config = {\n    "installer": {\n        "max-workers": None,\n        "parallel": True,\n'
           '    },\n    "solver": {\n        "lazy-wheel": True,\n    },\n}\n')
    new = old.replace('"parallel": True,\n', '"parallel": True,\n        "re-resolve": True,\n')
    return planned(facts_of_change("src/app/config/config.py", old, new),
                   instead_of_options("docs/configuration.md", SETTINGS_PAGE))


def test_a_new_section_is_marked_with_the_coming_release_as_a_sibling_is():
    result, index = _settings_change()
    draft = write(result, index.read, "2.0.0")
    page = draft.files["docs/configuration.md"].split("\n")
    # the sibling's mark ("*Introduced in 1.2.0*") after its fields, before its prose: so here,
    # with the coming release written in three parts as the page writes it
    at = page.index("### `installer.re-resolve`")
    assert page[at:at + 11] == [
        "### `installer.re-resolve`", "", "**Type**: `boolean`", "", "**Default**: `true`", "",
        "**Environment Variable**: `POETRY_INSTALLER_RE_RESOLVE`", "", "*Introduced in 2.0.0*", "", "(solver-settings)="]
    assert draft.open_points == []


def test_without_a_release_a_new_item_is_left_unmarked_with_an_open_point():
    result, index = _settings_change()
    draft = write(result, index.read)
    section = draft.files["docs/configuration.md"].split("### `installer.re-resolve`")[1].split("###")[0]
    assert "Introduced" not in section
    assert draft.open_points == ["docs/configuration.md: installer.re-resolve is new and its siblings say the "
                                 "release they came in (*Introduced in 1.2.0*): mark it with the release this "
                                 "change ships in"]


def test_a_mark_before_the_prose_goes_before_the_help_text():
    page = ("# Configuration\n\n### `docs_dir`\n\nThe directory of the docs.\n\n**default**: `'docs'`\n\n"
            "### hooks\n\nNEW: **New in version 1.4.**\n\nA list of paths to Python scripts.\n\n"
            "### `site_dir`\n\nThe directory of the site.\n\n**default**: `'site'`\n")
    old = ('class Config:\n    docs_dir = c.Dir(default="docs")\n    """The directory of the docs."""\n'
           '    hooks = c.ListOfPaths(default=[])\n    """A list of paths to Python scripts."""\n'
           '    site_dir = c.Dir(default="site")\n    """The directory of the site."""\n')
    new = old + '    strict = c.Type(bool, default=False)\n    """Turn warnings into errors."""\n'
    result, index = planned(facts_of_change("app/config/defaults.py", old, new),
                            instead_of_options("docs/configuration.md", page))
    text = write(result, index.read, "1.5.0").files["docs/configuration.md"]
    # a mark without fields before it stands first; its version in two parts, as the page's; the
    # marked section need not be a setting's that the page shows as one (no default stated there)
    assert text.endswith("### `strict`\n\nNEW: **New in version 1.5.**\n\nTurn warnings into errors.\n\n"
                         "**default**: `False`\n")


def test_a_new_directive_takes_the_mark_its_siblings_bodies_end_with():
    names = ("alpha", "beta", "delta", "kappa")
    old = "def setup(parser):\n" + "".join(f'    parser.addini("{n}_opt", "What the {n} option sets.")\n'
                                           for n in names)
    new = old + '    parser.addini("gamma_opt", "Stop at the first failure of a kind.")\n'
    page = ("Reference\n=========\n\n.. confval:: alpha_opt\n\n   Alpha.\n\n.. confval:: beta_opt\n\n   Beta.\n\n"
            "   .. versionadded:: 8.1\n\n.. confval:: delta_opt\n\n   Delta.\n\n.. confval:: kappa_opt\n\n   Kappa.\n")
    result, index = planned(facts_of_change("app/plugin.py", old, new), instead_of_options("docs/reference.rst", page))
    text = write(result, index.read, "9.0.0").files["docs/reference.rst"]
    # in its alphabetical place; the mark after its text, as the sibling's stands after its own
    assert text == page.replace(".. confval:: kappa_opt", ".. confval:: gamma_opt\n\n"
                                "   Stop at the first failure of a kind.\n\n   .. versionadded:: 9.0\n\n"
                                ".. confval:: kappa_opt")
