"""Docflows' quality on real pull requests and release history, with the goal beside each figure.

    .venv/bin/python benchmarks/docflow_quality.py [--only click,mkdocs] [--case ID,...] [--json OUT]
                                                   [--corpus DIR ...]

Runs the shared scorer (``../shared/tools/docflow_eval.py``) through this checkout's venv over each
corpus in turn, by default both shared ones: ``../shared/corpus/docflow-prs`` (real merged pull
requests, one commit each, with their title and body) and ``../shared/corpus/docflows`` (release
pairs, and commits that touch only tests or internals). For each case a fresh ``docsvc-server`` on
SQLite, then
the real CLI (``docsvc sync``, ``docsvc docflow``, ``docsvc items history`` and ``items diff``). A
few minutes per corpus. The references: a random pick of as many docs pages as the engine planned
(the scorer's ``random`` precision), and the maintainers' own edits for recall and agreement.
Goals (issue 36): page recall >= 0.55; precision >= 0.75 and >= random + 0.4; edited-page recall
>= 0.35; edited lines equal to a maintainer's line >= 0.6; no line deleted that the maintainers
kept; quiet >= 0.95 on commits that touch only tests or internals; no changelog page and no page
planned only because of CI or packaging files.

The scorer counts as a negative every case whose truth is empty, of two kinds that the report names
apart (a manifest's case ``kind``): a ``negative`` case is a commit chosen because it touches only
tests or internals, where the goal applies; a pull request or release (``pair``) after which the
maintainers changed no docs page (a release commit, a docs-only commit, a ``--debug`` output
change) has its quiet rate shown with no goal, since an unchanged docs folder does not say the
change was not user-facing.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# ../shared beside the checkout; from a git worktree under ../wt/NAME, the one beside its folder
SHARED = next((p / "shared" for p in ROOT.parents[:2] if (p / "shared").is_dir()), ROOT.parent / "shared")
SCORER = SHARED / "tools" / "docflow_eval.py"
CORPORA = [SHARED / "corpus" / "docflow-prs", SHARED / "corpus" / "docflows"]

# (label, key in the scorer's overall summary, goal, whether higher is better)
GOALS = [
    ("planned pages: recall", "recall", 0.55, True),
    ("planned pages: precision", "precision", 0.75, True),
    ("pages the suggestion edits, of the pages humans changed", "recall_edited", 0.35, True),
    ("edited lines equal to a line the maintainers wrote", "edit_agreement", 0.6, True),
    ("lines deleted that the maintainers kept", "destructive_removals", 0, False),
    ("changelog/news pages planned", "planned_changelog_pages", 0, False),
    ("pages planned only because of CI/packaging files", "planned_infra_only_pages", 0, False),
]
ABOVE_RANDOM = 0.4  # precision's lead over a random pick of as many pages


def _row(label: str, value, goal: str, met: bool | None) -> str:
    shown = "-" if value is None else f"{value:.2f}" if isinstance(value, float) else str(value)
    return f"{label:<58} {shown:>8} {goal:>14}  {'-' if met is None else 'yes' if met else 'no'}"


# The negatives by the kind of case they are, from the scorer's summary of each kind: (label, the
# summary's key, goal or None). Only commits chosen because they touch only tests or internals have one.
QUIET = (("quiet on {n} commit(s) that touch only tests or internals", "commit_negatives", 0.95),
         ("quiet on {n} change(s) after which no docs page changed", "release_pairs", None))


def _met(value, goal, higher: bool) -> bool | None:
    return None if value is None else value >= goal if higher else value <= goal


def report(summary: dict, kinds: dict | None = None) -> list[str]:
    """One corpus's figures (``summary``: the scorer's overall one), each beside its goal and
    whether it is met (``-`` when there is nothing to measure, e.g. agreement with no line
    edited); ``kinds``: the scorer's summaries per kind of case, for the quiet rows."""
    lines = [f"{'figure':<58} {'now':>8} {'goal':>14}  met"]
    for label, key, goal, higher in GOALS:
        value = summary.get(key)
        lines.append(_row(label, value, f"{'>=' if higher else '='} {goal}", _met(value, goal, higher)))
    for label, kind, goal in QUIET:
        part = (kinds or {}).get(kind) or {}
        if part.get("negatives"):
            value = part.get("quiet_rate")
            lines.append(_row(label.format(n=part["negatives"]), value, "" if goal is None else f">= {goal}",
                              None if goal is None else _met(value, goal, True)))
    random, precision = summary.get("random_precision"), summary.get("precision")
    lead = None if random is None or precision is None else round(precision - random, 3)
    lines.append(_row("precision's lead over a random pick of as many pages", lead, f">= {ABOVE_RANDOM}",
                      None if lead is None else lead >= ABOVE_RANDOM))
    lines.append(_row("(a random pick of as many pages: precision)", random, "", None).rstrip(" -"))
    lines.append(_row("(edited lines compared)", summary.get("agreement_lines", 0), "", None).rstrip(" -"))
    return lines


def score(corpus: Path, args, out: Path) -> tuple[str, dict] | None:
    """The scorer's one-line summary and its summaries (overall, per kind of case) on one corpus;
    None when it failed (said)."""
    command = [sys.executable, str(SCORER), "--corpus", str(corpus), "--bin", str(ROOT / ".venv" / "bin"),
               "--json", str(out)]
    for flag in ("only", "case"):
        if getattr(args, flag):
            command += [f"--{flag}", getattr(args, flag)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0 or not out.exists():
        print(done.stdout[-2000:] + done.stderr[-2000:], file=sys.stderr)
        return None
    summary = json.loads(out.read_text())["summary"]
    return done.stdout.strip().splitlines()[-1], summary


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="projects, comma-separated")
    parser.add_argument("--case", help="case ids, comma-separated")
    parser.add_argument("--json", help="also write the scorer's per-case rows here (one file per corpus: "
                                       "OUT with the corpus's name before the suffix)")
    parser.add_argument("--corpus", action="append", type=Path, metavar="DIR",
                        help="cases to score, each corpus on its own (repeatable; default both shared ones: "
                             f"{', '.join(str(c) for c in CORPORA)}); benchmarks/docflow_cases.py makes them "
                             "from any project's history")
    args = parser.parse_args()
    corpora = args.corpus or CORPORA
    missing = [str(p) for p in (SCORER, *corpora) if not p.exists()]
    if missing:
        print(f"error: not found: {', '.join(missing)}", file=sys.stderr)
        return 2
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        for corpus in corpora:
            name = corpus.resolve().name
            out = Path(args.json).with_stem(f"{Path(args.json).stem}-{name}") if args.json else Path(tmp) / f"{name}.json"
            print(f"## {name} ({corpus})")
            scored = score(corpus, args, out)
            if scored is None:
                failed = True
                continue
            line, summary = scored
            print(line)  # the scorer's own one-line summary
            print()
            print("\n".join(report(summary.get("overall", summary), summary)))
            print()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
