"""Audit the lock files (requirements/*.txt) against known advisories; exit 1 on any.

pip-audit does the work: each pinned version against PyPI's advisory data (per-version JSON API).
A PyPI mirror may serve only the per-project JSON, where pip-audit then skips every pin as "not
found"; the project JSON still lists the advisories of the *latest* release, so a pin that is the
latest release is audited from it. Pins that neither reaches (an older release on such a mirror,
or a pin for another Python than this one, whose marker pip-audit drops) are listed, never hidden.

Usage: python scripts/audit_locks.py requirements/server.txt requirements/dev.txt
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;#]+)")
INDEX = "https://pypi.org/pypi/{name}/json"


def pins(lock: Path) -> set[tuple[str, str]]:
    """Every ``name==version`` of a lock, whatever its environment marker."""
    found = set()
    for line in lock.read_text(encoding="utf-8").splitlines():
        match = PIN.match(line.strip())
        if match:
            found.add((canonical(match.group(1)), match.group(2)))
    return found


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def pip_audit(lock: Path) -> tuple[dict[tuple[str, str], list[str]], list[str]]:
    """(audited pin -> advisory ids, pip-audit's own error lines) for one lock."""
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "audit.json"
        done = subprocess.run([sys.executable, "-m", "pip_audit", "--requirement", str(lock), "--no-deps",
                               "--disable-pip", "--progress-spinner", "off", "--format", "json",
                               "--output", str(report)], capture_output=True, text=True, timeout=600)
        if not report.is_file():
            return {}, [line for line in done.stderr.splitlines() if line.strip()][-3:]
        data = json.loads(report.read_text(encoding="utf-8"))
    audited = {}
    for dep in data.get("dependencies", []):
        if "vulns" in dep:  # audited (an empty list: nothing known)
            audited[(canonical(dep["name"]), dep["version"])] = [v["id"] for v in dep["vulns"]]
    return audited, []


def latest_release_advisories(name: str, version: str) -> list[str] | None:
    """The advisories of ``name==version`` from the project JSON when that is the latest release;
    None when it cannot say (another release is the latest, or the index did not answer)."""
    try:
        with urllib.request.urlopen(INDEX.format(name=name), timeout=60) as answer:
            project = json.load(answer)
    except (OSError, ValueError):
        return None
    if project.get("info", {}).get("version") != version:
        return None
    return [v.get("id", "?") for v in project.get("vulnerabilities") or [] if not v.get("withdrawn")]


def main(locks: list[str]) -> int:
    if not locks:
        print("usage: audit_locks.py LOCK...", file=sys.stderr)
        return 2
    every: set[tuple[str, str]] = set()
    audited: dict[tuple[str, str], list[str]] = {}
    for lock in map(Path, locks):
        every |= pins(lock)
        found, errors = pip_audit(lock)
        if errors:
            print(f"audit: pip-audit failed on {lock}: {' / '.join(errors)}", file=sys.stderr)
            return 1
        audited.update(found)
    by_pip_audit = len(audited)
    rest = sorted(every - audited.keys())
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda pin: latest_release_advisories(*pin), rest))
    unaudited = []
    for pin, advisories in zip(rest, answers):
        if advisories is None:
            unaudited.append(pin)
        else:
            audited[pin] = advisories
    vulnerable = {pin: ids for pin, ids in audited.items() if ids}
    for (name, version), ids in sorted(vulnerable.items()):
        print(f"audit: {name}=={version} has known advisories: {', '.join(ids)}", file=sys.stderr)
    print(f"audit: {len(every)} pins in {', '.join(locks)}: {by_pip_audit} audited by pip-audit, "
          f"{len(audited) - by_pip_audit} from the latest release's advisories, {len(vulnerable)} with a known "
          f"vulnerability; {len(unaudited)} not audited here"
          + (f" ({', '.join(f'{n}=={v}' for n, v in unaudited)})" if unaudited else ""))
    return 1 if vulnerable else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
