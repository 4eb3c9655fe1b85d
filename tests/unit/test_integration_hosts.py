"""Integrations know their code host: ``docsvc-server integrations add`` and ``update`` infer the
host, its API and the repositories' OWNER/NAME from the URLs, take them as options where the URLs do
not say, and never keep a token (only the name of the variable that holds it); migration 0007 adds
the columns to a database made before it, and takes them away again."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from alembic import command
from click.testing import CliRunner

from docsvc.server.admin import main
from docsvc.server.db.migrate import alembic_config, upgrade
from docsvc.server.db.session import make_engine

COLUMNS = ("host", "host_api_url", "host_token_env", "code_host_repo", "docs_host_repo", "github_app_id",
           "github_app_key_file")


@pytest.fixture
def admin(tmp_path):
    url = f"sqlite:///{tmp_path / 'hosts.db'}"

    def run(*args: str):
        return CliRunner().invoke(main, ["--db", url, *args], catch_exceptions=False)

    assert run("init", "--org", "O", "--admin-email", "a@o.test").exit_code == 0
    run.url = url
    return run


def row(url: str, integration_id: str) -> dict:
    engine = make_engine(url)
    with engine.connect() as connection:
        found = connection.execute(sa.text(f"SELECT {', '.join(COLUMNS)} FROM integrations WHERE id = :id"),
                                   {"id": int(integration_id)}).mappings().one()
    engine.dispose()
    return dict(found)


def add(admin, *args: str, code="https://github.com/acme/app.git", docs="git@github.com:acme/docs.git"):
    return admin("integrations", "add", "--org", "O", "--name", "n", "--code-repo", code, "--docs-repo", docs, *args)


def last_line(done) -> str:
    assert done.exit_code == 0, done.output
    return done.stdout.strip().splitlines()[-1]


@pytest.mark.parametrize("code, docs, expected", [
    ("https://github.com/acme/app.git", "git@github.com:acme/docs.git",
     ("github", "https://api.github.com", "acme/app", "acme/docs")),
    ("https://gitlab.com/grp/sub/app.git", "https://gitlab.com/grp/docs",
     ("gitlab", "https://gitlab.com/api/v4", "grp/sub/app", "grp/docs")),
    # The docs repository, where pull requests go, decides; the code repository is named on that host.
    ("https://github.com/acme/app.git", "git@gitlab.com:acme/docs.git",
     ("gitlab", "https://gitlab.com/api/v4", "acme/app", "acme/docs")),
    ("/srv/git/app.git", "/srv/git/docs.git", ("git", None, None, None)),
    ("https://git.example.test/app.git", "https://git.example.test/docs.git", ("git", None, None, None)),
])
def test_the_host_its_api_and_the_projects_are_inferred_from_the_urls(admin, code, docs, expected):
    found = row(admin.url, last_line(add(admin, code=code, docs=docs)))
    assert (found["host"], found["host_api_url"], found["code_host_repo"], found["docs_host_repo"]) == expected
    assert found["host_token_env"] is None and found["github_app_id"] is None


def test_enterprise_and_self_managed_hosts_get_their_own_api(admin):
    ghe = add(admin, "--host", "github", code="https://ghe.corp.test/a/app", docs="https://ghe.corp.test/a/docs")
    assert row(admin.url, last_line(ghe))["host_api_url"] == "https://ghe.corp.test/api/v3"
    given = add(admin, "--host", "gitlab", "--host-api-url", "http://127.0.0.1:9/api/v4/", "--docs-host-repo",
                "g/s/docs", "--code-host-repo", "g/app", "--host-token-env", "GITLAB_TOKEN",
                code="/srv/app.git", docs="/srv/docs.git")
    assert row(admin.url, last_line(given)) == {
        "host": "gitlab", "host_api_url": "http://127.0.0.1:9/api/v4", "host_token_env": "GITLAB_TOKEN",
        "code_host_repo": "g/app", "docs_host_repo": "g/s/docs", "github_app_id": None, "github_app_key_file": None}


@pytest.mark.parametrize("args, option, message", [
    (["--host", "bitbucket"], "--host", "'bitbucket' is not one of 'github', 'gitlab', 'git'"),
    (["--host", "github", "--docs-host-repo", "a/b/c"], "--docs-host-repo", "expected OWNER/NAME"),
    (["--host-api-url", "ftp://x"], "--host-api-url", "expected an http(s):// URL"),
    (["--host-api-url", "https://u:hunter2@api.github.com"], "--host-api-url", "must hold no credentials"),
    (["--host-token-env", "ghp_s3cretvalue"], "--host-token-env", "not the token itself"),
    (["--host-token-env", "1BAD NAME"], "--host-token-env", "expected an environment variable name"),
    (["--github-app-id", "7"], "--github-app-key-file", "needs both"),
    (["--host", "gitlab", "--github-app-id", "7", "--github-app-key-file", "k.pem"], "--github-app-id",
     "needs --host github"),
])
def test_bad_host_options_are_one_usage_error_naming_the_option(admin, args, option, message):
    done = add(admin, *args)
    assert done.exit_code == 2 and "Traceback" not in done.output
    errors = [line for line in done.output.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and option in errors[0] and message in errors[0], done.output
    assert "hunter2" not in done.output and "s3cretvalue" not in done.output


def test_a_local_path_on_a_code_host_needs_its_project_named(admin):
    done = add(admin, "--host", "github", code="/srv/app.git", docs="/srv/docs.git")
    assert done.exit_code == 2 and "'--docs-host-repo'" in done.output and "OWNER/NAME" in done.output
    assert last_line(add(admin, "--host", "github", "--docs-host-repo", "acme/docs", code="/srv/app.git",
                         docs="/srv/docs.git"))


def test_update_changes_only_what_it_is_given(admin):
    integration = last_line(add(admin, "--host-token-env", "GH_TOKEN", "--keep-in-sync"))
    moved = admin("integrations", "update", "--integration", integration, "--github-app-id", "42",
                  "--github-app-key-file", "/etc/docsvc/app.pem", "--host-token-env", "")
    assert last_line(moved) == integration
    assert row(admin.url, integration) == {
        "host": "github", "host_api_url": "https://api.github.com", "host_token_env": None,
        "code_host_repo": "acme/app", "docs_host_repo": "acme/docs", "github_app_id": 42,
        "github_app_key_file": "/etc/docsvc/app.pem"}
    plain = admin("integrations", "update", "--integration", integration, "--host", "git", "--github-app-id", "0",
                  "--github-app-key-file", "", "--no-keep-in-sync")
    assert last_line(plain) == integration
    assert row(admin.url, integration)["host"] == "git" and row(admin.url, integration)["host_api_url"] is None
    unknown = admin("integrations", "update", "--integration", "999", "--host", "git")
    assert unknown.exit_code == 1 and "Error: no integration 999" in unknown.output


def test_migration_0007_adds_the_columns_with_plain_git_for_existing_rows(tmp_path):
    url = f"sqlite:///{tmp_path / 'old.db'}"
    config = alembic_config(url)
    command.upgrade(config, "0006")
    engine = make_engine(url)
    with engine.begin() as connection:
        connection.execute(sa.text("INSERT INTO organizations (id, name, created_at) VALUES (1, 'O', '2026-01-01')"))
        connection.execute(sa.text(
            "INSERT INTO integrations (org_id, name, code_repo, code_branch, docs_repo, docs_branch, docs_path, "
            "keep_in_sync, created_at) VALUES (1, 'old', 'https://github.com/a/b', 'main', "
            "'https://github.com/a/d', 'main', 'docs', 0, '2026-01-01')"))
    upgrade(url)
    assert row(url, "1")["host"] == "git"  # as it behaved before: `integrations update` moves it
    command.downgrade(config, "0006")
    assert not set(COLUMNS) & {c["name"] for c in sa.inspect(engine).get_columns("integrations")}
    engine.dispose()
