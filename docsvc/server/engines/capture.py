"""A capture's walk: its steps in Debian's Chromium, a screenshot of the page after each step, and
each click target's size.

A step that fails (no element for its selector within the step timeout, an address that answers an
error) raises StepFailed naming the step. The browser is the one ``engines/browser.py`` launches.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable
from urllib.parse import urljoin

from .browser import VIEWPORT, chromium_page, refusal_for
from ...egress import Egress


SETTLE_MS = 3000


class StepFailed(Exception):
    """A step could not be done; the message names the step."""


@dataclass
class Shot:
    step_id: str
    path: Path
    target: dict[str, float] | None  # the click target's box size in CSS px
    page_url: str


def _describe(step_id: str, step: dict[str, Any]) -> str:
    what = step.get("selector") or step.get("url") or ""
    return f"step {step_id} ({step['action']} {what}: {step['description']!r})"


def walk(start_url: str, steps: list[dict[str, Any]], folder: Path, *, timeout_s: float,
         on_step: Callable[[int, str], None] = lambda n, d: None, egress: Egress | None = None) -> list[Shot]:
    """Open ``start_url``, do each step, screenshot the viewport after it. Raises StepFailed
    naming the step (or the address the egress policy refused on the way), or ScreenshotError when
    the browser itself cannot run."""
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    timeout_ms = timeout_s * 1000
    folder.mkdir(parents=True, exist_ok=True)
    shots: list[Shot] = []
    refused: list[str] = []
    with chromium_page(VIEWPORT, egress, refused) as page:
        page.set_default_timeout(timeout_ms)

        def goto(address: str, who: str) -> None:
            try:
                response = page.goto(address, wait_until="load")
            except PlaywrightError as exc:
                reason = refusal_for(refused, address, or_latest=True)
                raise StepFailed(f"{who}: {reason or str(exc).splitlines()[0]}") from None
            if response is not None and response.status >= 400:
                # The proxy's 403 for a refused hop: say why, not just the status.
                reason = refusal_for(refused, response.url)
                raise StepFailed(f"{who}: {reason or f'{address} answered HTTP {response.status}'}")

        def settle() -> None:
            """Let what a click started (a new page, a fetch) finish before the screenshot; a page
            that keeps polling never goes idle, so it is shot as it is after a short wait."""
            try:
                page.wait_for_load_state("networkidle", timeout=min(timeout_ms, SETTLE_MS))
            except PlaywrightTimeout:
                pass

        goto(start_url, f"start address {start_url}")
        for n, step in enumerate(steps, 1):
            step_id = f"s{n}"
            who = _describe(step_id, step)
            on_step(n, who)
            target = None
            try:
                if step["action"] == "navigate":
                    goto(urljoin(start_url, step["url"]), who)
                else:
                    element = page.locator(step["selector"]).first
                    try:
                        element.wait_for(state="visible")
                    except PlaywrightTimeout:
                        raise StepFailed(f"{who}: no visible element matches {step['selector']!r} within "
                                         f"{timeout_s:g} s") from None
                    if step["action"] == "click":
                        box = element.bounding_box()
                        if box is not None:
                            target = {"width": round(box["width"], 1), "height": round(box["height"], 1)}
                        element.click()
                        settle()
                    else:
                        element.fill(step["text"])
            except StepFailed:
                raise
            except PlaywrightError as exc:
                raise StepFailed(f"{who}: {refused[-1] if refused else str(exc).splitlines()[0]}") from None
            path = folder / f"{step_id}-{step['action']}.png"
            page.screenshot(path=str(path))
            shots.append(Shot(step_id, path, target, page.url))
    return shots
