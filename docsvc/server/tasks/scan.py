"""The ``oas.validate`` job: read the configured spec from its repository, run the API-readiness
stages (``engines/validate``) and save the scan as an ``api-scans`` item."""

from __future__ import annotations

from ..db.tables import ApiSpecConfig, Item, StoredFile
from ..engines.git import GitError, Mirror
from ..engines.specload import SpecError
from ..jobs.registry import JobContext, JobFailure, handler
from ..services.api_specs import KIND
from ..storage import FileStore


@handler(KIND)
def run(ctx: JobContext) -> dict:
    from ..engines import validate  # heavy: only when a scan runs

    stages = ctx.params["stages"]
    with ctx.sessions() as session:
        config = session.get(ApiSpecConfig, ctx.org_id)
        if config is None:
            raise JobFailure("No configuration", "the organisation's API-readiness configuration was removed")
        integration = config.integration
        repo, branch, path = integration.code_repo, config.branch or integration.code_branch, config.path
        integration_id = integration.id
    mirror = Mirror.for_url(ctx.settings.data_dir, repo, ctx.settings.egress)
    ctx.progress(f"Fetching {repo}")
    try:
        mirror.fetch()
        commit = mirror.head(branch)
    except GitError as exc:
        raise JobFailure("Repository unavailable", str(exc)) from None
    raw = mirror.show(commit, path)
    if raw is None:
        raise JobFailure("Spec not found", f"{path} does not exist on {branch} of {repo}")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise JobFailure("Not a usable spec", f"{path} is not UTF-8 text") from None
    names = [name.removeprefix("run_") for name, on in stages.items() if on]
    ctx.progress(f"Checking {path} ({', '.join(names)})")
    try:
        scan = validate.run(text, file=path, **stages)
    except SpecError as exc:
        raise JobFailure("Not a usable spec", f"{path}: {exc}") from None
    ctx.progress("Saving the scan")
    store = FileStore(ctx.settings.data_dir)
    suffix = ".json" if scan.syntax == "json" else ".yaml"
    spec = {"integration_id": integration_id, "repository": repo, "branch": branch, "path": path, "commit": commit}
    with ctx.sessions() as session:
        item = Item(org_id=ctx.org_id, tool="api-scans", created_by_id=ctx.user_id,
                    title=f"API scan of {path} ({branch} {commit[:7]})"[:500],
                    data={"spec": spec, "stages": stages, "findings": scan.findings, "fixes": scan.fixes,
                          "generated": scan.generated, "stats": scan.stats, "syntax": scan.syntax,
                          "job_id": ctx.job_id})
        session.add(item)
        session.flush()
        texts = {"prepped": scan.prepped, "corrected": scan.corrected}
        files = {}
        for name, content in texts.items():
            if content is None:
                continue
            relative, size = store.save_text(item.id, name + suffix, content)
            session.add(StoredFile(item_id=item.id, kind="attachment", path=relative, size=size))
            files[name] = relative
        item.data = {**item.data, **files}
        session.commit()
        scan_id = item.id
    return {"scan_id": scan_id, "item_id": scan_id, "spec": spec, "stages": stages, "findings": scan.findings,
            "fixes": scan.fixes, "generated": scan.generated, "stats": scan.stats,
            "corrected": scan.corrected is not None}
