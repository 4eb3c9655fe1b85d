"""What the search index holds of a docs file: its kind, title and passages with line numbers.

Markdown, MDX, reStructuredText, AsciiDoc and plain text are indexed; so are OpenAPI documents
(YAML or JSON with a top-level ``openapi``/``swagger`` key) and Helm values files.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath

MAX_FILE_BYTES = 4 << 20  # larger files are generated artefacts, not docs to search
_CHUNK_LINES = 12
_CHUNK_CHARS = 4000

_BY_SUFFIX = {".md": "markdown", ".markdown": "markdown", ".mdx": "mdx", ".rst": "rst", ".adoc": "asciidoc",
              ".asciidoc": "asciidoc", ".txt": "text"}
_SPEC_SUFFIXES = (".yaml", ".yml", ".json")
_SPEC_KEY = re.compile(rb'^\s*[{]?\s*["\']?(openapi|swagger)["\']?\s*:', re.MULTILINE)
_HELM_VALUES = re.compile(r"^values([.-][\w.-]+)?\.ya?ml$")


@dataclass(frozen=True)
class Passage:
    line: int  # 1-based line of the passage's first line
    text: str


@dataclass(frozen=True)
class IndexedFile:
    kind: str
    title: str
    passages: list[Passage]


def candidate(path: str) -> bool:
    """Whether a path may be indexed, judged by its name alone (content decides specs)."""
    suffix = PurePosixPath(path).suffix.lower()
    return suffix in _BY_SUFFIX or suffix in _SPEC_SUFFIXES


def kind_of(path: str, content: bytes) -> str | None:
    name = PurePosixPath(path).name
    suffix = PurePosixPath(path).suffix.lower()
    if suffix in _BY_SUFFIX:
        return _BY_SUFFIX[suffix]
    if suffix in _SPEC_SUFFIXES:
        if _SPEC_KEY.search(content[:4096]):
            return "openapi"
        if _HELM_VALUES.match(name):
            return "helm"
    return None


def _title(kind: str, lines: list[str], path: str) -> str:
    for n, line in enumerate(lines[:80]):
        text = line.strip()
        if kind in ("markdown", "mdx") and text.startswith("#"):
            return text.lstrip("#").strip()
        if kind == "asciidoc" and text.startswith("= "):
            return text[2:].strip()
        if kind == "rst" and text and n + 1 < len(lines) and re.fullmatch(r"([=\-~^\"'`#*+])\1{2,}",
                                                                           lines[n + 1].strip()):
            return text
        if kind == "openapi" and re.match(r'^\s*"?title"?\s*:', line):
            return text.split(":", 1)[1].strip().strip('",')
    return PurePosixPath(path).name


def passages(lines: list[str]) -> list[Passage]:
    """Paragraphs (split at blank lines) merged up to a dozen lines; long lines split by size."""
    out: list[Passage] = []
    start, buffer = 0, []

    def flush() -> None:
        text = "\n".join(buffer).strip()
        for offset in range(0, len(text), _CHUNK_CHARS):
            # A piece of a long paragraph starts on the line its first character is on.
            out.append(Passage(start + 1 + text.count("\n", 0, offset), text[offset:offset + _CHUNK_CHARS]))

    for n, line in enumerate(lines):
        if not line.strip():
            if len(buffer) >= _CHUNK_LINES // 2:
                flush()
                buffer = []
            elif buffer:
                buffer.append("")
            continue
        if not buffer:
            start = n
        buffer.append(line)
        if len(buffer) >= _CHUNK_LINES:
            flush()
            buffer = []
    if buffer:
        flush()
    return out


def index_file(path: str, content: bytes) -> IndexedFile | None:
    """The indexed form of a file, or None when it is not a docs file we index."""
    if len(content) > MAX_FILE_BYTES or b"\0" in content[:8192]:
        return None
    kind = kind_of(path, content)
    if kind is None:
        return None
    lines = content.decode("utf-8", "replace").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return IndexedFile(kind=kind, title=_title(kind, lines, path), passages=passages(lines))
