"""Diagram Generator: ``POST /diagram/generate`` answers at once (not a job) with a Mermaid
diagram, saved as a ``diagrams`` item.

The description and the text read from an optional image (OCR) go to the rule-based engine
(``engines/diagram.py``). The item keeps the kind, the Mermaid text, the description and the OCR
text in ``Item.data``; the image itself is kept as the item's attachment, so deleting the item
deletes it too.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from ..db.tables import Item, StoredFile
from ..engines import diagram as engine
from ..engines import ocr
from ..problems import Problem, invalid
from ..storage import FileStore
from .accounts import Caller

TOOL = "diagrams"
MAX_DESCRIPTION = 20_000  # characters; a diagram of more is unreadable anyway


def _image_name(filename: str | None, kind: str) -> str:
    """A safe file name for the kept image (the client's name is only a hint)."""
    stem = re.sub(r"[^A-Za-z0-9._-]+", "-", Path(filename or "").stem).strip("-.")[:60] or "image"
    return f"{stem}.{kind}"


def generate(session: Session, caller: Caller, store: FileStore, description: str | None,
             image: tuple[str | None, bytes] | None, max_pixels: int) -> dict[str, Any]:
    """The diagram for ``description`` and an optional image ``(filename, bytes)``, saved as an
    item; the answer holds ``item_id, kind, mermaid, title, warnings`` (and ``format``,
    ``reason``, ``ocr_text``). An image of more than ``max_pixels`` (the setting
    ``max_image_pixels``) is refused (422) before any OCR."""
    description = (description or "").strip()
    if len(description) > MAX_DESCRIPTION:
        raise invalid("description", f"at most {MAX_DESCRIPTION} characters, got {len(description)}")
    if image is not None and not image[1]:
        raise invalid("image_file", "the file is empty")
    if not description and image is None:
        raise invalid("description", "describe the diagram (steps, arrows such as A -> B, or who calls whom), "
                                     "or send an image_file with text in it")
    warnings: list[str] = []
    ocr_text = None
    if image is not None:
        try:
            ocr_text = ocr.read_text(image[1], max_pixels=max_pixels)
        except ocr.OcrUnavailable as exc:
            raise Problem(503, str(exc)) from None
        except ocr.OcrError as exc:
            raise invalid("image_file", str(exc)) from None
        if not ocr_text:
            warnings.append("no text was read from the image")
    try:
        diagram = engine.generate(description, ocr_text or "")
    except ValueError as exc:
        field = "description" if description else "image_file"
        detail = f"{exc}" if description else "no text was read from the image, and there is no description"
        raise invalid(field, detail) from None
    warnings += diagram.warnings
    item = Item(org_id=caller.org_id, tool=TOOL, created_by_id=caller.user_id, title=diagram.title[:500],
                data={"kind": diagram.kind, "format": "mermaid", "mermaid": diagram.mermaid,
                      "description": description, "ocr_text": ocr_text, "reason": diagram.reason,
                      "warnings": warnings})
    session.add(item)
    session.flush()
    if image is not None:
        kind = ocr.image_format(image[1][:32]) or "bin"
        with tempfile.TemporaryDirectory(prefix="docsvc-diagram-") as folder:
            source = Path(folder) / _image_name(image[0], kind)
            source.write_bytes(image[1])
            relative, size = store.save_copy(item.id, source)
        session.add(StoredFile(item_id=item.id, kind="attachment", path=relative, size=size))
        item.data = {**item.data, "image": relative}
    session.commit()
    return {"item_id": item.id, "kind": diagram.kind, "format": "mermaid", "mermaid": diagram.mermaid,
            "title": item.title, "warnings": warnings, "reason": diagram.reason, "ocr_text": ocr_text}
