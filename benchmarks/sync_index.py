"""Full and incremental sync of a docs repository of generated Markdown files, through the real
CLI against the real local service.

    .venv/bin/python benchmarks/sync_index.py [--files 5000] [--db URL] [--repeat 5]

Prints the full sync's time, and the incremental sync after one changed file as a fraction of
it (the reference is the full sync of the same repository on the same machine): ``--repeat``
incremental syncs, one changed file each, and their median, since one sync of a few tens of
milliseconds is at the mercy of the machine's other work.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.support import GitRemote, LocalService, TestDatabase, git, run_cli  # noqa: E402

WORDS = ("deploy token cluster webhook retry timeout cache index search render release schema "
         "endpoint pipeline artifact preview branch commit review approve").split()


def page(n: int) -> str:
    body = "\n\n".join(
        " ".join(WORDS[(n * 7 + i * 3 + k) % len(WORDS)] for k in range(14)) + f" page{n} paragraph{i}."
        for i in range(8))
    return f"# Page {n}\n\n{body}\n\n## Options\n\n| flag | default |\n|---|---|\n| --level{n} | {n % 10} |\n"


def generate(remote: GitRemote, files: int) -> None:
    docs = remote.work / "docs"
    for n in range(files):
        folder = docs / f"section{n % 50}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"page{n}.md").write_text(page(n))
    git("add", "-A", cwd=remote.work)
    git("commit", "-q", "-m", f"{files} pages", cwd=remote.work)
    git("push", "-q", "origin", "main", cwd=remote.work)


def fresh_database(url: str | None, root: Path) -> TestDatabase:
    """The run's own database: a SQLite file, or a new database on the PostgreSQL server ``url``
    names (the database in ``url`` is left untouched, and runs side by side never meet)."""
    if url is None or url.startswith("sqlite"):
        database = TestDatabase("sqlite", root)
        database.url = url or database.url
        return database
    os.environ["DOCSVC_TEST_DATABASE_URL"] = url  # where TestDatabase makes its databases
    return TestDatabase("postgresql", root)


def timed_sync(key: str, base_url: str, integration: int) -> tuple[float, dict]:
    start = time.perf_counter()
    done = run_cli("sync", "--integration-id", str(integration), "--json", key=key, base_url=base_url, timeout=3600)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"sync failed: {done.stderr}")
    return elapsed, json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=5000)
    parser.add_argument("--db", default=None,
                        help="database URL (default: a SQLite file); with a PostgreSQL URL, a fresh database "
                             "is made on that server for the run and dropped after it")
    parser.add_argument("--repeat", type=int, default=5, help="incremental syncs to take the median of")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        code = GitRemote(root, "code", {"app.py": "print('app')\n"})
        docs = GitRemote(root, "docs", {"docs/index.md": "# Docs\n"})
        generate(docs, args.files)
        database = fresh_database(args.db, root)
        svc = LocalService(db_url=database.url, workdir=root / "work").start()
        try:
            key = svc.admin("init", "--org", "Bench", "--admin-email", "bench@example.test")
            integration = int(svc.admin("integrations", "add", "--org", "Bench", "--name", "bench",
                                        "--code-repo", str(code.bare), "--docs-repo", str(docs.bare)))
            full, full_result = timed_sync(key, svc.base_url, integration)
            runs = []
            for n in range(max(1, args.repeat)):
                docs.commit({"docs/section0/page0.md": page(0) + f"\nOne more line ({n}).\n"}, "one change")
                runs.append(timed_sync(key, svc.base_url, integration))
            runs.sort(key=lambda run: run[1]["seconds"])
            incremental, inc_result = runs[len(runs) // 2]
        finally:
            svc.stop()
            database.drop()

    backend = (args.db or "sqlite").split(":")[0]
    print(f"{args.files + 1} Markdown files, database {backend}")
    print(f"full sync        {full:7.2f} s  ({full_result['files_indexed']} files indexed, "
          f"service side {full_result['seconds']} s)")
    print(f"incremental sync {incremental:7.2f} s  ({inc_result['files_indexed']} file indexed, "
          f"service side {inc_result['seconds']} s, the median of {len(runs)}: "
          f"{', '.join(str(run[1]['seconds']) for run in runs)})")
    print(f"incremental / full = {incremental / full:.3f} (reference: the full sync)")
    print(f"service-side phases, full: {full_result.get('phases')}; incremental: {inc_result.get('phases')}")
    print(f"service side: incremental / full = {inc_result['seconds'] / full_result['seconds']:.3f} "
          f"(goal ≤ 0.05)")


if __name__ == "__main__":
    main()
