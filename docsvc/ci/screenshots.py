"""Screenshots for ``docflow``: which image goes with which page route, and checks that each
image is fit to send, all done before anything is sent.

Three ways to name them:
- ``ROUTE=PATH`` pairs (the route is everything before the last ``=``);
- a folder plus a mapping file (YAML or JSON: image file name -> route);
- a folder alone, by file-name convention: ``index.png`` is ``/``, ``settings__billing.png`` is
  ``/settings/billing`` (``__`` separates path segments).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..images import route_for_image, sniff, split_route_pair
from .settings import InputError

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp")


@dataclass(frozen=True)
class Screenshot:
    route: str
    path: Path
    kind: str  # png | jpeg | webp
    size: int


def _pairs(values) -> list[tuple[str, Path]]:
    pairs = []
    for value in values:
        try:
            route, path = split_route_pair(value)
        except ValueError as exc:
            raise InputError(f"--screenshots: {exc}") from None
        pairs.append((route, Path(path)))
    return pairs


def _outside(folder: Path, names) -> list[str]:
    """The names that lead out of ``folder`` once links are followed (``../x.png``, an absolute
    path, a symbolic link to elsewhere): only files inside it are sent, whatever a pull request
    puts in the mapping file or the folder."""
    root = folder.resolve()
    escaped = []
    for name in names:
        try:
            inside = (folder / name).resolve().is_relative_to(root)
        except (OSError, ValueError):  # a NUL byte, a link loop
            inside = False
        if not inside:
            escaped.append(name)
    return escaped


def _from_folder(folder: Path, mapping_file: str | None) -> list[tuple[str, Path]]:
    if not folder.is_dir():
        raise InputError(f"--screenshots-dir: {folder} is not a folder")
    images = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
    escaped = _outside(folder, [p.name for p in images])
    if escaped:
        raise InputError(f"--screenshots-dir: {', '.join(escaped)} in {folder} "
                         f"{'links' if len(escaped) == 1 else 'link'} outside the folder; only files inside it are sent")
    if mapping_file is None:
        return [(route_for_image(p.name), p) for p in images]
    mapping = _read_mapping(Path(mapping_file))
    escaped = _outside(folder, sorted(mapping))
    if escaped:
        raise InputError(f"--screenshots-map: {', '.join(escaped)} in {mapping_file} "
                         f"{'is' if len(escaped) == 1 else 'are'} outside --screenshots-dir {folder} (links followed); "
                         "name files inside it")
    unmapped = [p.name for p in images if p.name not in mapping]
    if unmapped:
        raise InputError(f"--screenshots-map: no route for {', '.join(unmapped)} in {mapping_file}")
    return [(mapping[name], folder / name) for name in sorted(mapping)]


def _read_mapping(path: Path) -> dict[str, str]:
    """The image-name-to-route map of ``--screenshots-map`` (JSON or YAML). Read as every user
    file is: strict UTF-8 (``files.read_text``), and through the bounded ``specload``, so a YAML
    alias bomb is refused instead of expanded."""
    from ..files import Unreadable, read_text
    from ..specload import SpecError, load

    try:
        data = load(read_text(path)).data
    except Unreadable as exc:
        raise InputError(f"--screenshots-map: cannot read {path} ({exc})") from None
    except SpecError as exc:
        raise InputError(f"--screenshots-map: {path} is not valid JSON or YAML: {exc}") from None
    if not isinstance(data, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in data.items()):
        raise InputError(f"--screenshots-map: {path} must map image file names to routes")
    return data


def collect(pairs, folder: str | None, mapping_file: str | None, max_mb: float) -> list[Screenshot]:
    """Every screenshot, checked; raises one InputError listing every problem, one per line."""
    wanted = _pairs(pairs or ())
    if folder:
        wanted += _from_folder(Path(folder), mapping_file)
    elif mapping_file:
        raise InputError("--screenshots-map needs --screenshots-dir")
    limit = int(max_mb * 1024 * 1024)
    problems, shots = [], []
    for route, path in wanted:
        if not path.is_file():
            problems.append(f"screenshot {path} (route {route}): file not found")
            continue
        size = path.stat().st_size
        with path.open("rb") as handle:
            kind = sniff(handle.read(16))
        if kind is None:
            problems.append(f"screenshot {path} (route {route}): not a PNG, JPEG or WebP image")
        elif size > limit:
            problems.append(f"screenshot {path} (route {route}): {size / 1048576:.1f} MB is over the "
                            f"{max_mb:g} MB limit")
        else:
            shots.append(Screenshot(route, path, kind, size))
    routes = [s.route for s in shots]
    problems += [f"route {r} has more than one screenshot" for r in sorted({r for r in routes if routes.count(r) > 1})]
    if problems:
        raise InputError("\n".join(problems))
    return shots
