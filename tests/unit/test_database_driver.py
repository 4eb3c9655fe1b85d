"""PostgreSQL is an extra: with a postgresql:// URL and no psycopg, docsvc-server says in one line
which extra to install (exit 1), never a traceback."""

from __future__ import annotations

import sys

import pytest
from click.testing import CliRunner

from docsvc.server.admin import main

HINT = "Error: a PostgreSQL database needs psycopg: pip install 'docsvc-cli[server,postgres]'\n"


@pytest.fixture
def no_psycopg(monkeypatch):
    monkeypatch.setitem(sys.modules, "psycopg", None)  # `import psycopg` now fails as if not installed


@pytest.mark.parametrize("args", [
    ["init", "--org", "O", "--admin-email", "a@example.test"],
    ["run", "--port", "1"],
    ["keys", "list", "--org", "O"],
])
def test_a_postgresql_url_without_psycopg_is_one_line(no_psycopg, args, tmp_path):
    url = "postgresql://docsvc:s3cret@127.0.0.1:1/docsvc"
    done = CliRunner().invoke(main, ["--db", url, *args], catch_exceptions=False)
    assert done.exit_code == 1
    assert done.output.splitlines()[-1] + "\n" == HINT
    assert "s3cret" not in done.output and "Traceback" not in done.output


def test_sqlite_needs_no_psycopg(no_psycopg, tmp_path):
    done = CliRunner().invoke(main, ["--db", f"sqlite:///{tmp_path / 'd.db'}", "init", "--org", "O",
                                     "--admin-email", "a@example.test"], catch_exceptions=False)
    assert done.exit_code == 0, done.output
