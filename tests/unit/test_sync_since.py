"""The incremental sync's list of changes since the last synced commit (tasks/sync._since over
Mirror.changed_blobs), on real git repositories."""

from __future__ import annotations

import os
from pathlib import Path

from docsvc.server.engines.git import Mirror
from docsvc.server.tasks.sync import _since
from tests.support import GitRemote, git


def test_changes_since_the_last_synced_commit_name_each_file_once(tmp_path: Path):
    remote = GitRemote(tmp_path, "docs", {"docs/a.md": "# A\n", "docs/b.md": "# B\n", "src/x.py": "x = 1\n"})
    mirror = Mirror.for_url(tmp_path / "mirrors", str(remote.bare))
    mirror.fetch()
    first = mirror.head("main")
    git("mv", "docs/a.md", "docs/renamed.md", cwd=remote.work)
    os.symlink("b.md", remote.work / "docs/link.md")
    git("add", "docs/link.md", cwd=remote.work)
    remote.commit({"docs/b.md": "# B, changed\n", "docs/new.md": "# New\n", "src/x.py": "x = 2\n"}, "change")
    mirror.fetch()
    changes = _since(mirror, first, mirror.head("main"), "docs")
    blob = lambda path: git("rev-parse", f"HEAD:{path}", cwd=remote.work)  # noqa: E731
    assert changes == {"docs/a.md": None, "docs/renamed.md": blob("docs/renamed.md"),
                       "docs/b.md": blob("docs/b.md"), "docs/new.md": blob("docs/new.md"),
                       "docs/link.md": None}  # a symbolic link is no file to index; src/ is outside docs
    assert _since(mirror, mirror.head("main"), mirror.head("main"), "docs") == {}


def test_without_a_last_commit_in_the_mirror_everything_is_compared(tmp_path: Path):
    remote = GitRemote(tmp_path, "docs", {"docs/a.md": "# A\n"})
    mirror = Mirror.for_url(tmp_path / "mirrors", str(remote.bare))
    mirror.fetch()
    head = mirror.head("main")
    assert _since(mirror, None, head, "docs") is None  # never synced
    assert _since(mirror, "0" * 40, head, "docs") is None  # gone (a rewritten history, pruned)
