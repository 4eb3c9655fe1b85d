"""The code hosts' webhooks: ``POST /webhooks/github/{id}`` and ``POST /webhooks/gitlab/{id}``.

No API key: a delivery proves itself with the integration's webhook secret (``services/webhooks``).
The body is read raw (the signature covers its bytes) and bounded: past the webhook limit it is
refused with 413 before it is all read.
"""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request
from starlette.concurrency import run_in_threadpool
from sqlalchemy.orm import Session

from ..services import webhooks as service
from .deps import JSONBody, bounded_body, get_session

router = APIRouter(tags=["webhooks"])


async def _deliver(host: str, integration_id: str, request: Request, session: Session):
    settings = request.app.state.settings
    body = await bounded_body(request, settings.webhook_max_bytes)
    headers = {k.lower(): v for k, v in request.headers.items()}
    # Parsing up to 25 MB of JSON and the database work run off the event loop: other requests go on.
    status, answer = await run_in_threadpool(service.receive, session, host=host, integration_ref=integration_id,
                                             headers=headers, body=body, max_attempts=settings.job_max_attempts,
                                             retention_days=settings.webhook_retention_days)
    if status == 202:
        request.app.state.pool.notify()  # a worker takes the job now, not at its next poll
    return JSONBody(answer, status_code=status)


@router.post("/webhooks/github/{integration_id}", status_code=200)
async def github(integration_id: str, request: Request, session: Session = Depends(get_session)):
    """A GitHub webhook delivery, signed with ``X-Hub-Signature-256``."""
    return await _deliver("github", integration_id, request, session)


@router.post("/webhooks/gitlab/{integration_id}", status_code=200)
async def gitlab(integration_id: str, request: Request, session: Session = Depends(get_session)):
    """A GitLab webhook delivery, carrying the secret token in ``X-Gitlab-Token``."""
    return await _deliver("gitlab", integration_id, request, session)
