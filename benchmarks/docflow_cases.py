"""Docflows cases from any project's git history, in the shared corpus's format, to measure on
projects the rules were never looked at with.

    .venv/bin/python benchmarks/docflow_cases.py REPO --project NAME --out DIR
                     [--docs docs] [--pairs 5] [--negatives 2] [--tags '^v?\\d+\\.\\d+(\\.\\d+)?$']

REPO is a local clone with its release tags. The newest ``--pairs`` feature releases (X.Y.0, or
X.Y) are each paired with the release before them: ``main`` holds the older release's tree, and
the pull request carries the newer one's changes with its docs held back (the shared scorer
builds that branch). ``--negatives`` commits that change only tests, from the newest pair's
range, are cases where the engine should stay quiet. The output folder gets ``NAME.bundle`` (one
commit per snapshot, no other history) and ``NAME.json`` (the manifest, its truth computed by the
scorer's own rules); then

    .venv/bin/python benchmarks/docflow_quality.py --corpus DIR

scores the engine on them. ``--commits N`` adds N single commits (newest first, spread over the
last ``--history`` commits) that change both code and docs pages: a pull request's own size, as a
user runs Docflows, with the pages its author changed as the truth. The corpus in
``../shared/corpus/docflows`` is the team's shared reference; folders made with this script are for checking that a change to the rules holds on
other projects too (see the README's Docflows section).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
# ../shared beside the checkout; from a git worktree under ../wt/NAME, the one beside its folder
SHARED = next((p / "shared" for p in ROOT.parents[:2] if (p / "shared").is_dir()), ROOT.parent / "shared")
SCORER = SHARED / "tools" / "docflow_eval.py"
TEST_PATH = re.compile(r"(^|/)(tests?|testing)/|(^|/)test_[^/]*\.py$|_test\.(py|go)$|\.(test|spec)\.[jt]sx?$")


def _scorer():
    """The shared scorer as a module: its rules decide what is held back and what the truth is."""
    spec = importlib.util.spec_from_file_location("docflow_eval", SCORER)
    module = importlib.util.module_from_spec(spec)
    sys.modules["docflow_eval"] = module
    spec.loader.exec_module(module)
    return module


# Snapshot commits are made the same on any machine, whoever runs this (no user identity needed).
IDENTITY = {"GIT_AUTHOR_NAME": "docflow-cases", "GIT_AUTHOR_EMAIL": "docflow-cases@example.com",
            "GIT_COMMITTER_NAME": "docflow-cases", "GIT_COMMITTER_EMAIL": "docflow-cases@example.com",
            "GIT_AUTHOR_DATE": "2024-01-01T00:00:00Z", "GIT_COMMITTER_DATE": "2024-01-01T00:00:00Z"}


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, check=True,
                          env={**os.environ, **IDENTITY})
    return done.stdout.decode("utf-8", "replace")


def objects_of(repo: Path) -> Path:
    """REPO's object store, for a clone with a work tree or a bare one."""
    path = Path(git(repo, "rev-parse", "--git-path", "objects").strip())
    return path if path.is_absolute() else (repo / path).resolve()


def _version(tag: str) -> tuple[int, ...]:
    return tuple(int(n) for n in re.findall(r"\d+", tag))


def release_pairs(repo: Path, pattern: str, count: int, keep: Callable[[str, str], bool] = lambda a, b: True
                  ) -> list[tuple[str, str]]:
    """The newest ``count`` feature releases (patch 0) that ``keep`` accepts, each with the release
    just before it."""
    tags = sorted((t for t in git(repo, "tag").split() if re.fullmatch(pattern, t)), key=_version)
    pairs = []
    for before, tag in reversed(list(zip(tags, tags[1:]))):
        version = _version(tag)
        if version[2:3] in ((), (0,)) and version[:2] != _version(before)[:2]:  # X.Y or X.Y.0, a new X.Y
            if len(pairs) == count:
                break
            if keep(before, tag):
                pairs.append((before, tag))
    return pairs[::-1]


def has_folder(repo: Path, rev: str, folder: str) -> bool:
    """Whether ``folder`` holds anything at ``rev``."""
    return bool(git(repo, "ls-tree", "--name-only", rev, "--", folder.rstrip("/") + "/").strip())


def keeps_docs(repo: Path, docs: str, base: str, head: str) -> bool:
    """Whether the docs folder stands at both ends of a case. Where the project moved its docs
    elsewhere, the pages it changed are no longer under the folder (an empty truth: a case the
    engine is wrongly blamed for) and the moved pages would reach the pull request as code."""
    missing = [rev for rev in (base, head) if not has_folder(repo, rev, docs)]
    if missing:
        print(f"warning: {docs}/ is missing at {missing[0]}: {base}..{head} is left out (the docs moved?)",
              file=sys.stderr)
    return not missing


def commits_touching_tests_only(repo: Path, base: str, head: str, count: int) -> list[str]:
    """Up to ``count`` commits between two releases, spread evenly, that change tests and nothing else."""
    found = []
    for sha in git(repo, "rev-list", "--no-merges", f"{base}..{head}").split():
        paths = git(repo, "diff-tree", "--no-commit-id", "--name-only", "-r", sha).split("\n")
        paths = [p for p in paths if p]
        if paths and all(TEST_PATH.search(p) for p in paths):
            found.append(sha)
    if len(found) <= count:
        return found
    step = len(found) / count
    return [found[int(i * step)] for i in range(count)]


CODE = re.compile(r"\.(py|pyi|js|mjs|cjs|ts|mts|cts|jsx|tsx|go|rs|java|kt|rb|php|cs)$")


def commits_changing_code_and_docs(repo: Path, rules, count: int, history: int) -> list[str]:
    """Up to ``count`` commits, spread evenly over the newest ``history``, that change at least one
    docs page (not a changelog) and at least one code file that is neither a test nor docs."""
    found = []
    for sha in git(repo, "rev-list", "--no-merges", f"--max-count={history}", "HEAD").split():
        paths = [p for p in git(repo, "diff-tree", "--no-commit-id", "--name-only", "-r", sha).split("\n") if p]
        pages = [p for p in paths if not rules.is_code_change(p) and p.startswith(rules.docs + "/")
                 and rules.page.search(p) and not rules.changelog.search(p)]
        code = [p for p in paths if rules.is_code_change(p) and CODE.search(p) and not TEST_PATH.search(p)]
        if pages and code and keeps_docs(repo, rules.docs, f"{sha}^", sha):
            found.append(sha)
    if len(found) <= count:
        return found
    step = len(found) / count
    return [found[int(i * step)] for i in range(count)]


def commit_case(repo: Path, project: str, sha: str, group: str, letter: str, kind: str) -> dict:
    """A case of one commit: its parent's tree as ``main``, the commit as the pull request, titled
    by its message (snapshots under ``refs/tags/GROUP/SHA8/``)."""
    subject = git(repo, "log", "-1", "--format=%s", sha).strip()
    return {"id": f"{project}-{letter}{sha[:8]}", "kind": kind, "base": f"refs/tags/{group}/{sha[:8]}/parent",
            "target": f"refs/tags/{group}/{sha[:8]}/child", "main_message": f"{project}: parent of {sha[:8]}",
            "pr_message": subject, "title": subject, "body": git(repo, "log", "-1", "--format=%b", sha).strip()}


def build(repo: Path, project: str, out: Path, docs: str, pairs: int, negatives: int, pattern: str,
          commits: int = 0, history: int = 1000) -> dict:
    scorer = _scorer()
    rules = scorer.Rules({"docs_path": docs})
    chosen = release_pairs(repo, pattern, pairs, lambda old, new: keeps_docs(repo, docs, old, new)) if pairs else []
    if pairs and not chosen:
        raise SystemExit(f"error: no release tags in {repo} match {pattern!r} with {docs}/ at both ends")
    snapshots: list[tuple[str, str, str]] = []  # (ref, source, commit-ish in REPO)
    for old, new in chosen:
        for tag in (old, new):
            ref = f"refs/tags/rel/{tag}"
            if ref not in {s[0] for s in snapshots}:
                snapshots.append((ref, f"tag {tag}", tag))
    negative_shas = commits_touching_tests_only(repo, *chosen[-1], negatives) if chosen else []
    commit_shas = commits_changing_code_and_docs(repo, rules, commits, history) if commits else []
    for group, shas in (("neg", negative_shas), ("pr", commit_shas)):
        for sha in shas:
            snapshots += [(f"refs/tags/{group}/{sha[:8]}/parent", f"parent of commit {sha}", f"{sha}^"),
                          (f"refs/tags/{group}/{sha[:8]}/child", f"commit {sha}", sha)]
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="docflow-cases-") as tmp:
        store = Path(tmp) / "store.git"
        git(Path(tmp), "init", "--quiet", "--bare", str(store))
        (store / "objects" / "info" / "alternates").write_text(f"{objects_of(repo)}\n")  # no copy of REPO
        parent, records = None, []
        for ref, source, rev in snapshots:
            tree = git(repo, "rev-parse", f"{rev}^{{tree}}").strip()
            commit = git(store, "commit-tree", tree, *(["-p", parent] if parent else []), "-m", source).strip()
            git(store, "update-ref", ref, commit)
            records.append({"ref": ref, "source": source, "source_commit": git(repo, "rev-parse", f"{rev}^{{commit}}")
                            .strip(), "tree": tree, "commit": commit})
            parent = commit
        bundle = out / f"{project}.bundle"
        git(store, "bundle", "create", str(bundle.resolve()), "--all")
        # Cases, with the truth computed as the scorer will recompute it.
        cases = [{"id": f"{project}-{old}-{new}", "kind": "pair", "base": f"refs/tags/rel/{old}",
                  "target": f"refs/tags/rel/{new}", "main_message": f"{project} {old}",
                  "pr_message": f"{project}: code changes of {new}", "title": f"{project}: code of {new}",
                  "body": f"Code changes from {old} to {new} (docs held back)"} for old, new in chosen]
        cases += [commit_case(repo, project, sha, "neg", "c", "negative") for sha in negative_shas]
        cases += [commit_case(repo, project, sha, "pr", "p", "pair") for sha in commit_shas]
        for number, case in enumerate(cases, 1):
            case["pr_number"] = number
            a_tree, p_tree, *_ = scorer.pr_tree(store, case, rules, Path(tmp))
            truth = scorer.compute_truth(store, case, rules, a_tree, p_tree)
            case.update(truth=truth["truth"], strict_truth=truth["strict_truth"])
    manifest = {"format": 1, "project": project, "upstream": str(repo), "bundle": bundle.name,
                "bundle_sha256": hashlib.sha256(bundle.read_bytes()).hexdigest(), "bundle_bytes": bundle.stat().st_size,
                "docs_path": docs, "snapshots": records, "rules": {"docs_path": docs}, "cases": cases}
    (out / f"{project}.json").write_text(json.dumps(manifest, indent=1) + "\n")
    return manifest


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("repo", type=Path, help="a local clone with the project's release tags")
    parser.add_argument("--project", required=True, help="the project's short name (case ids start with it)")
    parser.add_argument("--out", type=Path, required=True, help="folder for NAME.bundle and NAME.json")
    parser.add_argument("--docs", default="docs", help="the docs folder in the tree (default: docs)")
    parser.add_argument("--pairs", type=int, default=5, help="feature releases to pair (default: 5)")
    parser.add_argument("--negatives", type=int, default=2, help="test-only commits (default: 2)")
    parser.add_argument("--tags", default=r"v?\d+\.\d+(\.\d+)?", help="release tags, as a regular expression")
    parser.add_argument("--commits", type=int, default=0,
                        help="single commits that change code and docs pages, as pull-request-sized cases (default: 0)")
    parser.add_argument("--history", type=int, default=1000,
                        help="how many of the newest commits --commits picks from (default: 1000)")
    args = parser.parse_args()
    if not SCORER.exists():
        print(f"error: the shared scorer is expected at {SCORER}", file=sys.stderr)
        return 2
    try:
        manifest = build(args.repo.resolve(), args.project, args.out, args.docs.strip("/"), args.pairs,
                         args.negatives, args.tags, args.commits, args.history)
    except subprocess.CalledProcessError as exc:
        print(f"error: git {' '.join(exc.cmd[3:])}: {exc.stderr.decode(errors='replace').strip()[:300]}",
              file=sys.stderr)
        return 1
    for case in manifest["cases"]:
        print(f"{case['id']:<40} {case['kind']:<9} truth {len(case['truth']):>3}  "
              f"strict {len(case['strict_truth']):>3}")
    print(f"wrote {args.out / (args.project + '.json')} and {manifest['bundle']} "
          f"({manifest['bundle_bytes'] >> 10} KiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
