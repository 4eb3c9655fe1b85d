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


# Every numeric setting has its bounds, checked at start: a value out of them once started a service
# that answered every POST with 413 (MAX_BODY_MB=-1) or a worker with 100 threads (JOB_WORKERS=100).
@pytest.mark.parametrize(("name", "value", "bounds"), [
    ("DOCSVC_SERVER_MAX_BODY_MB", "-1", "a number of MB, above 0 and at most 1048576"),
    ("DOCSVC_SERVER_MAX_BODY_MB", "0", "a number of MB, above 0 and at most 1048576"),
    ("DOCSVC_SERVER_MAX_BODY_MB", "1e308", "a number of MB, above 0 and at most 1048576"),
    ("DOCSVC_SERVER_MAX_IMAGE_MEGAPIXELS", "inf", "a number of megapixels, above 0 and at most 1048576"),
    ("DOCSVC_SERVER_JOB_WORKERS", "100", "a whole number, from 0 to 64"),
    ("DOCSVC_SERVER_JOB_WORKERS", "2.5", "a whole number, from 0 to 64"),
    ("DOCSVC_SERVER_JOB_WORKERS", "-1", "a whole number, from 0 to 64"),
    ("DOCSVC_SERVER_JOB_MAX_ATTEMPTS", "0", "a whole number, 1 or more"),
    ("DOCSVC_SERVER_JOB_LEASE_SECONDS", "0", "a number of seconds, above 0"),
    ("DOCSVC_SERVER_JOB_LEASE_SECONDS", "nan", "a number of seconds, above 0"),
    ("DOCSVC_SERVER_KEEP_IN_SYNC_SECONDS", "-5", "a number of seconds, 0 or more"),
    ("DOCSVC_SERVER_REMOTE_CHECK_SECONDS", "soon", "a number of seconds, 0 or more"),
])
def test_a_numeric_setting_out_of_its_bounds_is_one_line_at_start(monkeypatch, name, value, bounds):
    monkeypatch.setenv(name, value)
    with pytest.raises(SystemExit) as raised:
        ServerSettings.from_env("sqlite:///x.db")
    assert str(raised.value.code) == f"Error: {name} must be {bounds}, got {value!r}"


@pytest.mark.parametrize(("name", "value", "attribute", "expected"), [
    ("DOCSVC_SERVER_JOB_WORKERS", "0", "job_workers", 0),
    ("DOCSVC_SERVER_JOB_WORKERS", "64", "job_workers", 64),
    ("DOCSVC_SERVER_MAX_BODY_MB", "0.5", "max_body_bytes", 512 * 1024),
    ("DOCSVC_SERVER_JOB_LEASE_SECONDS", "2", "job_lease_seconds", 2.0),
    ("DOCSVC_SERVER_KEEP_IN_SYNC_SECONDS", "0", "keep_in_sync_seconds", 0.0),
    ("DOCSVC_SERVER_JOB_MAX_ATTEMPTS", "3", "job_max_attempts", 3),
])
def test_a_numeric_setting_within_its_bounds_is_taken(monkeypatch, name, value, attribute, expected):
    monkeypatch.setenv(name, value)
    assert getattr(ServerSettings.from_env("sqlite:///x.db"), attribute) == expected


def test_the_job_workers_variable_and_flags_share_one_bound():
    from docsvc.server.admin import run, worker
    from docsvc.server.settings import MAX_JOB_WORKERS

    flags = {command.name: next(p for p in command.params if p.name == "job_workers").type
             for command in (run, worker)}
    assert (flags["run"].min, flags["run"].max) == (0, MAX_JOB_WORKERS)
    assert (flags["worker"].min, flags["worker"].max) == (1, MAX_JOB_WORKERS)

