from __future__ import annotations

from fastapi import APIRouter, Depends, Request
from sqlalchemy.orm import Session

from ..problems import invalid
from ..services import api_specs as service
from ..services.accounts import Caller
from .deps import JSONBodyRoute, get_caller, get_session, json_body, slow_threads, small_form
from .jobs import accepted

router = APIRouter(tags=["api-readiness"], route_class=JSONBodyRoute)


@router.post("/oas/validate", status_code=202)
async def validate(request: Request, caller: Caller = Depends(get_caller), session: Session = Depends(get_session)):
    """Optional booleans ``run_swagger``, ``run_redocly``, ``run_ai_fix``, ``run_ai_content``;
    an absent one keeps the saved configuration's choice. As JSON; or as multipart/form-data with
    the same fields (``true``/``false``) and an optional ``file``: the spec to check instead of
    the configured one (one document; parsed now, so a bad one is a 422)."""
    import anyio

    upload = None
    if request.headers.get("content-type", "").startswith("multipart/form-data"):
        fields, files = await small_form(request)  # the spec is parsed whole anyway: read it into memory
        if "file" in fields:
            raise invalid("file", "must be a file part (a spec), not a text field")
        specs = [(filename, content) for name, filename, content in files if name == "file"]
        if len(specs) > 1:
            raise invalid("file", "send one spec file")
        upload = specs[0] if specs else None
        body = {name: _form_bool(value) for name, value in fields.items()}
        # A file where a stage's true/false belongs: passed on for the service to refuse by name.
        body.update({name: "" for name, _, _ in files if name != "file"})
    else:
        body = await json_body(request, optional=True, or_else="multipart/form-data")
    settings = request.app.state.settings
    job = await anyio.to_thread.run_sync(lambda: service.start_validate(  # parsing a large upload takes a moment
        session, caller, body, settings.job_max_attempts, upload, request.app.state.store))
    return accepted(request, job)


def _form_bool(value) -> bool | str:
    """A form field's ``true``/``false``; anything else is passed on for the service to refuse by name."""
    text = value.strip().lower() if isinstance(value, str) else ""
    return {"true": True, "false": False}.get(text, value if isinstance(value, str) else "")


@router.post("/oas/scans/{scan_id:id}/pull-request")
async def pull_request(scan_id: int, request: Request, caller: Caller = Depends(get_caller),
                       session: Session = Depends(get_session)):
    """``targets`` (``source``/``docs``); for docs ``integration_id`` and ``file_path``; optional
    ``source_file_path``, ``spec`` (``corrected`` default, or ``prepped``), ``commit_message``.
    Pushes and opens pull requests on code hosts (up to their deadline, 45 s): on the slow threads
    (``deps.slow_threads``), so that these never hold every request's thread."""
    import anyio

    body = await json_body(request)
    settings = request.app.state.settings
    return await anyio.to_thread.run_sync(
        lambda: service.open_pull_requests(session, caller, scan_id, body, settings.data_dir, settings.egress),
        limiter=slow_threads(request))
