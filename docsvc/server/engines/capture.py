"""The ``capture`` job: walk a capture's steps in Debian's Chromium, screenshot the page after each
step, record each click target's size, and save the whole capture as a ``captures`` item.

A step that fails (no element for its selector within the step timeout, an address that answers an
error) fails the job with a message naming the step; nothing is saved then. The browser is the one
``engines/screenshots.py`` launches.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable
from urllib.parse import urljoin

from sqlalchemy import update

from ..db.tables import Item, Job, StoredFile
from ..jobs.registry import JobContext, JobFailure, handler
from ..services.captures import KIND
from ..storage import FileStore
from .screenshots import VIEWPORT, ScreenshotError, chromium_page


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
         on_step: Callable[[int, str], None] = lambda n, d: None) -> list[Shot]:
    """Open ``start_url``, do each step, screenshot the viewport after it. Raises StepFailed
    naming the step, or ScreenshotError when the browser itself cannot run."""
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    timeout_ms = timeout_s * 1000
    folder.mkdir(parents=True, exist_ok=True)
    shots: list[Shot] = []
    with chromium_page(VIEWPORT) as page:
        page.set_default_timeout(timeout_ms)

        def goto(address: str, who: str) -> None:
            response = page.goto(address, wait_until="load")
            if response is not None and response.status >= 400:
                raise StepFailed(f"{who}: {address} answered HTTP {response.status}")

        def settle() -> None:
            """Let what a click started (a new page, a fetch) finish before the screenshot; a page
            that keeps polling never goes idle, so it is shot as it is after a short wait."""
            try:
                page.wait_for_load_state("networkidle", timeout=min(timeout_ms, SETTLE_MS))
            except PlaywrightTimeout:
                pass

        try:
            goto(start_url, "start address")
        except PlaywrightError as exc:
            raise StepFailed(f"start address {start_url}: {str(exc).splitlines()[0]}") from None
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
                raise StepFailed(f"{who}: {str(exc).splitlines()[0]}") from None
            path = folder / f"{step_id}-{step['action']}.png"
            page.screenshot(path=str(path))
            shots.append(Shot(step_id, path, target, page.url))
    return shots


@handler(KIND)
def run(ctx: JobContext) -> dict:
    params = ctx.params
    steps = params["steps"]
    folder = Path(ctx.settings.data_dir) / "tmp" / ctx.job_id
    try:
        # The count goes in the message: the CLI's plain progress lines count done/total as files.
        ctx.progress(f"opening {params['start_url']} in Chromium")
        try:
            shots = walk(params["start_url"], steps, folder, timeout_s=params["step_timeout_seconds"],
                         on_step=lambda n, who: ctx.progress(f"{n}/{len(steps)}: {who}"))
        except StepFailed as exc:
            raise JobFailure("Capture step failed", str(exc)) from None
        except ScreenshotError as exc:
            raise JobFailure("Browser unavailable", str(exc)) from None
        ctx.progress("saving the capture")
        return _save(ctx, steps, shots)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        _forget_typed_text(ctx)


def _forget_typed_text(ctx: JobContext) -> None:
    """Typed text may be a password: once the walk is over (saved or failed), the job row keeps
    only its length. (A worker that dies mid-walk leaves it for the retry.)"""
    if not any("text" in s for s in ctx.params["steps"]):
        return
    steps = [{**s, "text": f"({len(s['text'])} characters, not kept)"} if "text" in s else s
             for s in ctx.params["steps"]]
    with ctx.sessions() as session:
        session.execute(update(Job).where(Job.id == ctx.job_id).values(params={**ctx.params, "steps": steps}))
        session.commit()


def _save(ctx: JobContext, steps: list[dict[str, Any]], shots: list[Shot]) -> dict:
    """One transaction for the item and its files; on any failure the copied files go too."""
    params = ctx.params
    store = FileStore(ctx.settings.data_dir)
    item_id = None
    title = (params.get("title") or f"Capture of {params['start_url']}")[:500]
    with ctx.sessions() as session:
        try:
            item = Item(org_id=ctx.org_id, tool="captures", created_by_id=ctx.user_id, title=title,
                        data={"mode": "auto", "start_url": params["start_url"], "viewport": VIEWPORT,
                              "job_id": ctx.job_id, "steps": []})
            session.add(item)
            session.flush()
            item_id = item.id
            saved = []
            for step, shot in zip(steps, shots):
                relative, size = store.save_copy(item.id, shot.path)
                stored = StoredFile(item_id=item.id, kind="screenshot", path=relative, size=size)
                session.add(stored)
                session.flush()
                entry = {"id": shot.step_id, "action": step["action"], "description": step["description"],
                         "zoom": "default", "screenshot": relative, "screenshot_file_id": stored.id,
                         "bytes": size, "page_url": shot.page_url}
                if "selector" in step:
                    entry["selector"] = step["selector"]
                if "url" in step:
                    entry["url"] = step["url"]
                if step["action"] == "type":
                    entry["text_length"] = len(step["text"])  # the text itself may be a password
                if shot.target is not None:
                    entry["target"] = shot.target
                saved.append(entry)
            item.data = {**item.data, "steps": saved}
            session.commit()
        except BaseException:
            session.rollback()
            if item_id is not None:
                store.delete_item_files(item_id)
            raise
    return {"item_id": item_id, "title": title, "mode": "auto",
            "steps": [{k: v for k, v in s.items() if k != "bytes"} for s in saved]}
