"""Docflows on files the docs name by their path, through the real CLI and service: an example
the docs include is renamed (the include follows it), deleted (pointed out, not edited) or
changed (the page is planned for review)."""

from __future__ import annotations

import json

from tests.support import GitRemote, docflow, docflow_project

PAGES = {
    "docs/index.md": "# App\n\nStart with the [tutorial](tutorial.md).\n",
    "docs/tutorial.md": "# Tutorial\n\n{* ../examples/hello_py39.py hl[2] *}\n\nRun it with `python`.\n",
    "docs/bye.rst": "Bye\n===\n\n.. literalinclude:: ../examples/bye.py\n\nThat is all.\n",
    "docs/shout.md": "# Shout\n\nSee [the example](../examples/shout.py).\n",
}


def test_a_renamed_example_is_followed_a_deleted_one_pointed_out_a_changed_one_reviewed(service, tmp_path):
    code = GitRemote(tmp_path, "code", {"examples/hello_py39.py": "import sys\nprint('hello')\n",
                                        "examples/bye.py": "print('bye')\n", "examples/shout.py": "print('HEY')\n"})
    code.branch("py310", {"examples/hello_py39.py": None, "examples/hello_py310.py": "import sys\nprint('hello')\n",
                          "examples/bye.py": None, "examples/shout.py": "print('HEY!')\n"}, "Examples for 3.10")
    cli = docflow_project(service, tmp_path, "Files", code, PAGES)
    result = docflow(cli, 3, "py310", "Examples for 3.10")
    assert {f["text"] for f in result["facts"]} == {
        "file examples/hello_py39.py renamed to examples/hello_py310.py", "file examples/bye.py removed",
        "file examples/shout.py changed"}
    assert result["files"] == ["docs/tutorial.md"]  # the only page edited
    assert any(p.startswith("docs/bye.rst:4: examples/bye.py is still mentioned") for p in result["open_points"])

    history = json.loads(cli("items", "history", "docflows", str(result["suggestion_id"]), "--json").stdout)
    plan = {p["path"]: p["mode"] for p in history[0]["pages"]}
    assert plan == {"docs/tutorial.md": "direct", "docs/bye.rst": "direct", "docs/shout.md": "related"}

    diff = cli("items", "diff", "docflows", str(result["suggestion_id"])).stdout.splitlines()
    assert "-{* ../examples/hello_py39.py hl[2] *}" in diff and "+{* ../examples/hello_py310.py hl[2] *}" in diff
