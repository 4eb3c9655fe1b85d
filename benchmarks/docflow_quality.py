"""Docflows' quality on real release history, with the goal beside each figure.

    .venv/bin/python benchmarks/docflow_quality.py [--only click,mkdocs] [--case ID,...] [--json OUT]
                                                   [--corpus DIR ...]

Runs the shared scorer (``../shared/tools/docflow_eval.py``) over the corpus in
``../shared/corpus/docflows`` through this checkout's venv: for each case a fresh ``docsvc-server``
on SQLite, then the real CLI (``docsvc sync``, ``docsvc docflow``, ``docsvc items history`` and
``items diff``). A few minutes. The reference is a random pick of as many docs pages as the engine
planned (the scorer's ``random`` precision), and the maintainers' own edits for agreement.
Goals (issue 13): precision >= 0.80 and well above random, recall >= 0.65, quiet on internal-only
commits >= 0.95, no line deleted that the maintainers kept, no changelog page and no page planned
only because of CI or packaging files, edited lines equal to a maintainer's line >= 0.5.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
SCORER = SHARED / "tools" / "docflow_eval.py"
CORPUS = SHARED / "corpus" / "docflows"

# (label, key in the scorer's overall summary, goal, whether higher is better)
GOALS = [
    ("planned pages: precision", "precision", 0.80, True),
    ("planned pages: recall", "recall", 0.65, True),
    ("quiet on internal-only commits", "quiet_rate", 0.95, True),
    ("lines deleted that the maintainers kept", "destructive_removals", 0, False),
    ("changelog/news pages planned", "planned_changelog_pages", 0, False),
    ("pages planned only because of CI/packaging files", "planned_infra_only_pages", 0, False),
    ("edited lines equal to a line the maintainers wrote", "edit_agreement", 0.5, True),
]


def report(summary: dict) -> list[str]:
    lines = [f"{'figure':<52} {'now':>8} {'goal':>8}  met"]
    for label, key, goal, higher in GOALS:
        value = summary.get(key)
        if value is None:
            lines.append(f"{label:<52} {'-':>8} {goal:>8}  -")
            continue
        met = value >= goal if higher else value <= goal
        shown = f"{value:.2f}" if isinstance(value, float) else str(value)
        lines.append(f"{label:<52} {shown:>8} {goal:>8}  {'yes' if met else 'no'}")
    random = summary.get("random_precision")
    if random:
        lines.append(f"{'a random pick of as many pages: precision':<52} {random:>8.2f} {'':>8}  "
                     f"ours is {summary['precision'] / random:.2f}x")
    lines.append(f"{'edited lines compared':<52} {summary.get('agreement_lines', 0):>8}")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="projects, comma-separated")
    parser.add_argument("--case", help="case ids, comma-separated")
    parser.add_argument("--json", help="also write the scorer's per-case rows here")
    parser.add_argument("--corpus", action="append", type=Path, metavar="DIR",
                        help=f"cases to score (repeatable; default {CORPUS}); benchmarks/docflow_cases.py makes "
                             "them from any project's history")
    args = parser.parse_args()
    corpora = args.corpus or [CORPUS]
    missing = [str(p) for p in (SCORER, *corpora) if not p.exists()]
    if missing:
        print(f"error: not found: {', '.join(missing)}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(args.json) if args.json else Path(tmp) / "scores.json"
        command = [sys.executable, str(SCORER), *(a for c in corpora for a in ("--corpus", str(c))),
                   "--bin", str(ROOT / ".venv" / "bin"), "--json", str(out)]
        for flag in ("only", "case"):
            if getattr(args, flag):
                command += [f"--{flag}", getattr(args, flag)]
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
        if done.returncode != 0 or not out.exists():
            print(done.stdout[-2000:] + done.stderr[-2000:], file=sys.stderr)
            return 1
        summary = json.loads(out.read_text())["summary"]
    overall = summary.get("overall", summary)
    print(done.stdout.strip().splitlines()[-1])  # the scorer's own one-line summary
    print()
    print("\n".join(report(overall)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
