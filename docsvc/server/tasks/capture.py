"""The ``capture`` job: walk a capture's steps (``engines/capture``) and save the whole capture as
a ``captures`` item; a failed step fails the job and nothing is saved."""

from __future__ import annotations

import shutil
from typing import Any

from sqlalchemy import update

from ..db.tables import Item, Job, StoredFile
from ..engines.browser import VIEWPORT, ScreenshotError
from ..engines.capture import Shot, StepFailed, walk
from ..jobs.registry import JobContext, JobFailure, handler
from ..services.captures import KIND
from ..storage import FileStore


@handler(KIND)
def run(ctx: JobContext) -> dict:
    params = ctx.params
    steps = params["steps"]
    folder = ctx.scratch_dir
    try:
        # The count goes in the message: the CLI's plain progress lines count done/total as files.
        ctx.progress(f"opening {params['start_url']} in Chromium")
        try:
            shots = walk(params["start_url"], steps, folder, timeout_s=params["step_timeout_seconds"],
                         on_step=lambda n, who: ctx.progress(f"{n}/{len(steps)}: {who}"), egress=ctx.settings.egress)
        except StepFailed as exc:
            raise JobFailure("Capture step failed", str(exc)) from None
        except ScreenshotError as exc:
            raise JobFailure("Browser unavailable", str(exc)) from None
        ctx.progress("saving the capture")
        return _save(ctx, steps, shots)
    except BaseException:
        with ctx.sessions() as session:
            _forget_typed_text(ctx, session)
            session.commit()
        raise
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _forget_typed_text(ctx: JobContext, session) -> None:
    """Typed text may be a password: once the walk is over (saved, in the same transaction, or
    failed), the job row keeps only its length. (A worker that dies mid-walk leaves it for the retry.)"""
    if not any("text" in s for s in ctx.params["steps"]):
        return
    steps = [{**s, "text": f"({len(s['text'])} characters, not kept)"} if "text" in s else s
             for s in ctx.params["steps"]]
    session.execute(update(Job).where(Job.id == ctx.job_id).values(params={**ctx.params, "steps": steps}))


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
            _forget_typed_text(ctx, session)
            return ctx.complete(session, {"item_id": item_id, "title": title, "mode": "auto",
                                          "steps": [{k: v for k, v in s.items() if k != "bytes"} for s in saved]})
        except BaseException:
            session.rollback()
            if item_id is not None:
                store.delete_item_files(item_id)
            raise
