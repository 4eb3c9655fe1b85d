"""The text in an image, read by Debian's ``tesseract-ocr`` run as a subprocess (no Python OCR
library: the command is what the package installs).

The image's format is checked by its first bytes before tesseract sees it: tesseract reads a
*text* file given as the image as a list of image paths to open, so a file that is not an image
must never reach it. Its size in pixels is read from its headers too, and an image beyond
``max_pixels`` (the service's setting ``max_image_pixels``) never reaches tesseract: a 430 KB
PNG of 20000x20000 grey pixels made tesseract take 1.5 GB and 16 s (a decompression bomb). At
most one tesseract per CPU runs at a time; the other readings wait their turn.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path

from ...images import image_size, sniff

__all__ = ["OcrError", "NotAnImage", "ImageTooLarge", "OcrUnavailable", "image_format", "read_text", "FORMATS"]

FORMATS = ("png", "jpeg", "webp", "gif", "bmp", "tiff")
TIMEOUT_SECONDS = 60.0
_RUNNING = threading.BoundedSemaphore(os.cpu_count() or 1)


class OcrError(Exception):
    """The image's text could not be read."""


class NotAnImage(OcrError):
    """The bytes are not an image tesseract can read."""


class ImageTooLarge(NotAnImage):
    """The image has more pixels than the service reads."""


class OcrUnavailable(OcrError):
    """tesseract is not installed on the machine that runs the service."""


def image_format(head: bytes) -> str | None:
    """The image format by its first bytes (one of ``FORMATS``), or None."""
    known = sniff(head)
    if known:
        return known
    if head[:6] in (b"GIF87a", b"GIF89a"):
        return "gif"
    if head[:2] == b"BM" and len(head) >= 26:
        return "bmp"
    if head[:4] in (b"II*\x00", b"MM\x00*"):
        return "tiff"
    return None


def read_text(data: bytes, *, max_pixels: int, timeout: float = TIMEOUT_SECONDS) -> str:
    """The text tesseract reads in ``data``, one line per line of text it found (may be empty).

    Raises NotAnImage for bytes that are no image (or a broken one, or one whose headers do not
    give its size), ImageTooLarge beyond ``max_pixels`` (both before tesseract runs),
    OcrUnavailable when the ``tesseract`` command is missing, OcrError when reading takes longer
    than ``timeout``."""
    kind = image_format(data[:32])
    if kind is None:
        raise NotAnImage(f"not an image: expected one of {', '.join(FORMATS)} (judged by the file's content)")
    size = image_size(data)
    if size is None:
        raise NotAnImage(f"the {kind} image could not be read (its headers do not give its width and height)")
    width, height = size
    if width * height > max_pixels:
        raise ImageTooLarge(f"the image is {width}x{height} pixels ({width * height / 1e6:.1f} megapixels); "
                            f"text is read from images of at most {max_pixels / 1e6:g} megapixels")
    executable = shutil.which("tesseract")
    if executable is None:
        raise OcrUnavailable("reading text from images needs tesseract, which is not installed on the service's "
                             "machine (Debian: apt-get install tesseract-ocr)")
    # One thread: the service shares its cores with everything else it runs.
    env = {**os.environ, "OMP_THREAD_LIMIT": "1"}
    with tempfile.TemporaryDirectory(prefix="docsvc-ocr-") as folder:
        image = Path(folder) / f"image.{kind}"
        image.write_bytes(data)
        try:
            with _RUNNING:
                done = subprocess.run([executable, str(image), "-"], capture_output=True, timeout=timeout, env=env)
        except subprocess.TimeoutExpired:
            raise OcrError(f"reading the image's text took longer than {timeout:g} s; send a smaller image") from None
    if done.returncode != 0:
        reason = [line for line in done.stderr.decode("utf-8", "replace").splitlines() if line.strip()]
        raise NotAnImage(f"the {kind} image could not be read ({reason[-1].strip() if reason else 'tesseract failed'})")
    text = done.stdout.decode("utf-8", "replace").replace("\f", "\n")
    return "\n".join(line.rstrip() for line in text.splitlines() if line.strip())
