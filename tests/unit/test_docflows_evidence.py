"""Docflows on the patterns of real pull requests (issue 13): facts from syntax trees, infrastructure
that is not documentation, safe YAML, planning on evidence, and edits block by block."""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path

import pytest

from docsvc.server.engines.docflows.changed_names import NameChanges, changed_code, name_changes
from docsvc.server.engines.docflows.evidence.pages import PageIndex, is_release_page
from docsvc.server.engines.docflows.facts import Fact, facts_between, facts_of_change, is_infrastructure
from docsvc.server.engines.docflows.facts_config import structured_items
from docsvc.server.engines.docflows.planner import plan
from docsvc.server.engines.docflows.writer import write
from docsvc.server.engines.git import Mirror
from tests.support import GitRemote


def described(path: str, old: str | None, new: str | None) -> list[str]:
    return sorted(f.describe() for f in facts_of_change(path, old, new))


# -- facts --------------------------------------------------------------------------------------

def test_a_click_boolean_switch_is_one_flag_and_quotes_are_no_change():
    old = '''import click
@click.command()
@click.option("--color/--no-color", default=False, help="Colour the output.")
@click.option('--mode', default='fast')
def main(color, mode): ...
'''
    new = '''import click
@click.command()
@click.option("--color/--no-color", default=True, help="Colour the output.")
@click.option(
    "--mode",
    default="fast",
)
def main(color, mode): ...
'''
    assert described("app/cli.py", old, new) == ["flag --color default False → True"]


def test_cleo_options_are_flags_with_their_dashes():
    old = """from cleo.helpers import option
class InstallCommand(Command):
    options = [
        option("reinstall", "r", "Reinstall if installation already exists.", flag=True),
        option("free-threaded", None, "Use free-threaded version if available.", flag=True),
    ]
"""
    new = old.replace('"Use free-threaded version if available."', '"Use a free-threaded build if there is one."') \
        .replace("    ]", '        option("clean", "c", description="Clean up if the check fails.", flag=True),\n    ]')
    assert described("pkg/commands/install.py", old, new) == ["flag --clean added",
                                                               "flag --free-threaded help text reworded"]


def test_a_new_option_follows_siblings_named_with_their_short_form_and_drops_console_markup():
    old = """from cleo.helpers import option
class BuildCommand(Command):
    options = [
        option("format", "f", "Limit the format.", flag=False),
        option("output", "o", "Set output directory.", flag=False),
    ]
"""
    new = old.replace("    ]", '        option("clean", None, "Clean first. (<warning>Deprecated</warning>)",'
                                " flag=True),\n    ]")
    pages = {"docs/cli.md": "# build\n\n* `--format (-f)`: Limit the format.\n* `--output (-o)`: Set output "
                            "directory.\n\nMore text.\n", "docs/other.md": "# Other\n", "docs/more.md": "# More\n"}
    result, index = planned(facts_of_change("pkg/commands/build.py", old, new), pages)
    draft = write(result, index.read)
    assert "* `--clean`: Clean first. (Deprecated)" in draft.files["docs/cli.md"].split("\n")


def test_settings_declared_as_classes_and_through_a_registry():
    old = '''from dataclasses import dataclass
from pydantic_settings import BaseSettings

@dataclass
class Limits:
    timeout: float = 30.0

class Settings(BaseSettings):
    log_level: str = "info"

class Theme(base.Config):
    palette = c.Choice(("light", "dark"), default="light")

registry.add_config("max_pages", default=100)
'''
    new = old.replace("    timeout: float = 30.0\n", "    timeout: float = 30.0\n    retries: int = 3\n") \
        .replace('default="light"', 'default="dark"') + 'registry.add_config("page_size", default=50)\n'
    assert described("app/settings.py", old, new) == [
        "config page_size added", "config palette default 'light' → 'dark'", "config retries added"]


def test_enum_members_environment_and_public_signatures():
    old = '''import os
from enum import Enum
class Preview(Enum):
    hug_parens = "hug"
def run(path, *, workers=4):
    return os.getenv("APP_HOME")
def _private(x=1): ...
'''
    new = '''import os
from enum import Enum
class Preview(Enum):
    hug_parens = "hug"
    wrap_strings = "wrap"
def run(path, *, workers=8, quiet=False):
    return os.environ.get("APP_HOME", "/srv")
def _private(x=2): ...
'''
    assert described("pkg/core.py", old, new) == [
        "enum wrap_strings added", "parameter run(quiet) added", "parameter run(workers) default 4 → 8"]
    assert described("pkg/_internal.py", old, new) == ["enum wrap_strings added"]  # a private module: no API
    assert described("examples/core.py", old, new) == ["enum wrap_strings added"]  # read, never imported
    assert described("docs_src/core.py", old, new) == ["enum wrap_strings added"]
    private = old.replace("class Preview", "class _Preview"), new.replace("class Preview", "class _Preview")
    assert "enum wrap_strings added" not in described("pkg/core.py", *private)  # a private class's members
    assert described("pkg/examples/core.py", old, new)[1:] == ["parameter run(quiet) added",
                                                               "parameter run(workers) default 4 → 8"]


def test_yaml_is_read_with_yaml_1_2_meanings():
    items = structured_items("app/config.yml", "on:\n  push: true\nmode: yes\n")
    assert {i.name: i.default for i in items} == {"on.push": "true", "mode": '"yes"'}


def test_an_alias_bomb_is_refused_fast_with_its_reason():
    bomb = "a: &a [x,x,x,x,x,x,x,x,x]\n" + "".join(
        f"{n}: &{n} [{', '.join([f'*{p}'] * 9)}]\n" for p, n in zip("abcdefgh", "bcdefghi"))
    notes: list[str] = []
    started = time.monotonic()
    assert structured_items("app/config.yaml", bomb, notes) == []
    assert time.monotonic() - started < 5  # unbounded: minutes (a generous bound for a loaded CI host)
    assert len(notes) == 1 and "app/config.yaml: not read" in notes[0] and "aliases expand" in notes[0]


REPO_CI = "on:\n  push: {}\njobs:\n  test:\n    runs-on: ubuntu-latest\n"


@pytest.fixture
def repo(tmp_path: Path):
    remote = GitRemote(tmp_path, "app", {
        "app/cli.py": 'import click\n@click.option("--port", default=8080, help="Port.")\ndef main(port): ...\n',
        "app/api.py": "class Client:\n    pass\n\nclass Session:\n    pass\n",
        "pyproject.toml": '[project]\nname = "app"\nversion = "1.0"\n',
        ".github/workflows/ci.yml": REPO_CI,
    })
    mirror = Mirror.for_url(tmp_path / "data", str(remote.bare))
    return remote, mirror


def test_a_change_to_ci_and_packaging_only_gives_no_facts(repo):
    remote, mirror = repo
    base, head = pull_request(remote, mirror, {
        "pyproject.toml": '[project]\nname = "app"\nversion = "1.1"\nrequires-python = ">=3.10"\n',
        ".github/workflows/ci.yml": "on:\n  pull_request: {}\njobs:\n  lint:\n    runs-on: x\n",
        "requirements-dev.txt": "pytest==8\n"}, "ci")
    assert facts_between(mirror, base, head) == []
    # ... unless the docs name the file itself
    facts = facts_between(mirror, base, head, documented=lambda p: p == ".github/workflows/ci.yml")
    assert {f.path for f in facts} == {".github/workflows/ci.yml"}


RELEASING = ("# Releasing\n\nRun the [release workflow](https://github.com/o/app/actions/workflows/ci.yml) by hand.\n\n"
             "![CI](https://github.com/o/app/actions/workflows/ci.yml/badge.svg)\n")


@pytest.mark.parametrize(("files", "expected"), [
    ({".github/workflows/ci.yml": None}, ["docs/releasing.md:3: actions/workflows/ci.yml is still mentioned; the "
                                          "pull request removes it",
                                          "docs/releasing.md:5: actions/workflows/ci.yml is still mentioned; the "
                                          "pull request removes it"]),
    ({".github/workflows/ci.yml": None, ".github/workflows/tests.yml": REPO_CI}, "renamed"),
])
def test_a_workflow_that_goes_is_followed_where_pages_link_its_runs(repo, files, expected):
    remote, mirror = repo
    base, head = pull_request(remote, mirror, files, "workflows")
    pages = {"docs/releasing.md": RELEASING, **{k: PAGES[k] for k in list(PAGES)[1:]}}
    index = PageIndex(pages)
    facts = facts_between(mirror, base, head, documented=lambda p: "/" in p and bool(index.find(p)))
    result = plan(facts, index.find, index.read, total_pages=len(index))
    assert [(p.path, p.mode) for p in result.pages] == [("docs/releasing.md", "direct")]
    draft = write(result, index.read)
    if expected == "renamed":  # the address of its runs is renamed with it, the badge's too
        assert draft.files["docs/releasing.md"] == RELEASING.replace("workflows/ci.yml", "workflows/tests.yml")
    else:  # where it went is a person's call
        assert draft.open_points == expected and "docs/releasing.md" not in draft.files


def test_a_workflow_that_changes_is_no_reason_to_look_at_the_pages_linking_its_runs(repo):
    remote, mirror = repo
    base, head = pull_request(remote, mirror, {".github/workflows/ci.yml": REPO_CI + "  lint:\n    runs-on: x\n"},
                              "lint")
    pages = {"docs/releasing.md": RELEASING, **{k: PAGES[k] for k in list(PAGES)[1:]}}
    index = PageIndex(pages)
    assert facts_between(mirror, base, head, documented=lambda p: "/" in p and bool(index.find(p))) == []


def test_an_extra_is_the_one_packaging_fact_and_plans_the_page_listing_the_others(repo):
    remote, mirror = repo
    project = '[project]\nname = "app"\nversion = "1.1"\n\n[project.optional-dependencies]\nhttp2 = ["h2"]\n'
    pull_request(remote, mirror, {"pyproject.toml": project}, "http2")
    base, head = pull_request(remote, mirror, {"pyproject.toml": (
        f'{project}socks = ["socksio"]\n\n[tool.ruff]\nline-length = 100\n')}, "socks")
    [socks] = facts_between(mirror, base, head)
    assert (socks.describe(), socks.path, socks.siblings) == ("extra app[socks] added", "pyproject.toml", ("app[http2]",))
    # moved to setup.py, with one more: only that one is new
    base, head = pull_request(remote, mirror, {"pyproject.toml": '[project]\nname = "app"\nversion = "1.1"\n',
                                               "setup.py": 'from setuptools import setup\nEXTRAS = {"http2": ["h2"], '
                                                           '"socks": ["socksio"], "cli": ["click"]}\n'
                                                           'setup(name="app", extras_require=EXTRAS)\n'}, "setup.py")
    assert [f.describe() for f in facts_between(mirror, base, head)] == ["extra app[cli] added"]
    pages = {**PAGES, "docs/install.md": "# Install\n\n```\npip install app[http2]\n```\n\nWith `app[http2]`: HTTP/2.\n"}
    result, _ = planned([socks], pages)
    assert [(p.path, p.mode) for p in result.pages] == [("docs/install.md", "conceptual")]


@pytest.mark.parametrize("path,infrastructure", [
    ("www/mkdocs.yml", True), (".stackblitz/codeflow.json", True), ("mkdocs.insiders.yml", True), ("docs/en/mkdocs-pl.yaml", True), ("mkdocs.py", False),
    ("docs/conf.py", True), ("docs/.vitepress/config.ts", True),
    ("website/docusaurus.config.ts", True), ("Taskfile.yml", True), ("www/htmltest.yml", True),
    ("website/blog/authors.yml", True), ("packages/create-app/template/_oxlintrc.json", True), (".yarnrc.yml", True),
    ("pnpm-workspace.yaml", True), ("netlify.toml", True), ("src/rc.js", False), ("vendor/github.com/x/y.go", True),
    ("vendors/babel-code-frame.js", True), ("vitest.config.e2e.ts", True), ("puppeteer.config.cjs", True),
    ("packages/vite/src/node/config.ts", False),
    ("app/conf.py", False), ("mkdocs/config/base.py", False), ("internal/static/config.yaml", False)])
def test_docs_sites_task_runners_run_configurations_and_workspaces_are_infrastructure(path, infrastructure):
    assert is_infrastructure(path) is infrastructure


def test_public_methods_are_api_and_private_ones_are_not():
    old = ("class Response:\n    def iter_lines(self):\n        return []\n    def json(self):\n        return {}\n"
           "    def _decode(self):\n        return ''\n")
    new = ("class Response:\n    def json(self):\n        return {}\n    async def aiter_text(self):\n"
           "        return []\n    def _decode(self, errors='strict'):\n        return ''\n")
    assert described("pkg/models.py", old, new) == ["symbol Response.aiter_text added",
                                                    "symbol Response.iter_lines removed"]
    private = [t.replace("class Response", "class _Response") for t in (old, new)]
    assert described("pkg/models.py", *private) == []


def test_methods_added_or_removed_with_their_class_are_no_facts_of_their_own(repo):
    remote, mirror = repo
    stream = "\n\nclass Stream:\n    def read(self):\n        return b''\n"
    base, head = pull_request(remote, mirror, {"app/api.py": "class Client:\n    pass\n\nclass Session:\n"
                                               "    def close(self):\n        pass\n" + stream}, "stream")
    assert sorted(f.describe() for f in facts_between(mirror, base, head)) == [
        "symbol Session.close added", "symbol Stream added"]


def test_a_class_moved_to_a_private_module_is_not_a_removal(repo):
    remote, mirror = repo
    base, head = pull_request(remote, mirror, {
        "app/api.py": "from ._session import Session\n\nclass Client:\n    pass\n",
        "app/_session.py": "class Session:\n    pass\n"}, "move")
    assert facts_between(mirror, base, head) == []  # still imported from where it was


def test_parameters_go_with_their_function_added_removed_or_moved(repo):
    remote, mirror = repo
    remote.commit({"app/core.py": "def parse(src, *, strict=False): ...\ndef keep(path, depth=1): ...\n",
                   "app/views.py": "class View:\n    def __init__(self, url_prefix=None, subdomain=None): ...\n"},
                  "start")
    base, head = pull_request(remote, mirror, {
        "app/core.py": "def keep(path, depth=2): ...\ndef render(src, width=80): ...\n",
        # the class keeps its name; its __init__ moves to a base class in a new module
        "app/views.py": "from .base import View as BaseView\nclass View(BaseView):\n    pass\n",
        "app/base.py": "class View:\n    def __init__(self, url_prefix=None, subdomain=None): ...\n"},
        "rework")
    facts = facts_between(mirror, base, head)
    assert sorted(f.describe() for f in facts) == [
        "parameter keep(depth) default 1 → 2", "symbol View added", "symbol parse removed", "symbol render added"]


def test_a_file_the_docs_include_follows_its_rename_and_its_deletion_is_pointed_out(repo):
    remote, mirror = repo
    remote.commit({"examples/hello_py39.py": "print('hello')\n", "examples/bye.py": "print('bye')\n",
                   "examples/shout.py": "print('HEY')\n"}, "examples")
    base, head = pull_request(remote, mirror, {
        "examples/hello_py39.py": None, "examples/hello_py310.py": "print('hello')\n",
        "examples/bye.py": None, "examples/shout.py": "print('HEY!')\n"}, "rename")
    pages = {"docs/hello.md": "# Hello\n\n{* ../examples/hello_py39.py hl[1] *}\n\nSay hello.\n",
             "docs/bye.rst": "Bye\n===\n\n.. literalinclude:: ../examples/bye.py\n",
             "docs/shout.md": "# Shout\n\nSee [the example](../examples/shout.py).\n",
             "docs/other.md": "# Other\n\nNothing about examples/hello.py here.\n"}
    index = PageIndex(pages)
    facts = facts_between(mirror, base, head, documented=lambda p: bool(index.find(p)))
    assert sorted(f.describe() for f in facts) == [
        "file examples/bye.py removed", "file examples/hello_py39.py renamed to examples/hello_py310.py",
        "file examples/shout.py changed"]
    result = plan(facts, index.find, index.read, total_pages=len(index))
    assert {p.path: p.mode for p in result.pages} == {"docs/hello.md": "direct", "docs/bye.rst": "direct",
                                                      "docs/shout.md": "related"}  # shown code changed: review
    draft = write(result, index.read)
    assert draft.files == {"docs/hello.md": pages["docs/hello.md"].replace("hello_py39", "hello_py310")}
    assert any(p.startswith("docs/bye.rst:4: examples/bye.py is still mentioned") for p in draft.open_points)


def test_a_changed_workflow_or_test_counts_only_where_a_page_shows_its_content(repo):
    remote, mirror = repo
    base, head = pull_request(remote, mirror, {
        ".github/workflows/ci.yml": "on:\n  push: {}\njobs:\n  test:\n    runs-on: ubuntu-24.04\n",
        "examples/hello.py": "print('hi')\n"}, "ci and an example")
    pages = {"docs/contributing.md": "# Contributing\n\nCI runs [our workflow](../.github/workflows/ci.yml).\n",
             "docs/ci.rst": "CI\n==\n\n.. literalinclude:: ../.github/workflows/ci.yml\n",
             "docs/hello.md": "# Hello\n\nSee [the example](../examples/hello.py).\n"}
    index = PageIndex(pages)
    facts = facts_between(mirror, base, head, documented=lambda p: bool(index.find(p)))
    assert "file .github/workflows/ci.yml changed" in {f.describe() for f in facts}
    result = plan(facts, index.find, index.read, total_pages=len(index))
    assert [p.path for p in result.pages] == ["docs/ci.rst"]  # the link still leads where it did


def test_a_test_helper_moved_among_the_sources_takes_nothing_from_users():
    helper = 'import typer\n\n\ndef main(name: str = "morty"):\n    print(name + 3)\n'
    # into the docs' examples (which offer no API): nothing users had is gone
    assert facts_of_change("docs_src/errors/tutorial001.py", helper, helper, old_path="tests/assets/type_error.py") == []
    # into the package: what it defines is new to its users
    assert sorted(f.describe() for f in facts_of_change("pkg/cli.py", helper, helper,
                                                        old_path="tests/assets/type_error.py")) == [
        "parameter main(name) added", "symbol main added"]


def test_a_removed_name_another_file_still_reads_is_no_fact(repo):
    remote, mirror = repo
    remote.commit({"scripts/sponsors.py": 'import os\nTOKEN = os.environ.get("APP_TOKEN")\n',
                   "app/auth.py": 'import os\ndef token():\n    return os.getenv("APP_TOKEN")\n',
                   "app/hooks.py": 'def hook():\n    return load_env("APP_HOOK_URL")\n',
                   "scripts/notify.py": 'import os\nURL = os.environ["APP_HOOK_URL"]\n',
                   "app/legacy.py": 'import os\nMODE = os.getenv("APP_LEGACY_MODE")\nNEW = os.getenv("APP_MODE")\n'},
                  "start")
    base, head = pull_request(remote, mirror, {
        "scripts/sponsors.py": None, "app/legacy.py": None, "scripts/notify.py": None,
        "app/warn.py": 'MESSAGE = "APP_LEGACY_MODE is gone: set \'APP_MODE\' instead"\n'},
        "drop the script")
    facts = facts_between(mirror, base, head, documented=lambda p: p.startswith("scripts/"))
    # APP_TOKEN and APP_HOOK_URL are still read by the program; APP_LEGACY_MODE and APP_MODE are only named
    assert sorted(f.describe() for f in facts if f.kind != "file") == [
        "env APP_LEGACY_MODE removed from its definition, still named in the code (deprecated or moved)",
        "env APP_MODE removed from its definition, still named in the code (deprecated or moved)"]


def test_private_modules_a_package_imports_from_are_its_api(repo):
    remote, mirror = repo
    remote.commit({"src/_tool/outcomes.py": "def skip(reason=''): ...\ndef fail(reason=''): ...\n"
                                            "def _helper(x=1): ...\n",
                   "src/tool/__init__.py": "from _tool.outcomes import skip, fail\n"}, "start")
    # skip's def becomes an object of the same name: still there; fail gets a new default
    base, head = pull_request(remote, mirror, {
        "src/_tool/outcomes.py": "class _Skip: ...\nskip = _Skip()\ndef fail(reason='failed'): ...\n"
                                 "def _helper(x=2): ...\n"}, "rework")
    facts = facts_between(mirror, base, head)
    assert [f.describe() for f in facts] == ["parameter fail(reason) default '' → 'failed'"]


def test_a_javascript_packages_api_is_what_its_entry_points_export(repo):
    remote, mirror = repo
    remote.commit({"web/package.json": '{"name": "web", "exports": {".": {"types": "./dist/index.d.ts", '
                                       '"default": "./dist/index.js"}}}',
                   "web/src/index.ts": 'export * from "./server.js"\nexport { parse as parseUrl } from "./url"\n',
                   "web/src/server.ts": "export function listen(port = 80) {}\n",
                   "web/src/url.ts": "export function parse(text) {}\n",
                   "web/src/internal/pool.ts": "export function grow(by = 1) {}\n"}, "start")
    base, head = pull_request(remote, mirror, {
        "web/src/server.ts": "export function listen(port = 8080) {}\nexport function close() {}\n",
        "web/src/url.ts": "export function parse(text) {}\nexport function format(url) {}\n",
        "web/src/internal/pool.ts": "export function grow(by = 2) {}\nexport function shrink() {}\n"},
        "grow the server")
    # built output's entry read from its source; a module's own exports count only as the entry
    # exports them (url.ts's format is not, parse is, as parseUrl: parse itself did not change)
    assert sorted(f.describe() for f in facts_between(mirror, base, head)) == \
        ["parameter listen(port) default 80 → 8080", "symbol close added"]


def mirror_head(mirror: Mirror) -> str:
    mirror.fetch()
    return mirror.head("main")


def pull_request(remote: GitRemote, mirror: Mirror, files: dict[str, str | None], message: str) -> tuple[str, str]:
    """The commits a pull request goes from and to: the mirror's head now, and after ``files``
    are committed on the remote and fetched."""
    base = mirror_head(mirror)
    remote.commit(files, message)
    return base, mirror_head(mirror)


def test_a_deprecation_warning_added_is_a_fact_and_one_moved_is_not(repo):
    remote, mirror = repo
    warned = ('import warnings\n\ndef connect(timeout=None):\n    if timeout is not None:\n'
              '        warnings.warn("timeout is deprecated; use deadline", DeprecationWarning, stacklevel=2)\n')
    base, head = pull_request(remote, mirror, {"app/net.py": warned, "tests/test_net.py": warned}, "deprecate")
    [fact] = [f for f in facts_between(mirror, base, head) if f.kind == "deprecation"]
    assert (fact.path, fact.line, fact.describe()) == ("app/net.py", 5, "a deprecation warning added in app/net.py")
    # the same warning moved to another module: nothing new to list
    base, head = pull_request(remote, mirror, {"app/net.py": None, "app/connect.py": warned}, "move")
    assert [f for f in facts_between(mirror, base, head) if f.kind == "deprecation"] == []


@pytest.mark.parametrize("added", [
    'X = PytestRemovedIn10Warning("old")', "@deprecated(\"use g\")", "util.deprecate(fn, 'use g')",
    "// Deprecated: use Layouts.", "deprecate.Notice(ctx, \"dockers\")",
    "warning.create('FastifyDeprecation', 'FSTDEP014', 'x')"])
def test_deprecation_markers_of_each_language(added):
    from docsvc.server.engines.docflows.deprecations import Deprecations

    tally = Deprecations()
    tally.count("src/mod.x", "a = 1\n", f"a = 1\n{added}\n")
    assert tally.fact() is not None and tally.fact().line == 2


@pytest.mark.parametrize("definition", ["def deprecated_call(func, *args):", "    async def deprecate_alias(x):",
                                        "export function deprecated_call (fn) {", "func deprecate(ctx *Context) {"])
def test_a_definition_named_for_deprecation_is_no_warning(definition):
    from docsvc.server.engines.docflows.deprecations import Deprecations

    tally = Deprecations()
    # pytest 8.2 reformatted its `def deprecated_call(...) -> T: ...` overloads: nothing warns
    tally.count("src/mod.x", "a = 1\n", f"a = 1\n{definition}\n")
    assert tally.fact() is None and tally.warned() == []


def warned(files: dict[str, tuple[str | None, str]]) -> list[str]:
    from docsvc.server.engines.docflows.deprecations import Deprecations

    tally = Deprecations()
    for path, (old, new) in files.items():
        tally.count(path, old, new)
    return [f"{f.describe()} ({f.path}:{f.line})" for f in tally.warned()]


def test_a_function_that_starts_warning_is_deprecated_and_one_warning_about_an_argument_is_not():
    old = ("import warnings\n\ndef connect(url, timeout=None):\n    return url\n\n"
           "def fetch(url, retries=None):\n    return url\n\ndef _helper():\n    return 1\n")
    new = ("import warnings\n\ndef connect(url, timeout=None):\n"
           "    warnings.warn(\"connect() is deprecated; use open()\", DeprecationWarning, stacklevel=2)\n"
           "    return url\n\ndef fetch(url, retries=None):\n    if retries is not None:\n"
           "        warnings.warn(\"retries is deprecated\", DeprecationWarning)\n    return url\n\n"
           "def _helper():\n    warnings.warn(\"internal\", DeprecationWarning)\n    return 1\n")
    assert warned({"app/net.py": (old, new)}) == ["symbol connect deprecated: it now warns (app/net.py:3)"]
    # only moved from one function to another: nothing newly deprecated
    assert warned({"app/net.py": (new, new.replace("def connect", "def link"))}) == []


def test_a_decorator_a_go_doc_comment_and_a_code_emitted_in_another_file_deprecate_their_function():
    python = "from typing_extensions import deprecated\n\n@deprecated(\"use g\")\ndef f():\n    pass\n"
    assert warned({"app/mod.py": ("def f():\n    pass\n", python)}) == ["symbol f deprecated: it now warns (app/mod.py:4)"]
    go_old = "package cli\n\n// Layouts lists them.\nfunc AvailableLayouts() []string { return nil }\n"
    go_new = go_old.replace("// Layouts lists them.\n", "// Layouts lists them.\n//\n// Deprecated: use Layouts.\n")
    assert warned({"layouts.go": (go_old, go_new)}) == ["symbol AvailableLayouts deprecated: it now warns (layouts.go:6)"]
    field_old = 'package config\n\ntype Conflict struct {\n\tCask string `yaml:"cask"`\n\tFormula string `yaml:"formula"`\n}\n'
    field_new = field_old.replace("\tFormula", "\n\t// Deprecated: by homebrew.\n\tFormula")
    assert warned({"pkg/config/config.go": (field_old, field_new)}) == [  # the key users write, not the Go name
        "config formula deprecated: it now warns (pkg/config/config.go:7)"]
    # fastify: the code is defined with its category in one file and emitted in another
    defined = "warning.create('FastifyDeprecation', 'FSTDEP014', 'The default route is deprecated.')\n"
    routes_old = ("function build () {\n  return {\n    getDefaultRoute: function () {\n      return router.x\n"
                  "    },\n    hasRoute\n  }\n}\n")
    routes_new = routes_old.replace("function () {\n", "function () {\n      warning.emit('FSTDEP014')\n")
    assert warned({"lib/warnings.js": ("module.exports = warning\n", defined + "module.exports = warning\n"),
                   "lib/route.js": (routes_old, routes_new)}) == [
        "symbol getDefaultRoute deprecated: it now warns (lib/route.js:3)"]


def test_a_function_that_now_warns_plans_the_pages_naming_it_and_is_pointed_out_not_edited():
    pages = {**PAGES, "docs/api.md": "# API\n\n## `connect_pool()`\n\nOpens a pool: `connect_pool(url)`.\n"}
    fact = Fact("symbol", "deprecated", "connect_pool", "app/net.py", "deprecation warning added in its body", line=3)
    result, index = planned([fact], pages)
    assert [(p.path, p.mode) for p in result.pages] == [("docs/api.md", "direct")]
    draft = write(result, index.read)
    assert draft.files == {}
    assert draft.open_points == ["docs/api.md: connect_pool now warns that it is deprecated (line(s) 3, 5): say so "
                                 "where it is documented, and what to use instead"]
    # a plain word may mean something else on a page: worth a look, not planned
    pages["docs/api.md"] += "\nSee `formula` for the recipe.\n"
    result, _ = planned([Fact("config", "deprecated", "formula", "pkg/config.go", fact.rule, line=9)], pages)
    assert (result.pages, [w["path"] for w in result.worth_a_look]) == ([], ["docs/api.md"])


def test_pytest_plugin_options_and_ini_settings_are_facts():
    old = """def pytest_addoption(parser):
    group = parser.getgroup("general")
    group._addoption("--strict-markers", action="store_true", help="Unknown markers raise errors")
"""
    new = """def pytest_addoption(parser):
    group = parser.getgroup("general")
    group._addoption("--strict-markers", action="store_true", help="Enables the strict_markers option")
    group.addoption("--fail-fast", action="store_true", help="Stop at the first failure")
    parser.addini("strict_markers", "Markers not registered raise errors", type="bool", default=False)
    parser.addini("log_format", "%(levelname)s %(message)s")
"""
    facts = {f.describe(): f for f in facts_of_change("src/plugin.py", old, new)}
    assert sorted(facts) == ["config log_format added", "config strict_markers added", "flag --fail-fast added",
                             "flag --strict-markers help text reworded"]
    assert (facts["config strict_markers added"].new, facts["config strict_markers added"].note) == \
        ("False", "Markers not registered raise errors")  # the second argument is its help, not its default
    assert facts["config log_format added"].new == "'%(levelname)s %(message)s'"  # a value, not words


def test_a_defaults_dict_outside_functions_gives_its_keys_by_dotted_path():
    old = """class Config:
    default_config: dict = {
        "cache-dir": "/tmp/cache",
        "virtualenvs": {"create": True, "options": {"no-pip": False, "no-setuptools": False}},
    }

def build():
    options = {"verbose": True}  # made in a function: no one's settings
"""
    new = old.replace(', "no-setuptools": False', "").replace('"create": True', '"create": False')
    assert described("src/app/config.py", old, new) == [
        "config virtualenvs.create default True → False", "config virtualenvs.options.no-setuptools removed"]
    assert described("src/app/config.py", None, "DEFAULTS = dict(timeout=30, retries=3)\n") == [
        "config retries added", "config timeout added"]
    # a dict literal handed to a mapping type (flask's ImmutableDict) is the defaults dict all the same
    assert described("src/app/app.py", None, 'class App:\n    default_config = ImmutableDict({"DEBUG": None})\n') \
        == ["config DEBUG added", "symbol App added"]
    # a dict bound to any other name is data, not settings
    assert described("src/app/data.py", None, 'COLOURS = {"red-ish": 1, "blue-ish": 2}\n') == []


def test_a_new_nested_default_goes_to_the_pages_that_speak_of_its_section():
    old = """DEFAULT_CONFIG = {
    "cache-dir": "/tmp/cache",
    "data-dir": "/tmp/data",
    "solver": {"lazy-wheel": True, "max-workers": 4},
}
"""
    new = old.replace('"max-workers": 4}', '"max-workers": 4, "min-release-age": 0}')
    facts = facts_of_change("src/app/config.py", old, new)
    assert [(f.describe(), f.context) for f in facts] == [("config solver.min-release-age added", ("solver",))]
    pages = {**PAGES,
             "docs/configuration.md": "# Configuration\n\n## `solver.lazy-wheel`\n\nOn.\n\n"
                                      "## `solver.max-workers`\n\nFour.\n",
             "docs/storage.md": "# Storage\n\nSet `cache-dir` and `data-dir` to keep files elsewhere.\n"}
    result, _ = planned(facts, pages)
    # storage.md documents as many siblings, but not the section the new key stands in
    assert [p.path for p in result.pages] == ["docs/configuration.md"]


def test_a_settings_class_held_by_another_s_field_has_that_section():
    old = """from pydantic import BaseModel
from pydantic_settings import BaseSettings

class Database(BaseModel):
    dsn_url: str = "sqlite://"
    connect_timeout: int = 5

class Cache(BaseModel):
    connect_timeout: int = 60

class Settings(BaseSettings):
    database: Database = Database()
    caches: list["Cache"] = []
    debug: bool = False
"""
    new = old.replace("    connect_timeout: int = 5\n", "    connect_timeout: int = 5\n    pool_size: int = 10\n")
    facts = facts_of_change("src/app/settings.py", old, new)
    assert [(f.describe(), f.context) for f in facts] == [("config pool_size added", ("database",))]
    top = facts_of_change("src/app/settings.py", old, old.replace("    debug: bool", "    port: int = 80\n    debug: bool"))
    assert [(f.describe(), f.context) for f in top] == [("config port added", ())]  # the top level: no section
    # a class another one extends has its fields at that one's level: no section
    based = old.replace("class Settings(BaseSettings):", "class Settings(Database, BaseSettings):")
    assert [f.context for f in facts_of_change("src/app/settings.py", based, based.replace(
        "    connect_timeout: int = 5\n", "    connect_timeout: int = 5\n    pool_size: int = 10\n"))] == [()]
    pages = {**PAGES,
             "docs/database.md": "# Database\n\n```yaml\ndatabase:\n  dsn_url: sqlite://\n  connect_timeout: 5\n"
                                 "```\n\nUnder `database`, `dsn_url` and `connect_timeout` say where and how long.\n",
             "docs/cache.md": "# Cache\n\nEach of the `caches` has its own `dsn_url` and `connect_timeout`.\n"}
    result, _ = planned(facts, pages)
    assert [p.path for p in result.pages] == ["docs/database.md"]  # cache.md names the siblings, not the section


def test_variables_and_options_listed_with_their_help_are_settings():
    old = """VARS = [
    ("APP_HOME", "Where the app keeps its files"),
    ("APP_DEBUG", "Set to enable debug output"),
]
FLAGS = [("--dry-run", "Show what would be done")]
"""
    new = old.replace("]\nFLAGS", '    ("APP_CACHE_DIR", "Where downloads are kept"),\n]\nFLAGS')
    facts = facts_of_change("src/app/help.py", old, new)
    assert [f.describe() for f in facts] == ["env APP_CACHE_DIR added"]
    assert facts[0].note == "Where downloads are kept" and set(facts[0].siblings) == {"APP_HOME", "APP_DEBUG"}
    # a short name or a value second is no help listing: ("ON", "yes"), ("X_Y", "1.0")
    assert described("src/app/help.py", None, 'PAIRS = [("ON", "Turned on by the user"), ("X_Y", "1.0")]\n') == []
    assert described("src/app/help.py", None, 'F = [("--dry-run", "Show what would be done")]\n') == \
        ["flag --dry-run added"]


# -- planning -----------------------------------------------------------------------------------

PAGES = {
    "docs/options.md": """# Options

| Option | Default | Description |
|---|---|---|
| `--port` | `8080` | Port to listen on. |
| `--host` | `localhost` | Host to bind. |

The server starts with the `name` you give it.
""",
    "docs/guide.md": "# Guide\n\nPick a name for your project and a host for it.\n\nSee `name` in the options.\n",
    "docs/intro.md": "# Intro\n\nEvery project has a name.\n",
    "docs/changelog.md": "# Changelog\n\n- `--port` is new\n",
    "docs/about.md": "# About\n\nNothing here.\n",
    "docs/api.md": "# API\n\nNo options here either.\n",
    "docs/faq.md": "# FAQ\n\nThe name matters.\n",
}


def instead_of_options(path: str, page: str) -> dict[str, str]:
    """The test docs with ``page`` at ``path`` in place of the options page."""
    return {path: page, **{k: PAGES[k] for k in list(PAGES)[1:] if k != path}}


def planned(facts, pages=PAGES):
    index = PageIndex(pages)
    return plan(facts, index.find, index.read, total_pages=len(index)), index


def test_a_traceback_that_passes_through_a_changed_file_is_no_reference_to_it():
    fact = Fact("file", "changed", "app/core.py", "app/core.py", "git: file changed")
    pages = {"docs/errors.md": "# Errors\n\n```\nTraceback (most recent call last):\n"
                               '  File "/home/me/env/site-packages/app/core.py", line 216, in main\n'
                               "app/core.py:216: ValueError\n```\n",
             "docs/internals.md": "# Internals\n\nThe parser lives in `app/core.py`.\n"}
    result, _ = planned([fact], pages)
    assert [p.path for p in result.pages] == ["docs/internals.md"]


def test_a_new_deprecation_plans_the_list_of_deprecations_for_review_not_old_ones_nor_the_policy():
    pages = {**PAGES, "docs/deprecations.rst": "Deprecations and Removals\n=========================\n\nWhat is "
                                               "deprecated.\n",
             "docs/old-deprecations.md": "# Old deprecations\n\nWhat was deprecated.\n",
             "docs/policy.md": "# Deprecation policy\n\nHow we deprecate.\n"}
    result, index = planned([Fact("deprecation", "added", "app/net.py", "app/net.py", "deprecation warning added",
                                  line=5)], pages)
    assert [(p.path, p.mode) for p in result.pages] == [("docs/deprecations.rst", "related")]
    assert write(result, index.read).files == {}  # what replaces it, and when it goes: a person writes that


def test_a_new_setting_plans_for_review_the_pages_of_its_namesake_option():
    pages = {**PAGES, "docs/marks.md": "# Marks\n\nPass `--strict-markers` to refuse unknown marks.\n",
             "docs/words.md": "# Words\n\nOur markers are strict.\n"}
    fact = Fact("config", "added", "strict_markers", "src/main.py", "python: registry call addini()", new="False")
    result, index = planned([fact], pages)
    assert [(p.path, p.mode) for p in result.pages] == [("docs/marks.md", "related")]
    assert write(result, index.read).files == {}
    # one word is everybody's: --verbose documented says nothing of a new setting verbose
    pages["docs/marks.md"] += "\nAdd `--verbose` for more.\n"
    assert planned([Fact("config", "added", "verbose", "src/main.py", "python: registry call addini()")],
                   pages)[0].pages == []


def test_a_rare_identifier_is_evidence_and_a_common_word_is_not():
    old = 'import click\n@click.option("--port", default=8080)\n@click.option("--name")\ndef main(): ...\n'
    result, _ = planned(facts_of_change("app/cli.py", old, old.replace("--port", "--listen-port")
                                        .replace('@click.option("--name")\n', "")))
    assert [p.path for p in result.pages] == ["docs/options.md"]  # --port, as code; never the changelog
    assert not any("changelog" in w["path"] for w in result.worth_a_look)
    # "name" stands on most pages: never planned or edited
    assert all("name" not in r for p in result.pages for r in p.reasons)


def test_a_common_word_is_not_even_worth_a_look():
    result, _ = planned([Fact("config", "removed", "name", "app/config.yaml", "yml keys")])
    assert result.pages == [] and result.worth_a_look == []


def test_a_new_structure_under_a_key_is_no_default_to_look_for():
    old = ("jobs:\n  release:\n    timeout: 10\n    steps:\n      - uses: actions/checkout@v4\n"
           "      - run: make release\n")
    pages = {f"docs/ci/{n}.md": f"# CI {n}\n\nThe `steps` of a job, with a `timeout`:\n\n```yaml\nsteps:\n"
                                f"  - uses: actions/checkout@v4\n```\n" for n in ("github", "gitlab")}
    pages.update({f"docs/page{n}.md": f"# Page {n}\n\nNothing about CI here.\n" for n in range(40)})
    steps = facts_of_change("ci/release.yml", old, old.replace("@v4", "@v5"))
    assert [(f.change, f.name) for f in steps] == [("default-changed", "jobs.release.steps")]
    # a list of steps is no value a page states beside `steps`: nothing to correct, not even a look
    result, _ = planned(steps, pages)
    assert result.pages == [] and result.worth_a_look == []
    # a scalar's new default still is worth a look where its old value is not beside the key
    timeout = facts_of_change("ci/release.yml", old, old.replace("timeout: 10", "timeout: 20"))
    result, _ = planned(timeout, pages)
    assert sorted(w["path"] for w in result.worth_a_look) == ["docs/ci/github.md", "docs/ci/gitlab.md"]


def test_a_new_setting_of_a_large_family_is_worth_a_look_on_a_few_pages_only():
    fields = ["archives", "checksums", "signatures", "snapshots", "changelogs", "releases"]
    old = "from dataclasses import dataclass\n\n@dataclass\nclass Settings:\n" + "".join(
        f"    {f}: int = 1\n" for f in fields)
    new = old + "    sboms: int = 1\n"
    # each guide documents one setting, and the first one a second in passing: no page documents enough
    pages = {f"docs/{f}.md": f"# {f}\n\nSet `{f}` to change it.\n" for f in fields}
    pages["docs/archives.md"] += "\nSee also `checksums`.\n"
    pages.update({f"docs/page{n}.md": f"# Page {n}\n\nNothing here.\n" for n in range(30)})
    result, _ = planned(facts_of_change("pkg/settings.py", old, new), pages)
    assert [p.path for p in result.pages] == ["docs/archives.md"]
    # the pages naming the most siblings come first, and three at most: a list of every guide is read by no one
    assert len(result.worth_a_look) == 3
    assert all(w["reason"].endswith("too few of its siblings documented here") for w in result.worth_a_look)


def test_worth_a_look_is_one_entry_a_page():
    old = ('import click\n@click.option("--port", default=8080, help="Port.")\n'
           '@click.option("--host", default="localhost", help="Host.")\n'
           '@click.option("--workers", default=1, help="Workers.")\ndef main(): ...\n')
    new = old.replace("def main()", '@click.option("--reload", is_flag=True, help="Reload.")\n'
                                    '@click.option("--timeout", default=30, help="Timeout.")\ndef main()')
    pages = {"docs/deploy.md": "# Deploy\n\nStart it with `--port` behind your proxy.\n",
             **{k: v for k, v in PAGES.items() if k != "docs/options.md"}}
    result, _ = planned(facts_of_change("app/cli.py", old, new), pages)
    assert [w["path"] for w in result.worth_a_look] == ["docs/deploy.md"]
    assert result.worth_a_look[0]["reason"].endswith("too few of its siblings documented here (and 1 more)")


def test_a_parameter_is_evidence_only_where_the_page_also_speaks_of_its_function():
    old = "def connect(host, read_timeout=30): ...\n"
    new = "def connect(host, read_timeout=60): ...\n"
    pages = {"docs/api.md": "# API\n\n`connect(host, read_timeout=30)` opens a session.\n",
             "docs/server.md": "# Server\n\nThe `read_timeout` setting: `30` seconds.\n",
             "docs/other.md": "# Other\n\nNothing here.\n", "docs/more.md": "# More\n\nNor here.\n"}
    result, _ = planned(facts_of_change("pkg/client.py", old, new), pages)
    assert [p.path for p in result.pages] == ["docs/api.md"]
    assert not any(w["path"] == "docs/server.md" for w in result.worth_a_look)  # another read_timeout


def test_the_docs_of_a_release_gone_by_are_never_planned():
    old = 'import click\n@click.option("--legacy-mode", is_flag=True, help="Old.")\ndef main(): ...\n'
    page = "# Flags\n\n- `--legacy-mode`: the old way.\n"
    pages = {"docs/v1/flags.md": page, "docs/v2/flags.md": page, "docs/tutorial/1/flags.md": page,
             "website/versioned_docs/version-2.0/flags.md": page, **PAGES}
    result, _ = planned(facts_of_change("app/cli.py", old, old.replace('@click.option("--legacy-mode", '
                                                                      'is_flag=True, help="Old.")\n', "")), pages)
    # v2 is the newest of the versions' folders; a tutorial's numbered step is no version
    assert sorted(p.path for p in result.pages) == ["docs/tutorial/1/flags.md", "docs/v2/flags.md"]


def test_a_changelog_page_is_never_planned_even_when_it_is_the_only_mention():
    old = 'import click\n@click.option("--port", default=8080)\ndef main(): ...\n'
    pages = {"docs/changelog.md": PAGES["docs/changelog.md"], "docs/about.md": PAGES["docs/about.md"]}
    result, _ = planned(facts_of_change("app/cli.py", old, old.replace('"--port"', '"--listen"')), pages)
    assert result.pages == [] and result.verdict == "no documentation change needed"


@pytest.mark.parametrize("path", ["docs/changelog.md", "docs/news/1.2.rst", "doc/en/announce/release-2.9.0.rst",
                                  "docs/release-v1.4.md", "docs/historical-notes.rst", "docs/whats_new.md"])
def test_release_and_history_pages_are_told_apart(path):
    assert is_release_page(path)
    assert not is_release_page(path.replace(path.rsplit("/", 2)[-2] + "/", "").rsplit("/", 1)[0] + "/usage.md")


def test_blog_posts_and_dated_articles_are_history():
    assert all(is_release_page(p) for p in ("www/docs/blog/posts/v2.md", "docs/_posts/tips.md",
                                            "docs/articles/2023-06-28-goreleaser-v1.19.md"))
    assert not any(is_release_page(p) for p in ("docs/blogging.md", "docs/posts-api.md", "docs/articles/setup.md"))


def test_a_rename_with_a_new_default_updates_both_in_the_row():
    old = 'import click\n@click.option("--port", default=8080, help="Port to listen on.")\ndef main(): ...\n'
    new = 'import click\n@click.option("--listen-port", default=9000, help="Port to listen on.")\ndef main(): ...\n'
    result, index = planned(facts_of_change("app/cli.py", old, new))
    draft = write(result, index.read)
    assert "| `--listen-port` | `9000` | Port to listen on. |" in draft.files["docs/options.md"].split("\n")


def test_a_default_changes_on_the_line_that_says_it_in_the_options_own_section():
    page = """# Build options

## build.cssMinify

- **Type:** `boolean | 'esbuild' | 'lightningcss'`
- **Default:** the same as [`build.minify`](#build-minify) for client, `'esbuild'` for SSR

Vite uses `esbuild` by default to minify CSS.

## esbuild

When [`build.minify`](#build-minify) is `true`, all minify optimizations apply.

Set to `false` to disable esbuild transforms.

## build.minify

- **Type:** `boolean | 'terser' | 'esbuild'`
- **Default:** `'esbuild'` for client build, `false` for SSR build
"""
    old = ("export interface BuildOptions {\n  /**\n   * Minify.\n   * @default 'esbuild'\n   */\n"
           "  minify?: boolean\n}\n")
    result, index = planned(facts_of_change("src/build.ts", old, old.replace("'esbuild'", "'oxc'")),
                            instead_of_options("docs/build.md", page))
    text = write(result, index.read).files["docs/build.md"]
    assert text == page.replace("- **Default:** `'esbuild'` for client", "- **Default:** `'oxc'` for client")


def test_an_addition_goes_after_the_whole_sibling_row_in_its_format():
    old = ('import click\n@click.option("--port", default=8080, help="Port.")\n'
           '@click.option("--host", default="localhost", help="Host.")\ndef main(): ...\n')
    new = old.replace("def main", '@click.option("--workers", default=4, help="Worker processes.")\ndef main')
    result, index = planned(facts_of_change("app/cli.py", old, new))
    lines = write(result, index.read).files["docs/options.md"].split("\n")
    assert lines[4:7] == ["| `--port` | `8080` | Port to listen on. |", "| `--host` | `localhost` | Host to bind. |",
                          "| `--workers` | `4` | Worker processes. |"]


ROWS = {
    # the sibling's value placeholder ([host]) is not the new option's; an untitled last column describes
    "placeholder": ("| Options | |\n| --- | --- |\n| `--host [host]` | Specify hostname (`string`) |\n"
                    "| `-p, --port <port>` | Specify port (`number`) |\n",
                    "program.option('--host [host]', 'Specify hostname').option('-p, --port <port>', 'Specify port')",
                    ".option('--open', 'Open the browser on start')", "| `--open` | Open the browser on start |"),
    # as wide as an aligned row's cells; cac's [boolean] tag where the siblings say their type, and
    # the first word capitalised as theirs
    "aligned": ("| Options                 |                                     |\n"
                "| ----------------------- | ----------------------------------- |\n"
                "| `--cors`                | Enable CORS (`boolean`)             |\n"
                "| `-l, --logLevel <level>` | info \\| warn \\| silent (`string`) |\n",
                "cli.option('--cors', '[boolean] enable CORS')"
                ".option('-l, --logLevel <level>', '[string] info | warn')",
                ".option('--strictPort', '[boolean] exit if the port is in use')",
                "| `--strictPort`          | Exit if the port is in use (`boolean`) |"),
}


@pytest.mark.parametrize("table, code, added, row", ROWS.values(), ids=list(ROWS))
def test_a_new_row_is_written_as_its_siblings_rows(table, code, added, row):
    page = "# CLI\n\n" + table
    result, index = planned(facts_of_change("src/cli.ts", code + ";\n", code + added + ";\n"),
                            instead_of_options("docs/cli.md", page))
    assert write(result, index.read).files["docs/cli.md"].split("\n")[6] == row  # after the last sibling


def test_an_item_about_a_qualified_name_is_not_about_its_qualifier():
    page = ("# API\n\n## `transformCode`\n\nCall `transformCode(sourceText, resolvedConfig)`.\n\n"
            "The `resolvedConfig` has utilities:\n\n"
            "- `resolvedConfig.assetsInclude`: checks an asset.\n- `resolvedConfig.logger`: the logger.\n")
    old = "export function transformCode(sourceText, resolvedConfig) {}\n"
    new = "export function transformCode(sourceText, resolvedConfig, ignoreWarnings = false) {}\n"
    result, index = planned(facts_of_change("src/index.ts", old, new), instead_of_options("docs/api.md", page))
    assert [p.path for p in result.pages] == ["docs/api.md"]
    draft = write(result, index.read)
    # the list is about resolvedConfig's members, not beside the parameter resolvedConfig
    assert draft.files == {} and any("ignoreWarnings is new" in p for p in draft.open_points)


def test_a_list_of_bare_names_gets_the_bare_name_after_the_whole_nested_item():
    page = "# Server\n\nExposed options:\n- bodyLimit\n- routerOptions\n  - caseSensitive\n  - maxParamLength\n\nEnd.\n"
    old = "const defaults = { bodyLimit: 1048576, routerOptions: {} };\n"
    new = old.replace("routerOptions: {}", "routerOptions: {}, handlerTimeout: 0")
    result, index = planned(facts_of_change("lib/config.js", old, new), instead_of_options("docs/server.md", page))
    lines = write(result, index.read).files["docs/server.md"].split("\n")
    assert lines[3:9] == ["- bodyLimit", "- routerOptions", "  - caseSensitive", "  - maxParamLength",
                          "- handlerTimeout", ""]


def test_an_addition_goes_after_a_whole_list_item_never_inside_it():
    page = """# Settings

- `timeout`: how long to wait,
  in seconds.
- `retries`: how often to try again,
  before giving up.

Next section.
"""
    old = "class Settings(BaseSettings):\n    timeout: int = 30\n    retries: int = 3\n"
    new = old + '    backoff: float = Field(0.5, description="Seconds between tries.")\n'
    result, index = planned(facts_of_change("app/settings.py", old, new), instead_of_options("docs/settings.md", page))
    text = write(result, index.read).files["docs/settings.md"]
    assert text.split("\n")[2:8] == ["- `timeout`: how long to wait,", "  in seconds.",
                                     "- `retries`: how often to try again,", "  before giving up.",
                                     "- `backoff`: Seconds between tries.", ""]


def test_a_section_titled_by_a_removed_setting_alone_is_deleted_whole():
    fact = Fact("config", "removed", "no-setuptools", "src/app/config.py", "python: defaults dict DEFAULTS")
    page = """# Configuration

### `cache-dir`

Where the cache lives. Default: `~/.cache`.

### `no-setuptools`

**Type**: `boolean`

**Default**: `false`

If set, setuptools is not installed. Setting `no-setuptools` with `cache-dir` changes nothing.

### `no-pip`

No pip either.
"""
    result, index = planned([fact], {**PAGES, "docs/configuration.md": page})
    draft = write(result, index.read)
    assert draft.files["docs/configuration.md"] == page.replace(page[page.index("### `no-setuptools`"):
                                                                     page.index("### `no-pip`")], "")
    assert draft.open_points == []
    # reStructuredText, the last section of the page
    rst = "Settings\n========\n\ncache-dir\n---------\n\nWhere.\n\nno-setuptools\n-------------\n\nGone.\n"
    result, index = planned([fact], {**PAGES, "docs/settings.rst": rst})
    assert write(result, index.read).files["docs/settings.rst"] == "Settings\n========\n\ncache-dir\n---------\n\nWhere.\n"
    # a section holding sections of its own, or that keeps returning to the name, is a person's to cut
    nested = page.replace("**Default**: `false`", "#### Since 2.0\n\n**Default**: `false`")
    result, index = planned([fact], {**PAGES, "docs/configuration.md": nested})
    draft = write(result, index.read)
    assert "docs/configuration.md" not in draft.files and draft.open_points
    # a section left whole still loses the item about the name that it holds
    long = page.replace("**Default**: `false`", "**Default**: `false`\n\n- `no-setuptools`: off by default.\n"
                        + "\nMore words.\n" * 20)
    result, index = planned([fact], {**PAGES, "docs/configuration.md": long})
    assert write(result, index.read).files["docs/configuration.md"] == \
        long.replace("- `no-setuptools`: off by default.\n\n", "")


def test_a_removed_setting_leaves_the_settings_listings_in_code_and_nothing_nested_under_it_goes():
    fact = Fact("config", "removed", "virtualenvs.no-setuptools", "src/app/config.py", "python: defaults dict DEFAULTS",
                context=("virtualenvs",))
    page = """# Configuration

```toml
cache-dir = "/path/to/cache"
virtualenvs.no-setuptools = false
virtualenvs.no-pip = false
```

```yaml
virtualenvs.no-setuptools:
  really: true
cache-dir: /tmp
```

```toml
virtualenvs.no-setuptools = true
```
"""
    result, index = planned([fact], {**PAGES, "docs/configuration.md": page})
    draft = write(result, index.read)
    # the listing loses its line; a key with values under it, and an example of it alone, are left to a person
    assert draft.files["docs/configuration.md"] == page.replace("virtualenvs.no-setuptools = false\n", "")
    assert [p.split(": ", 1)[0] for p in draft.open_points] == ["docs/configuration.md:9", "docs/configuration.md:15"]
    # a nested key known by its bare name (Go's ``args`` of a section) may be another section's: left
    bare = Fact("config", "removed", "no-pip", "pkg/config.go", "go: field of settings struct Env", context=("virtualenvs",))
    result, index = planned([bare], {**PAGES, "docs/configuration.md": "# Configuration\n\n`virtualenvs`:\n\n"
                                                                       "```yaml\nno-pip: true\nother: 1\n```\n"})
    assert write(result, index.read).files == {}


def test_restructuredtext_option_directives_are_edited_whole():
    page = """Options
=======

.. option:: --port

   Port to listen on.

.. option:: --legacy

   The old mode.

Other text.
"""
    old = ('import click\n@click.option("--port", help="Port to listen on.")\n'
           '@click.option("--legacy", help="The old mode.")\ndef main(): ...\n')
    new = old.replace('@click.option("--legacy", help="The old mode.")\n',
                      '@click.option("--quiet", help="Say less.")\n')
    pages = instead_of_options("docs/options.rst", page)
    result, index = planned(facts_of_change("app/cli.py", old, new), pages)
    text = write(result, index.read).files["docs/options.rst"]
    assert text == """Options
=======

.. option:: --port

   Port to listen on.

.. option:: --quiet

   Say less.

Other text.
"""


def test_an_addition_beside_a_directive_described_by_the_paragraph_under_it_goes_after_that_paragraph():
    page = """Environment variables
=====================

.. envvar:: APP_DEBUG

When set, the app prints debug information.

.. envvar:: APP_HOME

Where the app keeps its files.

Other text.
"""
    old = 'import os\nDEBUG = os.getenv("APP_DEBUG")\nHOME = os.getenv("APP_HOME")\n'
    new = old + 'VERSION = os.environ.get("APP_VERSION")\n'
    pages = instead_of_options("docs/env.rst", page)
    result, index = planned(facts_of_change("app/settings.py", old, new), pages)
    text = write(result, index.read).files["docs/env.rst"]
    assert "Where the app keeps its files.\n\n.. envvar:: APP_VERSION\n\nOther text." in text
    assert "APP_DEBUG\n\nWhen set, the app prints debug information.\n\n.. envvar:: APP_HOME" in text


def test_a_reworded_help_text_is_reworded_where_the_docs_quote_it():
    old = ('import click\n@click.option("--port", default=8080, help="Port to listen on for new connections.")\n'
           'def main(): ...\n')
    new = old.replace("Port to listen on for new connections.", "TCP port the server listens on.")
    page = "# Usage\n\n- `--port`: Port to listen on for new connections.\n"
    result, index = planned(facts_of_change("app/cli.py", old, new), instead_of_options("docs/usage.md", page))
    assert [p.path for p in result.pages] == ["docs/usage.md"]
    assert write(result, index.read).files["docs/usage.md"] == \
        "# Usage\n\n- `--port`: TCP port the server listens on.\n"


def test_a_reworded_help_text_a_help_screen_wraps_over_its_lines_plans_the_page_for_review():
    old = ('import click\n@click.option("--forwarded-allow-ips", help="Comma seperated list of IPs to trust with '
           'proxy headers.")\ndef main(): ...\n')
    new = old.replace("seperated", "separated")
    page = ("# Usage\n\n```\nOptions:\n  --forwarded-allow-ips TEXT      Comma seperated list of IPs to trust with\n"
            "                                  proxy headers.\n  --help  Show this message and exit.\n```\n")
    result, index = planned(facts_of_change("app/cli.py", old, new), instead_of_options("docs/usage.md", page))
    assert [(p.path, p.mode) for p in result.pages] == [("docs/usage.md", "related")]
    assert "over the lines from 5" in result.pages[0].reasons[0]
    assert "docs/usage.md" not in write(result, index.read).files  # one line of it reworded would be wrong


def test_a_reworded_help_text_changes_its_changed_words_where_the_docs_quote_it_in_their_own_markup():
    page = ("# CLI\n\n| Options | |\n| --- | --- |\n| `--port <port>` | Specify port (`number`) |\n"
            "| `--loader <loader>` | Use `bundle` to bundle the config with esbuild, or `native` to load it "
            "natively (`string`) |\n")
    old = ("cli.option('--port <port>', '[number] specify port')\n"
           "  .option('--loader <loader>', `[string] use 'bundle' to bundle the config with esbuild, or 'native' "
           "to load it natively`)\n")
    new = old.replace("with esbuild", "with Rolldown")
    result, index = planned(facts_of_change("src/cli.ts", old, new), instead_of_options("docs/cli.md", page))
    assert [p.path for p in result.pages] == ["docs/cli.md"]
    assert write(result, index.read).files["docs/cli.md"] == page.replace("with esbuild", "with Rolldown")


COMMANDS_PAGE = """# Commands

## install

* `--sync`: Synchronize the environment with the locked packages.
* `--jobs`: How many packages at once. Default: `4`.
* `--no-dev`: Do not install dev dependencies.
* `--dry-run`: Show what would be done.

## update

* `--sync`: Synchronize the environment with the locked packages.
* `--jobs`: How many packages at once. Default: `4`.
* `--no-dev`: Do not update dev dependencies.
* `--lock`: Only update the lock file.
"""


def test_an_option_of_one_command_is_edited_in_the_section_of_that_command_only():
    old = """from cleo.helpers import option
class InstallCommand(Command):
    options = [
        option("sync", None, "Synchronize the environment with the locked packages.", flag=True),
        option("jobs", None, "How many packages at once.", flag=False, default=4),
        option("no-dev", None, "Do not install dev dependencies.", flag=True),
        option("dry-run", None, "Show what would be done.", flag=True),
    ]
"""
    new = old.replace("locked packages.", "locked packages. (Deprecated)").replace("default=4", "default=8") \
        .replace('        option("no-dev", None, "Do not install dev dependencies.", flag=True),\n', "")
    result, index = planned(facts_of_change("src/tool/commands/install.py", old, new),
                            instead_of_options("docs/cli.md", COMMANDS_PAGE))
    draft = write(result, index.read)
    install, update = draft.files["docs/cli.md"].split("## update")
    # the three facts are of install.py: its section changes, update's same-named options stay
    assert install == ("# Commands\n\n## install\n\n* `--sync`: Synchronize the environment with the locked "
                       "packages. (Deprecated)\n* `--jobs`: How many packages at once. Default: `8`.\n"
                       "* `--dry-run`: Show what would be done.\n\n")
    assert update == COMMANDS_PAGE.split("## update")[1]
    # update's own --no-dev is not reported as a leftover of the removal, but pointed out once
    assert [p for p in draft.open_points if "--no-dev" in p] == [
        "docs/cli.md: --no-dev also stands under other headings (line(s) 13), left as it is: there it may be "
        "another command's or setting's own"]


# -- names on the changed lines -------------------------------------------------------------------

NAMES_PAGES = {
    "docs/defaults.md": ("# Defaults\n\nSet `default_map` on the context, or `auto_envvar_prefix`.\n"
                         "A `flag_value` is used when the flag is given; `show_default` shows it.\n"),
    "docs/two.md": "# Two\n\nOnly `default_map` and `flag_value` here.\n",
    "docs/prose.md": "# Prose\n\nThe auto_envvar_prefix and show_default, in prose.\n",
    "docs/changes.md": "# Changes\n\n`default_map`, `auto_envvar_prefix`, `flag_value`, `show_default`\n",
    **{f"docs/other{n}.md": f"# Other {n}\n\nNothing of it.\n" for n in range(8)},
}


def test_changed_names_come_from_user_facing_code_only(repo):
    remote, mirror = repo
    base, head = pull_request(remote, mirror, {
        "app/core.py": "def lookup(ctx):\n    return ctx.default_map or FLAG_VALUE_UNSET\n",
        "tests/test_core.py": "def test_it():\n    assert hidden_helper_name\n",
        ".github/workflows/ci.yml": "on:\n  push: {}\njobs:\n  test_matrix_job:\n    runs-on: x\n"}, "c")
    names = name_changes(changed_code(mirror, base, head)).counts
    assert set(names) == {"default_map", "FLAG_VALUE_UNSET"}


def test_code_moved_to_another_module_changes_no_names(repo):
    remote, mirror = repo
    remote.commit({"app/views.py": "class View:\n    def __init__(self, url_prefix=None):\n"
                                   "        self.url_prefix = url_prefix\n"}, "start")
    base, head = pull_request(remote, mirror, {
        "app/views.py": "from .base import BaseView\nclass View(BaseView):\n    pass\n",
        "app/base.py": "class BaseView:\n    def __init__(self, url_prefix=None):\n"
                       "            self.url_prefix = url_prefix\n"}, "move")  # indented anew
    assert set(name_changes(changed_code(mirror, base, head)).counts) == {"BaseView"}


def test_a_page_speaking_of_several_changed_names_as_code_is_planned_for_review_and_not_edited():
    names = {"default_map": 2, "auto_envvar_prefix": 1, "flag_value": 3, "show_default": 1}
    index = PageIndex(NAMES_PAGES)
    result = plan([], index.find, index.read, total_pages=len(index), names=NameChanges(Counter(names), frozenset()))
    assert [(p.path, p.mode) for p in result.pages] == [("docs/defaults.md", "related")]
    assert "speaks of 4 names the pull request's code changes" in result.pages[0].reasons[0]
    # two names are chance, prose is no evidence, and a changelog is never planned
    assert not {"docs/two.md", "docs/prose.md", "docs/changes.md"} & {w["path"] for w in result.worth_a_look}
    draft = write(result, index.read)
    assert draft.files == {} and draft.open_points[0].startswith("docs/defaults.md: review by hand")
    # one name fewer: worth a look, not planned
    fewer = plan([], index.find, index.read, total_pages=len(index),
                 names=NameChanges(Counter(dict(list(names.items())[:3])), frozenset()))
    assert fewer.pages == [] and [w["path"] for w in fewer.worth_a_look] == ["docs/defaults.md"]


ERRORS_PAGE = """# Errors

| Code | Description |
| --- | --- |
| `FST_ERR_REP_ALREADY_SENT` | A response was already sent. |
| `FST_ERR_REP_SENT_VALUE` | The only possible value for `reply.sent` is `true`. |
| `FST_ERR_REP_INVALID_PAYLOAD_TYPE` | Reply payload can be either a `string` or a `Buffer`. |
| `FST_ERR_CTP_EMPTY_TYPE` | The content type cannot be an empty string. |
"""


def test_a_new_code_plans_the_page_that_lists_its_family_for_review(repo):
    remote, mirror = repo
    remote.commit({"app/errors.py": "FST_ERR_REP_ALREADY_SENT = 'x'\nFST_ERR_CTP_EMPTY_TYPE = 'z'\n"}, "errors")
    base, head = pull_request(remote, mirror, {"app/errors.py": "FST_ERR_REP_ALREADY_SENT = 'x'\n"
                                               "FST_ERR_REP_BODY_CONSUMED = 'y'\nFST_ERR_CTP_EMPTY_TYPE = 'z'\n"}, "new")
    names = name_changes(changed_code(mirror, base, head))
    assert names.gained == {"FST_ERR_REP_BODY_CONSUMED"}
    pages = {**PAGES, "docs/errors.md": ERRORS_PAGE, "docs/reply.md": "# Reply\n\nMay raise `FST_ERR_REP_ALREADY_SENT`.\n"}
    index = PageIndex(pages)
    result = plan([], index.find, index.read, total_pages=len(index), names=names, family=index.family)
    # the page listing three of its family (FST_ERR_REP_), not the one naming a single member
    assert [(p.path, p.mode) for p in result.pages] == [("docs/errors.md", "related")]
    assert result.pages[0].reasons[0:1] == ["lists 3 names of the FST_ERR_REP_ family (such as FST_ERR_REP_ALREADY_SENT); "
                                       "the pull request adds FST_ERR_REP_BODY_CONSUMED [changed lines]"]
    # a code the docs already name is no new member; nor is a name outside any family
    for gained in ({"FST_ERR_REP_ALREADY_SENT"}, {"fst_err_rep_body"}):
        assert plan([], index.find, index.read, total_pages=len(index), names=NameChanges(Counter(), frozenset(gained)),
                    family=index.family).pages == []


def test_a_list_addition_copies_the_sibling_items_markup_and_way_of_saying_a_default():
    page = """# Theme options

*   __`highlightjs`__: Enables highlighting of source code. Default: `True`.

*   __`sticky_navigation`__{ #nav }: If True, the sidebar scrolls with the page.
    Default: `True`.

## Another theme

*   __`highlightjs`__: Highlighting here too.

Next section.
"""
    old = "class ThemeConfig(Config):\n    highlightjs = True\n    sticky_navigation = True\n"
    new = old + '    locale = "en"\n'
    result, index = planned(facts_of_change("app/theme.py", old, new), instead_of_options("docs/theme.md", page))
    lines = write(result, index.read).files["docs/theme.md"].split("\n")
    # in the list that documents most of its siblings (not the later one with fewer), after its
    # last item, marked up like the plainest sibling item, a blank line apart as its items are
    assert lines[4:9] == ["*   __`sticky_navigation`__{ #nav }: If True, the sidebar scrolls with the page.",
                          "    Default: `True`.", "", "*   __`locale`__: Default: `en`.", ""]


SETTINGS_PAGE = """# Configuration

### `installer.max-workers`

**Type**: `int`

**Default**: `number_of_cores + 4`

**Environment Variable**: `POETRY_INSTALLER_MAX_WORKERS`

*Introduced in 1.2.0*

Set the maximum number of workers while using the parallel installer.

### `installer.parallel`

**Type**: `boolean`

**Default**: `true`

**Environment Variable**: `POETRY_INSTALLER_PARALLEL`

Use parallel execution when using the new (`>=1.1.0`) installer.

```toml
[installer]
parallel = true
```

(solver-settings)=

### `solver.lazy-wheel`

**Type**: `boolean`

**Default**: `true`

**Environment Variable**: `POETRY_SOLVER_LAZY_WHEEL`

Do not download entire wheels to extract metadata.
"""


def test_a_setting_documented_in_sections_of_their_own_gets_one_shaped_like_its_siblings():
    old = ('default_config = {\n    "installer": {\n        "max-workers": None,\n        "parallel": True,\n'
           '    },\n    "solver": {\n        "lazy-wheel": True,\n    },\n}\n')
    new = old.replace('"parallel": True,\n', '"parallel": True,\n        "re-resolve": True,\n')
    facts = facts_of_change("src/app/config/config.py", old, new)
    result, index = planned(facts, instead_of_options("docs/configuration.md", SETTINGS_PAGE))
    draft = write(result, index.read)
    page = draft.files["docs/configuration.md"]
    # after the section of the setting it follows (in the alphabetical order the page keeps), before
    # the next heading's label; the heading as its siblings' are, and of their fields only what the
    # code says: the default, the type of a boolean, the variable that spells its name
    assert page.split("\n")[27:39] == [
        "```", "", "### `installer.re-resolve`", "", "**Type**: `boolean`", "", "**Default**: `true`", "",
        "**Environment Variable**: `POETRY_INSTALLER_RE_RESOLVE`", "", "(solver-settings)=", ""]
    # (its version mark: tests/unit/test_docflows_release.py)


@pytest.mark.parametrize(("path", "page", "section"), [
    ("docs/configuration.md",  # Markdown's setext headings: the underline is the heading's level
     "Configuration\n=============\n\nmax_workers\n-----------\n\n**Default**: `4`\n\n"
     "parallel\n--------\n\n**Default**: `true`\n\nSolver\n======\n\nText.\n",
     "re_resolve\n----------\n\n**Default**: `true`\n\n"),
    ("docs/configuration.rst",  # reST titles over- and underlined: another level than underlined alike
     "=============\nConfiguration\n=============\n\nmax_workers\n===========\n\n:Default: ``4``\n\n"
     "parallel\n========\n\n:Default: ``true``\n\n======\nSolver\n======\n\nText.\n",
     "re_resolve\n==========\n\n:Default: ``true``\n\n"),
])
def test_a_new_section_is_headed_as_its_siblings_are_underlined_or_overlined(path, page, section):
    solver = "Solver\n======\n" if path.endswith(".md") else "======\nSolver\n======\n"
    assert _with_setting_added(path, page, {"max_workers": 4, "parallel": True}, "re_resolve", True) == \
        page.replace(solver, section + solver)


def _with_setting_added(path: str, page: str, settings: dict, name: str, value) -> str:
    """The page as the Writer leaves it when a settings mapping of ``settings`` gains ``name``."""
    def source(items: dict) -> str:
        return "DEFAULTS = {\n" + "".join(f"    {k!r}: {v!r},\n" for k, v in items.items()) + "}\n"

    old, new = source(settings), source({**settings, name: value})
    result, index = planned(facts_of_change("src/app/config.py", old, new), instead_of_options(path, page))
    return write(result, index.read).files[path]


@pytest.mark.parametrize(("path", "page", "section"), [
    ("docs/server.md",  # an anchor under the heading, made from the name in kebab case
     "# Server\n\n### `bodyLimit`\n<a id=\"factory-body-limit\"></a>\n\n+ Default: `1048576`\n\n"
     "### `connectionTimeout`\n<a id=\"factory-connection-timeout\"></a>\n\n+ Default: `0`\n\n"
     "## Instance\n\nText.\n",
     "### `keepAliveTimeout`\n<a id=\"factory-keep-alive-timeout\"></a>\n\n+ Default: `72000`\n\n"),
    ("docs/server.md",  # the heading's own attribute, made from the name as it is
     "# Server\n\n### `bodyLimit` { #opt-bodyLimit }\n\n+ Default: `1048576`\n\n"
     "### `connectionTimeout` { #opt-connectionTimeout }\n\n+ Default: `0`\n\n## Instance\n\nText.\n",
     "### `keepAliveTimeout` { #opt-keepAliveTimeout }\n\n+ Default: `72000`\n\n"),
    ("docs/server.rst",  # a reST label above the heading; a label not made from the name is not copied
     "Server\n======\n\n.. _opt-body-limit:\n\nbodyLimit\n---------\n\n:Default: ``1048576``\n\n"
     ".. _timeouts:\n\n.. _opt-connection-timeout:\n\nconnectionTimeout\n-----------------\n\n:Default: ``0``\n\n"
     ".. _instance:\n\nInstance\n========\n\nText.\n",  # (the next heading keeps its label)
     ".. _opt-keep-alive-timeout:\n\nkeepAliveTimeout\n----------------\n\n:Default: ``72000``\n\n"),
])
def test_a_new_sections_anchor_is_made_from_its_name_as_its_siblings_are(path, page, section):
    following = "## Instance\n" if path.endswith(".md") else ".. _instance:\n\nInstance\n========\n"
    assert _with_setting_added(path, page, {"bodyLimit": 1048576, "connectionTimeout": 0}, "keepAliveTimeout",
                               72000) == page.replace(following, section + following)


def test_a_list_of_the_siblings_names_beside_their_sections_is_no_place_to_describe_a_new_one():
    toc = "# Configuration\n\n- `installer.max-workers`\n- `installer.parallel`\n- `solver.lazy-wheel`\n"
    old = ('default_config = {\n    "installer": {\n        "max-workers": None,\n        "parallel": True,\n'
           '    },\n    "solver": {\n        "lazy-wheel": True,\n    },\n}\n')
    new = old.replace('"parallel": True,\n', '"parallel": True,\n        "re-resolve": True,\n')
    page = toc + SETTINGS_PAGE.removeprefix("# Configuration\n")
    result, index = planned(facts_of_change("src/app/config/config.py", old, new),
                            instead_of_options("docs/configuration.md", page))
    text = write(result, index.read).files["docs/configuration.md"]
    assert "### `installer.re-resolve`\n\n**Type**: `boolean`\n\n**Default**: `true`\n" in text
    assert "- `installer.re-resolve`" not in text  # the table of contents is the page's own to update


def test_a_help_text_held_in_a_variable_is_read_from_its_one_string():
    old = ('def pytest_addoption(parser):\n    help_timeout = (\n        "Dump the traceback of all threads if a test "\n'
           '        "takes more than TIMEOUT seconds"\n    )\n    parser.addini("faulthandler_timeout", help_timeout, '
           'default=0.0)\n')
    new = old + ('    help_exit = "Exit the test process if a test takes too long"\n'
                 '    parser.addini("faulthandler_exit_on_timeout", help_exit, type="bool", default=False)\n'
                 '    mode = "a"\n    mode = "b"\n    parser.addoption("--mode", help=mode)\n')
    facts = {f.name: f for f in facts_of_change("src/plugin/faulthandler.py", old, new)}
    assert facts["faulthandler_exit_on_timeout"].note == "Exit the test process if a test takes too long"
    assert facts["faulthandler_exit_on_timeout"].new == "False"
    assert facts["--mode"].note is None  # a name bound to two strings says neither


def test_a_new_ini_option_joins_the_one_list_of_those_the_other_plugins_add(repo):
    remote, mirror = repo
    core = "".join(f'    parser.addini("{n}_opt", "What the {n} option sets, in words.")\n'
                   for n in ("alpha", "beta", "delta", "kappa"))
    faults = 'def setup(parser):\n    parser.addini("zeta_opt", "Zeta, which no page documents at all.")\n'
    remote.commit({"app/plugins/__init__.py": "", "app/plugins/core.py": "def setup(parser):\n" + core,
                   "app/plugins/faults.py": faults}, "plugins")
    base, head = pull_request(remote, mirror, {"app/plugins/faults.py": faults + (
        '    parser.addini("gamma_opt", "Stop at the first failure of a kind.", default=False)\n')}, "add")
    page = "Reference\n=========\n" + "".join(f"\n.. confval:: {n}_opt\n\n   {n.title()}.\n"
                                              for n in ("alpha", "beta", "delta", "kappa"))
    guide = "Guide\n=====\n\nSet ``alpha_opt`` and ``beta_opt`` in your ini file.\n"
    index = PageIndex({"docs/reference.rst": page, "docs/guide.rst": guide, **PAGES})
    result = plan(facts_between(mirror, base, head), index.find, index.read, total_pages=len(index))
    # its own file's sibling is documented nowhere: the one page listing what the same call adds
    # in the other plugins gets it, in its order; a page naming two of them is no such list
    assert [p.path for p in result.pages] == ["docs/reference.rst"]
    assert "its registry call adds elsewhere" in result.pages[0].reasons[0]
    assert not result.worth_a_look
    text = write(result, index.read).files["docs/reference.rst"]
    assert text == page.replace(".. confval:: kappa_opt", ".. confval:: gamma_opt\n\n"
                                "   Stop at the first failure of a kind.\n\n.. confval:: kappa_opt")


@pytest.mark.parametrize("added", [("gamma",), ("gamma", "epsilon")])
def test_directives_two_blank_lines_apart_are_one_run_kept_in_its_order(added):
    names = ("alpha", "beta", "delta", "kappa")
    old = "def setup(parser):\n" + "".join(f'    parser.addini("{n}_opt", "What the {n} option sets, in words.")\n'
                                           for n in names)
    new = old + "".join(f'    parser.addini("{n}_opt", "Stop at the first {n} failure.")\n' for n in added)
    # reST reads two blank lines as one: the run goes on past them, and it is alphabetical; two
    # new names keep that order between them too
    page = "Reference\n=========\n" + "\n".join(f"\n.. confval:: {n}_opt\n\n   {n.title()}.\n" for n in names)
    result, index = planned(facts_of_change("app/plugin.py", old, new), instead_of_options("docs/reference.rst", page))
    text = write(result, index.read).files["docs/reference.rst"]
    assert text == page.replace(".. confval:: kappa_opt", "".join(
        f".. confval:: {n}_opt\n\n   Stop at the first {n} failure.\n\n" for n in sorted(added)) + ".. confval:: kappa_opt")


def test_a_settings_attribute_is_described_by_the_string_that_follows_it():
    old = ('class SiteConfig(base.Config):\n    site_name = c.Type(str)\n    """The title of the site."""\n\n'
           '    repo_url = c.Optional(c.URL())\n    """A link to the repository."""\n')
    new = old + ('    exclude_docs = c.Optional(c.PathSpec())\n    """Patterns of files to exclude from the site.\n\n'
                 '    Written as a .gitignore file is."""\n')
    page = ("# Configuration\n\n## Project information\n\n### site_name\n\nThe `site_name` is the title.\n\n"
            "**default**: `null`\n\n### repo_url\n\nWhere the `repo_url` leads.\n\n**default**: `null`\n")
    facts = facts_of_change("app/config/defaults.py", old, new)
    assert [(f.name, f.note) for f in facts] == [("exclude_docs", "Patterns of files to exclude from the site.")]
    result, index = planned(facts, instead_of_options("docs/configuration.md", page))
    text = write(result, index.read).files["docs/configuration.md"]
    # its first paragraph, where the siblings' prose stands; no default the code states plainly
    assert text.endswith("**default**: `null`\n\n### exclude_docs\n\nPatterns of files to exclude from the site.\n")


def test_a_new_section_takes_its_siblings_title_prefix_and_the_help_text_where_their_prose_stands():
    page = """Build options
=============

build.target
------------

Browser compatibility target for the final bundle.

**Default**: ``'modules'``

build.outDir
------------

The output directory: ``outDir`` is relative to the ``target`` root.

**Default**: ``dist``
"""
    fact = Fact("config", "added", "emptyOutDir", "src/build.ts", "js: member of options type BuildOptions",
                new="false", note="Empty the output directory before building.", siblings=("outDir", "target"),
                follows=("outDir",))
    result, index = planned([fact], instead_of_options("docs/build.rst", page))
    text = write(result, index.read).files["docs/build.rst"]
    # titled as the siblings are (prefix, underline as long as the title), the help text where their
    # prose stands, the default in their literal markup
    assert text.endswith("**Default**: ``dist``\n\nbuild.emptyOutDir\n-----------------\n\n"
                         "Empty the output directory before building.\n\n**Default**: ``false``\n")


def test_sections_titled_by_plain_words_are_siblings_sections_only_where_they_state_a_default():
    old = ('class SiteConfig(base.Config):\n    nav = c.Optional(c.Nav())\n    """The navigation."""\n\n'
           '    pages = c.Optional(c.Pages())\n    """The pages."""\n')
    new = old + '    not_in_nav = c.Optional(c.PathSpec())\n    """Files that are not in the nav."""\n'
    # a theme's template variables: the page's own words, which a setting happens to share
    page = ("# Themes\n\nTemplates see `nav` and `pages`.\n\n#### nav\n\nThe site's navigation.\n\n"
            "#### pages\n\nEvery page.\n")
    result, index = planned(facts_of_change("app/config/defaults.py", old, new),
                            instead_of_options("docs/themes.md", page))
    assert [p.path for p in result.pages] == ["docs/themes.md"]
    assert write(result, index.read).files == {}
    # the same words titling sections that state a default: a settings page, and its place
    settings = page.replace("navigation.\n", "navigation.\n\n**default**: `null`\n").replace(
        "Every page.\n", "Every page.\n\n**default**: `null`\n")
    result, index = planned(facts_of_change("app/config/defaults.py", old, new),
                            instead_of_options("docs/themes.md", settings))
    assert write(result, index.read).files["docs/themes.md"].endswith(
        "#### not_in_nav\n\nFiles that are not in the nav.\n")


def test_no_section_is_made_without_two_siblings_headed_alike_or_without_a_word_from_the_code():
    lone = "# Config\n\n### `installer.parallel`\n\n**Default**: `true`\n\nUse parallel execution.\n"
    old = 'default_config = {"installer": {"parallel": True, "max-workers": 4}}\n'
    new = old.replace("4}", '4, "re-resolve": True}')
    result, index = planned(facts_of_change("src/app/config.py", old, new), instead_of_options("docs/config.md", lone))
    draft = write(result, index.read)
    assert "docs/config.md" not in draft.files  # one heading of a sibling's name may be a chance
    silent = new.replace('"re-resolve": True', '"re-resolve": None')
    result, index = planned(facts_of_change("src/app/config.py", old, silent),
                            instead_of_options("docs/configuration.md", SETTINGS_PAGE))
    draft = write(result, index.read)
    assert "docs/configuration.md" not in draft.files
    assert "docs/configuration.md: describe installer.re-resolve in a section beside the one on installer.parallel; " \
           "the code gives no help text or default for it" in draft.open_points


THEMES_PAGE = """# Themes

## mkdocs

* `highlightjs`: Default: `true`.
* `hljs_style`: Default: `github`.
* `navigation_depth`: Default: `2`.

## readthedocs

* `highlightjs`: Default: `true`.
* `hljs_style`: Default: `github`.
* `navigation_depth`: Default: `4`.
"""


def test_an_addition_goes_after_the_sibling_it_follows_in_the_code_in_the_section_its_path_names():
    old = "highlightjs: true\nhljs_style: github\n\nnavigation_depth: 4\n"
    new = old.replace("github\n", "github\nhljs_style_dark: github-dark\n")
    result, index = planned(facts_of_change("pkg/themes/readthedocs/theme.yml", old, new),
                            instead_of_options("docs/themes.md", THEMES_PAGE))
    lines = write(result, index.read).files["docs/themes.md"].split("\n")
    # both sections document its siblings equally; the one named by the file's own folder gets it,
    # right after hljs_style, which it follows in the code (not after the list's last item)
    assert lines[4:7] == THEMES_PAGE.split("\n")[4:7]
    assert lines[10:14] == ["* `highlightjs`: Default: `true`.", "* `hljs_style`: Default: `github`.",
                            "* `hljs_style_dark`: Default: `github-dark`.", "* `navigation_depth`: Default: `4`."]


def test_an_item_with_paragraphs_is_followed_apart_and_a_boolean_is_written_as_the_page_writes_them():
    page = "# Theme\n\n* `highlightjs`: Highlights code.\n\n    Default: `True`.\n\nNext.\n"
    old = "highlightjs: true\n"
    result, index = planned(facts_of_change("theme/theme.yml", old, old + "sticky_navigation: false\n"),
                            instead_of_options("docs/theme.md", page))
    lines = write(result, index.read).files["docs/theme.md"].split("\n")
    assert lines[2:9] == ["* `highlightjs`: Highlights code.", "", "    Default: `True`.", "",
                          "* `sticky_navigation`: Default: `False`.", "", "Next."]


def test_an_addition_to_an_alphabetical_list_keeps_it_alphabetical():
    page = "# Options\n\n| Option | Description |\n|---|---|\n" + "".join(
        f"| `--{o}` | {o.title()}. |\n" for o in ("color", "debug", "output", "quiet", "verbose"))
    old = "import click\n" + "".join(f'@click.option("--{o}", help="{o.title()}.")\n'
                                     for o in ("verbose", "quiet", "color", "debug", "output")) + "def main(): ...\n"
    new = old.replace("def main", '@click.option("--format", help="Output format.")\ndef main')
    result, index = planned(facts_of_change("app/cli.py", old, new), instead_of_options("docs/options.md", page))
    lines = write(result, index.read).files["docs/options.md"].split("\n")
    assert [line.split("|")[1].strip() for line in lines[4:10]] == \
        ["`--color`", "`--debug`", "`--format`", "`--output`", "`--quiet`", "`--verbose`"]


def test_a_long_list_with_one_slip_in_its_order_is_still_alphabetical():
    listed = ("addopts", "cache_dir", "console_style", "doctest_glob", "junit_family", "log_level", "markers",
              "minversion", "norecursedirs", "testpaths", "usefixtures", "xfail_strict", "strict_ids")
    page = "Reference\n=========\n\n" + "".join(f".. confval:: {o}\n\n   About {o}.\n\n" for o in listed)
    old = "def pytest_addoption(parser):\n" + "".join(f'    parser.addini("{o}", "About {o}.")\n' for o in listed)
    new = old + '    parser.addini("pythonpath", "Paths to add to sys.path.")\n'
    result, index = planned(facts_of_change("src/main.py", old, new), instead_of_options("docs/reference.rst", page))
    text = write(result, index.read).files["docs/reference.rst"]
    assert text.index("confval:: norecursedirs") < text.index("confval:: pythonpath") < text.index("confval:: testpaths")


def test_an_addition_is_not_put_beside_far_siblings_only():
    options = ["--port", "--host", "--log-level", "--cert", "--cert-key"]
    old = "import click\n" + "".join(f'@click.option("{o}", help="{o[2:]} option.")\n' for o in options) + \
        "def main(): ...\n"
    new = old.replace("def main", '@click.option("--cert-key-pass", help="Passphrase of the key.")\ndef main')
    page = "# Options\n\n| Option | Description |\n|---|---|\n| `--port` | Port. |\n| `--host` | Host. |\n"
    result, index = planned(facts_of_change("app/cli.py", old, new), instead_of_options("docs/options.md", page))
    draft = write(result, index.read)
    assert draft.files == {}
    assert any("nearest siblings in the code (--cert-key, --cert, --log-level)" in p for p in draft.open_points)


def test_changed_lines_that_look_like_diff_headers_are_content(repo):
    remote, mirror = repo
    base = mirror_head(mirror)
    # Removing "-- old_setting_name" and adding "++ new_setting_name" print as "--- …" and "+++ …".
    remote.commit({"app/queries.py": "SQL = '''\n-- old_setting_name\n'''\n"}, "add")
    middle = mirror_head(mirror)
    remote.commit({"app/queries.py": "SQL = '''\n++ new_setting_name\n'''\n", "app/cli.py": None}, "change")
    mirror.fetch()
    names = name_changes(changed_code(mirror, middle, mirror.head("main"))).counts
    assert set(names) == {"old_setting_name", "new_setting_name", "--port"}  # --port: the deleted cli.py
    assert "old_setting_name" in name_changes(changed_code(mirror, base, middle)).counts


def test_a_new_class_is_named_so_that_its_autodoc_directive_resolves_from_the_pages_module(repo):
    remote, mirror = repo
    remote.commit({"app/__init__.py": "from .api import Client, Session\n"}, "package")
    base, head = pull_request(remote, mirror, {
        "app/__init__.py": "from .api import Client, Session, Pool\n",
        "app/api.py": "class Client:\n    pass\n\nclass Session:\n    pass\n\nclass Pool:\n    pass\n\n"
                      "class Handle:\n    pass\n"}, "add")
    facts = facts_between(mirror, base, head)
    page = "API\n===\n\n.. module:: app\n\n.. autoclass:: Client\n\n.. autoclass:: Session\n\nEnd.\n"
    index = PageIndex({"docs/api.rst": page, **{k: v for k, v in PAGES.items() if k != "docs/api.md"}})
    text = write(plan(facts, index.find, index.read, total_pages=len(index)), index.read).files["docs/api.rst"]
    # Pool is imported by the package the page documents; Handle only lives in app.api
    assert text == ("API\n===\n\n.. module:: app\n\n.. autoclass:: Client\n\n.. autoclass:: Session\n\n"
                    ".. autoclass:: Pool\n\n.. autoclass:: app.api.Handle\n\nEnd.\n")


def _api_page_after_adding_pool(remote, mirror, page, more=""):
    base, head = pull_request(remote, mirror, {
        "app/api.py": "class Client:\n    pass\n\nclass Session:\n    pass\n\nclass Pool:\n    pass\n" + more}, "add")
    index = PageIndex({"docs/api.rst": page, **{k: v for k, v in PAGES.items() if k != "docs/api.md"}})
    result = plan(facts_between(mirror, base, head), index.find, index.read, total_pages=len(index))
    draft = write(result, index.read)
    return draft.files.get("docs/api.rst"), draft.open_points


@pytest.mark.parametrize(("page", "added", "before"), [
    # autodoc reads the text from the docstring: Pool needs no help text, only the options that
    # say how to render it (a list of the sibling's own members is no such option)
    ("API\n===\n\n.. module:: app.api\n\n.. autoclass:: Client\n   :members:\n   :exclude-members: close\n\n"
     ".. autoclass:: Session\n   :members:\n\nEnd.\n", ".. autoclass:: Pool\n   :members:\n\n", "End."),
    # the next section's title under a bodiless Session is no description of Session to keep beside it
    ("API\n===\n\n.. module:: app.api\n\nClasses\n-------\n\n.. autoclass:: Client\n\n"
     ".. autoclass:: Session\n\nErrors\n------\n\n.. autoclass:: PoolError\n", ".. autoclass:: Pool\n\n", "Errors"),
])
def test_a_new_autodoc_directive_takes_its_siblings_rendering_options_and_stays_in_their_section(
        repo, page, added, before):
    remote, mirror = repo
    assert _api_page_after_adding_pool(remote, mirror, page)[0] == page.replace(before, added + before, 1)


def test_a_new_class_is_named_by_the_package_that_names_its_siblings_on_the_page(repo):
    remote, mirror = repo
    remote.commit({"_impl/__init__.py": "", "_impl/warns.py": "class AWarning(Warning):\n    pass\n\n"
                   "class BWarning(Warning):\n    pass\n",
                   "app/__init__.py": "from _impl.warns import AWarning, BWarning\n"}, "warnings")
    base, head = pull_request(remote, mirror, {
        "_impl/warns.py": "class AWarning(Warning):\n    pass\n\nclass BWarning(Warning):\n    pass\n\n"
                          "class CWarning(Warning):\n    pass\n",
        "app/__init__.py": "from _impl.warns import AWarning, BWarning, CWarning\n"}, "add")
    page = (".. currentmodule:: _impl.hooks\n\nWarnings\n--------\n\n.. autoclass:: app.AWarning\n"
            "   :show-inheritance:\n\n.. autoclass:: app.BWarning\n   :show-inheritance:\n")
    index = PageIndex({"docs/reference.rst": page, **{k: v for k, v in PAGES.items() if k != "docs/api.md"}})
    result = plan(facts_between(mirror, base, head), index.find, index.read, total_pages=len(index))
    # app imports it, as it does its siblings: app.CWarning, whatever module the page set above
    assert write(result, index.read).files["docs/reference.rst"] == page + (
        "\n.. autoclass:: app.CWarning\n   :show-inheritance:\n")


def test_a_new_class_joins_a_reference_of_all_its_files_classes_and_not_one_that_chose_some(repo):
    remote, mirror = repo
    remote.commit({"app/api.py": "class Client:\n    pass\n\nclass Session:\n    pass\n\n"
                                 "def connect():\n    pass\n"}, "functions are no classes")
    page = "API\n===\n\n.. module:: app.api\n\n.. autoclass:: Client\n\n.. autoclass:: Session\n"
    text, _ = _api_page_after_adding_pool(remote, mirror, page, "\ndef connect():\n    pass\n")
    assert text == page + "\n.. autoclass:: Pool\n"
    # Mixer, a public class of the file, is left out of the page: the page chose its classes
    remote.commit({"app/api.py": "class Client:\n    pass\n\nclass Session:\n    pass\n\n"
                                 "class Mixer:\n    pass\n"}, "an undocumented class")
    text, points = _api_page_after_adding_pool(remote, mirror, page, "\nclass Mixer:\n    pass\n")
    assert text is None
    assert any("Pool is new; the page documents some of its siblings in app/api.py and not others (Mixer)" in p
               for p in points)


@pytest.mark.parametrize(("facts", "expected"), [
    ([{"kind": "flag", "change": "added"}], "include"),
    ([{"kind": "symbol", "change": "added"}, {"kind": "flag", "change": "default-changed"}], "skip"),
    ([{"kind": "file", "change": "renamed"}, {"kind": "file", "change": "removed"}], "skip"),  # examples moved
])
def test_release_notes_are_suggested_for_what_users_type_or_set(facts, expected):
    from types import SimpleNamespace

    from docsvc.server.services.docflows import suggested_release_notes

    assert suggested_release_notes(SimpleNamespace(data={"facts": facts})) == expected


def test_a_new_method_plans_the_page_naming_most_of_its_siblings_for_review_and_a_new_function_is_planned():
    old = ("package cli\n\ntype Command struct{}\n\nfunc (c *Command) FullName() string { return \"\" }\n\n"
           "func (c *Command) Names() []string { return nil }\n\nfunc (c *Command) HasName(n string) bool { return false }\n\n"
           "func Run() {}\n\nfunc Exit() {}\n")
    method = old + "\nfunc (c *Command) Path() string { return \"\" }\n"
    pages = instead_of_options("docs/commands.md", "# Commands\n\nCall `FullName`, `Names` and `HasName` on a "
                                                   "command, `Run` and `Exit` on the app.\n")
    guide = {**pages, "docs/guide.md": "# Guide\n\nA command's `FullName` and `Names`.\n"}
    result, _ = planned(facts_of_change("command.go", old, method), guide)
    # a method goes into the type's reference, the page that documents most of its siblings: for review
    assert [(p.path, p.mode) for p in result.pages] == [("docs/commands.md", "related")]
    assert "it documents most of the type's methods" in result.pages[0].reasons[0]
    # a guide naming fewer of them is worth a look
    assert [(look["path"], "a new method" in look["reason"]) for look in result.worth_a_look] == [
        ("docs/guide.md", True)]
    # a function beside documented functions is planned
    result, _ = planned(facts_of_change("command.go", old, old + "\nfunc Serve() {}\n"), pages)
    assert [(p.path, p.mode) for p in result.pages] == [("docs/commands.md", "conceptual")]


def test_a_method_named_by_a_plain_word_counts_only_beside_its_class():
    old = ("class AppGroup:\n    def main(self):\n        pass\n\n    def get_command(self, name):\n        pass\n")
    new = "class AppGroup:\n    def get_command(self, name):\n        pass\n"
    pages = {**PAGES, **{f"docs/topic{n}.md": f"# Topic {n}\n\nText.\n" for n in range(20)},
             "docs/cli.md": "# CLI\n\n`AppGroup` runs the app: its `main` parses the command line.\n",
             "docs/async.md": "# Async\n\n```python\nasyncio.run(main())\n```\n\nCall `main` last.\n",
             "docs/commands.md": "# Commands\n\nLook a command up with `get_command`.\n"}
    result, _ = planned(facts_of_change("app/cli.py", old, new), pages)
    # "main" in an example is any program's main: only the page that names AppGroup speaks of this one
    assert [(p.path, p.mode) for p in result.pages] == [("docs/cli.md", "direct")]
    # a name no prose word can be is the method's own wherever it stands
    result, _ = planned(facts_of_change("app/cli.py", old, old.replace("    def get_command(self, name):\n"
                                                                        "        pass\n", "")), pages)
    assert [(p.path, p.mode) for p in result.pages] == [("docs/commands.md", "direct")]


def test_a_nested_setting_counts_only_where_the_page_speaks_of_its_section():
    old = ('package config\n\ntype Project struct {\n\tBrews []Homebrew `yaml:"brews"`\n}\n\n'
           'type Homebrew struct {\n\tFormula string `yaml:"formula"`\n\tArgs []string `yaml:"args"`\n}\n')
    new = old.replace('\tArgs []string `yaml:"args"`\n', '\tArgs []string `yaml:"args"`\n'
                                                       '\tExecutable string `yaml:"executable"`\n')
    pages = {**PAGES, **{f"docs/topic{n}.md": f"# Topic {n}\n\nText.\n" for n in range(20)},
             "docs/homebrew.md": "# Homebrew\n\n```yaml\nbrews:\n  - formula: app\n```\n\n- `args`: what to pass.\n",
             "docs/ci.md": "# In CI\n\n```yaml\nsteps:\n  - run: release\n```\n\n- `args`: the release's arguments.\n"}
    [fact] = facts_of_change("pkg/config/config.go", old, new)
    assert (fact.describe(), fact.context) == ("config executable added", ("brews",))
    result, _ = planned([fact], pages)
    # the CI page's args are its own: only the page of the brews section documents this one's siblings
    assert [(p.path, p.mode) for p in result.pages] == [("docs/homebrew.md", "conceptual")]


def test_a_new_name_is_not_planned_on_pages_about_deprecations_that_list_its_siblings():
    old = "def pytest_addoption(parser):\n" + "".join(f'    parser.addini("{o}", "About {o}.")\n'
                                                   for o in ("cache_dir", "junit_family", "xfail_strict"))
    new = old + '    parser.addini("strict_xfail", "Whether xfail is strict.")\n'
    pages = {**PAGES, **{f"docs/topic{n}.md": f"# Topic {n}\n\nText.\n" for n in range(20)},
             "docs/reference.md": "# Reference\n\n- `cache_dir`: where.\n- `junit_family`: which.\n",
             "docs/old-deprecations.md": "# Removed features\n\n## `junit_family` default\n\n`cache_dir` moved.\n",
             "docs/gone.md": "# Deprecations and removals\n\n`xfail_strict` and `junit_family` go.\n"}
    result, _ = planned(facts_of_change("src/main.py", old, new), pages)
    # the old names they list are siblings too, yet a new name is deprecated nowhere
    assert [p.path for p in result.pages] == ["docs/reference.md"]


WARNINGS_PAGE = """# Warnings

| Code | Description |
| --- | --- |
| `FSTDEP010` | Modifying the `reply.sent` property is deprecated. |
| `FSTDEP013` | Variadic listen is deprecated. |
| `FSTDEP019` | `reply.context` is deprecated. |
"""


def test_a_code_whose_registration_goes_plans_the_page_that_lists_it_for_review():
    lines = ["-const FSTDEP010 = createDeprecation({", "-  code: 'FSTDEP010',", "-  FSTDEP010,",
             "-    throw new FST_ERR_REP_SENT_VALUE()", "+    reply.hijack()"]
    names = name_changes([lines])
    # registered by its string: dropped; a code a changed line only stops raising: not
    assert names.dropped == {"FSTDEP010"}
    index = PageIndex({**PAGES, "docs/warnings.md": WARNINGS_PAGE, "docs/errors.md": ERRORS_PAGE})
    result = plan([], index.find, index.read, total_pages=len(index), names=names, family=index.family)
    assert [(p.path, p.mode) for p in result.pages] == [("docs/warnings.md", "related")]
    assert result.pages[0].reasons == ["lists FSTDEP010 among 3 names of the FSTDEP family; the pull request's code "
                                       "no longer holds it [changed lines]"]


CONFIG_PAGE = """# Configuration

.. py:data:: TEMPLATES_AUTO_RELOAD

    Reload templates when they are changed.

.. py:data:: MAX_COOKIE_SIZE

    Warn if cookie headers are larger than this many bytes.
"""


def test_a_new_key_beside_documented_keys_in_the_code_plans_their_page_for_review():
    hunk = ['             "TEMPLATES_AUTO_RELOAD": None,', '             "MAX_COOKIE_SIZE": 4093,',
            '+            "PROVIDE_AUTOMATIC_OPTIONS": True,', "         }", "     )"]
    names = name_changes([hunk])
    assert names.beside == {"PROVIDE_AUTOMATIC_OPTIONS": {"TEMPLATES_AUTO_RELOAD", "MAX_COOKIE_SIZE"}}
    index = PageIndex({**PAGES, "docs/config.rst": CONFIG_PAGE,
                       "docs/templates.md": "# Templates\n\nSet `TEMPLATES_AUTO_RELOAD` to reload them.\n"})
    result = plan([], index.find, index.read, total_pages=len(index), names=names)
    # the page documenting two of its neighbours, not the one naming a single one
    assert [(p.path, p.mode) for p in result.pages] == [("docs/config.rst", "related")]
    assert result.pages[0].reasons == ["documents MAX_COOKIE_SIZE, TEMPLATES_AUTO_RELOAD, beside which the pull "
                                       "request's code adds PROVIDE_AUTOMATIC_OPTIONS [changed lines]"]
    # a new key the docs name already is the changed names' business
    documented = PageIndex({**index.texts, "docs/options.md": "# Options\n\n`PROVIDE_AUTOMATIC_OPTIONS` is on.\n"})
    assert "docs/config.rst" not in [p.path for p in plan([], documented.find, documented.read,
                                                          total_pages=len(documented), names=names).pages]
