"""Screenshot conventions shared by the CLI, the CI layer and the local service: an image's
format by its content, the route a file name names, and ``ROUTE=PATH`` pairs."""

from __future__ import annotations

import struct
from pathlib import PurePath

__all__ = ["sniff", "image_size", "route_for_image", "split_route_pair"]


def sniff(head: bytes) -> str | None:
    """The image format by its first bytes, not its name: png, jpeg, webp, or None."""
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if head.startswith(b"\xff\xd8\xff"):
        return "jpeg"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "webp"
    return None


def image_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) in pixels read from the image's headers, nothing decoded: PNG, JPEG, WebP,
    GIF, BMP, TIFF (all its pages stacked: the widest width, the heights summed, a bound on what a
    reader decodes). None when the headers do not say (a broken or unknown image). What a decoder
    of the image would allocate is known from this before it runs (decompression bombs)."""
    try:
        return _size(data)
    except (struct.error, IndexError, ValueError):
        return None


def _size(data: bytes) -> tuple[int, int] | None:
    if data.startswith(b"\x89PNG\r\n\x1a\n") and data[12:16] == b"IHDR":
        return struct.unpack(">II", data[16:24])
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return _gif_size(data)
    if data.startswith(b"\xff\xd8\xff"):
        return _jpeg_size(data)
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        chunk = data[12:16]
        if chunk == b"VP8X":  # 24-bit canvas width-1, height-1
            return int.from_bytes(data[24:27], "little") + 1, int.from_bytes(data[27:30], "little") + 1
        if chunk == b"VP8L" and data[20] == 0x2F:  # 14-bit width-1, height-1
            bits = int.from_bytes(data[21:25], "little")
            return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
        if chunk == b"VP8 " and data[23:26] == b"\x9d\x01\x2a":
            width, height = struct.unpack("<HH", data[26:30])
            return width & 0x3FFF, height & 0x3FFF
        return None
    if data[:2] == b"BM":
        width, height = struct.unpack("<ii", data[18:26])
        return abs(width), abs(height)
    if data[:4] in (b"II*\x00", b"MM\x00*"):
        return _tiff_size(data)
    return None


def _gif_size(data: bytes) -> tuple[int, int]:
    """The logical screen, or the first image when it is larger (decoders allocate for it)."""
    width, height = struct.unpack("<HH", data[6:10])
    flags, at = data[10], 13
    if flags & 0x80:
        at += 3 << ((flags & 7) + 1)  # the global colour table
    while data[at] == 0x21:  # extension blocks before the first image
        at += 2
        while data[at]:
            at += data[at] + 1
        at += 1
    if data[at] == 0x2C:
        left, top, w, h = struct.unpack("<HHHH", data[at + 1:at + 9])
        width, height = max(width, left + w), max(height, top + h)
    return width, height


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    """The frame header (SOF0..SOF15 but DHT, JPG, DAC) found by walking the segments."""
    at = 2
    while at + 9 < len(data):
        if data[at] != 0xFF:
            return None
        marker = data[at + 1]
        if marker == 0xFF:  # fill byte
            at += 1
            continue
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            height, width = struct.unpack(">HH", data[at + 5:at + 9])
            return width, height
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:  # no length
            at += 2
            continue
        at += 2 + struct.unpack(">H", data[at + 2:at + 4])[0]
    return None


def _tiff_size(data: bytes) -> tuple[int, int] | None:
    order = "<" if data[:2] == b"II" else ">"
    offset = struct.unpack(order + "I", data[4:8])[0]
    width = height = pages = 0
    seen: set[int] = set()
    while offset and offset not in seen and pages < 10_000:
        seen.add(offset)
        count = struct.unpack(order + "H", data[offset:offset + 2])[0]
        size: dict[int, int] = {}
        for i in range(count):
            entry = data[offset + 2 + 12 * i:offset + 14 + 12 * i]
            tag, kind = struct.unpack(order + "HH", entry[:4])
            if tag in (256, 257):  # ImageWidth, ImageLength: SHORT or LONG
                size[tag] = struct.unpack(order + ("H" if kind == 3 else "I"), entry[8:10] if kind == 3 else entry[8:12])[0]
        if 256 not in size or 257 not in size:
            return None
        width, height, pages = max(width, size[256]), height + size[257], pages + 1
        offset = struct.unpack(order + "I", data[offset + 2 + 12 * count:offset + 6 + 12 * count])[0]
    return (width, height) if pages else None


def route_for_image(name: str) -> str:
    """The page a screenshot file shows, by the documented convention: ``index.png`` is ``/``,
    ``settings__billing.png`` is ``/settings/billing`` (``__`` separates path segments)."""
    stem = PurePath(name).stem
    if stem == "index":
        return "/"
    return "/" + "/".join(part for part in stem.split("__") if part)


def split_route_pair(value: str) -> tuple[str, str]:
    """``ROUTE=PATH`` -> (route, path); the route is everything before the last ``=`` (routes
    may hold query strings). Raises ValueError naming the value when it is not such a pair."""
    route, sep, path = value.rpartition("=")
    if not sep or not route.strip() or not path.strip():
        raise ValueError(f"expected ROUTE=PATH, got {value!r}")
    return route.strip(), path.strip()
