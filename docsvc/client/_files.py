"""Multipart uploads streamed from disk, re-opened for every attempt."""

from __future__ import annotations

import os
from typing import Any, Mapping, Sequence, Tuple

from ._types import FileContent, FilesFactory, PathLike

__all__ = ["FilePart", "files_from_paths"]

# One file part to upload: (form field name, path on disk, filename sent to the service).
FilePart = Tuple[str, PathLike, str]


def files_from_paths(fields: Mapping[str, Any], parts: Sequence[FilePart]) -> FilesFactory:
    """A ``files_factory`` for ``BaseClient.call``: each call opens the files anew.

    Opening per attempt is what lets a retried upload re-read the files from disk while
    memory stays flat (httpx streams an open file in chunks). The content type is guessed
    by httpx from the filename. If opening one file fails, the ones already open are closed.
    """
    paths = [(name, os.fspath(path), filename) for name, path, filename in parts]

    def factory() -> tuple[Mapping[str, Any], list[tuple[str, FileContent]]]:
        opened: list[tuple[str, FileContent]] = []
        try:
            for name, path, filename in paths:
                opened.append((name, (filename, open(path, "rb"), None)))
        except BaseException:
            for _, (_, file, _) in opened:
                file.close()
            raise
        return fields, opened

    return factory
