"""Screenshots of the product's preview, taken with Playwright driving Debian's Chromium.

Only addresses under the integration's preview host are allowed: a route (``/settings``) is
joined to the preview URL (``{branch}`` and ``{sha}`` filled in); a full address must have the
preview's scheme, host and port. Anything else (another host, a private address, ``file:``) is
refused before a browser starts. No browser is ever downloaded: ``DOCSVC_SERVER_CHROMIUM``
(default ``/usr/bin/chromium``) names the executable.
"""

from __future__ import annotations

import os
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Iterator
from urllib.parse import urljoin, urlparse

from ...egress import Egress
from .egress_proxy import EgressProxy

if TYPE_CHECKING:
    from playwright.sync_api import Page

# No UDP leaves the browser past the egress proxy: QUIC is off, and WebRTC sends nothing that the
# proxy does not carry (disable_non_proxied_udp: no host/STUN/UDP-TURN candidates, TURN over TCP
# through the proxy, which refuses internal addresses). A page's RTCPeerConnection with
# stun:127.0.0.1:... otherwise sent STUN packets straight to an internal address. Chromium 156 reads
# --webrtc-ip-handling-policy; --force-webrtc-ip-handling-policy is the older builds' name (a
# switch a build does not know is ignored).
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
                 "--webrtc-ip-handling-policy=disable_non_proxied_udp",
                 "--force-webrtc-ip-handling-policy=disable_non_proxied_udp"]
VIEWPORT = {"width": 1280, "height": 800}


class ScreenshotError(Exception):
    """A route cannot be shot; the message says why."""


def preview_base(pattern: str | None, branch: str | None, sha: str | None) -> str:
    if not pattern:
        raise ScreenshotError("the integration has no preview URL pattern, so no page can be shot")
    if "{branch}" in pattern and not branch:
        raise ScreenshotError("the preview URL pattern uses {branch}, and the pull request has no head branch")
    if "{sha}" in pattern and not sha:
        raise ScreenshotError("the preview URL pattern uses {sha}, and the pull request has no head SHA")
    return pattern.replace("{branch}", branch or "").replace("{sha}", sha or "")


def resolve(route: str, base: str) -> str:
    """The address to shoot for ``route``, or ScreenshotError when it leaves the preview host."""
    allowed = urlparse(base)
    if allowed.scheme not in ("http", "https"):
        raise ScreenshotError(f"the preview URL {base} is not http or https")
    if not route.strip():
        raise ScreenshotError("a route is empty: give the page's path, such as / or /settings")
    if route.startswith("/") and not route.startswith("//"):
        target = urljoin(base if base.endswith("/") else base + "/", route.lstrip("/"))
    else:
        target = route
    parsed = urlparse(target)
    if parsed.scheme not in ("http", "https"):
        kind = f"{parsed.scheme}: addresses" if parsed.scheme else "a path without a leading /"
        raise ScreenshotError(f"{route}: only pages of the preview ({allowed.netloc}) can be shot, not {kind}")
    if (parsed.scheme, parsed.hostname, parsed.port) != (allowed.scheme, allowed.hostname, allowed.port):
        raise ScreenshotError(f"{route}: only pages under the preview host {allowed.netloc} can be shot")
    return target


def refusal_for(refused: list[str], url: str, *, or_latest: bool = False) -> str | None:
    """Why the egress proxy refused ``url``: the latest refusal naming its host. The browser's own
    background requests are refused too, so a refusal about another host is not the page's; with
    ``or_latest`` (a navigation that failed without an answer) the latest one stands in."""
    host = urlparse(url).hostname or ""
    found = next((r for r in reversed(refused) if host and host in r), None)
    return found or (refused[-1] if or_latest and refused else None)


@contextmanager
def chromium_page(viewport: dict[str, int] | None = None, egress: Egress | None = None,
                  refused: list[str] | None = None) -> Iterator["Page"]:
    """A page in a fresh headless Debian Chromium, closed afterwards (shared by every engine that
    drives a browser). Every connection the page makes, redirect hops included, goes through an
    EgressProxy that holds it to the egress policy (the strict default when none is given);
    refusals are added to ``refused``. Playwright errors raised while the page is in use become
    ScreenshotError."""
    egress = egress or Egress()
    refused = refused if refused is not None else []
    try:
        from playwright.sync_api import Error as PlaywrightError
        from playwright.sync_api import sync_playwright
    except ImportError:
        raise ScreenshotError("Playwright is not installed (pip install 'docsvc-cli[server]')") from None
    executable = os.environ.get("DOCSVC_SERVER_CHROMIUM", "/usr/bin/chromium")
    if not Path(executable).exists():
        raise ScreenshotError(f"no Chromium at {executable} (apt-get install chromium, or set "
                              "DOCSVC_SERVER_CHROMIUM)")
    try:
        with ExitStack() as stack, sync_playwright() as p:
            args = list(CHROMIUM_ARGS)
            if not egress.allow_internal:  # with every address allowed there is nothing to hold
                proxy = stack.enter_context(EgressProxy(egress, refused))
                # <-loopback> drops Chromium's own rule that loopback never goes through a proxy.
                args += [f"--proxy-server={proxy.address}", "--proxy-bypass-list=<-loopback>"]
            browser = p.chromium.launch(executable_path=executable, headless=True, args=args)
            try:
                yield browser.new_page(viewport=viewport or VIEWPORT)
            finally:
                browser.close()
    except PlaywrightError as exc:
        raise ScreenshotError(refused[-1] if refused else str(exc).splitlines()[0]) from None


def take(addresses: list[str], folder: Path, timeout_ms: int = 30000,
         egress: Egress | None = None) -> list[tuple[str, Path]]:
    """Shoot each address into ``folder``; returns (address, PNG path) pairs."""
    folder.mkdir(parents=True, exist_ok=True)
    shots = []
    refused: list[str] = []
    with chromium_page(egress=egress, refused=refused) as page:
        for n, address in enumerate(addresses, 1):
            response = page.goto(address, wait_until="load", timeout=timeout_ms)
            if response is not None and response.status >= 400:
                raise ScreenshotError(refusal_for(refused, response.url) or f"{address} answered {response.status}")
            target = folder / f"shot-{n}-{abs(hash(address)) % 10**8}.png"
            page.screenshot(path=str(target), full_page=True)
            shots.append((address, target))
    return shots
