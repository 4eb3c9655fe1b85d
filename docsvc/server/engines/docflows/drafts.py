"""A suggestion's draft as text: its unified diff, line counts, kept versions, the facts as the
suggestion stores them, and the screenshots its pages suggest."""

from __future__ import annotations

import difflib
import posixpath
import re
from typing import Any

from ....images import route_for_image
from .facts import Fact

__all__ = ["unified_diff", "counts", "keep_version", "kept_versions", "fact_view", "suggest_screenshots"]

_IMAGE = re.compile(r"!\[[^\]]*\]\(\s*([^)\s]+)")


def unified_diff(files: dict[str, tuple[str, str]]) -> str:
    out = []
    for path, (old, new) in sorted(files.items()):
        out += difflib.unified_diff(old.splitlines(keepends=True), new.splitlines(keepends=True),
                                    fromfile=f"a/{path}", tofile=f"b/{path}")
    return "".join(line if line.endswith("\n") else line + "\n" for line in out)


def counts(old: str, new: str) -> tuple[int, int]:
    added = removed = 0
    for line in difflib.unified_diff(old.splitlines(), new.splitlines(), lineterm="", n=0):
        if line.startswith("+") and not line.startswith("+++"):
            added += 1
        elif line.startswith("-") and not line.startswith("---"):
            removed += 1
    return added, removed


def keep_version(data: dict, files: dict[str, dict]) -> tuple[list[dict], int]:
    """The suggestion's versions with the current draft added as the next version number."""
    versions = list(data.get("versions") or [])
    version = max([v["version"] for v in versions] or [0]) + 1
    versions.append({"version": version, "files": {p: e["new"] for p, e in files.items()}})
    return versions, version


def kept_versions(rounds: list[dict], first: dict[str, str], final: dict[str, str]) -> list[dict]:
    """The text of each round that has a version number: 1 the Writer's draft, 2 its revision."""
    versions = [{"version": 1, "files": first}]
    if any(r.get("version") == 2 for r in rounds):
        versions.append({"version": 2, "files": final})
    return versions


def fact_view(fact: Fact) -> dict[str, Any]:
    """A fact as the suggestion stores and shows it."""
    return {"kind": fact.kind, "change": fact.change, "name": fact.name, "old": fact.old, "new": fact.new,
            "path": fact.path, "line": fact.line, "rule": fact.rule, "note": fact.note,
            "siblings": list(fact.siblings), "follows": list(fact.follows), "importable": list(fact.importable), "text": fact.describe()}


def suggest_screenshots(files: dict[str, str], tree: set[str]) -> list[dict[str, Any]]:
    """Images on the planned pages that show a page of the product: each a suggested shot of the
    route its file name names, replacing that image. (Uploaded screenshots skip this stage.)"""
    suggested, seen = [], set()
    for path, text in sorted(files.items()):
        for image in _IMAGE.findall(text):
            if re.match(r"^[a-z]+:", image) or not image.lower().endswith((".png", ".jpg", ".jpeg", ".webp")):
                continue
            resolved = posixpath.normpath(posixpath.join(posixpath.dirname(path), image))
            if resolved in seen or resolved not in tree:
                continue
            seen.add(resolved)
            suggested.append({"route": route_for_image(image), "taken": False, "replaces": resolved,
                              "reason": f"{path} shows {image}, a screen of the product that the change may alter"})
    return suggested
