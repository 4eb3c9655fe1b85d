"""The service's settings from ``DOCSVC_SERVER_*`` variables: a value it cannot use is one ``Error:``
line naming the variable, before anything starts."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from docsvc.server.settings import ServerSettings

RETENTION = "DOCSVC_SERVER_WEBHOOK_RETENTION_DAYS"


@pytest.mark.parametrize(("value", "days"), [("", 90.0), ("0", 0.0), ("30", 30.0), ("0.5", 0.5)])
def test_webhook_retention_takes_days_and_0_keeps_all(monkeypatch, value, days):
    monkeypatch.setenv(RETENTION, value)
    assert ServerSettings.from_env("sqlite:///x.db").webhook_retention_days == days


@pytest.mark.parametrize("value", ["-1", "-0.5", "nan", "inf", "ninety"])
def test_webhook_retention_refuses_a_negative_or_no_number(monkeypatch, value):
    # a negative number once meant "keep every delivery" without a word, as 0 does
    monkeypatch.setenv(RETENTION, value)
    with pytest.raises(SystemExit) as raised:
        ServerSettings.from_env("sqlite:///x.db")
    message = str(raised.value.code)
    assert "\n" not in message and message.startswith(f"Error: {RETENTION} must be a number")
    assert repr(value) in message


def test_the_admin_command_says_it_in_one_line(tmp_path):
    from docsvc.server.admin import main

    done = CliRunner().invoke(main, ["--db", f"sqlite:///{tmp_path / 'db.sqlite'}", "keys", "list", "--org", "O"],
                              env={RETENTION: "-7"})
    assert done.exit_code == 1
    assert done.output.strip() == f"Error: {RETENTION} must be a number of days, 0 or more, got '-7'"
