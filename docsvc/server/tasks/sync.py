"""The ``sync`` job: fetch an integration's docs branch into a bare mirror, bring the docs
index up to its head, and record where the code branch is (asked of its remote, not fetched).

Incremental: the files that changed since the last synced commit (one ``git diff``) are read
again when their blob differs from the one indexed, and files gone from the branch leave the
index; only the first sync, or one whose last commit is gone from the mirror (history
rewritten), lists the whole tree and the whole index to compare them. The index changes are
committed in one transaction at the end, so a sync that fails midway leaves the previous index
whole.
"""

from __future__ import annotations

import time

from ..db.tables import Integration, RepoState, utcnow
from ..engines.git import GitError, Mirror, UnsafePath, ls_remote_head, repo_folder
from ..engines.indexer import candidate, index_file
from ..jobs.registry import JobContext, JobFailure, handler
from ..services import search
from ..services.repos import SYNC as KIND
from ._support import reaching


def _fetch(mirror: Mirror, what: str, *branches: str) -> dict[str, str]:
    """Fetch ``branches`` of one repository into its mirror; returns each one's head."""
    with reaching(what, mirror.url):
        mirror.fetch_branches(*branches)
        return {branch: mirror.head(branch) for branch in dict.fromkeys(branches)}


def _code_head(code: Mirror, branch: str) -> str:
    """Where the code branch is on its remote, asked without fetching: the sync reads no code
    (what reads it, Docflows and the docs check, fetches it first), so its objects need not
    come down with every sync."""
    with reaching("code", code.url):
        head = ls_remote_head(code.location or code.url, branch, egress=code.egress)
        if head is None:
            raise GitError(f"branch {branch!r} not found")
        return head


MAX_LISTED_CHANGES = 2000  # past this many changed paths, listing the whole tree is as cheap


def _since(docs: Mirror, last: str | None, head: str, folder: str) -> dict[str, str | None] | None:
    """The docs files that changed since the last synced commit (path -> new blob, None when
    gone), or None when everything must be compared: no sync yet, that commit no longer in the
    mirror (a force-push and a prune), or a change too large to list."""
    if last is None:
        return None
    try:
        changes = docs.changed_blobs(last, head, folder)
    except GitError:
        return None
    return changes if len(changes) <= MAX_LISTED_CHANGES else None


@handler(KIND)
def run_sync(ctx: JobContext) -> dict:
    started = time.monotonic()
    integration_id = int(ctx.params["integration_id"])
    with ctx.sessions() as session:
        integration = session.get(Integration, integration_id)
        if integration is None or integration.org_id != ctx.org_id:
            raise JobFailure("Unknown integration", f"integration {integration_id} no longer exists")
        session.expunge(integration)
    try:  # a row saved before registration checked the docs folder (``../..``) reads nothing outside
        repo_folder(integration.docs_path)
    except UnsafePath as exc:
        raise JobFailure("Invalid integration", f"integration {integration_id}'s docs path: {exc}") from None
    mirrors = ctx.settings.mirrors_dir
    code = Mirror.for_url(mirrors, integration.code_repo, ctx.settings.egress)
    docs = Mirror.for_url(mirrors, integration.docs_repo, ctx.settings.egress)

    if docs.path == code.path:
        # One repository: one fetch brings both branches (it is fetched for the docs anyway).
        ctx.progress(f"fetching the repository {docs.url}")
        heads = _fetch(docs, "code", integration.code_branch, integration.docs_branch)
        code_head, docs_head = heads[integration.code_branch], heads[integration.docs_branch]
    else:
        # Two repositories: the code's head asked while the docs are fetched (both mostly wait
        # on git; most of an incremental sync's fixed cost is here), the code's failure reported
        # first as before.
        from concurrent.futures import ThreadPoolExecutor

        ctx.progress(f"fetching the docs repository {docs.url}, asking the code repository {code.url}")
        with ThreadPoolExecutor(max_workers=2) as pool:
            code_future = pool.submit(_code_head, code, integration.code_branch)
            docs_future = pool.submit(_fetch, docs, "docs", integration.docs_branch)
            code_head = code_future.result()
            docs_head = docs_future.result()[integration.docs_branch]

    fetched = time.monotonic()
    with ctx.sessions() as session:
        state = session.get(RepoState, integration_id)
        last = state.docs_commit if state is not None else None
    changes = _since(docs, last, docs_head, integration.docs_path)
    with ctx.sessions() as session:
        if changes is None:  # the first sync, or the last synced commit is gone: compare everything
            tree = {p: b for p, b in docs.tree(docs_head, integration.docs_path).items() if candidate(p)}
            previous = search.indexed_blobs(session, integration_id)
        else:
            tree = {p: b for p, b in changes.items() if b is not None and candidate(p)}
            previous = search.indexed_blobs(session, integration_id, list(changes))
    diffed = time.monotonic()
    changed = {p: b for p, b in tree.items() if previous.get(p) != b}
    removed = [p for p in previous if p not in tree]

    total = len(changed)
    ctx.progress(f"indexing {total} changed file(s)", done=0, total=total)
    by_blob: dict[str, list[str]] = {}
    for path, blob in changed.items():
        by_blob.setdefault(blob, []).append(path)
    indexed, skipped, done = {}, [], 0
    for blob, content in docs.read_blobs(by_blob):
        for path in by_blob[blob]:
            entry = index_file(path, content)
            if entry is None:
                skipped.append(path)
            else:
                indexed[path] = (blob, entry)
            done += 1
            ctx.progress(f"indexed {path}", done=done, total=total)
    # A file that stopped being indexable (e.g. a YAML that is no longer a spec) leaves too.
    removed += [p for p in skipped if p in previous]

    read = time.monotonic()
    with ctx.sessions() as session:
        search.replace_files(session, org_id=ctx.org_id, integration_id=integration_id, files=indexed,
                             removed=removed)
        state = session.get(RepoState, integration_id) or RepoState(integration_id=integration_id)
        now = utcnow()
        state.docs_commit, state.code_commit, state.synced_at = docs_head, code_head, now
        state.remote_docs_commit, state.remote_code_commit, state.remote_checked_at = docs_head, code_head, now
        state.behind_docs = state.behind_code = 0
        state.remote_error = None
        session.add(state)
        session.flush()
        state.files_indexed = search.indexed_count(session, integration_id)
        # The index and the job's completion commit together (effects once, whatever process runs it).
        return ctx.complete(session, {
            "integration_id": integration_id,
            "commit": docs_head,
            "code_commit": code_head,
            "files_indexed": len(indexed),
            "files_removed": len(removed),
            "files_total": state.files_indexed,
            "incremental": last is not None,
            "seconds": round(time.monotonic() - started, 3),
            # Where the time went: fetching, listing the tree and reading the index, indexing the
            # changed files, writing the index (one transaction).
            "phases": {"fetch": round(fetched - started, 3), "diff": round(diffed - fetched, 3),
                       "index": round(read - diffed, 3), "write": round(time.monotonic() - read, 3)},
        })
