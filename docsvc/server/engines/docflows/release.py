"""The release a pull request's change will ship in, read from the version its code declares.

Pages that mark what each item came in ("New in version 1.4", ``.. versionadded:: 8.4``,
"*Introduced in 1.2.0*") mark a new item with the coming release (``version_marks``). The code
says which release that is in two cases only:

- its version is a development or pre-release one (``2.5.0.dev0``, ``3.10.0-dev``, ``9.0.0rc1``):
  the change ships in the release it leads to;
- the change itself sets a new version (a release's own pull request): that one.

A released version the change leaves as it is says nothing about the next release (a patch? a
minor one?), and neither does a version the build sets (from git tags): no release then, and the
Writer says so instead of guessing.

The version is read where packaging tools read it: a static ``version`` in ``pyproject.toml``
(``[project]``, ``[tool.poetry]``), ``setup.cfg`` (``[metadata]``), ``package.json`` or
``Cargo.toml`` at the top of the tree, else ``__version__ = "…"`` in a top-level package's
``__init__.py``, ``__version__.py``, ``_version.py``, ``version.py`` or ``__about__.py`` when
those agree.
"""

from __future__ import annotations

import ast
import configparser
import json
import re
from typing import Callable, Iterable

from .facts_config import load_structured

__all__ = ["declared_version", "coming_release", "versions_between", "release_between", "release_of", "in_form"]

_MAX_BYTES = 1 << 20  # a version file is small; a larger one is not read

_MANIFESTS = ("pyproject.toml", "setup.cfg", "package.json", "Cargo.toml")
_VERSION_MODULES = ("__init__.py", "__version__.py", "_version.py", "version.py", "__about__.py")
_VERSION = re.compile(r"^v?(?P<release>\d+(?:\.\d+){0,3})(?P<rest>.*)$")
# What follows the numbers of a version not yet released: .dev0, a1, b2, rc1, -dev, -alpha.1, -SNAPSHOT
_PRE = re.compile(r"(?i)^[.+-]?(dev|a|alpha|b|beta|c|rc|pre|preview|next|snapshot|canary|nightly)")


def declared_version(path: str, text: str) -> str | None:
    """The version a file states as written (``2.5.0.dev0``); None when it states none statically
    (``dynamic = ["version"]``, ``attr: pkg.__version__``) or does not parse."""
    name = path.rsplit("/", 1)[-1]
    try:
        if name == "pyproject.toml":
            data = load_structured(path, text)
            value = (data.get("project") or {}).get("version") or \
                ((data.get("tool") or {}).get("poetry") or {}).get("version")
        elif name == "Cargo.toml":
            value = (load_structured(path, text).get("package") or {}).get("version")
        elif name == "setup.cfg":
            parser = configparser.ConfigParser(interpolation=None)
            parser.read_string(text)
            value = parser.get("metadata", "version", fallback=None)
        elif name == "package.json":
            data = json.loads(text)
            value = data.get("version") if isinstance(data, dict) else None
        else:
            value = next((node.value.value for node in ast.parse(text).body
                          if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
                          and any(getattr(t, "id", None) == "__version__" for t in node.targets)), None)
    except (ValueError, SyntaxError, RecursionError, AttributeError, configparser.Error):
        return None
    return value.strip() if isinstance(value, str) and _VERSION.match(value.strip()) else None


def coming_release(old: str | None, new: str | None) -> str | None:
    """The release (its numbers: ``2.5.0``) a change from version ``old`` to ``new`` ships in;
    None when the versions do not say."""
    match = _VERSION.match(new or "")
    if match is None:
        return None
    if _PRE.match(match.group("rest")) or (old is not None and old != new):
        return match.group("release")
    return None


def versions_between(paths: Iterable[str], text_at: Callable[[str, str], str | None], base: str, head: str
                     ) -> tuple[str, str | None, str] | None:
    """The project's declared version at ``base`` and at ``head``, and the file that declares it:
    ``(path, old, new)``, read from the files of ``paths`` (the head's tree) by
    ``text_at(commit, path)``; None when the head declares none statically."""
    for group in _version_sources(paths):
        versions = {path: declared_version(path, text) for path in group
                    for text in [text_at(head, path)] if text is not None}
        found = {v for v in versions.values() if v}
        if len(found) != 1:
            continue  # none here, or packages that disagree: not this project's one version
        path = next(p for p, v in versions.items() if v)
        old = text_at(base, path)
        return path, declared_version(path, old) if old is not None else None, found.pop()
    return None


def release_between(paths: Iterable[str], text_at: Callable[[str, str], str | None], base: str, head: str
                    ) -> str | None:
    """The release the change from ``base`` to ``head`` ships in (``coming_release``), the version
    read from the files of ``paths`` (the head's tree) by ``text_at(commit, path)``."""
    found = versions_between(paths, text_at, base, head)
    return coming_release(found[1], found[2]) if found else None


def release_of(mirror, base: str, head: str) -> str | None:
    """``release_between`` for two commits of a git mirror (``engines.git.Mirror``)."""
    def text_at(commit: str, path: str) -> str | None:
        data = mirror.show(commit, path)
        return None if data is None or len(data) > _MAX_BYTES else data.decode("utf-8", "replace")
    return release_between(mirror.tree(head, "."), text_at, base, head)


def _version_sources(paths: Iterable[str]) -> list[list[str]]:
    """The files that may state the version, most telling first: each manifest at the top alone,
    then the top-level packages' version modules together."""
    paths = set(paths)
    modules = sorted(p for p in paths if p.rsplit("/", 1)[-1] in _VERSION_MODULES and
                     len(p.split("/")) == (3 if p.split("/")[0] in ("src", "lib") else 2) and
                     not p.split("/")[-2].startswith(("_", "test", "doc", "example")))
    return [[m] for m in _MANIFESTS if m in paths] + ([modules] if modules else [])


def in_form(written: str, release: str) -> str:
    """``release`` written as a page writes a version: ``1.5`` for a page that says ``1.4``
    (``1.5.1`` still, a patch release's own), ``v3.10.0`` for one that says ``v3.5.0``."""
    prefix = "v" if written[:1] in "vV" else ""
    parts = release.split(".")
    wanted = len(written.lstrip("vV").split("."))
    while len(parts) < wanted:
        parts.append("0")
    while len(parts) > wanted and parts[-1] == "0":
        parts.pop()
    return written[:len(prefix)] + ".".join(parts)
