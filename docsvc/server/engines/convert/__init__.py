"""Spec to documentation: OpenAPI (2.0, 3.0, 3.1) or Helm values into one of five formats.

``convert(source_type, content, target_format)`` loads the text safely (``specload``), builds a
``doc.Document`` (``openapi`` or ``helm``) and renders it (``writers``). The job in
``engines/conversion.py`` wraps it and saves the result as a ``conversions`` item.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ....endpoints import CONVERT_SOURCES, CONVERT_TARGETS
from ....gcpause import cycle_collector_paused
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
    with cycle_collector_paused():  # millions of objects made, no cycles among them (gcpause)
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
