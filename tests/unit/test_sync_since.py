"""The incremental sync's list of changes since the last synced commit (tasks/sync._since over
Mirror.changed_blobs), on real git repositories."""

from __future__ import annotations

import os
from pathlib import Path

from docsvc.server.engines.git import Mirror
from docsvc.server.tasks.sync import _since
from tests.support import GitRemote, git
from tests.unit.dbfixtures import db  # noqa: F401  (fixture)


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


def test_the_index_rows_of_many_changed_paths_are_read_in_batches(db):  # noqa: F811  (fixture)
    from sqlalchemy import insert

    from docsvc.server.db.tables import Organization, SearchDoc
    from docsvc.server.services import search
    from docsvc.server.services.integrations import add_integration

    with db.sessions() as session:
        org = session.get(Organization, db.org_id)
        integration = add_integration(session, org, name="many", code_repo="/srv/code.git", docs_repo="/srv/docs.git")
        session.execute(insert(SearchDoc), [
            {"org_id": db.org_id, "integration_id": integration.id, "path": f"docs/p{n}.md", "blob": f"{n:040x}",
             "kind": "markdown", "title": None} for n in range(1500)])
        session.commit()
        # More paths than SQLite before 3.32 takes parameters in one statement (999); some not indexed.
        raw = session.connection().connection.driver_connection
        if hasattr(raw, "setlimit"):  # SQLite on Python 3.11+: hold this one to that old limit
            import sqlite3

            raw.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, 999)
        paths = [f"docs/p{n}.md" for n in range(0, 3000, 2)]
        blobs = search.indexed_blobs(session, integration.id, paths)
    assert blobs == {f"docs/p{n}.md": f"{n:040x}" for n in range(0, 1500, 2)}
