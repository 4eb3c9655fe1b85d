"""``upgrade``'s fast path: a database already at the newest migration is left without loading Alembic."""

import sys
import subprocess

import sqlalchemy as sa
from alembic import command

from docsvc.server.db import migrate
from docsvc.server.db.migrate import alembic_config, head_revision, shipped_head, upgrade


def test_the_head_read_from_the_scripts_is_alembics():
    assert shipped_head() is not None
    assert shipped_head() == head_revision()


def test_a_database_behind_or_new_is_migrated_one_at_head_is_left_alone(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'db.sqlite'}"
    assert not migrate._at_head(url)  # no version table yet
    upgrade(url)
    assert migrate._at_head(url)
    command.downgrade(alembic_config(url), "0006")
    assert not migrate._at_head(url)
    upgrade(url)
    assert migrate.current_revision(url) == head_revision()

    def no_alembic(*args, **kwargs):
        raise AssertionError("alembic ran on a database at head")

    monkeypatch.setattr(command, "upgrade", no_alembic)
    upgrade(url)


def test_a_database_with_an_unknown_revision_goes_to_alembic(tmp_path):
    url = f"sqlite:///{tmp_path / 'db.sqlite'}"
    upgrade(url)
    engine = sa.create_engine(url)
    with engine.begin() as connection:
        connection.execute(sa.text("UPDATE alembic_version SET version_num = '9999'"))
    engine.dispose()
    assert not migrate._at_head(url)
    try:
        upgrade(url)
    except Exception as exc:  # Alembic's own refusal of a revision it does not know
        assert "9999" in str(exc)
    else:
        raise AssertionError("an unknown revision was taken as the head")


def test_an_admin_command_on_a_migrated_database_does_not_import_alembic(tmp_path):
    url = f"sqlite:///{tmp_path / 'db.sqlite'}"
    upgrade(url)
    probe = ("import sys\nfrom docsvc.server.admin import main\n"
             "try:\n    main(['--db', sys.argv[1], 'init', '--org', 'O', '--admin-email', 'a@o.test'])\n"
             "except SystemExit as exc:\n    assert not exc.code, exc.code\n"
             "assert 'alembic' not in sys.modules, 'alembic was imported'\n")
    done = subprocess.run([sys.executable, "-c", probe, url], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
