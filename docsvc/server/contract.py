"""The OpenAPI document at ``/api/v1/openapi.json``, made a contract clients and gateways can use.

FastAPI draws the paths from the routes; this adds what the routes do not say themselves: the
bodies of the requests that start work (``docsvc.models.requests``: the services check them, so
each refusal names its field), every error answer as RFC 9457 ``application/problem+json`` with
one ``Problem`` schema, the bearer security scheme (an API key), and the media types of the
answers that are not JSON (a diff, a converted document).
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from ..endpoints import CONVERT_SOURCES, CONVERT_TARGETS
from ..models.problem import Problem
from ..models.requests import REQUEST_BODIES, PullRequestData
from .problems import MAX_ID, PROBLEM_JSON

__all__ = ["install"]

_PUBLIC = {("GET", "/conversions/{item_id}/document")}  # a share link's key stands in for the API key
_TEXT_ANSWERS = {
    ("GET", "/docflows/{item_id}"): ("text/plain",),  # ?format=diff
    ("GET", "/conversions/{item_id}/document"): ("text/markdown", "text/x-rst", "text/asciidoc", "text/plain"),
}
_EXTRA_SUCCESS = {("DELETE", "/items/{tool}/{item_id}"): "200"}  # a Docflows suggestion is dismissed, not deleted
# The code hosts' webhooks: signed with the integration's webhook secret, no API key.
_WEBHOOK_HEADERS = {
    "/webhooks/github/{integration_id}": {
        "X-Hub-Signature-256": "sha256= and the hex HMAC-SHA256 of the raw body, keyed with the webhook secret",
        "X-GitHub-Event": "the event (push, pull_request, pull_request_review, ping, ...)",
        "X-GitHub-Delivery": ("the delivery's id: a redelivery with the same id does nothing again, "
                              "nor does a body already taken under another id (a replay)")},
    "/webhooks/gitlab/{integration_id}": {
        "X-Gitlab-Token": "the webhook secret itself",
        "X-Gitlab-Event": "the event (Push Hook, Merge Request Hook, ...)",
        "Idempotency-Key": "the delivery's id, the same across GitLab's retries (else X-Gitlab-Event-UUID)"},
}


def _schema(model, components: dict) -> dict:
    """The model's JSON Schema, its nested definitions moved into the components."""
    schema = model.model_json_schema(ref_template="#/components/schemas/{model}")
    for name, definition in schema.pop("$defs", {}).items():
        components.setdefault(name, definition)
    components.setdefault(model.__name__, schema)
    return {"$ref": f"#/components/schemas/{model.__name__}"}


def _pr_limits(schema: dict) -> None:
    """The bounds the service holds pr_data to (services.docflows.check_pr_data), in its schema."""
    from .services.docflows import PR_TEXT

    properties = schema.setdefault("properties", {})
    for name, most in PR_TEXT.items():
        properties.setdefault(name, {"type": "string"})["maxLength"] = most
    properties.setdefault("fork", {"type": "boolean"})
    properties["number"]["maximum"] = MAX_ID
    schema["description"] = "A pull request; other keys are accepted and dropped, never stored."


def document(app: FastAPI, prefix: str) -> dict[str, Any]:
    doc = get_openapi(title=app.title, version=app.version, routes=app.routes,
                      description="The Documentation Operations Service API, served by the local docsvc-server.")
    components = doc.setdefault("components", {})
    schemas = components.setdefault("schemas", {})
    for unused in ("HTTPValidationError", "ValidationError"):
        schemas.pop(unused, None)
    problem = _schema(Problem, schemas)
    components["securitySchemes"] = {"apiKey": {"type": "http", "scheme": "bearer",
                                                "description": "An API key: `docsvc-server keys create`"}}
    doc["security"] = [{"apiKey": []}]
    errors = {"description": "The request was refused; the problem says why (RFC 9457)",
              "content": {PROBLEM_JSON: {"schema": problem}}}
    for path, operations in doc.get("paths", {}).items():
        short = path.removeprefix(prefix)
        for method, operation in operations.items():
            key = (method.upper(), short)
            responses = operation.setdefault("responses", {})
            responses.pop("422", None)  # FastAPI's own validation shape: ours is a Problem
            responses["4XX"] = errors
            if key in REQUEST_BODIES:
                operation["requestBody"] = _request_body(key, schemas)
            if key in _PUBLIC:
                operation["security"] = [{}, {"apiKey": []}]
            for media in _TEXT_ANSWERS.get(key, ()):
                ok = responses.setdefault("200", {"description": "OK"})
                ok.setdefault("content", {})[media] = {"schema": {"type": "string"}}
            if method.upper() == "POST" and short in _WEBHOOK_HEADERS:
                _webhook(operation, _WEBHOOK_HEADERS[short])
            if key in _EXTRA_SUCCESS:
                responses.setdefault(_EXTRA_SUCCESS[key], {"description": "OK", "content": {
                    "application/json": {"schema": {"type": "object"}}}})
    return doc


def _webhook(operation: dict, headers: dict[str, str]) -> None:
    """A webhook: no API key (its signature stands in), a header per piece of what the host sends,
    the event's JSON payload as its body, and 202 when the delivery queued a job."""
    operation["security"] = []
    operation.setdefault("parameters", []).extend(
        {"name": name, "in": "header", "required": False, "description": text, "schema": {"type": "string"}}
        for name, text in headers.items())
    operation["requestBody"] = {"required": True, "content": {"application/json": {"schema": {
        "type": "object", "description": "the code host's event payload, as it sends it"}}}}
    outcome = {"description": "The delivery was taken: what came of it", "content": {"application/json": {
        "schema": {"type": "object"}}}}
    operation["responses"]["200"] = outcome
    operation["responses"]["202"] = {**outcome, "description": "The delivery queued a job (a sync or a suggestion)"}


def _request_body(key: tuple[str, str], schemas: dict) -> dict:
    model = REQUEST_BODIES[key]
    content = {"application/json": {"schema": _schema(model, schemas)}}
    if key == ("POST", "/docflows/generate"):  # or with screenshots: the same fields as form parts
        _schema(PullRequestData, schemas)
        _pr_limits(schemas["PullRequestData"])
        content["multipart/form-data"] = {"schema": {
            "type": "object", "required": ["integration_id", "pr_data"],
            "properties": {"integration_id": {"type": "integer", "minimum": 1},
                           "pr_data": {"type": "string", "description": "the PullRequestData object as JSON text; "
                                       "its `screenshots` list `{route, filename}` per file"},
                           "screenshots": {"type": "array", "items": {"type": "string", "format": "binary"}}}}}
    if key == ("POST", "/oas/validate"):  # or with a spec to check instead of the configured one
        stages = {name: {"type": "string", "enum": ["true", "false"]} for name in model.model_fields}
        content["multipart/form-data"] = {"schema": {"type": "object", "properties": {
            **stages, "file": {"type": "string", "format": "binary",
                               "description": "the OpenAPI spec to check, one document (JSON or YAML)"}}}}
    if key == ("POST", "/convert"):  # [addition] or the spec as a file part, its bytes as they are
        content["multipart/form-data"] = {"schema": {
            "type": "object", "required": ["source_type", "target_format", "file"],
            "properties": {"source_type": {"type": "string", "enum": list(CONVERT_SOURCES)},
                           "target_format": {"type": "string", "enum": list(CONVERT_TARGETS)},
                           "inline_document": {"type": "string", "enum": ["true", "false"]},
                           "file": {"type": "string", "format": "binary",
                                    "description": "the spec (JSON or YAML, UTF-8), one document"}}}}
    required = any(f.is_required() for f in model.model_fields.values())
    return {"required": required, "content": content}


def install(app: FastAPI, prefix: str) -> None:
    """Serve the contract as the app's OpenAPI document (built once, on first request)."""
    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = document(app, prefix)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
