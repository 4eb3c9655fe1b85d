"""The held-out corpus builder (benchmarks/docflow_cases.py): a release pair or a commit across
which the project moved its docs folder is no case (its truth would be empty, and the moved pages
would reach the pull request as code)."""

from __future__ import annotations

from pathlib import Path

from tests.support import GitRemote, benchmark_module, git


def _cases_module():
    return benchmark_module("docflow_cases")


def test_release_pairs_across_which_the_docs_moved_are_left_out(tmp_path: Path, capsys):
    cases = _cases_module()
    remote = GitRemote(tmp_path, "app", {"app.py": "A = 1\n", "docs/index.md": "# App\n"})
    releases = [("v1.0.0", {}), ("v1.1.0", {"app.py": "A = 2\n"}),
                ("v1.2.0", {"docs/index.md": None, "site/index.md": "# App\n"}),  # the docs moved
                ("v1.3.0", {"app.py": "A = 3\n"})]
    for tag, files in releases:
        if files:
            remote.commit(files, tag)
        git("tag", tag, cwd=remote.work)
    repo = remote.work

    def keep(old: str, new: str) -> bool:
        return cases.keeps_docs(repo, "docs", old, new)

    assert cases.release_pairs(repo, r"v\d+\.\d+\.\d+", 5, keep) == [("v1.0.0", "v1.1.0")]
    assert "docs/ is missing at v1.2.0" in capsys.readouterr().err
    # the newest pairs that keep their docs, as many as asked for
    assert cases.release_pairs(repo, r"v\d+\.\d+\.\d+", 2) == [("v1.1.0", "v1.2.0"), ("v1.2.0", "v1.3.0")]
    assert cases.release_pairs(repo, r"v\d+\.\d+\.\d+", 2, lambda old, new: new != "v1.3.0") == \
        [("v1.0.0", "v1.1.0"), ("v1.1.0", "v1.2.0")]
    assert cases.keeps_docs(repo, "site", "v1.2.0", "v1.3.0")
