from __future__ import annotations

from fastapi import APIRouter, Depends, Request
from sqlalchemy.orm import Session

from ..services import api_specs as service
from ..services.accounts import Caller
from .deps import get_caller, get_session, json_body
from .jobs import accepted

router = APIRouter(tags=["api-readiness"])


@router.post("/oas/validate", status_code=202)
async def validate(request: Request, caller: Caller = Depends(get_caller), session: Session = Depends(get_session)):
    """Optional booleans ``run_swagger``, ``run_redocly``, ``run_ai_fix``, ``run_ai_content``;
    an absent one keeps the saved configuration's choice."""
    body = await json_body(request, optional=True)
    job = service.start_validate(session, caller, body, request.app.state.settings.job_max_attempts)
    return accepted(request, job)


@router.post("/oas/scans/{scan_id:int}/pull-request")
async def pull_request(scan_id: int, request: Request, caller: Caller = Depends(get_caller),
                       session: Session = Depends(get_session)):
    """``targets`` (``source``/``docs``); for docs ``integration_id`` and ``file_path``; optional
    ``source_file_path``, ``spec`` (``corrected`` default, or ``prepped``), ``commit_message``."""
    import anyio

    body = await json_body(request)
    settings = request.app.state.settings
    return await anyio.to_thread.run_sync(
        lambda: service.open_pull_requests(session, caller, scan_id, body, settings.data_dir, settings.egress))
