"""Health endpoints for orchestrators and load balancers: ``/healthz`` (the process lives) and
``/readyz`` (it can serve: the database answers, its schema is at this package's newest
migration, the data directory takes a write).

Both sit outside ``/api/v1`` and out of its OpenAPI document: they are no part of the interface
that ``docsvc/endpoints.py`` describes (the contract test holds the document to that list), and a
probe has no API key, so they ask for none. Their answers say nothing secret: a yes or no per
check, never a database URL, a path or an error text. A check that fails answers 503 as
problem+json, naming the failed checks.
"""

from __future__ import annotations

import logging
import os
import uuid
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from sqlalchemy import text

from .. import __version__
from .problems import PROBLEM_JSON, Problem

router = APIRouter()
log = logging.getLogger("docsvc.server.health")


def _database(request: Request) -> tuple[bool, bool]:
    """(the database answers, its revision is the newest migration)."""
    from .db.migrate import at_head

    try:
        with request.app.state.sessions() as session:
            session.execute(text("SELECT 1"))
            current = at_head(session.connection())
    except Exception as exc:  # any failure means "not ready"; the log says why, the answer does not
        log.warning("readiness: the database check failed: %s", exc.__class__.__name__)
        return False, False
    return True, current


def _writable(folder: Path) -> bool:
    """Create, write and remove a file in the data directory (creating it as the service would)."""
    probe = folder / f".readyz-{uuid.uuid4().hex}"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with open(probe, "xb") as handle:
            handle.write(b"ok")
            handle.flush()
            os.fsync(handle.fileno())
        probe.unlink()
    except OSError as exc:
        log.warning("readiness: the data directory is not writable: %s", exc.__class__.__name__)
        return False
    return True


@router.get("/healthz", include_in_schema=False)
def healthz() -> dict:
    """Liveness: answering at all is the whole test (no database, no disk)."""
    return {"status": "ok", "version": __version__}


@router.get("/readyz", include_in_schema=False)
def readyz(request: Request):
    database, migrations = _database(request)
    checks = {"database": database, "migrations": migrations,
              "data_dir": _writable(request.app.state.settings.data_dir)}
    shown = {name: "ok" if passed else "failed" for name, passed in checks.items()}
    failed = [name for name, passed in checks.items() if not passed]
    if failed:
        problem = Problem(503, f"not ready: {', '.join(failed)} failed", title="Not ready",
                          extra={"checks": shown})
        return JSONResponse(problem.body(), status_code=503, media_type=PROBLEM_JSON)
    return {"status": "ready", "version": __version__, "checks": shown}
