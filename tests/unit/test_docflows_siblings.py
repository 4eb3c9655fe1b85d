"""The planner's sibling evidence for an added name (``evidence.siblings``): the pages documenting
the new option's siblings are where it goes, however few pages the docs hold; a new key of a
defaults dict, wrapped in a mapping type as flask's is, gets its entry beside its neighbours'."""

from __future__ import annotations

from docsvc.server.engines.docflows.evidence.pages import PageIndex
from docsvc.server.engines.docflows.facts import facts_of_change
from docsvc.server.engines.docflows.facts_model import Fact
from docsvc.server.engines.docflows.planner import plan
from docsvc.server.engines.docflows.writer import write

HELP = ("# {title}\n\n```\n$ app --help\nOptions:\n  --port INTEGER      Bind to this port.\n"
        "  --ws-max-size INTEGER  WebSocket max size.\n  --lifespan TEXT     Lifespan mode.\n```\n")
SETTINGS = ("# Settings\n\n* `--port <int>` - Bind to this port.\n* `--ws-max-size <int>` - WebSocket max size.\n"
            "* `--lifespan <str>` - Lifespan mode.\n")
# Four pages: each option stands on three of them (the reference and two help screens).
TINY = {"docs/index.md": HELP.format(title="App"), "docs/deployment.md": HELP.format(title="Deployment"),
        "docs/settings.md": SETTINGS, "docs/behaviour.md": "# Behaviour\n\nThe server keeps connections alive.\n"}
ADDED = Fact(kind="flag", change="added", name="--ws-ping-interval", path="app/main.py", rule="python: click option",
             note="WebSocket ping interval.", siblings=("--ws-max-size", "--lifespan", "--port"), shows="FLOAT")


def _plan(pages: dict[str, str]):
    index = PageIndex(pages)
    return index, plan([ADDED], index.find, index.read, total_pages=len(index))


def test_a_new_option_goes_where_its_siblings_are_listed_in_docs_of_four_pages():
    index, result = _plan(TINY)
    assert {(p.path, p.mode) for p in result.pages} == {
        ("docs/settings.md", "conceptual"), ("docs/index.md", "conceptual"), ("docs/deployment.md", "conceptual")}
    draft = write(result, index.read)
    # an item beside its siblings, with the value it takes shown as theirs is
    assert "\n* `--ws-ping-interval <float>` - WebSocket ping interval.\n" in draft.files["docs/settings.md"]


def test_a_sibling_on_more_pages_than_that_is_everybody_s_and_plans_none():
    pages = {**TINY, **{f"docs/guide{n}.md": HELP.format(title=f"Guide {n}") for n in range(2)}}
    _, result = _plan(pages)
    assert result.pages == []



KEYS = ["DEBUG", "TESTING", "SECRET_KEY", "SESSION_COOKIE_NAME", "SESSION_COOKIE_SECURE", "MAX_COOKIE_SIZE",
        "SERVER_NAME"]
CONFIG = "# Configuration\n\n" + "".join(f".. py:data:: {key}\n\n    What {key.lower()} does.\n\n" for key in KEYS)
# flask's defaults: a dict literal handed to a mapping type
APP = "class App:\n    default_config = ImmutableDict(\n        {\n" + "".join(f'            "{key}": None,\n'
                                                                          for key in KEYS) + "        }\n    )\n"


def test_a_new_key_of_a_wrapped_defaults_dict_gets_its_entry_beside_its_neighbours():
    added = '"SERVER_NAME": None,\n            "PROVIDE_AUTOMATIC_OPTIONS": True,\n'
    new = APP.replace('"SERVER_NAME": None,\n', added)
    [fact] = [f for f in facts_of_change("src/app/app.py", APP, new) if f.kind == "config"]
    assert (fact.describe(), fact.new, fact.siblings[0]) == ("config PROVIDE_AUTOMATIC_OPTIONS added", "True",
                                                            "SERVER_NAME")
    pages = {"docs/config.rst": CONFIG, **{f"docs/topic{n}.md": f"# Topic {n}\n\nThe app serves pages.\n"
                                           for n in range(10)}}
    index = PageIndex(pages)
    result = plan([fact], index.find, index.read, total_pages=len(index))
    assert [(p.path, p.mode) for p in result.pages] == [("docs/config.rst", "conceptual")]
    # the entry goes after its neighbour's, described by the title that names it
    draft = write(result, index.read, title="Provide automatic options responses")
    assert draft.files["docs/config.rst"].endswith(
        ".. py:data:: SERVER_NAME\n\n    What server_name does.\n\n.. py:data:: PROVIDE_AUTOMATIC_OPTIONS\n\n"
        "    Provide automatic options responses.\n\n")


def test_one_sibling_rendered_by_its_import_path_plans_its_page_for_a_new_function():
    """A page rendering a sibling of the same file by its import path renders that module's names one
    by one: the one sibling is enough to plan it (a symbol needs two documented siblings otherwise)."""
    from docsvc.server.engines.docflows.evidence.pages import PageIndex
    from docsvc.server.engines.docflows.facts_model import Fact
    from docsvc.server.engines.docflows.planner import plan

    docs = {"docs/plugins.md": "# Plugins\n\nPriorities.\n\n#### ::: app.plugins.event_priority\n",
            "docs/index.md": "# App\n\nWelcome.\n", "docs/usage.md": "# Usage\n\nRun it.\n"}
    index = PageIndex(docs)

    def planned(path: str) -> list[str]:
        fact = Fact(kind="symbol", change="added", name="get_plugin_logger", path=path,
                    rule="python: public function", siblings=("event_priority", "get_plugins"))
        return [p.path for p in plan([fact], index.find, index.read, total_pages=len(index)).pages]

    assert planned("app/plugins.py") == ["docs/plugins.md"]
    assert planned("app/hooks.py") == []  # a sibling of another file, rendered from another module
