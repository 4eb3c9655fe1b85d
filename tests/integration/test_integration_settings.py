"""``docsvc-server integrations add`` and ``update`` refuse settings that would only fail at the sync
(remotes by the egress rule the sync follows, docs folders by the repository-path rule, branch
names by git's), naming the option; and a sync's git failure never shows the server's own paths."""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
import sqlalchemy as sa

from tests.support import GitRemote, LocalService, command, run_cli

DOCS = {"docs/index.md": "# Index\n\nThe wombat page.\n", "README.md": "# Outside the docs: quokka\n"}


@dataclass
class Setup:
    svc: LocalService
    key: str
    code: GitRemote
    docs: GitRemote

    def add(self, name: str, *args: str) -> subprocess.CompletedProcess:
        """``integrations add`` of the two good remotes, ``args`` overriding what they give."""
        base = ["--code-repo", str(self.code.bare), "--docs-repo", str(self.docs.bare)]
        return self.admin("integrations", "add", "--org", "Acme", "--name", name, *base, *args)

    def admin(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run([*command("docsvc-server"), *args], cwd=self.svc.workdir, env=self.svc.env(),
                              capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=120)

    def cli(self, *args: str) -> subprocess.CompletedProcess:
        return run_cli(*args, key=self.key, base_url=self.svc.base_url)

    def names(self) -> list[str]:
        listed = self.cli("repos", "list", "--json")
        assert listed.returncode == 0, listed.stderr
        return [r["name"] for r in json.loads(listed.stdout)]


@pytest.fixture(scope="module")
def setup(service: LocalService, tmp_path_factory) -> Setup:
    key = service.admin("init", "--org", "Acme", "--admin-email", "ada@acme.test")
    root = tmp_path_factory.mktemp("remotes")
    return Setup(service, key, GitRemote(root, "code", {"app.py": "x = 1\n"}), GitRemote(root, "docs", DOCS))


@pytest.mark.parametrize("args, option, reason", [
    (["--docs-path", "../../.."], "--docs-path", "leaves the repository"),
    (["--docs-path", "/etc"], "--docs-path", "is absolute"),
    (["--docs-path", "docs/.git"], "--docs-path", ".git/"),
    (["--code-repo", "not a url"], "--code-repo", "absolute local path"),
    (["--code-repo", "ftp://x/y"], "--code-repo", "only https://, ssh:// and user@host:path"),
    (["--docs-repo", "http://git.example.test/docs.git"], "--docs-repo", "only https://, ssh://"),
    (["--code-repo=--upload-pack=touch /tmp/x"], "--code-repo", "starts with '-'"),
    (["--docs-repo", "https:///docs.git"], "--docs-repo", "no host given"),
    (["--code-branch", ""], "--code-branch", "must not be empty"),
    (["--code-branch", "a..b"], "--code-branch", "not a git branch name"),
    (["--docs-branch", "my branch"], "--docs-branch", "not a git branch name"),
    (["--docs-branch", "main.lock"], "--docs-branch", "not a git branch name"),
])
def test_a_setting_that_would_fail_the_sync_is_refused_naming_its_option(setup: Setup, args, option, reason):
    name = f"bad-{abs(hash(tuple(args)))}"
    done = setup.add(name, *args)
    assert done.returncode == 2, done.stdout + done.stderr
    assert f"'{option}'" in done.stderr and reason in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
    assert name not in setup.names()  # nothing saved


def test_good_docs_folders_and_branches_sync(setup: Setup):
    nested = int(setup.add("nested", "--docs-path", "./docs/", "--code-branch", "main").stdout.split()[-1])
    synced = json.loads(setup.cli("sync", "--integration-id", str(nested), "--json").stdout)
    assert synced["files_total"] == 1  # docs/index.md, not the README outside the folder
    whole = int(setup.add("whole", "--docs-path", ".").stdout.split()[-1])
    assert json.loads(setup.cli("sync", "--integration-id", str(whole), "--json").stdout)["files_total"] == 2


def test_a_docs_path_saved_before_the_check_fails_the_sync_plainly(setup: Setup):
    made = int(setup.add("older", "--docs-path", "docs").stdout.split()[-1])
    engine = sa.create_engine(_url(setup.svc.db_url))
    try:
        with engine.begin() as connection:  # as an older version saved it
            connection.execute(sa.text("UPDATE integrations SET docs_path = '../../..' WHERE id = :id"), {"id": made})
    finally:
        engine.dispose()
    failed = setup.cli("sync", "--integration-id", str(made))
    assert failed.returncode == 1
    assert "Invalid integration" in failed.stderr and "leaves the repository" in failed.stderr
    assert str(setup.svc.data_dir) not in failed.stderr and "Internal error" not in failed.stderr


def test_a_git_failure_in_the_services_mirror_shows_no_server_path(setup: Setup):
    made = int(setup.add("locked").stdout.split()[-1])
    assert setup.cli("sync", "--integration-id", str(made)).returncode == 0
    setup.docs.commit({"docs/more.md": "# More\n"}, "more")
    mirrors = [m for m in (setup.svc.data_dir / "mirrors").glob("*/*.git")
               if str(setup.docs.bare) in (m / "config").read_text()]
    assert mirrors
    locks = [m / "refs" / "heads" / "main.lock" for m in mirrors]
    for lock in locks:  # another fetch's lock left behind: git names the file it could not create
        lock.parent.mkdir(parents=True, exist_ok=True)
        lock.write_text("")
    try:
        failed = setup.cli("sync", "--integration-id", str(made))
    finally:
        for lock in locks:
            lock.unlink()
    assert failed.returncode == 1
    assert "Unable to create '<checkout>/" in failed.stderr and "main.lock" in failed.stderr, failed.stderr
    assert str(setup.svc.data_dir) not in failed.stderr
    assert "data/mirrors" not in failed.stderr
    assert setup.cli("sync", "--integration-id", str(made)).returncode == 0


def test_a_host_that_is_not_the_remotes_is_refused(setup: Setup):
    github = ["--code-repo", "https://github.com/acme/app.git", "--docs-repo", "https://github.com/acme/docs.git"]
    done = setup.add("hub-as-lab", *github, "--host", "gitlab")
    assert done.returncode == 2 and "'--host'" in done.stderr and "github.com" in done.stderr, done.stderr
    hub = setup.add("hub", *github)
    assert hub.returncode == 0, hub.stderr
    hub_id = hub.stdout.split()[-1]
    done = setup.admin("integrations", "update", "--integration", hub_id, "--host", "gitlab")
    assert done.returncode == 2 and "'--host'" in done.stderr and "--host github" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
    plain = setup.admin("integrations", "update", "--integration", hub_id, "--host", "git")
    assert plain.returncode == 0 and "plain git" in plain.stderr, plain.stderr
    back = setup.admin("integrations", "update", "--integration", hub_id, "--host", "github")
    assert back.returncode == 0 and "via https://api.github.com" in back.stderr, back.stderr


def _url(db_url: str) -> str:
    from docsvc.server.db.session import normalize_url

    return normalize_url(db_url)


def test_the_service_folder_is_no_part_of_a_mirror_error(tmp_path: Path):
    """The engine's own rule, below the sync: git's reason about a mirror names no server path."""
    from docsvc.server.engines.git import GitError, Mirror

    remote = GitRemote(tmp_path, "r", DOCS)
    mirror = Mirror.for_url(tmp_path / "data" / "mirrors", str(remote.bare))
    mirror.fetch()
    with pytest.raises(GitError) as caught:
        mirror.tree(mirror.head("main"), "../../..")
    assert "outside repository at '<checkout>" in str(caught.value) and str(tmp_path / "data") not in str(caught.value)
