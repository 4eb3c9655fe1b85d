"""``client.diagrams``: generate a text-based diagram (answered at once, not a job)."""

from __future__ import annotations

import os

from docsvc.models.diagrams import Diagram

from ._files import files_from_paths
from ._resource import APIResource
from ._types import PathLike

__all__ = ["DiagramsResource"]


class DiagramsResource(APIResource):
    def generate(
        self,
        *,
        description: str,
        image_file: PathLike | None = None,
        idempotency_key: str | None = None,
    ) -> Diagram:
        """Generate a diagram from ``description`` and an optional image (e.g. a whiteboard
        photo). Sent as multipart/form-data even without an image, as the endpoint expects."""
        parts = []
        if image_file is not None:
            parts.append(("image_file", image_file, os.path.basename(os.fspath(image_file))))
        return self._client.call(
            "diagrams.generate",
            files_factory=files_from_paths({"description": description}, parts),
            cast=Diagram,
            idempotency_key=idempotency_key,
        )
