from __future__ import annotations

import anyio.to_thread
from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, ConfigDict, Field
from fastapi.responses import PlainTextResponse
from sqlalchemy.orm import Session

from ..limits import DOCFLOW_GENERATE_JSON_BYTES
from ..problems import Problem, as_id, invalid, is_int
from ..services import docflows as service
from ..services.accounts import Caller
from .fields import LongText, Name, Note
from .deps import JSONBodyRoute, get_caller, get_session, json_body, slow_threads
from .jobs import accepted

router = APIRouter(tags=["docflows"], route_class=JSONBodyRoute)


@router.post("/docflows/generate", status_code=202)
async def generate(request: Request, caller: Caller = Depends(get_caller), session: Session = Depends(get_session)):
    """JSON ``{integration_id, pr_data}``, or multipart/form-data with the same two fields (pr_data as
    JSON text, its ``screenshots`` listing ``{route, filename}``) and one ``screenshots`` file part
    per image."""
    settings = request.app.state.settings
    if request.headers.get("content-type", "").startswith("multipart/form-data"):
        form = await request.form()  # a text part (pr_data) holds at most 1 MiB (Starlette's max_part_size)
        # pr_data and integration_id are refused before any upload is saved
        pr = service.check_pr_data(service.parse_pr_json(str(form.get("pr_data") or "")))
        routes = {s["filename"]: s["route"] for s in pr.get("screenshots") or []}
        integration_id = as_id(str(form.get("integration_id") or ""))  # a form field: digits only
        if integration_id is None:
            raise invalid("integration_id", "must be an integer")
        uploads = [(f.filename, await f.read()) for f in form.getlist("screenshots") if hasattr(f, "filename")]
        screenshots = service.save_uploads(settings.data_dir, uploads, routes)
    else:
        body = await json_body(request, or_else="multipart/form-data", max_bytes=DOCFLOW_GENERATE_JSON_BYTES)
        if not isinstance(body, dict):
            raise Problem(400, "The request body must be a JSON object")
        pr, integration_id, screenshots = body.get("pr_data"), body.get("integration_id"), []
        if not is_int(integration_id):  # a JSON integer: never "2", 2.5 or true
            raise invalid("integration_id", "must be an integer")
    job = service.start(session, caller, integration_id, pr, screenshots, settings.job_max_attempts)
    return accepted(request, job)


@router.get("/docflows/{item_id:id}")
def get_suggestion(item_id: int, request: Request, format: str | None = None, caller: Caller = Depends(get_caller),
                   session: Session = Depends(get_session)):
    item = service.get_suggestion(session, caller, item_id)
    if format == "diff":
        return PlainTextResponse(service.diff_text(item))
    if format is not None:
        raise invalid("format", "the only format is 'diff'", "query")
    return service.summary(item, request.app.state.settings.egress)


class DismissBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    reason: Name | None = None


@router.post("/docflows/{item_id:id}/dismiss")
def dismiss(item_id: int, body: DismissBody | None = None, caller: Caller = Depends(get_caller),
            session: Session = Depends(get_session)):
    from ..services.views import item_view

    return item_view(service.dismiss(session, caller, item_id, body.reason if body else None))


@router.get("/docflows/{item_id:id}/history")
def history(item_id: int, versions: int = 0, caller: Caller = Depends(get_caller),
            session: Session = Depends(get_session)):
    return service.history(service.get_suggestion(session, caller, item_id), bool(versions))


class RestoreBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    version: int = Field(gt=0)


@router.post("/docflows/{item_id:id}/restore")
def restore(item_id: int, body: RestoreBody, caller: Caller = Depends(get_caller),
            session: Session = Depends(get_session)):
    return service.restore(session, caller, item_id, body.version)


class ApproveBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    release_id: int | None = None
    new_release_name: Name | None = None
    assignee_id: int | str | None = "me"
    release_notes: Name | None = None
    rn_section: Name | None = None
    rn_category: Name | None = None
    rn_note: Note | None = None


@router.post("/docflows/{item_id:id}/approve")
async def approve(item_id: int, body: ApproveBody, request: Request, caller: Caller = Depends(get_caller),
                  session: Session = Depends(get_session)):
    """Pushes the branch and opens the pull request on the code host (up to its deadline, 45 s): on
    the slow threads (``deps.slow_threads``), so that approvals never hold every request's thread."""
    settings = request.app.state.settings
    return await anyio.to_thread.run_sync(
        lambda: service.approve(session, caller, item_id, body.model_dump(), settings.data_dir, settings.egress),
        limiter=slow_threads(request))


class CheckOneBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    ai: bool | None = None


class CheckManyBody(CheckOneBody):
    ids: list[int] | None = None
    dismiss_done: bool | None = None


def _check(request: Request, caller: Caller, session: Session, ids: list[int] | None, dismiss_done: bool,
           ai: bool | None):
    return accepted(request, service.start_check(session, caller, ids, dismiss_done, ai,
                                                 request.app.state.settings.job_max_attempts))


@router.post("/docflows/check-docs", status_code=202)
def check_many(body: CheckManyBody, request: Request, caller: Caller = Depends(get_caller),
               session: Session = Depends(get_session)):
    return _check(request, caller, session, body.ids, bool(body.dismiss_done), body.ai)


@router.post("/docflows/{item_id:id}/check-docs", status_code=202)
def check_one(item_id: int, request: Request, body: CheckOneBody | None = None,
              caller: Caller = Depends(get_caller), session: Session = Depends(get_session)):
    return _check(request, caller, session, [item_id], False, body.ai if body else None)


class RequestChangesBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    feedback: LongText = Field(min_length=1)
    target_file: Name | None = None


@router.post("/docflows/{item_id:id}/request-changes", status_code=202)
def request_changes(item_id: int, body: RequestChangesBody, request: Request, caller: Caller = Depends(get_caller),
                    session: Session = Depends(get_session)):
    job = service.request_changes(session, caller, item_id, body.feedback, body.target_file,
                                  request.app.state.settings.job_max_attempts)
    return accepted(request, job)


@router.post("/docflows/{item_id:id}/sync", status_code=202)
def sync_latest_code(item_id: int, request: Request, caller: Caller = Depends(get_caller),
                     session: Session = Depends(get_session)):
    return accepted(request, service.sync_latest_code(session, caller, item_id,
                                                      request.app.state.settings.job_max_attempts))


class ScreenshotsBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    routes: list[Name] = Field(min_length=1, max_length=50)


@router.post("/docflows/{item_id:id}/screenshots", status_code=202)
def take_screenshots(item_id: int, body: ScreenshotsBody, request: Request, caller: Caller = Depends(get_caller),
                     session: Session = Depends(get_session)):
    settings = request.app.state.settings
    return accepted(request, service.take_screenshots(session, caller, item_id, body.routes,
                                                      settings.job_max_attempts, settings.egress))
