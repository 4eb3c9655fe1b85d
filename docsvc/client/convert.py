"""``client.convert``: convert an OpenAPI or Helm values spec into documentation (a job)."""

from __future__ import annotations

from docsvc.models.jobs import JobRef

from ._resource import APIResource

__all__ = ["ConvertResource"]


class ConvertResource(APIResource):
    def create(
        self,
        *,
        source_type: str,
        content: str,
        target_format: str = "docusaurus",
        idempotency_key: str | None = None,
    ) -> JobRef:
        """Start a conversion of ``content`` (``source_type`` ``openapi`` or ``helm``) into
        ``target_format`` (``docusaurus``, ``sphinx``, ``md``, ``rst``, ``adoc``). The job's
        result is also saved to the caller's workspace."""
        return self._client.call(
            "convert.create",
            json={"source_type": source_type, "content": content, "target_format": target_format},
            cast=JobRef,
            idempotency_key=idempotency_key,
        )

    def document(self, item_id: int) -> str:
        """The saved document of conversion ``item_id`` (the text the share link opens)."""
        return self._client.call("convert.document", path_params={"id": item_id}, raw_text=True)
