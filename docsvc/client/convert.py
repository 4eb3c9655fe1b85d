"""``client.convert``: convert an OpenAPI or Helm values spec into documentation (a job)."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

from ._resource import APIResource

if TYPE_CHECKING:  # at run time imported in create(), once the spec is on its way
    from docsvc.models.jobs import JobRef

__all__ = ["ConvertResource"]


class ConvertResource(APIResource):
    def create(
        self,
        *,
        source_type: str,
        content: str | None = None,
        target_format: str = "docusaurus",
        file: tuple[str, str | bytes] | None = None,
        inline_document: bool | None = None,
        idempotency_key: str | None = None,
    ) -> JobRef:
        """Start a conversion of ``content`` (``source_type`` ``openapi`` or ``helm``) into
        ``target_format`` (``docusaurus``, ``sphinx``, ``md``, ``rst``, ``adoc``). The job's
        result is also saved to the caller's workspace.

        Additions of docsvc's service: ``file`` (file name, spec text or UTF-8 bytes) instead of
        ``content`` sends the spec as a multipart/form-data file part, as it is, rather than escaped
        into a JSON string (a service that only takes JSON answers 400); ``inline_document=False``
        leaves the document out of the job's result: read it with ``document(result["item_id"])``."""
        if (content is None) == (file is None):
            raise TypeError("convert.create: give the spec as content or as file, one of the two")
        if file is None:
            body: dict[str, Any] = {"source_type": source_type, "content": content, "target_format": target_format}
            if inline_document is not None:
                body["inline_document"] = inline_document
            response = self._client.request("convert.create", json=body, idempotency_key=idempotency_key)
        else:
            name, spec = file
            data = spec.encode("utf-8") if isinstance(spec, str) else spec
            fields = {"source_type": source_type, "target_format": target_format}
            if inline_document is not None:
                fields["inline_document"] = "true" if inline_document else "false"
            response = self._client.request(
                "convert.create",
                # A fresh reader per attempt: a retried upload starts from the first byte.
                files_factory=lambda: (fields, [("file", (name, io.BytesIO(data), "application/octet-stream"))]),
                idempotency_key=idempotency_key,
            )
        # The models (pydantic) are imported once the spec is on its way, not before: on a large
        # spec the service is checking it meanwhile, so a command's start does not wait for them.
        from docsvc.models.jobs import JobRef

        return self._client.parse(response, cast=JobRef)

    def document(self, item_id: int) -> str:
        """The saved document of conversion ``item_id`` (the text the share link opens)."""
        return self._client.call("convert.document", path_params={"id": item_id}, raw_text=True)

    def document_bytes(self, item_id: int) -> bytes:
        """``document(item_id)`` as the UTF-8 bytes the service sent: for a caller that writes it to
        a file, a large document is not decoded only to be encoded again."""
        return self._client.call("convert.document", path_params={"id": item_id}, raw_bytes=True)
