"""``docsvc-server`` refuses bad input when it reads the command line: one ``Error:`` line and exit
2, never a traceback from SQLAlchemy or the database driver."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from docsvc.server.admin import main
from docsvc.server.problems import MAX_ID

EXPECTED = "expected sqlite:///FILE or postgresql://USER:PASSWORD@HOST/DATABASE"


def _invoke(args, **env):
    return CliRunner().invoke(main, args, env=env or None, catch_exceptions=False)


def _error_line(done) -> str:
    errors = [line for line in done.output.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1, done.output
    assert "Traceback" not in done.output
    return errors[0]


@pytest.mark.parametrize("args", [
    ["run", "--port", "18412"],
    ["init", "--org", "O", "--admin-email", "a@example.test"],
    ["keys", "list", "--org", "O"],
    ["migrate"],
])
@pytest.mark.parametrize("url, scheme", [("bogus://user:s3cret@host/db", "'bogus'"),
                                         ("mysql://user:s3cret@host/db", "'mysql'")])
def test_an_unsupported_database_url_names_its_scheme_only(args, url, scheme):
    for where in ([*args, "--db", url], ["--db", url, *args]):  # the subcommand's --db and the group's
        done = _invoke(where)
        assert done.exit_code == 2
        assert _error_line(done) == (f"Error: Invalid value for '--db': unsupported database URL scheme {scheme}: "
                                     f"{EXPECTED}")
        assert "s3cret" not in done.output


def test_the_environment_url_is_checked_too():
    done = _invoke(["keys", "list", "--org", "O"], DOCSVC_SERVER_DATABASE_URL="bogus://user:s3cret@host/db")
    assert done.exit_code == 2
    assert "unsupported database URL scheme 'bogus'" in _error_line(done)
    assert "s3cret" not in done.output


def test_text_that_is_no_url_at_all():
    done = _invoke(["--db", "s3cret", "keys", "list", "--org", "O"])
    assert done.exit_code == 2
    assert _error_line(done) == f"Error: Invalid value for '--db': not a database URL: {EXPECTED}"
    assert "s3cret" not in done.output


@pytest.mark.parametrize("args", [
    ["keys", "revoke", "{n}"],
    ["api-specs", "set", "--org", "O", "--integration", "{n}", "--path", "openapi.yaml"],
    ["credits", "set", "--org", "O", "--amount", "{n}"],
])
def test_integers_beyond_the_services_are_refused_when_parsed(args, tmp_path):
    db = ["--db", f"sqlite:///{tmp_path / 'd.db'}"]
    assert _invoke([*db, "init", "--org", "O", "--admin-email", "a@example.test"]).exit_code == 0
    for n in ("99999999999999999999999", str(2**63), str(MAX_ID + 1)):
        done = _invoke([*db, *(a.format(n=n) for a in args)])
        assert done.exit_code == 2
        assert f"{n} is not in the range" in _error_line(done)
    done = _invoke([*db, *(a.format(n=MAX_ID) for a in args)])  # the largest: refused, if at all, by the service
    assert "is not in the range" not in done.output and "Traceback" not in done.output
