"""A sync cut off by a crash of the service: after a restart the job runs again (never stays
``queued``) and the index is whole. Also: ``--timeout`` gives exit 8 while the job goes on."""

from __future__ import annotations

import json
import re
import signal
import time

import httpx

from tests.support import GitRemote, generated_docs, run_cli

FILES = 50000  # enough for the sync to outlast --timeout below on a fast machine (about 3.5 s)


def big_docs(root) -> GitRemote:
    return generated_docs(root, "big-docs", FILES)


def test_killed_during_a_sync_the_job_reruns_and_the_index_is_whole(service, tmp_path):
    key = service.admin("init", "--org", "Crashy", "--admin-email", "ops@crashy.test")
    code = GitRemote(tmp_path, "code", {"app.py": "x = 1\n"})
    docs = big_docs(tmp_path)
    repo_id = service.admin("integrations", "add", "--org", "Crashy", "--name", "big", "--code-repo",
                            str(code.bare), "--docs-repo", str(docs.bare))
    cli = lambda *args: run_cli(*args, key=key, base_url=service.base_url)  # noqa: E731

    # --timeout bounds the request that starts the job too: leave it room on a loaded machine.
    waited = cli("sync", "--integration-id", repo_id, "--timeout", "2.5", "--json")
    assert waited.returncode == 8, waited.stderr
    job_id = re.search(r"job ([0-9a-f-]{36})", waited.stderr).group(1)
    # "running" when no poll had answered yet (a slow machine): the job goes on either way.
    assert re.search(rf"Error: job {job_id} is still (queued|running); stopped waiting after 2.5 s", waited.stderr)
    stood = json.loads(waited.stdout)  # --json: the job to poll later, for a script
    assert stood["job_id"] == job_id and stood["status"] == "queued"

    auth = {"Authorization": f"Bearer {key}"}
    deadline = time.monotonic() + 120
    while True:  # kill the service once the worker has started the sync
        job = httpx.get(f"{service.base_url}/api/v1/jobs/{job_id}", headers=auth).json()
        if job["status"] == "queued" and (job.get("progress") or {}).get("message") != "queued":
            break
        assert job["status"] == "queued", f"the sync ended before it could be interrupted: {job}"
        assert time.monotonic() < deadline
        time.sleep(0.02)
    service.stop(signal.SIGKILL)
    service.start()

    done = cli("sync", "--integration-id", repo_id, "--json")  # a second sync waits for the first
    assert done.returncode == 0, done.stderr
    job = httpx.get(f"{service.base_url}/api/v1/jobs/{job_id}", headers=auth).json()
    assert job["status"] == "completed", job
    assert job["attempts"] == 2
    assert job["result"]["files_total"] == FILES + 1
    repos = json.loads(cli("repos", "list", "--json").stdout)
    assert [(r["state"], r["files_indexed"]) for r in repos] == [("Up to date", FILES + 1)]
    hits = json.loads(cli("search", f"marker{FILES - 1}", "--json").stdout)
    assert [(h["path"], h["line"]) for h in hits] == [(f"docs/s{(FILES - 1) % 100}/p{FILES - 1}.md", 3)]
