"""The ``oas.validate`` job: read the configured spec from its repository (or take the one the caller
uploaded), run the API-readiness stages (``engines/validate``) and save the scan as an
``api-scans`` item."""

from __future__ import annotations

from .. import handoff
from ..db.tables import ApiSpecConfig, Item, StoredFile
from ..engines.git import GitError, Mirror
from ...specload import SpecError
from ..jobs.registry import JobContext, JobFailure, handler
from ..services.api_specs import KIND
from ..storage import FileStore


@handler(KIND)
def run(ctx: JobContext) -> dict:
    from ..engines import validate  # heavy: only when a scan runs

    stages = ctx.params["stages"]
    store = FileStore(ctx.settings.data_dir)
    upload = ctx.params.get("upload")
    parsed: list = []  # the engine takes the tree out of it, so that it is freed as it would be otherwise
    if upload is not None:
        text, path, spec = _uploaded(store, upload, parsed)
        # Taken from the request, the text is the uploaded file's bytes decoded, no more no less.
        copy_of = (upload["input"], text) if parsed else None
    else:
        copy_of = None
        text, path, spec = _from_repository(ctx)
    names = [name.removeprefix("run_") for name, on in stages.items() if on]
    ctx.progress(f"Checking {path} ({', '.join(names)})")
    try:
        scan = validate.run(text, file=path, parsed=parsed, **stages)
    except SpecError as exc:
        if upload is not None:
            store.discard(upload["input"])
        raise JobFailure("Not a usable spec", f"{path}: {exc}") from None
    ctx.progress("Saving the scan")
    suffix = ".json" if scan.syntax == "json" else ".yaml"
    where = "uploaded" if upload is not None else f"{spec['branch']} {spec['commit'][:7]}"
    with ctx.sessions() as session:
        item = Item(org_id=ctx.org_id, tool="api-scans", created_by_id=ctx.user_id,
                    title=f"API scan of {path} ({where})"[:500],
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
            relative, size = _save(store, item.id, name + suffix, content, copy_of)
            session.add(StoredFile(item_id=item.id, kind="attachment", path=relative, size=size))
            files[name] = relative
        item.data = {**item.data, **files}
        # The item and the job's completion commit together: a re-run after a crash adds no second scan.
        result = ctx.complete(session, {
            "scan_id": item.id, "item_id": item.id, "spec": spec, "stages": stages, "findings": scan.findings,
            "fixes": scan.fixes, "generated": scan.generated, "stats": scan.stats,
            "corrected": scan.corrected is not None})
    if upload is not None:
        store.discard(upload["input"])
    return result


def _save(store: FileStore, item_id: int, name: str, content: str, copy_of: tuple[str, str] | None):
    """Save ``content`` as the item's file ``name``. The pre-processed spec is often the uploaded
    text itself, or that and a final newline: ``copy_of`` (the uploaded file, its exact text) lets
    the file be copied then, instead of 13 MB being encoded and written again."""
    if copy_of is not None:
        source, text = copy_of
        if content is text:
            return store.save_from(item_id, name, source)
        if len(content) == len(text) + 1 and content.endswith("\n") and content.startswith(text):
            return store.save_from(item_id, name, source, b"\n")
    return store.save_text(item_id, name, content)


def _uploaded(store: FileStore, upload: dict, parsed: list) -> tuple[str, str, dict]:
    """(text, file name, spec record) of a spec the caller sent (``validate --file``). The request
    decoded and parsed it: if that was in this process, its text is taken from there (not read and
    decoded again) and its tree put in ``parsed``."""
    record = {"path": upload["name"], "uploaded": True}
    handed = handoff.take(upload["input"])
    if handed is not None:
        loaded, text = handed
        parsed.append(loaded)
        return text, upload["name"], record
    source = store.absolute(upload["input"])
    if not source.is_file():
        raise JobFailure("Input missing", "the uploaded spec is no longer in the data directory")
    return source.read_text(encoding="utf-8"), upload["name"], record


def _from_repository(ctx: JobContext) -> tuple[str, str, dict]:
    """(text, path, spec record) of the configured spec, read from its repository's branch."""
    with ctx.sessions() as session:
        config = session.get(ApiSpecConfig, ctx.org_id)
        if config is None:
            raise JobFailure("No configuration", "the organisation's API-readiness configuration was removed")
        integration = config.integration
        repo, branch, path = integration.code_repo, config.branch or integration.code_branch, config.path
        integration_id = integration.id
    mirror = Mirror.for_url(ctx.settings.mirrors_dir, repo, ctx.settings.egress)
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
    return text, path, {"integration_id": integration_id, "repository": repo, "branch": branch, "path": path,
                        "commit": commit}
