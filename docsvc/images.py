"""Screenshot conventions shared by the CLI, the CI layer and the local service: an image's
format by its content, the route a file name names, and ``ROUTE=PATH`` pairs."""

from __future__ import annotations

from pathlib import PurePath

__all__ = ["sniff", "route_for_image", "split_route_pair"]


def sniff(head: bytes) -> str | None:
    """The image format by its first bytes, not its name: png, jpeg, webp, or None."""
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if head.startswith(b"\xff\xd8\xff"):
        return "jpeg"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "webp"
    return None


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
