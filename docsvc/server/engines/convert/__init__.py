"""Spec to documentation: OpenAPI (2.0, 3.0, 3.1) or Helm values into one of five formats.

``convert(source_type, content, target_format)`` loads the text safely (``specload``), builds a
``doc.Document`` (``openapi`` or ``helm``) and renders it (``writers``). The job in
``engines/conversion.py`` wraps it and saves the result as a ``conversions`` item.
"""

from __future__ import annotations

import gc
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Iterator

from ....endpoints import CONVERT_SOURCES, CONVERT_TARGETS
from ....specload import SpecError, detect_kind, load

__all__ = ["Conversion", "convert", "TARGETS", "SOURCE_TYPES", "SpecError"]

TARGETS = tuple(CONVERT_TARGETS)
SOURCE_TYPES = CONVERT_SOURCES


@dataclass
class Conversion:
    document: str
    title: str
    warnings: list[str] = field(default_factory=list)
    stats: dict[str, int] = field(default_factory=dict)  # operations, schemas, webhooks / keys, sections
    names: list[str] = field(default_factory=list)  # every operation ("GET /pets") or values key path


def parse(source_type: str, content: str | bytes):
    """Load and check the kind; raises ``SpecError`` (with a line where known), and
    ``UnicodeDecodeError`` for bytes that are not UTF-8."""
    if source_type not in SOURCE_TYPES:
        raise SpecError(f"source_type must be one of {', '.join(SOURCE_TYPES)}")
    with _cycle_collector_paused():  # the service parses a sent spec on its own, before the job
        data = load(content).data
    kind = detect_kind(data)
    if source_type == "openapi" and kind != "openapi":
        raise SpecError("not an OpenAPI document: it has neither an 'openapi' nor a 'swagger' field")
    if source_type == "helm" and kind == "openapi":
        raise SpecError("this is an OpenAPI document, not a Helm values file (use source_type openapi)")
    return data


def convert(source_type: str, content: str | None, target_format: str, *, parsed: list | None = None) -> Conversion:
    """``parsed``: a list holding what ``parse(source_type, content)`` gave already (the service
    checks a spec when it is sent), so it is not parsed twice; it is taken out of the list, so that
    it is freed before the document is written. ``content`` may then be None for OpenAPI (Helm
    reads comments from the text)."""
    from . import writers

    if target_format not in TARGETS:
        raise SpecError(f"target_format must be one of {', '.join(TARGETS)}")
    with _cycle_collector_paused():
        data = parsed.pop() if parsed else parse(source_type, content)
        if source_type == "openapi":
            from .openapi import build
            built = build(data)
        else:
            from .helm import build
            built = build(content, data)
        del data  # the loaded spec is the largest thing in memory: gone before the text is written
        text = writers.render(built.document, target_format)
        conversion = Conversion(text, built.document.title, built.warnings, built.stats, built.names)
        # The document goes while the collector is still off: alive when it resumes, its millions of
        # objects would all be walked by the first collection (a tenth of GitHub's conversion).
        del built
    return conversion


_paused_lock = threading.Lock()
_paused = {"count": 0, "resume": False}  # conversions under way; whether the collector was on before them


@contextmanager
def _cycle_collector_paused() -> Iterator[None]:
    """Run without Python's cycle collector, which would otherwise take half the time.

    A large spec loads into millions of objects and the document built from it into millions more;
    allocation that fast triggers collections, and each full one walks everything alive (measured on
    MS Graph beta: writing Markdown takes 16 s with the collector and 7 s without). Loading,
    building and writing make no reference cycles worth collecting, and reference counting frees
    the rest. Conversions may run side by side in a server's job threads: the collector resumes
    when the last of them ends, and stays off if something else had turned it off."""
    with _paused_lock:
        if _paused["count"] == 0:
            _paused["resume"] = gc.isenabled()
            gc.disable()
        _paused["count"] += 1
    try:
        yield
    finally:
        with _paused_lock:
            _paused["count"] -= 1
            if _paused["count"] == 0 and _paused["resume"]:
                gc.enable()
