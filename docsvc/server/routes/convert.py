from __future__ import annotations

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response
from sqlalchemy.orm import Session

from ..problems import invalid
from ..services import conversions as service
from ..services.accounts import Caller, authenticate
from .deps import JSONBodyRoute, get_caller, get_session, json_body, small_form
from .jobs import accepted

router = APIRouter(tags=["convert"], route_class=JSONBodyRoute)


@router.post("/convert", status_code=202)
async def convert(request: Request, caller: Caller = Depends(get_caller), session: Session = Depends(get_session)):
    """``{source_type, content, target_format}``, optional ``inline_document`` (default true; false
    leaves the document out of the job's result). Or, an addition for large specs, multipart/form-data
    with the same text fields (``inline_document`` as ``true``/``false``) and the spec as one ``file``
    part, sent as it is instead of escaped into JSON. The spec is checked now, converted by the job."""
    import anyio

    upload = None
    if request.headers.get("content-type", "").startswith("multipart/form-data"):
        fields, files = await small_form(request)
        body: dict = {name: _form_bool(value) if name == "inline_document" else value for name, value in fields.items()}
        if len(files) > 1:
            raise invalid("file", "send one spec file")
        if not files or files[0][0] != "file":
            raise invalid("file", "the spec is missing: send it as a file part named file")
        upload = files[0][1:]
    else:
        body = await json_body(request, or_else="multipart/form-data")
    settings = request.app.state.settings
    # Parsing a large spec takes a moment: off the event loop.
    job = await anyio.to_thread.run_sync(lambda: service.start(
        session, caller, body, request.app.state.store, str(request.base_url), settings.job_max_attempts, upload))
    return accepted(request, job)


def _form_bool(value: str) -> bool | str:
    """A form field's ``true``/``false``; anything else is passed on for the service to refuse by name."""
    return {"true": True, "false": False}.get(value.strip().lower(), value)


@router.get("/conversions/{item_id:id}/document")
def document(item_id: int, request: Request, key: str | None = None, session: Session = Depends(get_session)):
    """The saved document: with the caller's API key, or with the conversion's share key (the link)."""
    header = request.headers.get("authorization")
    caller = authenticate(session, header) if header or key is None else None  # neither: 401
    content, media_type = service.document(session, request.app.state.store, item_id, caller, key)
    return Response(content, media_type=f"{media_type}; charset=utf-8")
