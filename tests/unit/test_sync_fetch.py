"""What a sync fetches (Mirror.fetch_branches, ls_remote_head), on real git repositories: only the
branches it reads, and the code branch's head asked of the remote without a fetch."""

from __future__ import annotations

from pathlib import Path

from docsvc.egress import Egress
from docsvc.server.engines.git import Mirror, ls_remote_head
from tests.support import GitRemote, git

LOCAL = Egress.from_setting("", allow_local_repos=True)


def test_fetch_branches_brings_only_the_named_branches(tmp_path: Path):
    remote = GitRemote(tmp_path, "docs", {"docs/a.md": "# A\n"})
    remote.branch("feature", {"docs/f.md": "# F\n"}, "feature")
    mirror = Mirror.for_url(tmp_path / "mirrors", str(remote.bare), LOCAL)
    mirror.fetch_branches("main")  # the first use clones everything, as fetch() does
    assert mirror.head("feature") == git("rev-parse", "feature", cwd=remote.work)

    main = remote.commit({"docs/a.md": "# A, changed\n"}, "main moves")
    git("checkout", "-q", "feature", cwd=remote.work)
    feature = remote.commit({"docs/f.md": "# F, changed\n"}, "feature moves", branch="feature")
    git("checkout", "-q", "main", cwd=remote.work)
    mirror.fetch_branches("main")
    assert mirror.head("main") == main
    assert mirror.head("feature") != feature  # not asked for, not fetched
    assert not (mirror.path / "FETCH_HEAD").exists()
    mirror.fetch_branches("main", "feature", "main")
    assert (mirror.head("main"), mirror.head("feature")) == (main, feature)


def test_the_remote_head_is_the_branch_named_exactly(tmp_path: Path):
    remote = GitRemote(tmp_path, "code", {"app.py": "x = 1\n"})
    # ls-remote's pattern matches the end of a ref's name: this branch matches "refs/heads/main" too.
    remote.branch("a/refs/heads/main", {"app.py": "x = 2\n"}, "decoy")
    assert ls_remote_head(str(remote.bare), "main", egress=LOCAL) == git("rev-parse", "main", cwd=remote.work)
    assert ls_remote_head(str(remote.bare), "nope", egress=LOCAL) is None
    assert not (tmp_path / "mirrors").exists()  # asked, nothing fetched
