"""Files kept under the data directory: items' files (a capture's screenshots, a conversion's
document, a scan's specs), uploads, and the inputs of jobs waiting to run.

The data directory may be shared by several service processes (a ReadWriteMany volume): every
file is written under a temporary name unique to the writer, in the same folder, and renamed
into place, so a reader in any process sees the whole file or none, and a crash leaves no half
file under a real name.
"""

from __future__ import annotations

import shutil
import uuid
from pathlib import Path

from ..files import replace_atomically

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
        target = self.item_dir(item_id) / f"{uuid.uuid4().hex[:8]}-{file_name(source.name) or 'file'}"
        replace_atomically(target, lambda partial: shutil.copyfile(source, partial))
        return str(target.relative_to(self.root)), target.stat().st_size

    def save_text(self, item_id: int, name: str, text: str) -> tuple[str, int]:
        """Write ``text`` as ``name`` in the item's folder (replacing it, atomically); returns
        (path relative to the root, size)."""
        target = replace_atomically(self.item_dir(item_id) / name,
                                  lambda partial: partial.write_text(text, encoding="utf-8"))
        return str(target.relative_to(self.root)), target.stat().st_size

    def save_from(self, item_id: int, name: str, source: str, tail: bytes = b"") -> tuple[str, int]:
        """Make ``name`` in the item's folder from the stored file ``source`` (relative to the root)
        followed by ``tail``: copied by the kernel, never read into memory; returns (path relative
        to the root, size)."""
        def write(partial: Path) -> None:
            shutil.copyfile(self.absolute(source), partial)
            if tail:
                with open(partial, "ab") as out:
                    out.write(tail)

        target = replace_atomically(self.item_dir(item_id) / name, write)
        return str(target.relative_to(self.root)), target.stat().st_size

    def save_input(self, text: str) -> str:
        """Keep a job's large input (a spec's text) out of the job row; returns its relative path.
        The job deletes it with ``discard`` when it has finished with it."""
        target = replace_atomically(self.root / "inputs" / uuid.uuid4().hex,
                                  lambda partial: partial.write_text(text, encoding="utf-8"))
        return str(target.relative_to(self.root))

    def save_upload(self, folder: str, name: str, content: bytes) -> str:
        """Keep an uploaded file as ``name`` in ``folder`` (relative to the root); returns its
        relative path."""
        target = replace_atomically(self.root / folder / name, lambda partial: partial.write_bytes(content))
        return str(target.relative_to(self.root))

    def discard(self, relative: str) -> None:
        (self.root / relative).unlink(missing_ok=True)

    def discard_uploads(self, relatives: list[str]) -> None:
        """Delete uploaded files that nothing will use, and their folders once empty."""
        for relative in relatives:
            self.discard(relative)
            folder = (self.root / relative).parent
            if folder.parent == self.root / "uploads":
                try:
                    folder.rmdir()
                except OSError:  # not empty, or gone already
                    pass

    def absolute(self, relative: str) -> Path:
        return self.root / relative

    def delete_item_files(self, item_id: int) -> None:
        shutil.rmtree(self.item_dir(item_id), ignore_errors=True)
