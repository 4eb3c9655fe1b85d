import io

import pytest

from docsvc.cli.progress import JobProgress
from docsvc.models.jobs import Job


def job(message, done=None, total=None):
    return Job(job_id="j", status="queued", progress={"message": message, "done": done, "total": total})


def test_plain_lines_in_ci_logs_only_when_something_changed():
    out = io.StringIO()
    with JobProgress("sync", stream=out, interactive=False) as progress:
        for update in [job("queued"), job("queued"), job("fetching"), job("indexing", 0, 100)] + \
                      [job(f"indexed f{n}", n, 100) for n in range(1, 101)]:
            progress.update(update)
    lines = out.getvalue().splitlines()
    assert lines[:3] == ["sync: queued", "sync: fetching", "sync: 0/100 files (0%)"]
    assert lines[-1] == "sync: 100/100 files (100%)"
    assert len(lines) == 3 + 10  # one line per tenth of the work
    assert "\r" not in out.getvalue()


def test_a_bar_that_redraws_on_a_terminal(monkeypatch):
    monkeypatch.setenv("COLUMNS", "60")
    out = io.StringIO()
    progress = JobProgress("sync", stream=out, interactive=True)
    progress.update(job("indexed docs/a.md", 6, 24))
    progress.close()
    text = out.getvalue()
    assert text.startswith("\rsync [######..................] 6/24 indexed docs/a.md")
    assert text.endswith("\n") and text.count("\n") == 1


@pytest.mark.parametrize("ci, tty, expected", [("true", True, False), ("", True, True), ("", False, False)])
def test_interactive_only_on_a_terminal_outside_ci(monkeypatch, ci, tty, expected):
    monkeypatch.setenv("CI", ci)
    stream = io.StringIO()
    stream.isatty = lambda: tty
    assert JobProgress("sync", stream=stream).interactive is expected
