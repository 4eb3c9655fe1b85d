"""The ``convert`` job: spec text to a document, saved as a ``conversions`` item.

The result holds the document (unless the request said ``inline_document: false``: then the
caller fetches it from ``/conversions/<item_id>/document``), the item's id, the share link, the
title, warnings (such as ``$ref``s to other files that one string cannot resolve) and counts
(operations, schemas, keys).
"""

from __future__ import annotations

from ...endpoints import CONVERT_TARGETS
from .. import handoff
from ..db.tables import Item, StoredFile
from ..engines.convert import SpecError, convert
from ..jobs.registry import JobContext, JobFailure, handler
from ..services.conversions import KIND, new_share_key, share_url
from ..storage import FileStore


@handler(KIND)
def run(ctx: JobContext) -> dict:
    params = ctx.params
    store = FileStore(ctx.settings.data_dir)
    source = store.absolute(params["input"])
    if not source.is_file():
        raise JobFailure("Input missing", "the spec's text is no longer in the data directory")
    ctx.progress(f"Converting the {params['source_type']} spec to {params['target_format']}")
    # Parsed when the spec was sent, if that was in this process: not parsed again.
    parsed = [data] if (data := handoff.take(params["input"])) is not None else []
    del data  # the engine takes it out of the list and frees it before it writes
    text = source.read_text(encoding="utf-8") if not parsed or params["source_type"] == "helm" else None
    try:
        result = convert(params["source_type"], text, params["target_format"], parsed=parsed)
    except SpecError as exc:
        store.discard(params["input"])
        raise JobFailure("Not a usable spec", str(exc)) from None
    ctx.progress("Saving the document to your workspace")
    with ctx.sessions() as session:
        item = Item(org_id=ctx.org_id, tool="conversions", created_by_id=ctx.user_id,
                    title=f"{result.title} ({params['target_format']})"[:500],
                    data={"source_type": params["source_type"], "target_format": params["target_format"],
                          "warnings": result.warnings, "stats": result.stats, "share_key": new_share_key(),
                          "job_id": ctx.job_id})
        session.add(item)
        session.flush()
        relative, size = store.save_text(item.id, "document" + CONVERT_TARGETS[params["target_format"]], result.document)
        session.add(StoredFile(item_id=item.id, kind="attachment", path=relative, size=size))
        item.data = {**item.data, "document": relative}
        outcome = {"item_id": item.id, "url": share_url(params["base_url"], item), "title": result.title,
                   "target_format": params["target_format"], "source_type": params["source_type"],
                   "warnings": result.warnings, "stats": result.stats}
        if params.get("inline_document", True):
            outcome = {"document": result.document, **outcome}
        done = ctx.complete(session, outcome)
    store.discard(params["input"])
    return done
