"""The ``docflow.screenshots`` job: screenshots of a suggestion's routes under the integration's
preview, taken in Chromium (``engines/browser``), kept as the suggestion's files and marked taken."""

from __future__ import annotations

import shutil

from ..db.tables import Item, StoredFile
from ..engines.browser import ScreenshotError, take
from ..jobs.registry import JobContext, JobFailure, handler
from ..services.docflows import SCREENSHOTS as KIND
from ..services.docflows import with_screenshots
from ..storage import FileStore
from ._support import still_open


@handler(KIND)
def run_screenshots(ctx: JobContext) -> dict:
    item_id, wanted = ctx.params["item_id"], ctx.params["shots"]  # [{route, address}]
    ctx.progress(f"taking {len(wanted)} screenshot(s) in Chromium")
    folder = ctx.scratch_dir
    try:
        shots = take([w["address"] for w in wanted], folder, egress=ctx.settings.egress)
    except ScreenshotError as exc:
        raise JobFailure("Screenshot failed", str(exc)) from None
    store = FileStore(ctx.settings.data_dir)
    with ctx.sessions() as session:
        item = session.get(Item, item_id)
        if item is None:
            raise JobFailure("Unknown suggestion", f"Docflows suggestion {item_id} no longer exists")
        still_open(item, "given screenshots")
        data = dict(item.data or {})
        taken = []
        for want, (_address, path) in zip(wanted, shots):
            relative, size = store.save_copy(item_id, path)
            session.add(StoredFile(item_id=item_id, kind="screenshot", path=relative, size=size))
            taken.append({"route": want["route"], "reason": "taken on request", "file": relative, "taken": True,
                          "address": want["address"], "bytes": size})
        plan, unused = with_screenshots(data.get("screenshots") or [], taken)
        item.data = {**data, "screenshots": plan}
        taken = [{"route": t["route"], "file": t["file"], "bytes": t["bytes"]} for t in taken]
        done = ctx.complete(session, {"taken": taken})
    store.discard_uploads(unused)  # after the commit, as the uploads a shot replaced
    shutil.rmtree(folder, ignore_errors=True)
    return done
