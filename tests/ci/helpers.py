"""Run the CI entrypoint in-process against ``httpx.MockTransport`` answers that follow the
interface (for the operations the local service does not serve yet)."""

from __future__ import annotations

import io
import json

import httpx

from docsvc.ci import main
from docsvc.client.testing import MockAPI

JOB = "job-0001"


def job_done(result, status="completed", error=None):
    return {"job_id": JOB, "status": status, "result": result, "error": error,
            "progress": {"message": status, "percent": 100}}


def routes(table: dict):
    """A MockAPI answering by (method, path); unknown routes are a test failure (599)."""

    def answer(request: httpx.Request) -> httpx.Response:
        key = (request.method, request.url.path)
        if key not in table:
            return httpx.Response(599, json={"detail": f"unexpected {key}"})
        status, body = table[key]
        return httpx.Response(status, json=body)

    return MockAPI(answer)


def run(argv, env=None, api=None, cwd=None):
    """(exit code, log text, the transport) of one entrypoint run."""
    out = io.StringIO()
    env = {"DOCSVC_API_KEY": "dsv_test_key_123", "DOCSVC_BASE_URL": "http://docsvc.test", **(env or {})}
    code = main(argv, env=env, stream=out, transport=api, cwd=cwd)
    return code, out.getvalue(), api


def parse_github_outputs(text: str) -> dict:
    outputs, lines = {}, iter(text.splitlines())
    for line in lines:
        name, _, delimiter = line.partition("<<")
        value = []
        for inner in lines:
            if inner == delimiter:
                break
            value.append(inner)
        outputs[name] = "\n".join(value)
    return outputs


def body(request) -> dict:
    return json.loads(request.content)
