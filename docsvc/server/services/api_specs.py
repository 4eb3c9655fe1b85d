"""API Readiness: the organisation's saved configuration, validation scans (``api-scans`` items)
and the pull requests opened from a scan.

A scan keeps its findings, the pre-processed spec (``prepped``: the spec as read, normalised, with
generated content when that stage ran) and the corrected spec (prepped plus every mechanical
fix). Pull requests go to the spec's own repository (``source``: the configured integration's code
repository, on the configured branch) and/or a docs repository (``docs``: any integration's docs
repository). One target failing never stops the other; with both, the scan follows the docs one.
"""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from .. import handoff
from ..db.tables import ApiSpecConfig, Integration, Item, Organization, utcnow
from ...egress import Egress
from ..engines.git import GitError, UnsafePath, branch_url, push_branch, repo_path
from ..jobs import queue
from ..problems import Problem, invalid, is_int
from ...credentials import hidden
from ..storage import FileStore
from .accounts import AdminError, Caller
from .items import get_item
from .pull_requests import HostError, open_pull_request, pull_request_body, uses_host_api
from .uploads import not_utf8, spec_refused, upload_name

KIND = "oas.validate"
STAGES = ("run_swagger", "run_redocly", "run_ai_fix", "run_ai_content")
TARGETS = ("source", "docs")
SPECS = ("corrected", "prepped")  # API values of ``spec``; the CLI's --spec prepped picks the second


def config_view(config: ApiSpecConfig) -> dict[str, Any]:
    return {"integration_id": config.integration_id, "integration": config.integration.name,
            "repository": hidden(config.integration.code_repo), "branch": config.branch or config.integration.code_branch,
            "path": config.path, **{stage: getattr(config, stage) for stage in STAGES}}


def set_config(session: Session, org: Organization, *, integration_id: int, path: str, branch: str | None,
               stages: dict[str, bool | None]) -> ApiSpecConfig:
    """Save which spec the organisation's validation checks (admin command)."""
    integration = session.get(Integration, integration_id)
    if integration is None or integration.org_id != org.id:
        raise AdminError(f"integration {integration_id} does not exist in {org.name!r}")
    try:
        path = repo_path(path.strip().lstrip("/"))
    except UnsafePath as exc:
        raise AdminError(f"--path must be a file path inside the repository: {exc}") from None
    config = session.get(ApiSpecConfig, org.id) or ApiSpecConfig(org_id=org.id)
    config.integration_id, config.path, config.branch = integration_id, path, (branch or None)
    for stage, value in stages.items():
        if value is not None:
            setattr(config, stage, value)
        elif getattr(config, stage) is None:
            setattr(config, stage, ApiSpecConfig.__table__.c[stage].default.arg)
    session.add(config)
    session.flush()
    session.refresh(config)
    return config


def org_config(session: Session, org_id: int) -> ApiSpecConfig:
    config = session.get(ApiSpecConfig, org_id)
    if config is None:
        raise Problem(409, "No API-readiness configuration is saved for your organisation; an administrator "
                           "sets it with: docsvc-server api-specs set --org ORG --integration ID --path FILE")
    return config


def start_validate(session: Session, caller: Caller, body: Any, max_attempts: int,
                   upload: tuple[str, bytes] | None = None, store: FileStore | None = None):
    """Queue a scan of the saved configuration's spec, or of ``upload`` (file name, bytes) when the
    caller sent one: then the spec is checked now (422 naming the line or the reference) and the
    stages default to the saved configuration's, or to the configuration defaults without one."""
    body = body if body is not None else {}
    if not isinstance(body, dict):
        raise Problem(400, "The request body must be a JSON object")
    unknown = sorted(set(body) - set(STAGES))
    if unknown:
        raise invalid(unknown[0], f"unknown field; the fields are {', '.join(STAGES)}")
    for stage in STAGES:
        if body.get(stage) is not None and not isinstance(body[stage], bool):
            raise invalid(stage, "must be true or false")
    config = org_config(session, caller.org_id) if upload is None else session.get(ApiSpecConfig, caller.org_id)
    saved = {stage: getattr(config, stage) if config is not None else ApiSpecConfig.__table__.c[stage].default.arg
             for stage in STAGES}
    stages = {stage: body[stage] if body.get(stage) is not None else saved[stage] for stage in STAGES}
    if not any(stages.values()):
        raise invalid("run_swagger", "every stage is off; turn at least one on")
    params: dict[str, Any] = {"stages": stages}
    if upload is None:
        return queue.enqueue(session, org_id=caller.org_id, user_id=caller.user_id, kind=KIND,
                             params=params, max_attempts=max_attempts)
    name, loaded, text = _check_upload(*upload)
    path = store.save_upload("inputs", uuid.uuid4().hex, upload[1])  # the bytes as sent: UTF-8, checked
    params["upload"] = {"name": name, "input": path}
    # Decoded and parsed once: the job takes both when it runs in this process.
    handoff.leave(path, (loaded, text), len(upload[1]))
    del loaded, text
    try:
        return queue.enqueue(session, org_id=caller.org_id, user_id=caller.user_id, kind=KIND,
                             params=params, max_attempts=max_attempts)
    except BaseException:
        handoff.take(path)
        store.discard(path)
        raise


def _check_upload(filename: str | None, raw: bytes) -> tuple[str, Any, str]:
    """(a safe display name, the spec loaded: ``specload.Loaded``, its text) of an uploaded spec, or
    the 422 that says what is wrong."""
    from ...bundle import external_refs, may_have_external_refs
    from ...specload import SpecError, detect_kind, load

    name = upload_name(filename, "openapi.yaml")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise not_utf8(name, exc) from None
    try:
        loaded = load(text)
        data = loaded.data
        if detect_kind(data) != "openapi":
            raise SpecError("not an OpenAPI document: it has neither an 'openapi' nor a 'swagger' field")
    except SpecError as exc:
        raise spec_refused("file", exc, name) from None
    # The walk over every node only when the text may hold such a reference at all.
    external = next(external_refs(data), None) if may_have_external_refs(text) else None
    if external is not None:
        pointer, ref = external
        raise invalid("file", f"{name}: $ref {ref} at {pointer or '/'}: the service cannot read other files or "
                              "URLs; send the spec bundled into one document (docsvc validate --file and docsvc "
                              "bundle do that)")
    return name, loaded, text


def get_scan(session: Session, caller: Caller, scan_id: int) -> Item:
    return get_item(session, caller, "api-scans", scan_id)


def _check_pr_body(body: Any) -> dict[str, Any]:
    if not isinstance(body, dict):
        raise Problem(400, "The request body must be a JSON object")
    targets = body.get("targets") or ["docs"]
    if not isinstance(targets, list) or not targets or any(t not in TARGETS for t in targets):
        raise invalid("targets", "must be a list of 'source' and/or 'docs'")
    spec = body.get("spec") or "corrected"
    if spec not in SPECS:
        raise invalid("spec", f"must be one of {', '.join(SPECS)}")
    for name in ("file_path", "source_file_path", "commit_message"):
        if body.get(name) is not None and (not isinstance(body[name], str) or not body[name].strip()):
            raise invalid(name, "must be a non-empty string")
    for name in ("file_path", "source_file_path"):
        if body.get(name) is not None:
            _repo_path(body[name], name)  # refused before any repository is touched
    if "docs" in targets and not is_int(body.get("integration_id")):
        raise invalid("integration_id", "the docs target needs the docs repository's integration_id (an integer)")
    return {**body, "targets": list(dict.fromkeys(targets)), "spec": spec}


def _repo_path(path: str, field: str) -> str:
    try:
        return repo_path(path)
    except UnsafePath as exc:
        raise invalid(field, f"must be a file path inside the repository: {exc}") from None


def _pull_request_body(message: str, path: str, fixes: list[dict[str, Any]]) -> str:
    """The spec pull request's description: the commit message's words, then each fix and why."""
    summary = message.split("\n", 1)[1].strip() if "\n" in message else message
    return pull_request_body(summary or message, [{"path": path, "mode": "spec", "reasons": [
        f"{f.get('rule')}: {f.get('description')} (at {f.get('pointer') or '/'})" for f in fixes]
        or ["the spec as the scan prepared it"]}], "Opened by docsvc from an API-readiness scan.")


def _stored_spec(store: FileStore, item: Item, data: dict[str, Any], wanted: str) -> tuple[str, str]:
    """(which spec, its text) of the scan's stored specs: ``wanted``, or the pre-processed one when
    no fix stage ran. 409 when the scan stores none (an item added by ``docsvc-server items add``,
    not made by a validation run) or its file is no longer in the data directory."""
    chosen = wanted if _is_text(data.get(wanted)) else "prepped"
    if not _is_text(data.get(chosen)):
        raise Problem(409, f"API scan {item.id} has no stored spec to open a pull request with (it was not made by "
                           "a validation run); run one that stores it (docsvc validate, or POST /oas/validate) "
                           "and open pull requests from that scan")
    try:
        return chosen, store.absolute(data[chosen]).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        raise Problem(409, f"API scan {item.id}'s {'corrected' if chosen == 'corrected' else 'pre-processed'} spec "
                           "is no longer in the service's data directory; run the scan again (docsvc validate) "
                           "and open pull requests from the new scan") from None


def _is_text(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip())


def _default_path(spec: dict[str, Any], body: dict[str, Any], field: str) -> str:
    """The file path a target writes: the one given, else the spec's own; a 422 (that target's
    error) when none was given and the scan records none (an older or hand-made scan)."""
    path = body.get(field) or spec.get("path")
    if not _is_text(path):
        raise invalid(field, "the scan records no path for its spec; give the file path to write")
    return _repo_path(path, field)


def open_pull_requests(session: Session, caller: Caller, scan_id: int, body: Any, data_dir: Path,
                       egress: Egress | None = None) -> dict[str, Any]:
    item = get_scan(session, caller, scan_id)
    body = _check_pr_body(body)
    # What a scan job stores; an item made another way (items add, an older row) may lack any of it.
    data = dict(item.data) if isinstance(item.data, dict) else {}
    spec = data.get("spec") if isinstance(data.get("spec"), dict) else {}
    fixes = [f for f in data.get("fixes") if isinstance(f, dict)] if isinstance(data.get("fixes"), list) else []
    chosen, text = _stored_spec(FileStore(data_dir), item, data, body["spec"])
    message = body.get("commit_message") or (
        f"API spec from API-readiness scan {item.id}\n\n"
        f"The {'corrected' if chosen == 'corrected' else 'pre-processed'} spec of {spec.get('path')} "
        f"({spec.get('branch')} at {str(spec.get('commit', ''))[:12]}), "
        f"{len(fixes)} fix(es); opened by {caller.name}.")
    before = data.get("pull_requests")
    opened = list(before) if isinstance(before, list) else []
    records: dict[str, dict[str, Any]] = {}
    errors: dict[str, str] = {}
    for target in body["targets"]:
        try:
            if target == "source":
                if spec.get("uploaded"):
                    raise ValueError("the scan's spec was uploaded (validate --file), not read from a repository; "
                                     "open its pull request to a docs repository (--to docs)")
                # Never session.get with None or a non-id: SQLAlchemy warns, PostgreSQL refuses a string.
                integration_id = spec.get("integration_id")
                integration = session.get(Integration, integration_id) if is_int(integration_id) else None
                if integration is None or integration.org_id != caller.org_id:
                    raise ValueError("the spec's integration no longer exists" if is_int(integration_id) else
                                     "the scan does not record the repository its spec was read from; "
                                     "open its pull request to a docs repository (--to docs)")
                repo = integration.code_repo
                base = spec["branch"] if _is_text(spec.get("branch")) else integration.code_branch
            else:
                integration = session.get(Integration, body["integration_id"])
                if integration is None or integration.org_id != caller.org_id:
                    raise ValueError(f"integration {body['integration_id']} not found")
                repo, base = integration.docs_repo, integration.docs_branch
            path = _default_path(spec, body, "file_path" if target == "docs" else "source_file_path")
            number = sum(isinstance(p, dict) and p.get("target") == target for p in opened) + 1
            branch = f"docsvc/api-scan-{item.id}-{target}-{number}"
            commit = push_branch(repo, f"origin/{base}", branch, {path: text}, message, Path(data_dir) / "worktrees",
                                 egress)
            host_pr = None
            if uses_host_api(integration):
                side = "code" if target == "source" else "docs"
                host_pr = open_pull_request(integration, side, branch, base, message.split("\n", 1)[0],
                                            _pull_request_body(message, path, fixes), egress)
        except Problem as exc:
            errors[target] = exc.detail
            continue
        except (ValueError, GitError) as exc:
            errors[target] = str(exc)
            continue
        except HostError as exc:
            errors[target] = f"the branch {branch} is pushed, but no pull request was opened: {exc}"
            continue
        url = host_pr["url"] if host_pr else branch_url(repo, base, branch)
        records[target] = {"target": target, "url": url, "branch": branch, "base": base, "path": path,
                           "commit": commit, "spec": chosen, "opened_at": utcnow().isoformat(), "by": caller.name,
                           **({"host_pr": host_pr} if host_pr else {})}
        opened.append(records[target])
    if records:
        record = records.get("docs") or records["source"]  # with both, the scan follows the docs one
        item.pull_request = {**(record.get("host_pr") or {"url": record["url"], "state": "open",
                                                           "review": "review required", "branch": record["branch"]}),
                             "commit": record["commit"], "target": record["target"]}
        data["pull_requests"] = opened
        item.data = data
        session.commit()
    return {"pull_requests": {target: record["url"] for target, record in records.items()}, "errors": errors}
