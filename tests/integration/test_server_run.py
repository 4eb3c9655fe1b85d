"""``docsvc-server run`` as a user starts it: it says where it serves only once it answers there, a
port in use is one line (exit 2) with no such announcement, and a start is not buried in Alembic's
plugin chatter; a database it cannot use is one line, whatever the reason."""

from __future__ import annotations

import signal
import socket
import subprocess
import time

import httpx
import pytest

from tests.support import LocalService, clean_env, command, free_port


def _service(tmp_path) -> LocalService:
    return LocalService(db_url=f"sqlite:///{tmp_path / 'd.db'}", workdir=tmp_path)


def test_a_port_in_use_is_one_line_and_nothing_is_announced(tmp_path):
    svc = _service(tmp_path)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([*command("docsvc-server"), "run", "--port", str(port)], cwd=tmp_path, env=svc.env(),
                              capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines()[-1] == f"Error: port {port} is in use"
    assert "docsvc local service" not in done.stderr and "Traceback" not in done.stderr
    assert "Application startup" not in done.stderr  # refused before the app and its workers start


def test_the_announcement_comes_once_it_answers_without_alembic_plugin_noise(tmp_path):
    svc = _service(tmp_path)
    process = subprocess.Popen([*command("docsvc-server"), "run", "--port", str(svc.port), "--log-level", "info"],
                               cwd=tmp_path, env=svc.env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               stdin=subprocess.DEVNULL, text=True)
    try:
        lines: list[str] = []
        deadline = time.monotonic() + 60
        while not (lines and lines[-1].startswith("docsvc local service")) and time.monotonic() < deadline:
            lines.append(process.stderr.readline())
            assert lines[-1], "docsvc-server exited before announcing"
        announced = lines[-1]
        assert f"http://127.0.0.1:{svc.port}/api/v1" in announced
        # Said only once it answers: the very next request is served.
        assert httpx.get(svc.base_url + "/healthz", timeout=5).status_code == 200
    finally:
        process.send_signal(signal.SIGTERM)
        rest = process.communicate(timeout=30)[1]
    log = "".join(lines) + rest
    assert "alembic.runtime.plugins" not in log


@pytest.mark.parametrize("args", [["keys", "list", "--org", "x"], ["migrate"], ["run", "--port", "{port}"],
                                  ["worker"]])
@pytest.mark.parametrize("content, reason", [
    (b"x\n", "file is not a database"),
    (None, "unable to open database file"),  # the URL names a folder
])
def test_a_database_it_cannot_use_is_one_line_naming_it(tmp_path, args, content, reason):
    db = tmp_path / "bad.db"
    if content is None:
        db.mkdir()
    else:
        db.write_bytes(content)
    url = f"sqlite:///{db}"
    args = [a.replace("{port}", str(free_port())) for a in args]
    done = subprocess.run([*command("docsvc-server"), "--db", url, *args], cwd=tmp_path, env=clean_env(),
                          capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=120)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.splitlines()[-1] == f"Error: cannot use the database {url}: {reason}"
    assert content is None or db.read_bytes() == content  # left as it was
