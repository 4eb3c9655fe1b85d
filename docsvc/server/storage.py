"""Files kept under the data directory: items' files (a capture's screenshots, a conversion's
document, a scan's specs) and the inputs of jobs waiting to run."""

from __future__ import annotations

import shutil
import uuid
from pathlib import Path

FILE_KINDS = ("screenshot", "audio", "video", "attachment")
MAX_NAME_BYTES = 200  # leaves room for the prefix a stored copy gets, under the file systems' 255


def file_name(name: str | None) -> str | None:
    """An uploaded file's name as it may be stored: its last part, never ``.``/``..``, no NUL or
    control characters, at most MAX_NAME_BYTES; None when nothing usable is left."""
    base = (name or "").replace("\\", "/").rsplit("/", 1)[-1].strip()
    if base in ("", ".", "..") or any(ord(c) < 32 for c in base) or len(base.encode()) > MAX_NAME_BYTES:
        return None
    return base


class FileStore:
    def __init__(self, data_dir: Path) -> None:
        self.root = Path(data_dir)

    def item_dir(self, item_id: int) -> Path:
        return self.root / "items" / str(item_id)

    def save_copy(self, item_id: int, source: Path) -> tuple[str, int]:
        """Copy ``source`` into the item's folder; returns (path relative to the root, size).

        Written under a temporary name and renamed, so a crash never leaves half a file behind."""
        target_dir = self.item_dir(item_id)
        target_dir.mkdir(parents=True, exist_ok=True)
        target = target_dir / f"{uuid.uuid4().hex[:8]}-{file_name(source.name) or 'file'}"
        partial = target.with_name(target.name + ".partial")
        shutil.copyfile(source, partial)
        partial.replace(target)
        return str(target.relative_to(self.root)), target.stat().st_size

    def save_text(self, item_id: int, name: str, text: str) -> tuple[str, int]:
        """Write ``text`` as ``name`` in the item's folder (replacing it, atomically); returns
        (path relative to the root, size)."""
        target_dir = self.item_dir(item_id)
        target_dir.mkdir(parents=True, exist_ok=True)
        target = target_dir / name
        partial = target.with_name(target.name + ".partial")
        partial.write_text(text, encoding="utf-8")
        partial.replace(target)
        return str(target.relative_to(self.root)), target.stat().st_size

    def save_input(self, text: str) -> str:
        """Keep a job's large input (a spec's text) out of the job row; returns its relative path.
        The job deletes it with ``discard`` when it has finished with it."""
        folder = self.root / "inputs"
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / uuid.uuid4().hex
        partial = target.with_name(target.name + ".partial")
        partial.write_text(text, encoding="utf-8")
        partial.replace(target)
        return str(target.relative_to(self.root))

    def discard(self, relative: str) -> None:
        (self.root / relative).unlink(missing_ok=True)

    def absolute(self, relative: str) -> Path:
        return self.root / relative

    def delete_item_files(self, item_id: int) -> None:
        shutil.rmtree(self.item_dir(item_id), ignore_errors=True)
