"""Settings through the real CLI: the missing-key rule, malformed files, the git warning."""

import socket
import subprocess

import pytest

from docsvc.cli.examples import examples_of
from tests.support import free_port, run_cli
from tests.unit.test_cli_help import LEAVES, argv_of, example_files

# Every command must stop before any network call: point them at a port nobody listens on.
COMMANDS = [
    ["items", "list", "captures"],
    ["items", "tag", "captures", "1", "--writer", "me"],
    ["items", "status", "captures", "1", "done", "--claim"],
    ["items", "rename", "captures", "1", "New"],
    ["items", "delete", "captures", "1", "--yes"],
    ["releases", "list"],
    ["admin", "users", "list"],
    ["admin", "integrations", "list"],
    ["mywork"],
]


@pytest.fixture()
def listener():
    """A socket that counts connection attempts, to prove no network call was made."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    sock.setblocking(False)
    yield sock
    sock.close()


def connections(sock) -> int:
    count = 0
    while True:
        try:
            conn, _ = sock.accept()
        except BlockingIOError:
            return count
        conn.close()
        count += 1


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a[:2]))
def test_missing_key_prints_exactly_one_line_and_exits_4(tmp_path, listener, args):
    url = f"http://127.0.0.1:{listener.getsockname()[1]}"
    result = run_cli(*args, key=None, base_url=url, cwd=tmp_path)
    assert result.returncode == 4
    assert result.stderr == "Error: DOCSVC_API_KEY missing\n"
    assert result.stdout == ""
    assert connections(listener) == 0


# Commands that need no key: they never reach the service, or they are how a key is given.
KEYLESS = {("login",), ("logout",), ("completion",), ("config", "list"), ("bundle",), ("ci", "init")}


@pytest.mark.parametrize("path", [path for path, _ in LEAVES if path not in KEYLESS], ids=" ".join)
def test_every_command_without_a_key_stops_at_once_with_the_one_line(tmp_path, listener, path):
    command = dict(LEAVES)[path]
    argv = argv_of(examples_of(command)[0])
    example_files(argv, tmp_path, b"{}\n")
    (tmp_path / "docsvc.yaml").write_text("integration_id: 3\n")  # what docflow and sync read besides the key
    result = run_cli(*argv, key=None, base_url=f"http://127.0.0.1:{listener.getsockname()[1]}", cwd=tmp_path)
    assert (result.returncode, result.stderr, result.stdout) == (4, "Error: DOCSVC_API_KEY missing\n", "")
    assert connections(listener) == 0


def test_help_needs_no_key(tmp_path):
    result = run_cli("--help", key=None, base_url=None, cwd=tmp_path)
    assert result.returncode == 0 and "items" in result.stdout and "mywork" in result.stdout


def test_key_from_the_file_is_used(tmp_path):
    (tmp_path / "docsvc.yaml").write_text(f"api_key: dsv_from_file\nbase_url: http://127.0.0.1:{free_port()}\n")
    result = run_cli("mywork", key=None, base_url=None, cwd=tmp_path)
    # It got past the key check and tried the (closed) port: a connection error, exit 1.
    assert result.returncode == 1
    assert result.stderr.startswith("Error: ") and "dsv_from_file" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("text, message", [
    ("api_key: k\nbase_url: a: b\n", "Error: docsvc.yaml: not valid YAML at line 2\n"),
    ("api_key: k\nintegration_id: abc\n", "Error: docsvc.yaml: integration_id must be an integer, got 'abc'\n"),
])
def test_malformed_file_is_one_line_exit_2(tmp_path, text, message):
    (tmp_path / "docsvc.yaml").write_text(text)
    result = run_cli("mywork", key=None, base_url=None, cwd=tmp_path)
    assert (result.returncode, result.stderr) == (2, message)


def test_a_file_that_is_not_utf8_is_one_line_exit_2(tmp_path):
    (tmp_path / "docsvc.yaml").write_bytes(b"\xff\xfe\x00")
    result = run_cli("mywork", key=None, base_url=None, cwd=tmp_path)
    assert (result.returncode, result.stderr) == (2, "Error: docsvc.yaml: not UTF-8 text (byte 0)\n")


def one_error_line(result, code: int) -> str:
    """The one ``Error: ...`` line of a refused command (no traceback), after checking its exit code."""
    assert result.returncode == code, result.stderr
    assert "Traceback" not in result.stderr and result.stderr.startswith("Error: "), result.stderr
    assert len(result.stderr.splitlines()) == 1, result.stderr
    return result.stderr.strip()


@pytest.mark.parametrize("key", ["é", "dsv_café", "dsv_ k"])
def test_a_non_ascii_key_is_one_line_naming_its_source_exit_2(tmp_path, key):
    url = f"http://127.0.0.1:{free_port()}"
    line = one_error_line(run_cli("mywork", key=key, base_url=url, cwd=tmp_path), 2)
    assert line.startswith("Error: $DOCSVC_API_KEY: the API key must be printable ASCII") and key not in line
    (tmp_path / "docsvc.yaml").write_text(f"api_key: {key}\n")
    line = one_error_line(run_cli("mywork", key=None, base_url=url, cwd=tmp_path), 2)
    assert line.startswith("Error: ./docsvc.yaml: the API key must be printable ASCII") and key not in line


def test_login_refuses_a_non_ascii_key_and_saves_nothing(tmp_path):
    config = tmp_path / "config"
    result = run_cli("login", "--with-token", key=None, base_url=f"http://127.0.0.1:{free_port()}", cwd=tmp_path,
                     input="é\n", env={"DOCSVC_CONFIG_DIR": str(config)})
    line = one_error_line(result, 2)
    assert line.startswith("Error: the API key read from stdin must be printable ASCII") and "é" not in line
    assert not (config / "config.yaml").exists()


@pytest.mark.parametrize("flag", [True, False], ids=["--base-url", "DOCSVC_BASE_URL"])
def test_a_malformed_base_url_is_one_line_exit_2(tmp_path, flag):
    url = "http://[::1"
    result = run_cli(*(["--base-url", url] if flag else []), "mywork", key="dsv_k", base_url=None if flag else url,
                     cwd=tmp_path)
    source = "--base-url" if flag else "$DOCSVC_BASE_URL"
    assert one_error_line(result, 2) == f"Error: {source}: base URL 'http://[::1' is malformed (Invalid IPv6 URL)"


def test_a_user_or_password_in_the_base_url_is_refused_and_never_shown(tmp_path):
    """httpx would send it as Basic auth in place of the key: refused, exit 2, shown as ``***``."""
    url = f"http://ada:hunter2@127.0.0.1:{free_port()}"
    for args in (("mywork",), ("whoami",)):
        result = run_cli(*args, key="dsv_k", base_url=url, cwd=tmp_path)
        line = one_error_line(result, 2)
        assert "http://***@127.0.0.1:" in line and "the URL holds no user or password" in line
        assert "hunter2" not in result.stdout + result.stderr


@pytest.mark.parametrize("env, message", [
    ({"HTTP_PROXY": "::bogus::"}, "Error: HTTP_PROXY: not a usable proxy URL"),
    ({"HTTPS_PROXY": "socks5://ada:hunter2@127.0.0.1:1"}, "Error: HTTPS_PROXY: a SOCKS proxy needs the socksio"),
    ({"SSL_CERT_FILE": "/nonexistent"}, "Error: SSL_CERT_FILE=/nonexistent: not a readable CA bundle"),
])
def test_an_unusable_proxy_or_ca_variable_is_one_line_exit_2(tmp_path, env, message):
    # https: so that the CA file is read even without a proxy (plain http skips loading CAs).
    result = run_cli("mywork", key="dsv_k", base_url="https://docs.example.invalid", cwd=tmp_path, env=env)
    line = one_error_line(result, 2)
    assert line.startswith(message) and "hunter2" not in line


def run_bytes(*args: str | bytes, cwd, url: str) -> subprocess.CompletedProcess:
    """The real CLI with arguments given as bytes, as a shell passes what the user typed."""
    from tests.support import clean_env, command

    env = clean_env(DOCSVC_API_KEY="dsv_k", DOCSVC_BASE_URL=url, LC_ALL="C.UTF-8")
    return subprocess.run([*command("docsvc"), *args], cwd=cwd, env=env, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=120)


@pytest.mark.parametrize("args, name", [
    (["items", "rename", "chats", "6", b"a\xffb"], "'TITLE'"),
    (["items", "status", "chats", "6", "done", "--note", b"a\xffb"], "'--note'"),
    (["search", b"a\xffb"], "'QUERY'"),
])
def test_an_argument_that_is_not_utf8_is_one_line_naming_it_exit_2(tmp_path, listener, args, name):
    result = run_bytes(*args, cwd=tmp_path, url=f"http://127.0.0.1:{listener.getsockname()[1]}")
    assert one_error_line(result, 2) == f"Error: {name} is not UTF-8 text (it holds bytes that are not valid UTF-8)"
    assert connections(listener) == 0


def test_warns_when_git_tracks_the_file(tmp_path):
    (tmp_path / "docsvc.yaml").write_text(f"api_key: dsv_k\nbase_url: http://127.0.0.1:{free_port()}\n")
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    quiet = run_cli("mywork", key=None, base_url=None, cwd=tmp_path)
    assert "Warning" not in quiet.stderr
    subprocess.run(["git", "add", "docsvc.yaml"], cwd=tmp_path, check=True)
    warned = run_cli("mywork", key=None, base_url=None, cwd=tmp_path)
    assert "Warning: git tracks docsvc.yaml, which holds a secret" in warned.stderr
    assert "dsv_k" not in warned.stderr
