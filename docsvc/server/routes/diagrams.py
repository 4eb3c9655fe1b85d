from __future__ import annotations

from fastapi import APIRouter, Depends, File, Form, Request, UploadFile
from sqlalchemy.orm import Session

from ..problems import Problem
from ..services import diagrams as service
from ..services.accounts import Caller
from .deps import JSONBodyRoute, get_caller, get_session, slow_threads

router = APIRouter(tags=["diagrams"], route_class=JSONBodyRoute)


@router.post("/diagram/generate", status_code=201)
async def generate(request: Request, description: str | None = Form(None), image_file: UploadFile | None = File(None),
                   caller: Caller = Depends(get_caller), session: Session = Depends(get_session)):
    """multipart/form-data: ``description`` (text), optional ``image_file``. Answers at once with
    the diagram, saved as a ``diagrams`` item."""
    import anyio

    kind = request.headers.get("content-type", "")
    if not kind.startswith(("multipart/form-data", "application/x-www-form-urlencoded")):
        raise Problem(400, "Send multipart/form-data with a description field and an optional image_file")
    image = (image_file.filename, await image_file.read()) if image_file is not None else None
    # OCR runs a subprocess for up to a minute: off the event loop, and on threads of its own so
    # that a few such requests never hold every request's thread (app.REQUEST_THREADS).
    return await anyio.to_thread.run_sync(lambda: service.generate(
        session, caller, request.app.state.store, description, image,
        request.app.state.settings.max_image_pixels), limiter=slow_threads(request))
