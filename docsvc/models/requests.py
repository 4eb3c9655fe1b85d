"""The bodies of the requests that start work, as the OpenAPI document shows them.

The service checks these bodies in its services (so each refusal names its field in the
interface's words); these models are the one description of their shape, for the document,
gateways and generated clients. Unknown fields are refused where the service refuses them.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt

__all__ = ["ConvertRequest", "ChatRequest", "CaptureStepRequest", "CaptureRequest", "PullRequestData",
           "DocflowRequest", "FeatureDraftRequest", "ValidateRequest", "ScanPullRequestRequest", "REQUEST_BODIES"]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ConvertRequest(_Body):
    source_type: Literal["openapi", "helm"]
    target_format: Literal["docusaurus", "md", "rst", "sphinx", "adoc"]  # required: the service has no default
    content: str = Field(description="the spec's text (JSON or YAML)",
                         examples=['{"openapi": "3.1.0", "info": {"title": "Pets", "version": "1"}, "paths": {}}'])
    inline_document: bool = Field(True, description="[addition] false leaves the document out of the job's result; "
                                                    "read it raw from /conversions/{item_id}/document")


class ChatRequest(_Body):
    question: str = Field(min_length=1, max_length=2000, examples=["How do I rotate an API key?"])


class CaptureStepRequest(_Body):
    action: Literal["click", "type", "navigate"]
    description: str = Field(min_length=1, max_length=2000)
    selector: str | None = Field(None, max_length=2000)
    text: str | None = Field(None, max_length=2000)
    url: str | None = Field(None, max_length=2000)


class CaptureRequest(_Body):
    title: str | None = Field(None, max_length=500)
    start_url: str = Field(examples=["https://preview.example.com/settings"])
    steps: list[CaptureStepRequest] = Field(min_length=1, max_length=50)
    step_timeout_seconds: float | None = Field(None, gt=0, le=120)


class PullRequestData(BaseModel):
    model_config = ConfigDict(extra="allow")
    number: StrictInt = Field(gt=0)
    title: str
    author: str
    body: str | None = None
    head_branch: str | None = None
    head_sha: str | None = None
    base_branch: str | None = None


class DocflowRequest(_Body):
    integration_id: StrictInt = Field(gt=0)
    pr_data: PullRequestData


class FeatureDraftRequest(_Body):
    title: str = Field(min_length=1, max_length=500, examples=["Export to CSV"])
    brief: str = Field(min_length=1, max_length=100_000)
    release_id: StrictInt | None = Field(None, gt=0)


class ValidateRequest(_Body):
    run_swagger: bool | None = None
    run_redocly: bool | None = None
    run_ai_fix: bool | None = None
    run_ai_content: bool | None = None


class ScanPullRequestRequest(_Body):
    targets: list[Literal["source", "docs"]] = Field(default=["docs"], min_length=1)
    integration_id: StrictInt | None = Field(None, gt=0, description="the docs repository's integration (docs target)")
    file_path: str | None = Field(None, max_length=4096)
    source_file_path: str | None = Field(None, max_length=4096)
    spec: Literal["corrected", "prepped"] = "corrected"
    commit_message: str | None = Field(None, max_length=20000)


# (method, path under /api/v1) -> the model of its JSON body
REQUEST_BODIES: dict[tuple[str, str], type[BaseModel]] = {
    ("POST", "/convert"): ConvertRequest,
    ("POST", "/chats"): ChatRequest,
    ("POST", "/captures"): CaptureRequest,
    ("POST", "/docflows/generate"): DocflowRequest,
    ("POST", "/feature-drafts"): FeatureDraftRequest,
    ("POST", "/oas/validate"): ValidateRequest,
    ("POST", "/oas/scans/{scan_id}/pull-request"): ScanPullRequestRequest,
}
