"""Repositories through the real CLI and the real local service, with real git repositories:
sync (full and incremental), search, sync state, request-sync over real SMTP, keep in sync."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller

from tests.support import GitRemote, LocalService, free_port, git, run_cli

SMTP_PORT = free_port()
SERVICE_ENV = {
    "DOCSVC_SERVER_SMTP_URL": f"smtp://127.0.0.1:{SMTP_PORT}?from=docsvc@test.local",
    "DOCSVC_SERVER_REMOTE_CHECK_SECONDS": "0",  # GET /repos looks at the remotes every time
    "DOCSVC_SERVER_KEEP_IN_SYNC_SECONDS": "1",
}


class Inbox:
    def __init__(self) -> None:
        self.messages: list = []

    async def handle_DATA(self, server, session, envelope):
        self.messages.append(envelope)
        return "250 OK"


@pytest.fixture(scope="module")
def inbox():
    handler = Inbox()
    controller = Controller(handler, hostname="127.0.0.1", port=SMTP_PORT)
    controller.start()
    yield handler
    controller.stop()


@dataclass
class Repos:
    svc: LocalService
    root: Path
    admin_key: str
    writer_key: str

    def cli(self, *args: str, key: str | None = None):
        return run_cli(*args, key=key or self.writer_key, base_url=self.svc.base_url)

    def connect(self, name: str, code: GitRemote | Path, docs: GitRemote | Path, *extra: str) -> int:
        location = lambda r: str(r.bare if isinstance(r, GitRemote) else r)  # noqa: E731
        return int(self.svc.admin("integrations", "add", "--org", "Acme", "--name", name, "--code-repo",
                                  location(code), "--docs-repo", location(docs), "--docs-path", "docs", *extra))

    def repo(self, repo_id: int) -> dict:
        listed = self.cli("repos", "list", "--json")
        assert listed.returncode == 0, listed.stderr
        return next(r for r in json.loads(listed.stdout) if r["id"] == repo_id)

    def sync(self, repo_id: int, *extra: str) -> dict:
        done = self.cli("sync", "--integration-id", str(repo_id), "--json", *extra)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    def search(self, query: str, repo_id: int) -> list[dict]:
        done = self.cli("search", query, "--integration-id", str(repo_id), "--json")
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)


@pytest.fixture(scope="module")
def repos(service: LocalService, inbox, tmp_path_factory) -> Repos:
    a = service.admin
    admin_key = a("init", "--org", "Acme", "--admin-email", "ada@acme.test", "--admin-name", "Ada")
    a("users", "add", "--org", "Acme", "--email", "sam@acme.test", "--role", "admin", "--name", "Sam")
    a("users", "add", "--org", "Acme", "--email", "wes@acme.test", "--role", "writer", "--name", "Wes")
    writer_key = a("keys", "create", "--email", "wes@acme.test")
    return Repos(service, tmp_path_factory.mktemp("remotes"), admin_key, writer_key)


def make_pair(root: Path, name: str, docs: dict[str, str]) -> tuple[GitRemote, GitRemote]:
    code = GitRemote(root, f"{name}-code", {"app.py": "def main():\n    return 0\n"})
    return code, GitRemote(root, f"{name}-docs", docs)


DOCS = {
    "docs/install.md": "# Install\n\nRun the installer with --force to overwrite.\n\n## Rate limits\n\n"
                       "The API allows 100 requests per minute.\n",
    "docs/auth.rst": "Authentication\n==============\n\nTokens expire after an hour.\n",
    "docs/guide.adoc": "= Guide\n\nThe zeppelin feature lifts heavy pages.\n",
    "docs/api/openapi.yaml": "openapi: 3.0.0\ninfo:\n  title: Pets\n  version: '1'\npaths: {}\n",
    "docs/chart/values.yaml": "# -- number of replicas\nreplicaCount: 1\n",
    "docs/logo.png": "not really a png",
    "README.md": "# Outside the docs folder: quokka\n",
}


def test_sync_indexes_the_docs_and_search_finds_them(repos: Repos):
    code, docs = make_pair(repos.root, "first", DOCS)
    repo_id = repos.connect("first", code, docs)
    assert repos.repo(repo_id)["state"] == "Not synced yet"
    listed = repos.cli("repos", "list")
    assert any(line.startswith(f"{repo_id}  first") and "Not synced yet" in line and "never synced" in line
               for line in listed.stdout.splitlines())

    done = repos.cli("sync", "--integration-id", str(repo_id))
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines()[-1] == "sync: completed"  # plain progress lines off a terminal
    assert done.stdout.startswith(f"Synced integration {repo_id} at ")
    assert "(full): 5 file(s) indexed, 0 removed, 5 in the index" in done.stdout

    hits = repos.search("rate limits", repo_id)
    assert [(h["path"], h["line"]) for h in hits] == [("docs/install.md", 5)]
    assert hits[0]["snippet"] == "## Rate limits"
    assert [h["path"] for h in repos.search("tokens", repo_id)] == ["docs/auth.rst"]
    assert [h["path"] for h in repos.search("zeppelin", repo_id)] == ["docs/guide.adoc"]
    assert [h["path"] for h in repos.search("replicaCount", repo_id)] == ["docs/chart/values.yaml"]
    assert [h["path"] for h in repos.search("Pets", repo_id)] == ["docs/api/openapi.yaml"]
    assert repos.search("quokka", repo_id) == []  # outside the docs folder
    text = repos.cli("search", "installer", "--integration-id", str(repo_id))
    assert text.stdout == "docs/install.md:3: Run the installer with --force to overwrite.\n"
    assert repos.repo(repo_id)["state"] == "Up to date"


def test_incremental_sync_reads_only_changes_and_drops_deleted_files(repos: Repos):
    code, docs = make_pair(repos.root, "incremental", DOCS)
    repo_id = repos.connect("incremental", code, docs)
    first = repos.sync(repo_id)
    assert (first["incremental"], first["files_indexed"]) == (False, 5)

    head = docs.commit({"docs/install.md": "# Install\n\nUse the wombat installer now.\n",
                        "docs/guide.adoc": None}, "edit one, delete one")
    second = repos.sync(repo_id)
    assert (second["incremental"], second["files_indexed"], second["files_removed"], second["files_total"]) == \
        (True, 1, 1, 4)
    assert second["commit"] == head
    assert repos.search("zeppelin", repo_id) == []  # the deleted file left the index
    assert repos.search("rate limits", repo_id) == []  # the changed file's old text is gone
    assert [(h["path"], h["line"]) for h in repos.search("wombat", repo_id)] == [("docs/install.md", 3)]
    assert [h["path"] for h in repos.search("tokens", repo_id)] == ["docs/auth.rst"]  # untouched

    third = repos.sync(repo_id)
    assert (third["files_indexed"], third["files_removed"], third["files_total"]) == (0, 0, 4)


def test_a_rename_and_a_rewritten_history_leave_the_index_as_a_full_sync_would(repos: Repos):
    code, docs = make_pair(repos.root, "rewritten", DOCS)
    repo_id = repos.connect("rewritten", code, docs)
    root_commit = repos.sync(repo_id)["commit"]
    git("mv", "docs/auth.rst", "docs/security.rst", cwd=docs.work)
    docs.commit({"docs/security.rst": "Security\n========\n\nTokens expire after a day.\n"}, "rename")
    renamed = repos.sync(repo_id)
    assert (renamed["incremental"], renamed["files_indexed"], renamed["files_removed"], renamed["files_total"]) == \
        (True, 1, 1, 5)
    assert [h["path"] for h in repos.search("tokens", repo_id)] == ["docs/security.rst"]

    # A force-push: main rewritten from the first commit; the last synced commit is on no branch now.
    git("reset", "-q", "--hard", root_commit, cwd=docs.work)
    (docs.work / "docs/install.md").write_text("# Install\n\nThe kangaroo installer.\n")
    git("commit", "-q", "-am", "rewritten", cwd=docs.work)
    git("push", "-q", "-f", "origin", "main", cwd=docs.work)
    rewritten = repos.sync(repo_id)
    assert (rewritten["incremental"], rewritten["files_total"]) == (True, 5)
    assert [h["path"] for h in repos.search("tokens", repo_id)] == ["docs/auth.rst"]  # back, as on the branch
    assert [h["path"] for h in repos.search("kangaroo", repo_id)] == ["docs/install.md"]
    assert repos.search("wombat", repo_id) == [] and repos.search("rate limits", repo_id) == []


def test_a_code_push_moves_the_recorded_code_head_and_reads_no_docs(repos: Repos):
    code, docs = make_pair(repos.root, "code-push", DOCS)
    repo_id = repos.connect("code-push", code, docs)
    repos.sync(repo_id)
    moved = code.commit({"app.py": "def main():\n    return 2\n"}, "code only")
    synced = repos.sync(repo_id)
    assert (synced["code_commit"], synced["files_indexed"], synced["files_removed"], synced["files_total"]) == \
        (moved, 0, 0, 5)
    assert repos.repo(repo_id)["state"] == "Up to date"  # counted against the code repository itself

    missing = repos.connect("no-code-branch", code, docs, "--code-branch", "nope")
    failed = repos.cli("sync", "--integration-id", str(missing))
    assert failed.returncode == 1
    assert f"Repository unreachable: code repository {code.bare}: branch 'nope' not found" in failed.stderr


def test_one_repository_with_the_docs_on_their_own_branch(repos: Repos):
    both = GitRemote(repos.root, "branches", {"app.py": "def main():\n    return 0\n"})
    both.branch("site", {"docs/site.md": "# Site\n\nThe ocelot guide.\n"}, "docs branch")
    repo_id = repos.connect("branches", both, both, "--docs-branch", "site")
    first = repos.sync(repo_id)
    assert (first["code_commit"], first["commit"]) == (git("rev-parse", "main", cwd=both.work),
                                                       git("rev-parse", "site", cwd=both.work))
    assert [h["path"] for h in repos.search("ocelot", repo_id)] == ["docs/site.md"]

    code_head = both.commit({"app.py": "def main():\n    return 1\n"}, "code")
    git("checkout", "-q", "site", cwd=both.work)
    docs_head = both.commit({"docs/site.md": "# Site\n\nThe lynx guide.\n"}, "docs", branch="site")
    git("checkout", "-q", "main", cwd=both.work)
    second = repos.sync(repo_id)
    assert (second["code_commit"], second["commit"], second["files_indexed"]) == (code_head, docs_head, 1)
    assert repos.search("ocelot", repo_id) == []
    assert [h["path"] for h in repos.search("lynx", repo_id)] == ["docs/site.md"]


def test_behind_counts_new_remote_commits(repos: Repos):
    code, docs = make_pair(repos.root, "behind", DOCS)
    repo_id = repos.connect("behind", code, docs)
    repos.sync(repo_id)
    docs.commit({"docs/new.md": "# New\n"}, "one")
    docs.commit({"docs/newer.md": "# Newer\n"}, "two")
    code.commit({"cli.py": "FLAG = 1\n"}, "three")
    state = repos.repo(repo_id)
    assert state["state"] == "Behind git: 3 commits"  # local paths: the code host is plain git
    assert (state["behind_code"], state["behind_docs"]) == (1, 2)
    repos.sync(repo_id)
    assert repos.repo(repo_id)["state"] == "Up to date"


def test_one_repository_for_code_and_docs_counts_its_commits_once(repos: Repos):
    both = GitRemote(repos.root, "monorepo", {**DOCS, "app.py": "def main():\n    return 0\n"})
    repo_id = repos.connect("monorepo", both, both)
    repos.sync(repo_id)
    assert repos.repo(repo_id)["state"] == "Up to date"
    both.commit({"docs/new.md": "# New\n"}, "docs change")
    both.commit({"app.py": "def main():\n    return 1\n"}, "code change")
    state = repos.repo(repo_id)
    assert state["state"] == "Behind git: 2 commits"  # not 4: one history seen from both sides
    assert state["behind"] == 2
    repos.sync(repo_id)
    assert repos.repo(repo_id)["state"] == "Up to date"


def test_code_host_names_the_state():
    from docsvc.server.services.integrations import code_host

    assert [code_host(u) for u in ("https://github.com/a/b.git", "git@gitlab.com:a/b.git",
                                   "https://bitbucket.org/a/b", "https://git.example.org/a.git",
                                   "/srv/repos/docs.git", "file:///srv/docs.git")] == \
        ["GitHub", "GitLab", "Bitbucket", "git.example.org", "git", "git"]


def test_unreachable_repository_fails_with_gits_reason_and_keeps_the_index(repos: Repos):
    code, docs = make_pair(repos.root, "unreachable", DOCS)
    repo_id = repos.connect("unreachable", code, docs)
    repos.sync(repo_id)
    moved = docs.bare.with_name("moved-away.git")
    docs.bare.rename(moved)
    try:
        failed = repos.cli("sync", "--integration-id", str(repo_id))
        assert failed.returncode == 1
        assert failed.stderr.strip().splitlines()[-1].startswith(
            f"Error: sync failed: Repository unreachable: docs repository {docs.bare}:")
        assert "does not appear to be a git repository" in failed.stderr
        assert [h["path"] for h in repos.search("tokens", repo_id)] == ["docs/auth.rst"]
    finally:
        moved.rename(docs.bare)

    never = repos.connect("never", repos.root / "no-such-repo.git", docs)
    failed = repos.cli("sync", "--integration-id", str(never))
    assert failed.returncode == 1 and "Repository unreachable: code repository" in failed.stderr
    assert repos.repo(never)["state"] == "Not synced yet"


def test_a_token_in_a_repository_url_is_never_shown(repos: Repos, inbox: Inbox):
    """The URL works with its token (git uses it as given); lists, a failed sync's error, its
    progress and the sync-request email show ``***`` in its place."""
    token = "ghp_SECRETTOKEN123"
    code = f"https://x-access-token:{token}@127.0.0.1:1/acme/app.git"  # nothing listens: the sync fails
    docs = f"https://oauth2:{token}@127.0.0.1:1/acme/docs.git"
    repo_id = int(repos.svc.admin("integrations", "add", "--org", "Acme", "--name", "tokens", "--code-repo", code,
                                  "--docs-repo", docs))
    listed = repos.repo(repo_id)
    assert listed["code_repo"] == "https://***@127.0.0.1:1/acme/app.git"
    assert listed["docs_repo"] == "https://***@127.0.0.1:1/acme/docs.git"
    for command in (("admin", "integrations", "list"), ("admin", "integrations", "list", "--json")):
        shown = repos.cli(*command, key=repos.admin_key)
        assert shown.returncode == 0 and "***@127.0.0.1:1/acme/app.git" in shown.stdout
        assert token not in shown.stdout + shown.stderr
    failed = repos.cli("sync", "--integration-id", str(repo_id), "--json")
    assert failed.returncode == 1 and "Repository unreachable: code repository https://***@127.0.0.1:1" in failed.stderr
    assert token not in failed.stdout + failed.stderr
    before = len(inbox.messages)
    assert repos.cli("repos", "request-sync", str(repo_id)).returncode == 0
    body = inbox.messages[before].content.decode()
    assert "Code: https://***@127.0.0.1:1/acme/app.git" in body and token not in body


def test_timeout_0_starts_the_sync_and_does_not_wait(repos: Repos):
    code, docs = make_pair(repos.root, "nowait", DOCS)
    repo_id = repos.connect("nowait", code, docs)
    started = repos.cli("sync", "--integration-id", str(repo_id), "--timeout", "0", "--json")
    assert started.returncode == 0, started.stderr
    job = json.loads(started.stdout)
    assert job["status"] == "queued" and f"sync: job {job['job_id']} started; not waiting" in started.stderr
    repos.sync(repo_id)  # a second sync waits for the first: the job did run
    assert repos.repo(repo_id)["state"] == "Up to date"


def test_unknown_integration_is_404(repos: Repos):
    result = repos.cli("sync", "--integration-id", "9999")
    assert result.returncode == 1 and result.stderr.strip() == "Error: Integration 9999 not found"
    assert repos.cli("sync", "--integration-id", "abc").returncode == 2
    assert repos.cli("sync").returncode == 2


def test_request_sync_sends_one_email_per_day_to_the_admins(repos: Repos, inbox: Inbox):
    code, docs = make_pair(repos.root, "mail", DOCS)
    repo_id = repos.connect("mail", code, docs)
    before = len(inbox.messages)
    first = repos.cli("repos", "request-sync", str(repo_id))
    assert first.returncode == 0, first.stderr
    assert first.stdout.strip() == "Emailed 2 System Administrator(s)"
    second = repos.cli("repos", "request-sync", str(repo_id), key=repos.admin_key)
    assert second.returncode == 1
    assert "already requested today" in second.stderr and "the next request is possible at " in second.stderr
    assert second.stderr.count("\n") == 1
    mails = inbox.messages[before:]
    assert len(mails) == 1
    assert sorted(mails[0].rcpt_tos) == ["ada@acme.test", "sam@acme.test"]
    body = mails[0].content.decode()
    assert "Subject: [docsvc] Sync requested: mail" in body and "Wes <wes@acme.test>" in body
    assert f"docsvc sync --integration-id {repo_id}" in body
    assert repos.cli("repos", "request-sync", "9999").returncode == 1


def test_two_syncs_of_one_integration_never_overlap(repos: Repos):
    from sqlalchemy import select

    from docsvc.client import Client
    from docsvc.server.db.session import make_engine, make_sessionmaker
    from docsvc.server.db.tables import Job

    code, docs = make_pair(repos.root, "overlap", {f"docs/p{n}.md": f"# Page {n}\n" for n in range(200)})
    repo_id = repos.connect("overlap", code, docs)
    with Client(repos.writer_key, repos.svc.base_url) as api:
        refs = [api.repos.sync(repo_id) for _ in range(3)]
        jobs = [api.jobs.wait(ref.job_id, timeout=120) for ref in refs]
    assert [j.status for j in jobs] == ["completed"] * 3
    engine = make_engine(repos.svc.db_url)
    with make_sessionmaker(engine)() as session:
        rows = session.scalars(select(Job).where(Job.id.in_([r.job_id for r in refs])).order_by(Job.started_at)).all()
        spans = [(row.started_at, row.finished_at) for row in rows]
    engine.dispose()
    for (_, end), (start, _) in zip(spans, spans[1:]):
        assert end <= start


def test_keep_in_sync_follows_the_remote(repos: Repos):
    code, docs = make_pair(repos.root, "follow", DOCS)
    repo_id = repos.connect("follow", code, docs, "--keep-in-sync")
    assert repos.repo(repo_id)["keep_in_sync"] is True
    deadline = time.monotonic() + 60
    while repos.repo(repo_id)["state"] != "Up to date":  # the first sync happens by itself
        assert time.monotonic() < deadline, "no automatic first sync"
        time.sleep(0.5)
    head = docs.commit({"docs/fresh.md": "# Fresh\n\nA narwhal appears.\n"}, "new page")
    while repos.repo(repo_id)["synced_commit"] != head:
        assert time.monotonic() < deadline, "the moved remote was not synced"
        time.sleep(0.5)
    assert [h["path"] for h in repos.search("narwhal", repo_id)] == ["docs/fresh.md"]
    assert "keep in sync: on" in repos.cli("repos", "list").stdout
