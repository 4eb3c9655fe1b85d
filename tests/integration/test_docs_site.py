"""The documentation site, built strictly as `scripts/docs` builds it, opened in Chromium.

The build runs the real generators (the CLI, CI, settings, HTTP API, client and Helm reference,
the Docflows pictures); a few pages are then served over loopback HTTP and opened in the browser the
project drives (Playwright, Debian's Chromium): they render, every internal link on them leads to
a page that exists (and to an anchor on it that exists), the pictures load, and Material's search,
which runs in the page on ``search/search_index.json``, finds a command by its name.
"""

from __future__ import annotations

import functools
import http.server
import os
import re
import subprocess
import sys
import threading
from pathlib import Path
from urllib.parse import urldefrag, urljoin, urlparse
from urllib.request import urlopen

import pytest

from tests.support import require_chromium

ROOT = Path(__file__).resolve().parents[2]
PAGES = ("", "guides/docflows/", "reference/cli/repos/", "reference/http-api/", "ci/gitlab/")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    try:
        import mkdocs  # noqa: F401
    except ImportError:  # the test must build the site, never skip it
        pytest.fail("mkdocs is missing: scripts/test installs the docs extra (scripts/setup server,postgres,dev,docs)")
    require_chromium()
    out = tmp_path_factory.mktemp("site")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    built = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
                           cwd=ROOT, env=env, capture_output=True, text=True, timeout=240)
    assert built.returncode == 0, built.stderr[-3000:]
    handler = functools.partial(_Quiet, directory=str(out))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield out, f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


@pytest.fixture(scope="module")
def page(site):
    from playwright.sync_api import sync_playwright

    from docsvc.server.engines.browser import CHROMIUM_ARGS

    executable = os.environ.get("DOCSVC_SERVER_CHROMIUM", "/usr/bin/chromium")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS)
        try:
            yield browser.new_page()
        finally:
            browser.close()


def _ids(url: str, cache: dict[str, set[str] | None]) -> set[str] | None:
    """The element ids of the page at ``url``, or None when it is not there."""
    if url not in cache:
        try:
            with urlopen(url, timeout=10) as answer:
                html = answer.read().decode("utf-8")
            cache[url] = set(re.findall(r'\bid="([^"]+)"', html))
        except OSError:
            cache[url] = None
    return cache[url]


@pytest.mark.parametrize("path", PAGES)
def test_pages_render_and_their_links_resolve(site, page, path):
    _, base = site
    answer = page.goto(base + path, wait_until="load")
    assert answer is not None and answer.status == 200
    heading = page.locator("article h1").first.inner_text()
    assert heading.strip()
    links = page.eval_on_selector_all("article a[href], nav a[href]", "els => els.map(e => e.href)")
    assert links
    cache: dict[str, set[str] | None] = {}
    broken = []
    for link in links:
        if urlparse(link).netloc != urlparse(base).netloc:
            continue
        target, anchor = urldefrag(link)
        ids = _ids(target, cache)
        if ids is None or (anchor and anchor not in ids):
            broken.append(link)
    assert not broken, f"{base + path}: links to nothing: {broken[:10]}"
    for src, width in page.eval_on_selector_all("article img", "els => els.map(e => [e.src, e.naturalWidth])"):
        assert width > 0, f"{src} did not load"


def test_the_docflows_guide_shows_the_comment_and_the_job_summary(site, page):
    out, base = site
    page.goto(base + "guides/docflows/", wait_until="load")
    sources = page.eval_on_selector_all("article img", "els => els.map(e => e.getAttribute('src'))")
    names = {Path(urljoin(base + "guides/docflows/", s)).name for s in sources}
    assert {"docflow-comment.png", "docflow-job-summary.png"} <= names
    assert (out / "images" / "docflow-comment.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # The review cycle, as Mermaid (Material draws it with mermaid.js, which it loads from a CDN).
    built = (out / "guides" / "docflows" / "index.html").read_text(encoding="utf-8")
    assert built.count('<pre class="mermaid"><code>flowchart') == 1


def test_search_finds_a_command_by_its_name(site, page):
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    _, base = site
    page.goto(base, wait_until="load")
    page.keyboard.press("/")  # Material's shortcut to the search box
    box, result = page.locator("input.md-search__input"), page.locator(".md-search-result__item").first
    box.fill("request-sync")
    # Material's search worker builds its index after the page loads: a query typed before it is
    # ready gets no answer (seen on a busy machine), so it is typed again until one comes.
    for attempt in range(4):
        try:
            result.wait_for(timeout=10000)
            break
        except PlaywrightTimeout:
            if attempt == 3:
                raise
            box.press("Backspace")
            box.type("c")
    assert "request-sync" in page.locator(".md-search-result").inner_text()
    hrefs = page.eval_on_selector_all(".md-search-result__item a", "els => els.map(e => e.href)")
    assert any("/reference/cli/repos/" in href for href in hrefs), hrefs
