"""The HTTP API reference: the local service's own OpenAPI document (``/api/v1/openapi.json``, made
by ``docsvc/server/contract.py``), converted by docsvc's converter, the engine ``docsvc convert``
runs in the service (``engines/convert``), to CommonMark: every operation by tag, its parameters,
request bodies, responses and errors, the security scheme and the models. The app is built without
starting its workers, on a throwaway SQLite file, only to ask it for the document."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

NOTE = ("!!! info \"Generated\"\n"
        "    Made at build time from the service's own OpenAPI document (`GET /api/v1/openapi.json`) by\n"
        "    docsvc's converter, as `docsvc convert openapi.json -t openapi --target md` would write it.\n"
        "    Errors are RFC 9457 `application/problem+json` ([Problem](#schema-problem)).\n")


def document() -> dict:
    from docsvc.server.app import create_app
    from docsvc.server.settings import ServerSettings

    with tempfile.TemporaryDirectory() as folder:
        settings = ServerSettings(database_url=f"sqlite:///{folder}/docs.db", data_dir=Path(folder))
        return create_app(settings, start_workers=False).openapi()


def page() -> str:
    from docsvc.server.engines.convert import convert

    conversion = convert("openapi", json.dumps(document()), "md")
    if conversion.warnings:
        raise SystemExit("docs: converting the OpenAPI document warned: " + "; ".join(conversion.warnings))
    head, rest = conversion.document.split("\n# ", 1)
    title, body = rest.split("\n", 1)
    return f"{head}\n# HTTP API\n\n{NOTE}\n{body}"
