"""The egress policy (engines/egress.py), its proxy for the browser (engines/egress_proxy.py) and
the checkout paths the service writes (engines/git.py): tables of what is refused and why."""

from __future__ import annotations

import contextlib
import http.server
import os
import shutil
import socket
import ssl
import subprocess
import threading
from pathlib import Path

import pytest

from docsvc.egress import Egress, EgressRefused, internal_address
from docsvc.server.engines.egress_proxy import EgressProxy
from docsvc.server.engines.git import (GitError, Mirror, UnsafePath, _remote_options, ls_remote_head, repo_path,
                                       write_inside)


@pytest.mark.parametrize("address, internal", [
    ("127.0.0.1", True), ("127.8.9.10", True), ("::1", True), ("10.1.2.3", True), ("172.16.0.1", True),
    ("192.168.1.1", True), ("169.254.169.254", True), ("fe80::1", True), ("fd00::1", True), ("fc00::1", True),
    ("0.0.0.0", True), ("::", True), ("224.0.0.1", True), ("ff02::1", True), ("100.64.0.1", True),
    ("::ffff:127.0.0.1", True), ("::ffff:10.0.0.1", True), ("2002:7f00:1::", True), ("64:ff9b::a9fe:a9fe", True),
    ("fec0::1", True), ("93.184.216.34", False), ("2606:4700::1111", False), ("8.8.8.8", False),
    ("::ffff:8.8.8.8", False),
])
def test_internal_addresses(address, internal):
    assert internal_address(address) is internal


@pytest.mark.parametrize("url", ["http://169.254.169.254/latest/", "http://[::ffff:127.0.0.1]:8080/", "http://localhost/",
                                 "http://app.localhost/", "http://0x7f.1/", "http://2130706433/", "http://[::1]/",
                                 "https://10.0.0.5/", "http://0.0.0.0:8080/"])
def test_literal_internal_addresses_are_refused_without_dns(url):
    with pytest.raises(EgressRefused, match="internal address"):
        Egress().check_literal(url)


def test_a_host_name_is_left_to_the_connection_and_allowed_entries_pass():
    Egress().check_literal("https://docs.example.com/")  # no DNS now: checked when connecting
    Egress.from_setting("127.0.0.1:8080").check_literal("http://127.0.0.1:8080/x")
    with pytest.raises(EgressRefused):
        Egress.from_setting("127.0.0.1:8080").check_literal("http://127.0.0.1:8081/x")
    Egress.from_setting("internal").check_literal("http://10.0.0.1/")


def test_names_that_resolve_inside_are_refused():
    with pytest.raises(EgressRefused, match=r"localhost resolves to an internal address \(127\.0\.0\.1|::1"):
        Egress().check_url("http://localhost:9/")
    with pytest.raises(EgressRefused, match="only http and https"):
        Egress().check_url("file:///etc/passwd")
    assert Egress.from_setting("localhost").addresses("localhost", 80)


@pytest.mark.parametrize("location, reason", [
    ("--upload-pack=touch /tmp/x", "starts with '-'"),
    ("http://git.example.com/repo.git", "only https://, ssh://"),
    ("git://git.example.com/repo.git", "only https://, ssh://"),
    ("ext::sh -c touch% /tmp/x", "only https://, ssh://"),
    ("https://127.0.0.1/repo.git", "internal address"),
    ("ssh://git@[::1]/repo.git", "internal address"),
    ("git@127.0.0.1:org/repo.git", "internal address"),
])
def test_git_remotes_refused(location, reason):
    with pytest.raises(EgressRefused, match=reason):
        Egress().check_git(location)


def test_local_repositories_follow_their_setting(tmp_path):
    Egress().check_git(str(tmp_path))
    Egress().check_git(f"file://{tmp_path}")
    closed = Egress.from_setting("", allow_local_repos=False)
    for location in (str(tmp_path), f"file://{tmp_path}"):
        with pytest.raises(EgressRefused, match="local repositories are off"):
            closed.check_git(location)


# -- the browser's proxy ------------------------------------------------------------------------

@pytest.fixture
def page_server():
    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = f"you asked for {self.path}".encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server.server_address[1]
    server.shutdown()


def _through(proxy: str, raw: bytes) -> bytes:
    host, port = proxy.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(raw)
        out = b""
        while chunk := sock.recv(65536):
            out += chunk
        return out


def test_the_proxy_forwards_what_is_allowed_and_refuses_the_rest(page_server):
    refused: list[str] = []
    with EgressProxy(Egress.from_setting(f"127.0.0.1:{page_server}"), refused) as proxy:
        ok = _through(proxy.address, f"GET http://127.0.0.1:{page_server}/a?b=1 HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        assert ok.startswith(b"HTTP/1.0 200") and ok.endswith(b"you asked for /a?b=1")
        no = _through(proxy.address, b"GET http://169.254.169.254/latest/ HTTP/1.1\r\nHost: x\r\n\r\n")
        assert no.startswith(b"HTTP/1.1 403") and b"internal address" in no
        tunnel = _through(proxy.address, b"CONNECT 10.0.0.1:443 HTTP/1.1\r\nHost: 10.0.0.1:443\r\n\r\n")
        assert tunnel.startswith(b"HTTP/1.1 403")
        # A tunnel to an allowed host carries bytes both ways (here plain HTTP inside it).
        opened = _through(proxy.address, f"CONNECT 127.0.0.1:{page_server} HTTP/1.1\r\n\r\n".encode() +
                          b"GET /t HTTP/1.0\r\n\r\n")
        assert opened.startswith(b"HTTP/1.1 200 Connection Established") and opened.endswith(b"you asked for /t")
    assert len(refused) == 2 and all("internal address" in r for r in refused)


# -- paths written into a checkout ---------------------------------------------------------------

@pytest.mark.parametrize("path, reason", [
    ("", "empty"), (".git/config", ".git/"), ("docs/.Git/hooks/pre-commit", ".git/"), ("/etc/passwd", "absolute"),
    ("docs/../../etc/passwd", "leaves the repository"), ("docs/", "folder"), ("a\0b", "NUL"),
    ("C:/Windows/x", "absolute"), ("d/" + "x" * 256, "too long"),
])
def test_repo_paths_refused(path, reason):
    with pytest.raises(UnsafePath, match=reason):
        repo_path(path)


def test_repo_paths_are_cleaned():
    assert repo_path("./docs//api/./openapi.yaml") == "docs/api/openapi.yaml"


def test_writes_never_follow_a_symbolic_link(tmp_path: Path):
    checkout, outside = tmp_path / "checkout", tmp_path / "outside"
    (checkout / "docs").mkdir(parents=True)
    outside.mkdir()
    os.symlink(outside, checkout / "docs" / "api")
    os.symlink(outside / "target.txt", checkout / "docs" / "link.md")
    with pytest.raises(UnsafePath, match="docs/api is a symbolic link"):
        write_inside(checkout, "docs/api/openapi.yaml", "x")
    with pytest.raises(UnsafePath, match="docs/link.md is a symbolic link"):
        write_inside(checkout, "docs/link.md", "x")
    assert list(outside.iterdir()) == []
    written = write_inside(checkout, "docs/new/page.md", "hello\n")
    assert written.read_text() == "hello\n" and written.parent == checkout / "docs" / "new"


def test_the_refusal_shown_is_the_one_about_the_page():
    from docsvc.server.engines.browser import refusal_for

    refused = ["127.0.0.1 resolves to an internal address (127.0.0.1)", "accounts.google.com does not resolve"]
    assert refusal_for(refused, "http://127.0.0.1:9/api").startswith("127.0.0.1 resolves")
    assert refusal_for(refused, "http://example.com/") is None  # a real 4xx of the page stays its own
    assert refusal_for(refused, "http://example.com/", or_latest=True) == "accounts.google.com does not resolve"


# -- git's HTTPS: no redirect past the policy, no second DNS lookup --------------------------------

class _Recorder(http.server.BaseHTTPRequestHandler):
    """Records each path asked for; answers ``self.server.answer(path)`` (status, headers)."""

    def do_GET(self):
        self.server.seen.append(self.path)
        status, headers = self.server.answer(self.path)
        self.send_response(status)
        for name, value in {**headers, "Content-Length": "0"}.items():
            self.send_header(name, value)
        self.end_headers()

    def log_message(self, *args):
        pass


@contextlib.contextmanager
def _listener(answer, tls: tuple[str, str] | None = None):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    server.seen, server.answer = [], answer
    if tls:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(*tls)
        server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def tls_cert(tmp_path, monkeypatch):
    """A self-signed certificate for 127.0.0.1 and rebind.invalid, trusted by git (GIT_SSL_CAINFO)."""
    if not shutil.which("openssl"):
        pytest.skip("openssl is not installed")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=docsvc-test",
                    "-addext", "subjectAltName=IP:127.0.0.1,DNS:rebind.invalid", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)
    monkeypatch.setenv("GIT_SSL_CAINFO", str(cert))
    return str(cert), str(key)


def test_git_follows_no_redirect_past_the_policy(tls_cert):
    with _listener(lambda path: (404, {})) as internal:
        moved = lambda path: (302, {"Location": f"http://127.0.0.1:{internal.server_address[1]}/internal{path}"})
        with _listener(moved, tls_cert) as allowed:
            port = allowed.server_address[1]
            egress = Egress.from_setting(f"127.0.0.1:{port}")
            with pytest.raises(GitError, match="returned error: 302"):
                ls_remote_head(f"https://127.0.0.1:{port}/repo.git", "main", egress=egress)
            with pytest.raises(GitError):
                Mirror.for_url(Path(tls_cert[0]).parent / "mirrors", f"https://127.0.0.1:{port}/repo.git",
                               egress).fetch()
            assert allowed.seen and internal.seen == []


def test_redirects_stay_gits_own_when_every_address_is_allowed():
    assert _remote_options("https://git.example.com/r.git", Egress.from_setting("internal"), []) == []
    assert "http.followRedirects=false" in _remote_options("https://git.example.com/r.git", Egress(), [])


def test_git_connects_to_the_addresses_the_policy_checked(tls_cert, monkeypatch):
    """DNS rebinding: the policy's lookup of rebind.invalid answers an address it lets through;
    git must connect there and not look the name up again (the real DNS has no such name)."""
    from docsvc import egress as egress_module

    real = socket.getaddrinfo
    monkeypatch.setattr(socket, "getaddrinfo", lambda host, *a, **k: real("127.0.0.1", *a, **k)
                        if host == "rebind.invalid" else real(host, *a, **k))
    monkeypatch.setattr(egress_module, "internal_address", lambda address: False)  # "public", for the check
    with _listener(lambda path: (404, {}), tls_cert) as server:
        port = server.server_address[1]
        with pytest.raises(GitError, match="not found"):
            ls_remote_head(f"https://rebind.invalid:{port}/repo.git", "main", egress=Egress())
        assert server.seen == ["/repo.git/info/refs?service=git-upload-pack"]
    assert _remote_options("https://[2606:4700::1111]/r.git", Egress(), []) == ["-c", "http.followRedirects=false"]
    assert _remote_options("https://git.example.com/r.git", Egress(), ["93.184.216.34", "2606:4700::1111"])[-1] == \
        "http.curloptResolve=git.example.com:443:93.184.216.34,[2606:4700::1111]"


# -- the browser: WebRTC sends nothing past the proxy ------------------------------------------------

_WEBRTC_PAGE = """<!doctype html><title>rtc</title><script>
window.candidates = [];
const pc = new RTCPeerConnection({iceServers: [{urls: 'stun:127.0.0.1:%(udp)d'},
  {urls: 'turn:127.0.0.1:%(udp)d?transport=udp', username: 'u', credential: 'p'},
  {urls: 'turn:127.0.0.1:%(tcp)d?transport=tcp', username: 'u', credential: 'p'}]});
pc.onicecandidate = e => { if (e.candidate) window.candidates.push(e.candidate.candidate); };
pc.createDataChannel('x');
pc.createOffer().then(offer => pc.setLocalDescription(offer));
</script>"""


def test_webrtc_sends_no_packet_to_an_internal_address():
    """A captured page's RTCPeerConnection gathers no UDP candidates and reaches no STUN/TURN server
    past the egress proxy (its TCP goes through the proxy, which refuses internal addresses)."""
    import time

    from docsvc.server.engines.browser import chromium_page
    from tests.support import require_chromium, serve_html

    require_chromium()
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp, socket.socket() as tcp:
        udp.bind(("127.0.0.1", 0))
        tcp.bind(("127.0.0.1", 0))
        tcp.listen(8)
        ports = {"udp": udp.getsockname()[1], "tcp": tcp.getsockname()[1]}
        with serve_html(lambda path: _WEBRTC_PAGE % ports) as site:
            refused: list[str] = []
            with chromium_page(egress=Egress.from_setting(site.removeprefix("http://")), refused=refused) as page:
                page.goto(site + "/rtc")
                time.sleep(3)  # ICE gathering sends its STUN binding requests within the first second
                candidates = page.evaluate("window.candidates")
        udp.setblocking(False)
        tcp.setblocking(False)
        with pytest.raises(BlockingIOError):
            print("UDP packet reached the internal listener:", udp.recvfrom(2048))
        with pytest.raises(BlockingIOError):
            print("TCP connection reached the internal listener:", tcp.accept())
    assert not [c for c in candidates if " udp " in c.lower()], candidates


def test_a_remote_checked_when_registered_asks_no_dns():
    # The host is resolved at each fetch; registering only refuses what is written as internal.
    assert Egress().check_git("https://no-such-host.invalid/repo.git", resolve=False) == []
    for location in ("https://127.0.0.1/repo.git", "git@[::1]:org/repo.git", "ssh://localhost/repo.git"):
        with pytest.raises(EgressRefused, match="internal address"):
            Egress().check_git(location, resolve=False)
    with pytest.raises(EgressRefused, match="only https://"):
        Egress().check_git("ftp://x/y", resolve=False)
    assert Egress.from_setting("internal").check_git("https://127.0.0.1/repo.git", resolve=False) == []
