"""``docsvc-server demo``: a demo organisation with data, a tour of the real CLI against it, then
the service keeps serving so you can try commands yourself.

The tour runs the real ``docsvc`` command in subprocesses over HTTP, exactly as a user would.
"""

from __future__ import annotations

import datetime as dt
import os
import shlex
import shutil
import struct
import subprocess
import sys
import threading
import time
import zlib
from dataclasses import dataclass
from pathlib import Path

import click

ORG = "Demo Docs Team"


@dataclass
class DemoData:
    admin_key: str
    writer_key: str
    writer_id: int
    other_writer_id: int
    release_id: int
    capture_id: int
    spare_capture_id: int
    draft_id: int
    notes_id: int
    diagram_id: int
    suggestion_id: int
    integration_id: int
    unsynced_integration_id: int
    docs_work: Path
    docs_bare: Path
    cli_dir: Path
    next_item_id: int


def tiny_png(width: int = 4, height: int = 3, rgb: tuple[int, int, int] = (37, 99, 235)) -> bytes:
    """A real PNG of one colour, made without an imaging library."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    raw = b"".join(b"\x00" + bytes(rgb) * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


def seed(session, settings, workdir: Path) -> DemoData:
    from .services.accounts import add_user, create_key, create_org
    from .services.integrations import add_integration
    from .services.items import add_item
    from .services.release_notes import set_categories
    from .services.releases import add_release, set_status, set_target
    from .storage import FileStore

    store = FileStore(settings.data_dir)
    org = create_org(session, ORG)
    admin = add_user(session, org, "ada@demo.docsvc.dev", "admin", "Ada Admin")
    wes = add_user(session, org, "wes@demo.docsvc.dev", "writer", "Wes Writer")
    rita = add_user(session, org, "rita@demo.docsvc.dev", "writer", "Rita Reviewer")
    _, admin_key = create_key(session, admin, "demo admin")
    _, writer_key = create_key(session, wes, "demo writer")
    r24 = add_release(session, org, "2.4", "2026-12-15")
    session.flush()
    set_target(session, r24, dt.date(2027, 1, 12), reason="QA needs two more weeks", changed_by=admin)
    set_status(r24, "in_progress")
    set_categories(session, org, ["Deploy", "Exports", "API"])
    add_release(session, org, "2.5", "2027-02-01")

    media = workdir / "media"
    media.mkdir(parents=True, exist_ok=True)
    (media / "login-step-1.png").write_bytes(tiny_png())
    (media / "login-step-2.png").write_bytes(tiny_png(rgb=(22, 163, 74)))
    (media / "narration.wav").write_bytes(_silent_wav())

    def item(tool, title, by=admin, files=(), **tags):
        made = add_item(session, org, tool, title, created_by=by, attachments=list(files), store=store)
        for key, value in tags.items():
            setattr(made, key, value)
        return made

    capture = item("captures", "Login flow walkthrough", release_id=r24.id, writer_user_id=rita.id,
                   files=[("screenshot", media / "login-step-1.png"), ("screenshot", media / "login-step-2.png"),
                          ("audio", media / "narration.wav")])
    spare = item("captures", "Old settings page capture", files=[("screenshot", media / "login-step-2.png")])
    draft = item("feature-drafts", "Draft: SSO with SAML", release_id=r24.id)
    notes = item("release-notes", "Release 2.4 notes", release_id=r24.id, writer_user_id=wes.id,
                 work_status="in_progress")
    item("conversions", "Payments API reference (OpenAPI → Docusaurus)", work_status="done")
    item("chats", "How do I rotate an API key?", by=wes)
    item("chats", "Where is the rate-limit page?", by=rita)
    item("api-scans", "Payments API readiness scan", writer_user_id=wes.id, work_status="blocked",
         status_note="waiting for the spec owner")
    diagram = item("diagrams", "Checkout sequence")
    suggestion = item("docflows", "PR #482: add --dry-run to deploy", writer_user_id=wes.id,
                      pull_request={"url": "https://github.com/demo/app/pull/482", "state": "open",
                                    "review": "review required"})
    item("docflows", "PR #479: rename DOCS_ROOT to DOCS_DIR")

    repos = workdir / "repos"
    code_bare, code_work = make_remote(repos, "app-code", DEMO_CODE)
    push(code_work, DEMO_PR, "Deploy: rename --docs-root, add --dry-run", branch="pr-482")
    docs_bare, docs_work = make_remote(repos, "app-docs", DEMO_DOCS)
    site_bare, _ = make_remote(repos, "website", {"docs/index.md": "# Website\n"})
    app = add_integration(session, org, name="Demo app", code_repo=str(code_bare), docs_repo=str(docs_bare),
                          preview_url="http://localhost:3000/{branch}")
    site = add_integration(session, org, name="Website", code_repo=str(site_bare), docs_repo=str(site_bare))
    session.flush()
    from .services.api_specs import set_config

    set_config(session, org, integration_id=app.id, path="api/openapi.yaml", branch=None,
               stages={"run_swagger": True, "run_redocly": True, "run_ai_fix": True, "run_ai_content": True})
    cli_dir = workdir / "cli"
    cli_dir.mkdir(parents=True, exist_ok=True)
    (cli_dir / "docsvc.yaml").write_text(f"integration_id: {app.id}\n")  # docsvc docflow reads it here
    (cli_dir / "values.yaml").write_bytes(chart_values())
    last = max(i.id for i in (capture, spare, draft, diagram, suggestion))
    return DemoData(admin_key=admin_key, writer_key=writer_key, writer_id=wes.id, other_writer_id=rita.id,
                    release_id=r24.id, capture_id=capture.id, spare_capture_id=spare.id, draft_id=draft.id,
                    notes_id=notes.id, diagram_id=diagram.id, suggestion_id=suggestion.id, integration_id=app.id,
                    unsynced_integration_id=site.id, docs_work=docs_work, docs_bare=docs_bare, cli_dir=cli_dir,
                    next_item_id=last + 2)


_CLI = """import argparse
import os

parser = argparse.ArgumentParser(prog="deploy")
parser.add_argument("--force", action="store_true", help="overwrite what is there")
parser.add_argument("--docs-root", default="docs", help="folder of the docs")
parser.add_argument("--retries", type=int, default=3, help="how often to retry")
TOKEN = os.environ["DEPLOY_TOKEN"]
"""
# The demo app's API description, with what an API-readiness scan should catch: a path with a
# trailing slash, an operation without operationId, summary or 4xx response, an undeclared tag.
_SPEC = """openapi: 3.0.3
info:
  title: Demo app deploy API
  version: 2.4.0
servers:
  - url: https://deploy.demo.docsvc.dev/
paths:
  /deployments/:
    get:
      summary: List deployments
      operationId: listDeployments
      responses:
        "200":
          description: The deployments, newest first
    post:
      tags: [deployments]
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                dry_run: {type: boolean, default: false}
                docs_dir: {type: string, default: docs}
      responses:
        "202":
          description: Deployment started
"""
DEMO_CODE = {"app/cli.py": _CLI, "api/openapi.yaml": _SPEC}


def chart_values() -> bytes:
    """The values file of this project's own chart (deploy/helm/docsvc-server): a real values file
    with helm-docs comments. The package carries a copy (demo_data/), so the demo converts it from
    any install; tests/unit/test_packaging.py keeps the copy equal to the chart's."""
    from importlib.resources import files

    return files("docsvc.server").joinpath("demo_data", "chart-values.yaml").read_bytes()
# Pull request #482 of the demo code repository, on branch pr-482.
DEMO_PR = {"app/cli.py": _CLI.replace('"--docs-root"', '"--docs-dir"').replace("default=3", "default=5").replace(
    'TOKEN =', 'parser.add_argument("--dry-run", action="store_true", help="show what would happen")\nTOKEN =')}
DEMO_DOCS = {
    "docs/index.md": "# Demo app\n\nThe demo app deploys your site.\n",
    "docs/cli.md": "# Command line\n\n| Flag | Default | Description |\n|---|---|---|\n"
                   "| `--force` | | overwrite what is there |\n| `--docs-root` | `docs` | folder of the docs |\n"
                   "| `--retries` | `3` | how often to retry |\n\nPublish another folder with `deploy --docs-root site/`.\n",
    "docs/limits.md": "# Limits\n\n## Rate limits\n\nThe API allows 100 requests per minute.\n",
    "docs/auth.rst": "Authentication\n==============\n\nTokens expire after an hour.\n",
}


def _git(*args: str, cwd: Path) -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "docsvc demo", "GIT_AUTHOR_EMAIL": "demo@docsvc.dev",
           "GIT_COMMITTER_NAME": "docsvc demo", "GIT_COMMITTER_EMAIL": "demo@docsvc.dev"}
    try:
        subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True)
    except FileNotFoundError:
        raise click.ClickException("the demo needs git on PATH") from None
    except subprocess.CalledProcessError as exc:
        raise click.ClickException(f"git {args[0]} failed: {exc.stderr.decode().strip()}") from None


def make_remote(root: Path, name: str, files: dict[str, str]) -> tuple[Path, Path]:
    """A bare repository standing in for a code host, and a working copy that pushes to it."""
    root = root.resolve()
    bare, work = root / f"{name}.git", root / name
    root.mkdir(parents=True, exist_ok=True)
    _git("init", "-q", "--bare", "-b", "main", str(bare), cwd=root)
    _git("clone", "-q", str(bare), str(work), cwd=root)
    _git("checkout", "-q", "-b", "main", cwd=work)
    push(work, files, "Initial docs")
    return bare, work


def push(work: Path, files: dict[str, str], message: str, branch: str = "main") -> None:
    """Commit files on ``branch`` (made from main when new) and push it; main stays checked out."""
    if branch != "main":
        _git("checkout", "-q", "-b", branch, cwd=work)
    for path, content in files.items():
        (work / path).parent.mkdir(parents=True, exist_ok=True)
        (work / path).write_text(content)
    _git("add", "-A", cwd=work)
    _git("commit", "-q", "-m", message, cwd=work)
    _git("push", "-q", "origin", branch, cwd=work)
    if branch != "main":
        _git("checkout", "-q", "main", cwd=work)


def _silent_wav(seconds: float = 0.2, rate: int = 8000) -> bytes:
    frames = b"\x00\x00" * int(seconds * rate)
    return (b"RIFF" + struct.pack("<I", 36 + len(frames)) + b"WAVEfmt " +
            struct.pack("<IHHIIHH", 16, 1, 1, rate, rate * 2, 2, 16) + b"data" + struct.pack("<I", len(frames)) + frames)


# A page for the capture to walk: a small menu button (zoomed in auto mode), a field, a large button.
_PAGE = """<!doctype html><html><head><title>Demo app settings</title></head>
<body style="font-family: sans-serif; margin: 2em">
<button id="menu" style="width: 30px; height: 20px; padding: 0">&#9776;</button>
<h1>Settings</h1><label>Name <input id="name"></label>
<p><button id="save" style="width: 200px; height: 60px" onclick="location.href='/done.html'">Save</button></p>
</body></html>
"""
_DONE = "<!doctype html><html><head><title>Saved</title></head><body><h1>Saved</h1></body></html>\n"
BRIEF = """Bulk export downloads every report of a workspace as one ZIP file.

Users can export all reports from the CLI or the Exports page. Users can pick CSV or JSON.

1. Open Exports.
2. Choose Bulk export.

- --format: csv or json (default csv)

Exports larger than 2 GB are split into parts."""
DIAGRAM = ("The CLI calls the service. The service sends the job to the worker. "
           "The worker returns the result to the service.")


def serve_page(folder: Path) -> tuple[str, object]:
    """Serve the capture's page on a free loopback port; returns its address and the server."""
    from functools import partial
    from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

    folder.mkdir(parents=True, exist_ok=True)
    (folder / "index.html").write_text(_PAGE, encoding="utf-8")
    (folder / "done.html").write_text(_DONE, encoding="utf-8")

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *args) -> None:  # the tour's output is the CLI's, not the page server's
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(Quiet, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}", server


def tour(data: DemoData, base_url: str, page_url: str) -> list[tuple[object, object]]:
    """The steps of the tour: (docsvc arguments, who runs them) — 0 the writer, 1 the admin — or
    (a description, an action) for something that happens outside docsvc. Arguments may be a
    function that makes them when the step runs (to name an item an earlier step created)."""
    W, A = 0, 1
    c, s = str(data.capture_id), str(data.spare_capture_id)
    app = str(data.integration_id)

    def new_docs_commit() -> None:
        push(data.docs_work, {"docs/deploy.md": "# Deploy\n\nUse --dry-run to preview a deploy.\n"},
             "Document --dry-run")

    suggestion = str(data.next_item_id)

    def fetch_api_description() -> list[str]:
        import httpx

        text = httpx.get(f"{base_url}/api/v1/openapi.json", timeout=30).text
        (data.cli_dir / "docsvc-api.json").write_text(text, encoding="utf-8")
        return [f"$ curl -s {base_url}/api/v1/openapi.json > docsvc-api.json", f"({len(text):,} bytes)"]

    def head_of(path: Path, lines: int) -> list[str]:
        return [f"$ head -{lines} {path.name}"] + path.read_text(encoding="utf-8").splitlines()[:lines]

    helm_steps = [(["convert", "values.yaml", "-t", "helm", "--target", "md"], W),
                  ("the parameters table, written beside the values file",
                   lambda: head_of(data.cli_dir / "values.md", 14))]
    scan = data.next_item_id + 3  # after the suggestion and the two conversions

    def newest(tool: str) -> str:
        import httpx

        answer = httpx.get(f"{base_url}/api/v1/items/{tool}", timeout=30,
                           headers={"Authorization": f"Bearer {data.writer_key}"})
        answer.raise_for_status()
        return str(answer.json()[0]["id"])

    rid = str(data.release_id)

    def docs_branch() -> list[str]:
        done = subprocess.run(["git", "log", "--oneline", "-1", f"docsvc/suggestion-{suggestion}"],
                              cwd=data.docs_bare, capture_output=True, text=True)
        return [f"$ git log --oneline -1 docsvc/suggestion-{suggestion}    # in the docs repository",
                done.stdout.strip() or done.stderr.strip()]

    return [
        (["admin", "integrations", "list"], A),
        (["repos", "list"], W),
        (["sync", "--integration-id", app], W),
        (["search", "rate limits"], W),
        ("git push: a new docs page lands on the docs repository's main branch", new_docs_commit),
        (["repos", "list"], W),
        (["repos", "request-sync", app], W),
        (["sync", "--integration-id", app], W),
        (["repos", "list"], W),
        (["search", "dry-run", "--integration-id", app], W),
        (["docflow", "--pr-number", "482", "--pr-title", "Deploy: rename --docs-root, add --dry-run",
          "--pr-body", "Renames the flag and adds a dry run.", "--pr-author", "wes", "--pr-branch", "pr-482"], W),
        (["items", "diff", "docflows", suggestion], W),
        (["items", "diff", "docflows", suggestion, "--stat"], W),
        (["items", "history", "docflows", suggestion], W),
        (["items", "approve", "docflows", suggestion, "--new-release", "2.6"], W),
        ("the approved change is a branch with a commit in the docs repository", docs_branch),
        (["releases", "list"], W),
        (["items", "list", "captures"], W),
        (["items", "list", "captures", "--release", str(data.release_id)], W),
        (["items", "status", "captures", c, "in_progress"], W),  # refused: Wes is not its writer
        (["items", "status", "captures", c, "in_progress", "--claim", "--note", "re-shooting step 2"], W),
        (["items", "list", "captures", "--writer", "me"], W),
        (["items", "tag", "feature-drafts", str(data.draft_id), "--writer", "me", "--release", "none"], W),
        (["items", "rename", "diagrams", str(data.diagram_id), "Checkout sequence (v2)"], W),
        (["items", "delete", "captures", s, "--yes"], W),
        (["items", "list", "docflows"], W),
        (["items", "delete", "docflows", str(data.suggestion_id), "--yes"], W),
        (["items", "list", "chats"], W),
        (["mywork"], W),
        (["admin", "users", "list"], W),  # refused: Writers cannot list users
        (["admin", "users", "list"], A),
        (["items", "list", "docflows", "--status", "rejected"], A),
        (["mywork", "--json"], W),
        ("this service's own OpenAPI document: a real OpenAPI 3.1 description", fetch_api_description),
        (["convert", "docsvc-api.json", "-t", "openapi", "--target", "docusaurus"], W),
        ("the reference, an MDX page for Docusaurus", lambda: head_of(data.cli_dir / "docsvc-api.md", 12)),
        *helm_steps,
        (["items", "list", "conversions"], W),
        (["validate", "--fail-on", "never"], W),
        (["api-scan", "open-pr", str(scan), "--to", "source", "--to", "docs", "--repo", app,
          "--path", "docs/reference/openapi.yaml"], W),
        (["items", "list", "api-scans"], W),
        (["feature-drafts", "create", "--title", "Bulk export", "--release", rid, "--brief", BRIEF], W),
        (lambda: ["items", "release-notes", "feature-drafts", newest("feature-drafts")], W),
        (lambda: ["items", "approve", "feature-drafts", newest("feature-drafts"), "--notes", "include",
                  "--section", "feature", "--category", "Exports"], W),
        (["release-notes", "show", str(data.notes_id)], W),
        (["capture", "create", "--url", page_url + "/", "--title", "Change the name in Settings",
          "--step", "click:#menu:Open the menu", "--step", "type:#name:Ada:Enter the name",
          "--step", "click:#save:Save", "--step", "navigate:/done.html:Open the result page"], W),
        (lambda: ["capture", "zoom", newest("captures")], W),
        (lambda: ["capture", "zoom", newest("captures"), "--mode", "always", "--step", "s1=off"], W),
        (lambda: ["capture", "zoom", newest("captures"), "--step", "s9=on"], W),  # refused: no step s9
        (["diagram", DIAGRAM], W),
        (["diagram", "1. Open Exports\n2. Choose Bulk export\n3. Download the ZIP"], W),
        (["chat", "ask", "How many requests per minute does the API allow?"], W),
        (["dashboard", "--release", rid], W),
        (["dashboard", "--mine"], W),
    ]


def _wait_ready(url: str, timeout: float = 20.0) -> None:
    import httpx

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if httpx.get(url + "/healthz", timeout=1.0).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise click.ClickException(f"the local service did not start at {url}")


def run_demo(*, port: int, workdir: Path, serve: bool) -> int:
    import logging

    from .app import create_app
    from .db.migrate import upgrade
    from .db.session import make_engine, make_sessionmaker, session_scope
    from .listen import PortUnavailable, listening_socket, make_server
    from .settings import ServerSettings

    logging.basicConfig(level=logging.WARNING, format="  [service] %(message)s")
    try:
        sock = listening_socket("127.0.0.1", port)  # claimed now: the seeding below takes a while
    except PortUnavailable as exc:
        raise click.ClickException(f"{exc}; pick another with --port") from None
    if workdir.exists():
        shutil.rmtree(workdir)
    workdir.mkdir(parents=True)
    settings = ServerSettings.from_env()
    # The demo's product pages are on loopback: its browser may open them.
    settings = settings.with_(database_url=f"sqlite:///{workdir.resolve() / 'demo.db'}", data_dir=workdir / "data",
                              remote_check_seconds=0, egress_allow=settings.egress_allow or "internal")
    upgrade(settings.database_url)
    engine = make_engine(settings.database_url)
    with session_scope(make_sessionmaker(engine)) as session:
        data = seed(session, settings, workdir)
    engine.dispose()

    base_url = f"http://127.0.0.1:{port}"
    server = make_server(create_app(settings), log_level="warning")
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    _wait_ready(base_url)
    click.secho(f"docsvc demo: local service on {base_url}/api/v1, organisation {ORG!r}", bold=True)
    click.echo("Wes Writer (a Writer) runs the commands; Ada Admin (a System Administrator) the marked ones.\n")

    keys = [data.writer_key, data.admin_key]
    page_url, page_server = serve_page(workdir / "site")
    for args, who in tour(data, base_url, page_url):
        if callable(args):
            args = args()
        if isinstance(args, str):
            click.secho(f"# {args}", fg="magenta")
            for line in who() or ():
                click.echo(f"  {line}")
            click.echo()
            continue
        env = {**os.environ, "DOCSVC_BASE_URL": base_url, "DOCSVC_API_KEY": keys[who]}
        shown = "docsvc " + " ".join(shlex.quote(a) for a in args)
        click.secho(f"$ {shown}" + ("    # as Ada Admin" if who else ""), fg="cyan")
        done = subprocess.run([sys.executable, "-m", "docsvc", *args], env=env, stdin=subprocess.DEVNULL,
                              cwd=data.cli_dir,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        for line in done.stdout.rstrip().splitlines():
            click.echo(f"  {line}")
        if done.returncode:
            click.secho(f"  (exit {done.returncode})", fg="yellow")
        click.echo()

    deleted = not (settings.data_dir / "items" / str(data.spare_capture_id)).exists()
    click.echo(f"Capture {data.spare_capture_id}'s files removed from disk: {'yes' if deleted else 'NO'}")
    if not serve:
        page_server.shutdown()
        server.should_exit = True
        thread.join(10)
        return 0 if deleted else 1
    click.echo("\nThe service keeps running; try it yourself in another shell (demo keys, local only):")
    click.echo(f"  export DOCSVC_BASE_URL={base_url}")
    click.echo(f"  export DOCSVC_API_KEY={data.writer_key}   # Wes Writer")
    click.echo(f"  # Ada Admin: {data.admin_key}")
    click.echo("Press Ctrl-C to stop.")
    try:
        while thread.is_alive():
            thread.join(0.5)
    except KeyboardInterrupt:
        server.should_exit = True
        thread.join(10)
    return 0
