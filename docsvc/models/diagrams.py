from __future__ import annotations

from ._base import WireModel


class Diagram(WireModel):
    """The answer of ``POST /diagram/generate``: the diagram's text (Mermaid) and the
    ``diagrams`` item it was saved as."""

    item_id: int | None = None
    kind: str | None = None  # "flowchart" | "sequence"
    mermaid: str | None = None
    title: str | None = None
    warnings: list[str] | None = None
    format: str | None = None  # "mermaid"
