"""The project's version as its docs show it: the output of the project's own program asked for its
version (``$ http --version`` then ``# 3.0.0``; ``black --version`` then ``black, 24.1.0``).

Such output is the version the project declares (``release.versions_between``), so a pull request
that sets a new one makes it stale. Only what the project's own programs print counts: a program
named by a console script or ``bin`` entry of its manifests, or its package's name; never another
tool's (``python --version``, ``node -v``). Shared by the planner (which pages show it) and the
Writer's ``version_output`` structure (which shows the new version in its place).
"""

from __future__ import annotations

import json
import re
from pathlib import PurePosixPath
from typing import Callable, Iterable

__all__ = ["programs", "shown", "restated", "VERSION"]

# A command asking a program for its version, alone on its line, after an optional prompt.
_ASK = re.compile(r"^\s*(?:[$>%#]\s*)?(?P<program>[\w][\w.-]*)\s+(?:--version|-V|version)\s*$")
VERSION = re.compile(r"(?<![\w.])v?\d+\.\d+(?:\.\d+)*(?:[.+-]?(?:dev|a|b|rc|post)\d*)?(?![\w.]|\.\d)")
_PROMPT = re.compile(r"^\s*[$>%]\s")
# An entry point as manifests write it: ``http = httpie.__main__:main``, ``"black" = "black:patched_main"``
_ENTRY = re.compile(r"""^\s*["']?(?P<name>[A-Za-z][\w.-]*)["']?\s*=\s*["']?[\w.]+:[\w.]+["']?\s*,?\s*$""")
_MANIFESTS = ("setup.py", "setup.cfg", "pyproject.toml")
OUTPUT_LINES = 2  # the version is on one of the lines right after the command


def programs(version_file: str, text_at: Callable[[str], str | None]) -> tuple[str, ...]:
    """The names the project's own programs are run by: its manifests' console scripts (Python's
    ``name = module:function`` entry points, ``package.json``'s ``bin``) and the name of the package
    that declares its version (``httpie/__init__.py`` → ``httpie``)."""
    names: list[str] = []
    for manifest in _MANIFESTS:
        text = text_at(manifest) or ""
        names += [m.group("name") for line in text.split("\n") if (m := _ENTRY.match(line))]
    try:
        package = json.loads(text_at("package.json") or "null")
    except ValueError:
        package = None
    if isinstance(package, dict):
        bin_ = package.get("bin")
        if isinstance(bin_, dict):
            names += [k for k in bin_ if isinstance(k, str)]
        elif isinstance(bin_, str) and isinstance(package.get("name"), str):
            names.append(package["name"].rsplit("/", 1)[-1])
    parts = PurePosixPath(version_file).parts
    if len(parts) >= 2:
        names.append(parts[-2])
    return tuple(dict.fromkeys(n for n in names if n and not n.startswith(("_", "-"))))


def shown(text: str, names: Iterable[str]) -> list[int]:
    """The lines (0-based) that show the version one of these programs prints when asked for it:
    the first line with a version right after the command, before the next command."""
    names = set(names)
    lines = text.split("\n")
    found = []
    for i, line in enumerate(lines):
        match = _ASK.match(line)
        if not match or match.group("program") not in names:
            continue
        for j in range(i + 1, min(i + 1 + OUTPUT_LINES, len(lines))):
            if not lines[j].strip() or _PROMPT.match(lines[j]) or _ASK.match(lines[j]) or \
                    lines[j].lstrip().startswith(("```", "~~~")):
                break  # the output ended: a blank line, the next command, the block's fence
            if len(VERSION.findall(lines[j])) == 1:
                found.append(j)
                break
    return found


def restated(line: str, new: str) -> str:
    """The output line with the version it shows replaced by ``new`` (keeping a ``v`` prefix)."""
    return VERSION.sub(lambda m: ("v" if m.group(0).startswith("v") else "") + new.lstrip("v"), line, count=1)
