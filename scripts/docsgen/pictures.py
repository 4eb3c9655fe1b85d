"""Pictures of a Docflows suggestion as users meet it: the pull-request comment and the GitHub job
summary, made from the Markdown the CI layer really writes and shot in Chromium.

The Markdown comes from the same calls a GitHub run makes (``docsvc.ci``): the settings and the
pull request read from a GitHub ``pull_request`` event, the docflow plan, its ``finish`` filled with
a job result shaped as the service's docflow job returns it, then ``summary.render`` and, for the
comment, ``comments.body_for``. markdown-it renders it (CommonMark and GFM tables, as GitHub does:
the ``<!-- docsvc:docflow -->`` marker stays an invisible HTML comment) into a frame styled like
GitHub's, and ``engines.browser.chromium_page`` (Playwright driving Debian's Chromium, as the
service's screenshots do) shoots it. Only the frame around the Markdown is drawn here.
"""

from __future__ import annotations

import json
import struct
import tempfile
import zlib
from pathlib import Path

from markdown_it import MarkdownIt

from docsvc.ci import comments, summary
from docsvc.ci.context import detect
from docsvc.ci.operations import Outcome, plan_docflow
from docsvc.ci.settings import CiSettings

# A pull request as GitHub's pull_request event carries it.
EVENT = {"action": "synchronize", "number": 482, "pull_request": {
    "number": 482, "title": "Rename --docs-root to --docs-dir", "body": "The flag now says what it takes.",
    "user": {"login": "wes"}, "html_url": "https://github.com/acme/app/pull/482",
    "head": {"ref": "rename-docs-root", "sha": "4f1cb7a9d2e04c6b8e1f0a7c3b5d9e2f6a8c0b14",
             "repo": {"full_name": "acme/app"}},
    "base": {"ref": "main", "repo": {"full_name": "acme/app"}}}}
# What the service's docflow job answers (tasks/docflow.py: suggestion_id, verdict, files, ...).
RESULT = {"suggestion_id": 12, "item_id": 12, "verdict": "documentation change planned",
          "files": ["docs/cli.md", "docs/configuration.md"], "editor_passed": True}

STYLE = """
body { font: 14px/1.5 -apple-system, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif; color: #1f2328;
       background: #fff; margin: 0; padding: 16px; width: 760px; }
.box { border: 1px solid #d1d9e0; border-radius: 6px; }
.head { background: #f6f8fa; border-bottom: 1px solid #d1d9e0; padding: 8px 16px; color: #59636e;
        border-radius: 6px 6px 0 0; display: flex; align-items: center; gap: 8px; }
.head b { color: #1f2328; }
.avatar { width: 20px; height: 20px; border-radius: 50%; background: #2da44e; display: inline-block; }
.label { border: 1px solid #d1d9e0; border-radius: 2em; padding: 0 7px; font-size: 12px; }
.body { padding: 16px; }
h3 { font-size: 1.25em; margin: 0 0 16px; }
table { border-collapse: collapse; margin: 0 0 16px; }
th, td { border: 1px solid #d1d9e0; padding: 6px 13px; }
tr:nth-child(2n) { background: #f6f8fa; }
a { color: #0969da; text-decoration: none; }
p { margin: 0 0 16px; }
"""


def _png() -> bytes:
    """A 1x1 PNG: the step checks each screenshot's kind by its content before anything is sent."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\x00\xff\xff\xff")) + chunk(b"IEND", b""))


def markdown() -> str:
    """The summary Markdown of the docflow step for the pull request above, as the runner renders it."""
    with tempfile.TemporaryDirectory() as folder:
        event = Path(folder, "event.json")
        event.write_text(json.dumps(EVENT), encoding="utf-8")
        shots = Path(folder, "screenshots")
        shots.mkdir()
        for name in ("index.png", "settings__storage.png"):  # the routes / and /settings/storage
            (shots / name).write_bytes(_png())
        env = {"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": str(event),
               "GITHUB_REPOSITORY": "acme/app", "GITHUB_RUN_ID": "9120", "GITHUB_SERVER_URL": "https://github.com",
               "DOCSVC_INTEGRATION_ID": "1", "DOCSVC_SCREENSHOTS_DIR": str(shots)}
        settings = CiSettings.resolve("docflow", {}, env)
        ctx = detect("github", env, Path(folder), settings.values)
        plan = plan_docflow(settings, ctx)
    outcome = Outcome(plan.title, "completed", job_id="5f0c2a7e", result=RESULT)
    plan.finish(RESULT, outcome)
    return summary.render(outcome, ctx.run_url, result_file="/home/runner/work/app/docsvc-docflow-result.json")


def _frame(header: str, rendered: str) -> str:
    return (f"<!doctype html><meta charset=utf-8><style>{STYLE}</style>"
            f"<div class=box><div class=head>{header}</div><div class=body>{rendered}</div></div>")


def pages() -> dict[str, str]:
    """name -> the HTML of each picture: the pull-request comment and the job summary."""
    text = markdown()
    render = MarkdownIt("commonmark", {"html": True}).enable("table").render
    comment = _frame("<span class=avatar></span><b>github-actions</b> <span class=label>bot</span> commented",
                     render(comments.body_for("docflow", text)))
    job = _frame("<b>docflow summary</b>", render(text))
    return {"docflow-comment.png": comment, "docflow-job-summary.png": job}


def shoot() -> dict[str, bytes]:
    """name -> PNG bytes of each picture, shot in Chromium."""
    from docsvc.server.engines.browser import chromium_page

    shots: dict[str, bytes] = {}
    with chromium_page(viewport={"width": 800, "height": 400}) as page:
        for name, document in pages().items():
            page.set_content(document, wait_until="load")
            shots[name] = page.locator(".box").screenshot()
    return shots

