"""The README's first command: the demo tour runs end to end against the local service."""

import subprocess

from tests.support import clean_env, command, free_port


def test_the_demo_tour(tmp_path):
    done = subprocess.run([*command("docsvc-server"), "demo", "--port", str(free_port()), "--exit-after-tour",
                           "--dir", str(tmp_path / "demo")], capture_output=True, text=True, timeout=600,
                          env=clean_env(), cwd=tmp_path, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    out = done.stdout
    for expected in ("Not synced yet", "Behind git: 1 commits", "Up to date", "docs/limits.md:3: ## Rate limits",
                     "+| `--docs-dir` | `docs` | folder of the docs |", "+| `--dry-run` | — | show what would happen |",
                     "Approved suggestion 12 into release 2.6: branch docsvc/suggestion-12",
                     "Docs for PR #482: Deploy: rename --docs-root, add --dry-run",
                     "Capture 2's files removed from disk: yes", " open · 1 blocked · ",
                     # issue 7: a draft approved into the release notes, a capture with zoom settings,
                     # a diagram, a chat with its citation, the dashboard
                     "Editor: passed", "- Bulk export downloads every report of a workspace as one ZIP file. "
                     "_[Feature Author]_", "s1  default  on    Open the menu", "unknown step s9",
                     "sequenceDiagram", "flowchart TD", "[1] docs/limits.md:5-5",
                     "first planned 2026-12-15", "2026-12-15 -> 2027-01-12  by Ada Admin  QA needs two more weeks"):
        assert expected in out, expected
    assert "Traceback" not in out + done.stderr
