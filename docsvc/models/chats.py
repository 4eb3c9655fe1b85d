from __future__ import annotations

from .items import Item
from ._base import WireModel


class Citation(WireModel):
    """A passage an answer quotes: its file and the lines of the sentences taken from it."""

    n: int | None = None
    path: str
    start_line: int
    end_line: int
    title: str | None = None
    integration_id: int | None = None
    passage: str | None = None

    @property
    def location(self) -> str:
        return f"{self.path}:{self.start_line}-{self.end_line}"


class Chat(Item):
    """A DocOps Assistant chat (an addition to the interface): the question, the extractive
    answer, and the passages it cites."""

    question: str = ""
    answer: str | None = None
    citations: list[Citation] = []
    method: str | None = None
