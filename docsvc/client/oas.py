"""``client.oas``: API readiness: run the saved validation, open pull requests from a scan."""

from __future__ import annotations

import io

from typing import TYPE_CHECKING

from ._resource import APIResource
from ._types import strip_none

if TYPE_CHECKING:
    from docsvc.models.jobs import JobRef
    from docsvc.models.oas import ScanPullRequests

__all__ = ["OasResource"]


class OasResource(APIResource):
    def validate(
        self,
        *,
        run_swagger: bool | None = None,
        run_redocly: bool | None = None,
        run_ai_fix: bool | None = None,
        run_ai_content: bool | None = None,
        file: tuple[str, str | bytes] | None = None,
        idempotency_key: str | None = None,
    ) -> JobRef:
        """Run the saved API-readiness configuration (a job); None keeps the saved choice.

        With ``file`` (file name, spec text or its UTF-8 bytes: one document, see ``docsvc.bundle``)
        the service checks that spec instead of the configured one; the body is then
        multipart/form-data with the same fields as ``true``/``false`` text parts and one ``file`` part."""
        stages = strip_none({
            "run_swagger": run_swagger,
            "run_redocly": run_redocly,
            "run_ai_fix": run_ai_fix,
            "run_ai_content": run_ai_content,
        })
        if file is None:
            response = self._client.request("oas.validate", json=stages, idempotency_key=idempotency_key)
        else:
            name, spec = file
            fields = {key: "true" if value else "false" for key, value in stages.items()}
            data = spec.encode("utf-8") if isinstance(spec, str) else spec
            response = self._client.request(
                "oas.validate",
                files_factory=lambda: (fields, [("file", (name, io.BytesIO(data), _media_type(name)))]),
                idempotency_key=idempotency_key,
            )
        # The models (pydantic) are imported once the request is on its way: the service checks an
        # uploaded spec meanwhile, so a command's start does not wait for them.
        from docsvc.models.jobs import JobRef

        return self._client.parse(response, cast=JobRef)

    def open_pull_request(
        self,
        scan_id: int,
        *,
        targets: list[str],
        integration_id: int | None = None,
        file_path: str | None = None,
        source_file_path: str | None = None,
        spec: str | None = None,
        commit_message: str | None = None,
        idempotency_key: str | None = None,
    ) -> ScanPullRequests:
        """Open pull requests for the scan's spec to ``targets`` (``"source"``, ``"docs"``).

        One target failing does not stop the other: check ``errors`` in the answer.
        """
        from docsvc.models.oas import ScanPullRequests

        return self._client.call(
            "oas.open_pull_request",
            path_params={"id": scan_id},
            json=strip_none({
                "targets": list(targets),
                "integration_id": integration_id,
                "file_path": file_path,
                "source_file_path": source_file_path,
                "spec": spec,
                "commit_message": commit_message,
            }),
            cast=ScanPullRequests,
            idempotency_key=idempotency_key,
        )


def _media_type(name: str) -> str:
    return "application/json" if name.lower().endswith(".json") else "application/yaml"
