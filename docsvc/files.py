"""Files written whole or not at all: the CLI's outputs, a CI step's reports, the user config, the
service's data directory.

The new content goes to a temporary name unique to the writer (process and a random part) in the
target's own folder, then replaces the target in one rename: a reader, in this process or another
sharing the folder, sees the old file or the new one, never half of one, and a crash leaves no
half file under the real name.
"""

from __future__ import annotations

import os
import uuid
from pathlib import Path
from typing import Callable

__all__ = ["Unreadable", "decode_text", "read_bytes", "read_text", "replace_atomically", "unwritable",
           "write_atomically"]


class Unreadable(ValueError):
    """A file (or a remote document) that cannot be read as text; the message is the reason alone (the
    caller names the file)."""


def read_text(path: str | os.PathLike) -> str:
    """A text file the user gave (a brief, a steps file, a map), or ``Unreadable`` saying why not.
    Strict UTF-8: a binary or Latin-1 file is refused by name, not sent half-garbled."""
    return decode_text(read_bytes(path))


def read_bytes(path: str | os.PathLike) -> bytes:
    """A file the user gave, or ``Unreadable`` with a reason a person understands."""
    try:
        return Path(path).read_bytes()
    except FileNotFoundError:
        raise Unreadable("no such file") from None
    except IsADirectoryError:
        raise Unreadable("is a directory") from None
    except OSError as exc:
        raise Unreadable(exc.strerror or str(exc)) from None


def decode_text(raw: bytes) -> str:
    """``raw`` as UTF-8 text, or ``Unreadable`` naming the first byte that is not."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Unreadable(f"not UTF-8 text (byte {exc.start})") from None


def unwritable(target: str | os.PathLike) -> str | None:
    """Why ``target`` cannot be written by ``replace_atomically``, seen without writing anything: a
    folder in its place, or a file where a folder must be. None when nothing in sight stands in the
    way; a folder's permissions are left to the write itself (``os.access`` asks for the real user,
    and root passes it for a folder that takes no file), as is a full disk."""
    target = Path(target)
    if target.is_dir():
        return "it is a folder"
    folder = target.parent
    while not os.path.lexists(folder) and folder != folder.parent:
        folder = folder.parent  # missing folders are made on writing: the nearest one that is there decides
    if not folder.is_dir():
        return f"{folder} is not a folder"
    return None


def replace_atomically(target: str | os.PathLike, write: Callable[[Path], object]) -> Path:
    """Make ``target`` whole or not at all: ``write(partial)`` fills a temporary file beside it,
    which then replaces ``target``."""
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.partial")
    try:
        write(partial)
        os.replace(partial, target)
    except BaseException as exc:
        partial.unlink(missing_ok=True)
        if isinstance(exc, OSError) and partial.name in (Path(str(exc.filename)).name, Path(str(exc.filename2)).name):
            # the error names the file the caller asked for, not the temporary one beside it
            raise type(exc)(exc.errno, exc.strerror, str(target)) from exc
        raise
    return target


def write_atomically(target: str | os.PathLike, text: str | bytes, *, mode: int | None = None) -> Path:
    """Write ``text`` (UTF-8; bytes as they are) to ``target`` whole. With ``mode`` the file is
    created with those permissions, so a secret is never readable by others, not even for a moment."""

    def write(partial: Path) -> None:
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
        opened = os.open(partial, flags, 0o666 if mode is None else mode)
        with (os.fdopen(opened, "wb") if isinstance(text, bytes) else
              os.fdopen(opened, "w", encoding="utf-8")) as out:
            out.write(text)
        if mode is not None:
            os.chmod(partial, mode)  # the umask may have narrowed or the file pre-existed

    return replace_atomically(target, write)
