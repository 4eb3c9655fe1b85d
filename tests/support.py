"""Test support: the real local service in a subprocess, the real CLIs, and test databases.

Integration tests talk to ``docsvc-server run`` over HTTP on a free loopback port and run the
``docsvc`` console script as a subprocess, exactly as users do.
"""

from __future__ import annotations

import http.server
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator


# the smallest bytes the service takes as a PNG screenshot (it sniffs the signature)
PNG = b"\x89PNG\r\n\x1a\n" + b"\0" * 64
BIN = Path(sys.executable).parent


def command(name: str) -> list[str]:
    """The console script installed beside this Python, else the module form."""
    script = BIN / name
    if script.exists():
        return [str(script)]
    module = {"docsvc": "docsvc", "docsvc-server": "docsvc.server.admin"}[name]
    return [sys.executable, "-m", module]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# A user config directory of the tests' own: a developer's `docsvc login` must not leak in.
NO_USER_CONFIG = Path(tempfile.mkdtemp(prefix="docsvc-tests-config-"))


def clean_env(**extra: str) -> dict[str, str]:
    """The environment minus any DOCSVC_* settings of the developer's shell, and an empty
    per-user config (unless ``extra`` names one)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DOCSVC_")}
    env["DOCSVC_CONFIG_DIR"] = str(NO_USER_CONFIG)
    env.update(extra)
    return env


class TestDatabase:
    """A fresh database per use: a SQLite file, or a new PostgreSQL database created on the
    server named by DOCSVC_TEST_DATABASE_URL and dropped afterwards. With ``template``, a copy of
    that database of the same backend (SQLite's backup, PostgreSQL's ``CREATE DATABASE ... TEMPLATE``)."""

    __test__ = False  # not a test class, despite the name

    def __init__(self, backend: str, tmp: Path, template: "TestDatabase | None" = None) -> None:
        self.backend = backend
        self._admin_url = None
        if backend == "sqlite":
            self.path = tmp / "docsvc-test.db"
            self.url = f"sqlite:///{self.path}"
            if template is not None:
                import sqlite3

                source, target = sqlite3.connect(template.path), sqlite3.connect(self.path)
                try:
                    source.backup(target)  # whole and consistent, whatever the source's WAL holds
                finally:
                    source.close()
                    target.close()
            return
        import psycopg
        from sqlalchemy.engine import make_url

        base = make_url(os.environ["DOCSVC_TEST_DATABASE_URL"])
        self.name = f"docsvc_t_{uuid.uuid4().hex[:12]}"
        self._admin_url = base.set(drivername="postgresql").render_as_string(hide_password=False)
        with psycopg.connect(self._admin_url, autocommit=True) as conn:
            copy = f' TEMPLATE "{template.name}"' if template is not None else ""
            conn.execute(f'CREATE DATABASE "{self.name}"{copy}')
        self.url = base.set(database=self.name).render_as_string(hide_password=False)

    def drop(self) -> None:
        if self._admin_url is None:
            return
        import psycopg

        with psycopg.connect(self._admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')


def backends() -> list[str]:
    return ["sqlite"] + (["postgresql"] if os.environ.get("DOCSVC_TEST_DATABASE_URL") else [])


@dataclass
class LocalService:
    """``docsvc-server`` on a free port with its own database and data directory."""

    db_url: str
    workdir: Path
    env_extra: dict[str, str] = field(default_factory=dict)
    port: int = field(default_factory=free_port)
    process: subprocess.Popen | None = None
    shared_data_dir: Path | None = None  # one data directory for several processes (``scaled_out``)
    run_args: tuple[str, ...] = ()  # more options of ``docsvc-server run`` (``--workers 2``)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def data_dir(self) -> Path:
        return self.shared_data_dir or self.workdir / "data"

    def env(self) -> dict[str, str]:
        # The tests' pages are on loopback; tests of the egress policy set their own.
        return clean_env(DOCSVC_SERVER_DATABASE_URL=self.db_url, DOCSVC_SERVER_DATA_DIR=str(self.data_dir),
                         **{"DOCSVC_SERVER_EGRESS_ALLOW": "internal", **self.env_extra})

    def start(self) -> "LocalService":
        """Start the service and wait until it answers. ``free_port`` only finds a port that was
        free a moment ago: when the tests run on parallel workers, another worker's service may
        take it first, and the start is tried again on a new port."""
        for _ in range(3):
            if self._start():
                return self
            self.port = free_port()
        raise RuntimeError("docsvc-server found no free port in three tries")

    def _start(self) -> bool:
        """False when the port was taken before the service could listen on it."""
        self.workdir.mkdir(parents=True, exist_ok=True)
        log_path = self.workdir / "server.log"
        logged = log_path.stat().st_size if log_path.exists() else 0
        log = open(log_path, "ab")
        self.process = subprocess.Popen(
            [*command("docsvc-server"), "run", "--port", str(self.port), "--log-level", "warning", *self.run_args],
            cwd=self.workdir, env=self.env(), stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
        )
        log.close()  # the child holds its own copy
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                said = log_path.read_bytes()[logged:].decode(errors="replace")
                if f"port {self.port} is in use" in said:
                    return False
                raise RuntimeError(f"docsvc-server exited: {said[-2000:]}")
            # Its own announcement, made once it answers: a /healthz alone could be another
            # worker's service that took the port first.
            if f"on {self.base_url}/api/v1 " in log_path.read_bytes()[logged:].decode(errors="replace"):
                return True
            time.sleep(0.1)
        raise RuntimeError("docsvc-server did not become ready")

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(sig)
        try:
            self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)

    def job_process(self) -> int | None:
        """The pid of ``run``'s job workers' child (``--jobs-apart``, the default), if it has one."""
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                parent = int((entry / "stat").read_text().rpartition(")")[2].split()[1])
                if parent == self.process.pid and b"worker" in (entry / "cmdline").read_bytes().split(b"\0"):
                    return int(entry.name)
            except (OSError, ValueError):
                continue
        return None

    def admin_lines(self, *args: str) -> list[str]:
        """Run ``docsvc-server ARGS``; returns its stdout lines."""
        done = subprocess.run([*command("docsvc-server"), *args], cwd=self.workdir, env=self.env(),
                              capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=120)
        if done.returncode != 0:
            raise RuntimeError(f"docsvc-server {' '.join(args)} failed: {done.stderr}")
        return done.stdout.strip().splitlines()

    def admin(self, *args: str) -> str:
        """Run ``docsvc-server ARGS``; returns the last stdout line (the new id or key)."""
        return self.admin_lines(*args)[-1]


def run_cli(*args: str, key: str | None, base_url: str | None, cwd: Path | None = None, input: str | None = None,
            env: dict[str, str] | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run the real ``docsvc`` CLI."""
    extra = dict(env or {})
    if key is not None:
        extra["DOCSVC_API_KEY"] = key
    if base_url is not None:
        extra["DOCSVC_BASE_URL"] = base_url
    return subprocess.run([*command("docsvc"), *args], cwd=cwd, env=clean_env(**extra), capture_output=True,
                          text=True, input=input, stdin=None if input is not None else subprocess.DEVNULL,
                          timeout=timeout)


def stored(service: LocalService, item_id: int, change: Callable[[dict], None] | None = None) -> dict:
    """An item's data in the service's database; ``change(data)`` edits it there first (a row as an
    older version or another way of making items left it)."""
    from sqlalchemy import create_engine
    from sqlalchemy.orm import Session

    from docsvc.server.db.session import normalize_url
    from docsvc.server.db.tables import Item

    engine = create_engine(normalize_url(service.db_url))
    try:
        with Session(engine) as session:
            item = session.get(Item, item_id)
            if change is not None:
                data = json.loads(json.dumps(item.data))
                change(data)
                item.data = data
                session.commit()
            return item.data
    finally:
        engine.dispose()


def git(*args: str, cwd: Path) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.test",
           "GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.test"}
    return subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True,
                          text=True).stdout.strip()


class GitRemote:
    """A bare repository standing in for a code host, and a working clone that pushes to it."""

    def __init__(self, root: Path, name: str, files: dict[str, str]) -> None:
        self.bare = root / f"{name}.git"
        self.work = root / f"{name}-work"
        git("init", "-q", "--bare", "-b", "main", str(self.bare), cwd=root)
        git("clone", "-q", str(self.bare), str(self.work), cwd=root)
        git("checkout", "-q", "-b", "main", cwd=self.work)
        self.commit(files, "initial")

    def commit(self, files: dict[str, str | None], message: str, branch: str = "main") -> str:
        """Write (or, with None, delete) files, commit and push ``branch``; returns the new commit."""
        for path, content in files.items():
            target = self.work / path
            if content is None:
                git("rm", "-q", path, cwd=self.work)
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(content)
            git("add", path, cwd=self.work)
        git("commit", "-q", "-m", message, cwd=self.work)
        git("push", "-q", "origin", branch, cwd=self.work)
        return git("rev-parse", "HEAD", cwd=self.work)

    def branch(self, name: str, files: dict[str, str | None], message: str) -> str:
        """A pull request's branch: one commit of ``files`` on top of main, pushed; the working clone
        goes back to main. Returns the branch's commit."""
        git("checkout", "-q", "-b", name, "main", cwd=self.work)
        try:
            return self.commit(files, message, branch=name)
        finally:
            git("checkout", "-q", "main", cwd=self.work)


def generated_docs(root: Path, name: str, files: int) -> "GitRemote":
    """A docs remote of ``files`` small generated Markdown pages (plus docs/index.md), in one commit:
    a sync of it is real work that lasts long enough to be watched (and cut off)."""
    remote = GitRemote(root, name, {"docs/index.md": "# Index\n"})
    for n in range(files):
        folder = remote.work / "docs" / f"s{n % 100}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"p{n}.md").write_text(f"# Page {n}\n\nmarker{n} lives here.\n")
    git("add", "-A", cwd=remote.work)
    git("commit", "-q", "-m", "many pages", cwd=remote.work)
    git("push", "-q", "origin", "main", cwd=remote.work)
    return remote


def scaled_out(db_url: str, root: Path, count: int, env_extra: dict[str, str] | None = None) -> list[LocalService]:
    """``count`` service processes on one database and one data directory, as a scaled-out
    deployment runs them: each with its own port, working directory and instance id (its mirror
    cache). Started together, so their migrations meet too. Not yet started when one fails."""
    shared = root / "shared-data"
    services = [LocalService(db_url=db_url, workdir=root / f"process-{n}", shared_data_dir=shared,
                             env_extra={"DOCSVC_SERVER_INSTANCE_ID": f"p{n}", **(env_extra or {})})
                for n in range(count)]
    errors: list[BaseException] = []

    def start(svc: LocalService) -> None:
        try:
            svc.start()
        except BaseException as exc:  # reported below, in the caller's thread
            errors.append(exc)

    threads = [threading.Thread(target=start, args=(svc,)) for svc in services]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        for svc in services:
            svc.stop()
        raise errors[0]
    return services


def connected_org(svc: LocalService, root: Path, org: str, docs: dict[str, str] | None = None) -> tuple[str, str]:
    """An organisation with a code and a docs remote connected as one integration.

    Returns (the admin's API key, the integration id)."""
    key = svc.admin("init", "--org", org, "--admin-email", f"ci@{org.lower().replace(' ', '-')}.test")
    code = GitRemote(root, f"{org}-code".replace(" ", "-"), {"app.py": "x = 1\n"})
    docs_remote = GitRemote(root, f"{org}-docs".replace(" ", "-"),
                            docs or {"docs/index.md": "# Index\n", "docs/guide.md": "# Guide\n"})
    integration = svc.admin("integrations", "add", "--org", org, "--name", "app", "--code-repo", str(code.bare),
                            "--docs-repo", str(docs_remote.bare))
    return key, integration


class JsonHandler(http.server.BaseHTTPRequestHandler):
    """A quiet request handler for the tests' small fake services, with a JSON answer."""

    def log_message(self, *args) -> None:
        pass

    def send_json(self, status: int, body) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


class Redirect(str):
    """What a ``serve_html`` page returns to answer 302 to this address."""


@contextmanager
def serve_html(page: Callable[[str], str | None], port: int = 0) -> Iterator[str]:
    """Serve HTML on a loopback port (a free one by default) for the service's browser:
    ``page(path)`` is a path's HTML, a Redirect, or None for a 404. Yields the address."""

    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = page(self.path)
            if isinstance(body, Redirect):
                self.send_response(302)
                self.send_header("Location", str(body))
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            data = (body if body is not None else "not here").encode()
            self.send_response(200 if body is not None else 404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()


def require_chromium() -> None:
    """Skip without the browser the service drives, except in CI, where its absence is a failure."""
    import pytest

    if not Path(os.environ.get("DOCSVC_SERVER_CHROMIUM", "/usr/bin/chromium")).exists():
        if os.environ.get("CI"):
            pytest.fail("chromium is missing: scripts/setup-ci-tools installs it")
        pytest.skip("chromium is not installed (scripts/setup-ci-tools installs it)")


def docflow_project(svc: LocalService, root: Path, org: str, code: GitRemote,
                    docs: dict[str, str]) -> Callable[..., subprocess.CompletedProcess]:
    """A new organisation whose integration connects ``code`` to a docs remote holding ``docs``,
    synced; returns ``cli(*args)``, the real CLI run where docsvc.yaml names the integration."""
    key = svc.admin("init", "--org", org, "--admin-email", f"ada@{org.lower().replace(' ', '-')}.test")
    docs_remote = GitRemote(root, "docs", docs)
    integration = svc.admin("integrations", "add", "--org", org, "--name", "app", "--code-repo", str(code.bare),
                            "--docs-repo", str(docs_remote.bare))
    (root / "docsvc.yaml").write_text(f"integration_id: {integration}\n")
    cli = lambda *a: run_cli(*a, key=key, base_url=svc.base_url, cwd=root)  # noqa: E731
    assert cli("sync", "--integration-id", integration).returncode == 0
    return cli


def docflow(cli: Callable[..., subprocess.CompletedProcess], number: int, branch: str, title: str = "") -> dict:
    """``docsvc docflow --json`` for pull request ``number`` on ``branch``: its result."""
    made = cli("docflow", "--pr-number", str(number), "--pr-title", title or f"PR {number}", "--pr-body", "",
               "--pr-author", "ana", "--pr-branch", branch, "--json")
    assert made.returncode == 0, made.stderr
    return json.loads(made.stdout)


def new_suggestion(cli: Callable[..., subprocess.CompletedProcess], number: int,
                   branch: str = "rename-docs-root") -> str:
    """Trigger a Docflows suggestion for pull request ``number`` on ``branch`` with ``cli`` (a test's
    project, which runs docsvc where docsvc.yaml names the integration); returns its id."""
    return str(docflow(cli, number, branch)["suggestion_id"])


@dataclass
class Exchange:
    """One request through ``FlakyProxy``: its head, body, the service's status line (None if
    the proxy did not wait for it) and what the proxy did."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes
    status_line: str | None
    response_headers: dict[str, str]
    dropped: str | None


class FlakyProxy:
    """An HTTP/1.1 proxy on a free loopback port in front of ``upstream``, one request per
    connection (``Connection: close`` both ways), that drops client connections on demand.

    ``drop(method, path)`` decides, per request, after the whole request has been forwarded:
    None passes the answer on; ``"before-answer"`` closes the client's connection at once (the
    service still gets the whole request and answers into the void); ``"after-answer"`` waits
    for the service's whole answer, then closes the client's connection without a byte of it.
    Every exchange is recorded in ``exchanges``."""

    def __init__(self, upstream: str, drop: Callable[[str, str], str | None]) -> None:
        from urllib.parse import urlsplit

        parts = urlsplit(upstream)
        self.upstream = (parts.hostname, parts.port)
        self.drop = drop
        self.exchanges: list[Exchange] = []
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.base_url = f"http://127.0.0.1:{self._listener.getsockname()[1]}"
        self._lock = threading.Lock()
        threading.Thread(target=self._serve, daemon=True).start()

    def close(self) -> None:
        self._listener.close()

    def __enter__(self) -> "FlakyProxy":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _serve(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            threading.Thread(target=self._handle, args=(client,), daemon=True).start()

    @staticmethod
    def _read_head(sock: socket.socket) -> tuple[bytes, bytes]:
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed before the end of the head")
            data += chunk
        head, _, rest = data.partition(b"\r\n\r\n")
        return head, rest

    @staticmethod
    def _headers(lines: list[bytes]) -> dict[str, str]:
        return {k.strip().lower(): v.strip() for k, _, v in (line.decode("latin-1").partition(":") for line in lines)}

    @staticmethod
    def _read_exactly(sock: socket.socket, rest: bytes, length: int) -> bytes:
        body = rest
        while len(body) < length:
            chunk = sock.recv(min(1 << 20, length - len(body)))
            if not chunk:
                raise ConnectionError("closed before the end of the body")
            body += chunk
        return body

    def _handle(self, client: socket.socket) -> None:
        with client:
            try:
                head, rest = self._read_head(client)
            except ConnectionError:
                return
            request_line, *lines = head.split(b"\r\n")
            method, path, _ = request_line.decode("latin-1").split(" ", 2)
            headers = self._headers(lines)
            assert "chunked" not in headers.get("transfer-encoding", ""), "FlakyProxy needs Content-Length"
            body = self._read_exactly(client, rest, int(headers.get("content-length", "0")))
            kept = [line for line in lines if not line.lower().startswith((b"connection:", b"keep-alive:"))]
            with self._lock:
                verdict = self.drop(method, path)
            upstream = socket.create_connection(self.upstream)
            upstream.sendall(b"\r\n".join([request_line, *kept, b"Connection: close"]) + b"\r\n\r\n" + body)
            exchange = Exchange(method, path, headers, body, None, {}, verdict)
            self.exchanges.append(exchange)
            if verdict == "before-answer":
                # The client loses its connection; the service answers a closed line later.
                client.shutdown(socket.SHUT_RDWR)
                threading.Thread(target=self._drain, args=(upstream, exchange), daemon=True).start()
                return
            answer = self._drain(upstream, exchange)
            if verdict == "after-answer":
                client.shutdown(socket.SHUT_RDWR)
                return
            client.sendall(answer)

    @staticmethod
    def _drain(upstream: socket.socket, exchange: Exchange) -> bytes:
        """The service's whole answer (it closes the connection after it); records its head."""
        answer = b""
        with upstream:
            while chunk := upstream.recv(65536):
                answer += chunk
        head = answer.partition(b"\r\n\r\n")[0].split(b"\r\n")
        exchange.status_line = head[0].decode("latin-1")
        exchange.response_headers = FlakyProxy._headers(head[1:])
        return answer


# --- code hosts' webhooks ---------------------------------------------------------------------

ROOT = Path(__file__).resolve().parent.parent
OCTOKIT_EXAMPLES = ROOT / ".tools/node_modules/@octokit/webhooks-examples/api.github.com/index.json"
GITLAB_EXAMPLES = Path(__file__).resolve().parent / "fixtures" / "gitlab-webhooks"


def github_example(event: str, action: str | None = None) -> dict:
    """The first of @octokit/webhooks-examples' real payloads of ``event`` (with ``action``), a copy
    for the test to point at its own repository. scripts/setup-ci-tools installs the package;
    without it a test skips, except in CI, where its absence is a failure."""
    import copy

    import pytest

    if not OCTOKIT_EXAMPLES.exists():
        if os.environ.get("CI"):
            pytest.fail("@octokit/webhooks-examples is missing: scripts/setup-ci-tools installs it")
        pytest.skip("@octokit/webhooks-examples is not installed (scripts/setup-ci-tools installs it)")
    examples = _octokit_examples()
    for example in examples.get(event, []):
        if action is None or example.get("action") == action:
            return delivered_now(copy.deepcopy(example))
    raise LookupError(f"@octokit/webhooks-examples has no {event} {action or ''} example")


_OCTOKIT: dict[str, list[dict]] = {}


def _octokit_examples() -> dict[str, list[dict]]:
    if not _OCTOKIT:
        for entry in json.loads(OCTOKIT_EXAMPLES.read_text(encoding="utf-8")):
            _OCTOKIT[entry["name"]] = entry["examples"]
    return _OCTOKIT


def gitlab_example(name: str) -> dict:
    """A payload example of GitLab's "Webhook events" page (tests/fixtures/gitlab-webhooks)."""
    return delivered_now(json.loads((GITLAB_EXAMPLES / f"{name}.json").read_text(encoding="utf-8")))


def delivered_now(payload: Any, at: str | None = None) -> Any:
    """``payload`` as a host would send it now (or ``at``): the times it says its pull request or
    review changed (``updated_at``, ``submitted_at``) made current, as they are in a live delivery.
    The examples were recorded years ago, and the service ignores pull request events older than
    the deliveries it keeps."""
    import datetime as dt

    stamp = at or dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    if isinstance(payload, list):
        return [delivered_now(value, stamp) for value in payload]
    if not isinstance(payload, dict):
        return payload
    for key, value in payload.items():
        if key in ("updated_at", "submitted_at") and isinstance(value, str):
            payload[key] = stamp
        elif key == "updated_at" and isinstance(value, dict) and "current" in value:
            value["current"] = stamp
        else:
            delivered_now(value, stamp)
    return payload


def github_signature(secret: str, body: bytes) -> str:
    import hashlib
    import hmac

    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def github_headers(secret: str | None, event: str, body: bytes, delivery: str | None = None) -> dict[str, str]:
    """The headers GitHub sends with a delivery; signed with ``secret`` unless it is None."""
    headers = {"Content-Type": "application/json", "X-GitHub-Event": event,
               "X-GitHub-Delivery": delivery or str(uuid.uuid4()), "User-Agent": "GitHub-Hookshot/test"}
    if secret is not None:
        headers["X-Hub-Signature-256"] = github_signature(secret, body)
    return headers


def gitlab_headers(token: str | None, event: str, delivery: str | None = None) -> dict[str, str]:
    """The headers GitLab sends with a delivery; with the secret token unless it is None."""
    headers = {"Content-Type": "application/json", "X-Gitlab-Event": event,
               "X-Gitlab-Event-UUID": str(uuid.uuid4()), "Idempotency-Key": delivery or str(uuid.uuid4())}
    if token is not None:
        headers["X-Gitlab-Token"] = token
    return headers


def benchmark_module(name: str):
    """A script of benchmarks/ imported as a module (``name`` without ``.py``), for its tests."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, module)
    spec.loader.exec_module(module)
    return module
