"""Docflows suggestions: starting one and the jobs that work on it (check, request changes, Sync
Latest Code, screenshots), and reading its summary and diff."""

from __future__ import annotations

import json
import re
import uuid
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from ...images import sniff
from ..db.tables import Integration, Item
from ..engines import browser
from ..engines.docflows.drafts import counts, unified_diff
from ..engines.git import branch_problem
from ...egress import Egress, EgressRefused
from ..jobs import queue
from .. import limits
from ..problems import MAX_ID, Problem, invalid, is_int
from ..storage import MAX_NAME_BYTES, FileStore, file_name
from . import credits, release_notes
from .accounts import Caller
from .repos import org_integration
from .items import get_item
from .suggestion_states import refuse_if_dismissed
from .pull_requests import HostError, open_pull_request, problem_status, pull_request_body, uses_host_api

# Job kinds (the handlers in ``server/tasks`` register under these) and prices in credits.
GENERATE, CHECK, REVISE, REFRESH, SCREENSHOTS = ("docflow.generate", "docflow.check", "docflow.revise",
                                                 "docflow.sync", "docflow.screenshots")
REVISE_COST = 8  # request-changes, taken only when the Writer applied something
REFRESH_COST, REFRESH_COST_WITH_UPDATE = 5, 8  # Sync Latest Code; nothing new to sync costs nothing

_PR_REQUIRED = ("number", "title", "author")
# The text fields of pr_data and their longest; the rest of what a pull request is: number, fork,
# and the uploaded screenshots' listing. Other keys are dropped, never stored: the interface names
# these fields only, and a code host's payload sent whole (labels, users, ...) is no error.
PR_TEXT = {"title": limits.PR_TITLE_MAX, "body": limits.PR_BODY_MAX, "author": limits.PR_AUTHOR_MAX,
            "head_branch": limits.PR_BRANCH_MAX, "base_branch": limits.PR_BRANCH_MAX,
            "head_sha": 64, "url": limits.PR_URL_MAX}
PR_FIELDS = ("number", *PR_TEXT, "fork", "screenshots")
_SHA = re.compile(r"[0-9a-fA-F]{4,64}")  # git's shortest abbreviation to a SHA-256 in full
_FORMED = ("head_sha", "head_branch", "base_branch")  # text fields that must also have a form


def _misformed(key: str, value: str) -> str | None:
    """Why a text field of pr_data named in ``_FORMED`` is not what it names, or None."""
    if key == "head_sha":
        return None if _SHA.fullmatch(value) else "must be a commit SHA: 4 to 64 hexadecimal digits"
    return branch_problem(value)


def check_pr_data(pr: Any) -> dict:
    """pr_data as stored with a suggestion: the known fields, each of its type and length (422
    naming the first wrong one), and nothing else."""
    if not isinstance(pr, dict):
        raise invalid("pr_data", "must be an object")
    missing = [key for key in _PR_REQUIRED if pr.get(key) in (None, "")]
    if missing:
        raise invalid("pr_data", f"missing {', '.join(missing)}")
    number = pr["number"]
    if not is_int(number) or not 0 < number <= MAX_ID:
        raise invalid("pr_data.number", f"must be a positive integer (at most {MAX_ID})")
    clean: dict[str, Any] = {"number": number}
    for key, longest in PR_TEXT.items():
        value = pr.get(key)
        if value is None:
            continue
        if not isinstance(value, str):
            raise invalid(f"pr_data.{key}", "must be a string")
        if len(value) > longest:
            raise invalid(f"pr_data.{key}", f"must be at most {longest} characters (got {len(value)})")
        clean[key] = value
    for key in _FORMED:
        if clean.get(key) and (problem := _misformed(key, clean[key])) is not None:
            raise invalid(f"pr_data.{key}", problem)
    if pr.get("fork") is not None:
        if not isinstance(pr["fork"], bool):
            raise invalid("pr_data.fork", "must be true or false")
        clean["fork"] = pr["fork"]
    if pr.get("screenshots") is not None:
        clean["screenshots"] = _check_listing(pr["screenshots"])
    return clean


def _check_listing(listing: Any) -> list[dict]:
    """The multipart form's ``screenshots``: one ``{route, filename}`` per uploaded file."""
    if not isinstance(listing, list):
        raise invalid("pr_data.screenshots", "must be a list of {route, filename}")
    if len(listing) > limits.PR_SCREENSHOTS_MAX:
        raise invalid("pr_data.screenshots", f"at most {limits.PR_SCREENSHOTS_MAX} screenshots")
    clean = []
    for n, entry in enumerate(listing):
        if not isinstance(entry, dict):
            raise invalid(f"pr_data.screenshots[{n}]", "must be an object {route, filename}")
        route, name = entry.get("route"), entry.get("filename")
        if not isinstance(route, str) or not route or len(route) > limits.PR_ROUTE_MAX:
            raise invalid(f"pr_data.screenshots[{n}].route", f"must be a string of 1 to {limits.PR_ROUTE_MAX} "
                                                            "characters")
        if not isinstance(name, str) or len(name) > 4 * MAX_NAME_BYTES:  # file_name() checks it in bytes
            raise invalid(f"pr_data.screenshots[{n}].filename", "must be a file name (a string)")
        clean.append({"route": route, "filename": name})
    return clean


def stored_pr(data: dict | None) -> dict:
    """The pull request a suggestion keeps (``data``: its item's data), as text the engines can
    read: a suggestion made before pr_data was checked may hold anything; a field of the wrong
    type or form counts as absent, a text too long is cut to its bound."""
    pr = (data or {}).get("pr")
    pr = pr if isinstance(pr, dict) else {}
    clean: dict[str, Any] = {"number": pr["number"]} if is_int(pr.get("number")) else {}
    for key, longest in PR_TEXT.items():
        if isinstance(pr.get(key), str):
            clean[key] = pr[key][:longest]
    for key in _FORMED:
        if clean.get(key) and _misformed(key, clean[key]) is not None:
            del clean[key]
    return clean


def start(session: Session, caller: Caller, integration_id: int, pr: dict, screenshots: list[dict],
          max_attempts: int):
    pr = check_pr_data(pr)
    pr.pop("screenshots", None)  # the uploads' listing: it lives on as ``screenshots``
    org_integration(session, caller, integration_id)
    return enqueue_generate(session, org_id=caller.org_id, user_id=caller.user_id, integration_id=integration_id,
                            pr=pr, screenshots=screenshots, max_attempts=max_attempts)


def enqueue_generate(session: Session, *, org_id: int, user_id: int | None, integration_id: int, pr: dict,
                     screenshots: list[dict], max_attempts: int, per_pull_request: bool = False):
    """Queue the suggestion of a pull request (``pr``: checked pr_data). One per pull request and
    head commit: a suggestion already made at that commit is the job's answer (``suggestion_for``).
    ``per_pull_request`` (a code host's webhook): one per pull request, whatever its commit; a new
    head marks the one made as having new commits. Jobs of one pull request run one at a time, so
    two at once never both make one."""
    return queue.enqueue(session, org_id=org_id, user_id=user_id, kind=GENERATE,
                         params={"integration_id": integration_id, "pr_data": pr, "screenshots": screenshots,
                                 "per_pull_request": per_pull_request},
                         concurrency_key=f"docflow-pr:{integration_id}:{pr['number']}", max_attempts=max_attempts)


def suggestion_for(session: Session, org_id: int, integration_id: int, number: int,
                   head_sha: str | None = None) -> Item | None:
    """The newest suggestion made for pull request ``number`` of the integration, or with
    ``head_sha`` (a SHA or an abbreviation of one) the newest made at that head commit."""
    from sqlalchemy import select

    rows = session.scalars(select(Item).where(
        Item.org_id == org_id, Item.tool == "docflows",
        Item.data["integration_id"].as_integer() == integration_id,
        Item.data[("pr", "number")].as_integer() == number).order_by(Item.id.desc())).unique()
    wanted = (head_sha or "").lower()
    for item in rows:
        made_at = str((item.data or {}).get("head_sha") or "").lower()
        if not wanted or (made_at and made_at.startswith(wanted)):
            return item
    return None


def made_result(item: Item) -> dict:
    """A generate job's result for a suggestion made before: what its own job answered, from the
    suggestion as it is now, with ``existing`` true."""
    data = item.data or {}
    return {"verdict": data.get("verdict"), "facts": data.get("facts") or [], "head_sha": data.get("head_sha"),
            "base_sha": data.get("base_sha"), "worth_a_look": data.get("worth_a_look") or [],
            "suggestion_id": item.id, "item_id": item.id, "files": sorted(data.get("files") or {}),
            "editor_passed": data.get("editor_passed"), "open_points": data.get("open_points") or [],
            "existing": True, "new_commits": _host_moved(data)}


def start_check(session: Session, caller: Caller, ids: list[int] | None, dismiss_done: bool, ai: bool | None,
                max_attempts: int):
    """Check suggestions (the given ones, else every open one) against the docs as they are now.
    A check writes its findings (and may charge a credit): a dismissed one is not checked."""
    for item_id in ids or ():  # 404 for unknown or foreign ids, 409 for dismissed ones, before any job
        open_suggestion(session, caller, item_id, "checked against the docs")
    return queue.enqueue(session, org_id=caller.org_id, user_id=caller.user_id, kind=CHECK,
                         params={"ids": ids, "dismiss_done": dismiss_done, "ai": ai}, max_attempts=max_attempts)


def request_changes(session: Session, caller: Caller, item_id: int, feedback: str, target_file: str | None,
                    max_attempts: int):
    item = open_suggestion(session, caller, item_id, "changed (request-changes)")
    if target_file and target_file not in ((item.data or {}).get("files") or {}):
        raise invalid("target_file", f"{target_file} is not one of the suggestion's files")
    credits.require(session, caller.org_id, REVISE_COST, "request-changes")
    return queue.enqueue(session, org_id=caller.org_id, user_id=caller.user_id, kind=REVISE,
                         params={"item_id": item_id, "feedback": feedback, "target_file": target_file},
                         concurrency_key=f"docflow:{item_id}", max_attempts=max_attempts)


def sync_latest_code(session: Session, caller: Caller, item_id: int, max_attempts: int):
    item = open_suggestion(session, caller, item_id, "synced with the latest code")
    if suggestion_integration(session, item) is None:  # refused now, not as a job that can only fail
        raise Problem(409, f"Docflows suggestion {item_id} has no integration to sync the latest code from "
                           f"(it was not drafted from a pull request, or its integration was removed)")
    credits.require(session, caller.org_id, REFRESH_COST, "Sync Latest Code")
    return queue.enqueue(session, org_id=caller.org_id, user_id=caller.user_id, kind=REFRESH,
                         params={"item_id": item_id}, concurrency_key=f"docflow:{item_id}", max_attempts=max_attempts)


def take_screenshots(session: Session, caller: Caller, item_id: int, routes: list[str], max_attempts: int,
                     egress: Egress | None = None):
    """Screenshots of the given routes under the integration's preview of the pull request."""
    item = open_suggestion(session, caller, item_id, "given screenshots")
    data = item.data or {}
    integration = suggestion_integration(session, item)
    pr = stored_pr(data)
    try:
        base = browser.preview_base(integration.preview_url if integration else None, pr.get("head_branch"),
                                    pr.get("head_sha") or data.get("head_sha"))
        shots = [{"route": route, "address": browser.resolve(route, base)} for route in routes]
        for shot in shots:
            (egress or Egress()).check_literal(shot["address"])
    except (browser.ScreenshotError, EgressRefused) as exc:
        raise invalid("routes", str(exc)) from None
    return queue.enqueue(session, org_id=caller.org_id, user_id=caller.user_id, kind=SCREENSHOTS,
                         params={"item_id": item_id, "shots": shots}, concurrency_key=f"docflow:{item_id}",
                         max_attempts=max_attempts)


def save_uploads(data_dir: Path, uploads: list[tuple[str, bytes]], routes: dict[str, str]) -> list[dict]:
    """Keep uploaded screenshots (file name, content) under uploads/; each needs its route."""
    store, folder = FileStore(data_dir), f"uploads/{uuid.uuid4().hex}"
    saved = []
    for name, content in uploads:
        if file_name(name) is None:
            raise invalid("screenshots", f"{name[:80]!r} is not a usable file name (empty, '..', control "
                                         f"characters or over {MAX_NAME_BYTES} bytes)")
        if sniff(content[:16]) is None:
            raise invalid("screenshots", f"{name} is not a PNG, JPEG or WebP image")
        if name not in routes:
            raise invalid("pr_data.screenshots", f"no route given for {name}")
        relative = store.save_upload(folder, file_name(name), content)
        saved.append({"route": routes[name], "file": relative, "taken": True,
                      "reason": "uploaded from CI", "bytes": len(content)})
    return saved


def with_screenshots(plan: list[dict], shots: list[dict]) -> tuple[list[dict], list[str]]:
    """The screenshot plan with ``shots`` (taken or uploaded, each with its ``route``, ``file`` and
    ``reason``) in it, and the uploads that nothing uses any more: a shot takes the place of its
    route's entry, keeping the reason it was planned for and any doc image it replaces; a shot of
    a route not planned is added. (A replaced file that was taken stays: it is recorded with the
    item, ``StoredFile``, and goes with it.)"""
    plan, replaced = [dict(s) for s in plan], []
    for shot in shots:
        at = next((n for n, s in enumerate(plan) if s.get("route") == shot["route"]), None)
        if at is None:
            plan.append(dict(shot))
            continue
        entry = plan[at]
        if str(entry.get("file") or "").startswith("uploads/") and entry["file"] != shot["file"]:
            replaced.append(entry["file"])
        plan[at] = {**shot, **{k: entry[k] for k in ("reason", "replaces") if k in entry}}
    return plan, replaced


def get_suggestion(session: Session, caller: Caller, item_id: int) -> Item:
    return get_item(session, caller, "docflows", item_id)


def open_suggestion(session: Session, caller: Caller, item_id: int, doing: str) -> Item:
    """The caller's suggestion for a changing action (``doing``): 404 as ``get_suggestion``, 409
    when it is dismissed (``refuse_if_dismissed``)."""
    item = get_suggestion(session, caller, item_id)
    refuse_if_dismissed(item, doing)
    return item


def suggestion_integration(session: Session, item: Item) -> Integration | None:
    """The integration the suggestion was drafted from; None when it has none (an item added by
    ``docsvc-server items add``) or it is gone. Never ``session.get`` with None: SQLAlchemy
    warns of a NULL primary key and looks nothing up."""
    integration_id = integration_id_of(item.data or {})
    if integration_id is None:
        return None
    integration = session.get(Integration, integration_id)
    return integration if integration is not None and integration.org_id == item.org_id else None


def integration_id_of(data: dict) -> int | None:
    """The id of the integration a suggestion's ``data`` was drafted from, or None (none, or not an id)."""
    integration_id = data.get("integration_id")
    return integration_id if is_int(integration_id) else None


def summary(item: Item, egress: Egress | None = None) -> dict:
    data = item.data or {}
    files = []
    for path, entry in sorted((data.get("files") or {}).items()):
        added, removed = counts(entry.get("old", ""), entry.get("new", ""))
        files.append({"path": path, "added": added, "removed": removed, "reviewed": bool(entry.get("reviewed")),
                      "last_check": entry.get("last_check")})
    plan = [{"route": s.get("route"), "name": Path(s.get("file", "")).name, "taken": bool(s.get("taken")),
             "reason": s.get("reason"), "replaces": s.get("replaces")} for s in data.get("screenshots") or []]
    return {"id": item.id, "title": item.title, "status": item.work_status, "files": files,
            "screenshot_plan": plan, "new_commits": new_commits(item, egress), "pull_request": item.pull_request or None,
            "verdict": data.get("verdict"), "facts": data.get("facts") or [], "plan": data.get("plan") or [],
            "open_points": data.get("open_points") or [], "editor_passed": data.get("editor_passed"),
            "editor_comments": data.get("editor_comments") or [],
            # page by page: edited, for review, worth a look, and why (suggestions made before have none)
            "pages": data.get("pages") or [], "worth_a_look": data.get("worth_a_look") or []}


def new_commits(item: Item, egress: Egress | None = None) -> bool:
    """Whether the pull request's head moved since the draft: as its code host's webhook told, else
    as its branch is now (one ls-remote, no fetch)."""
    from ..db.session import object_session_or_none

    session = object_session_or_none(item)
    data = item.data or {}
    if _host_moved(data):
        return True
    return head_moved(data, suggestion_integration(session, item) if session is not None else None, egress)


def head_moved(data: dict, integration: Integration | None, egress: Egress | None = None) -> bool:
    """``new_commits`` of a suggestion's data and integration: the code host's word, else one
    ls-remote of the pull request's branch (blocking: never on the event loop)."""
    from ..engines.git import GitError, ls_remote_head

    if _host_moved(data):
        return True
    branch = stored_pr(data).get("head_branch")
    if not branch or integration is None:
        return False
    try:
        head = ls_remote_head(integration.code_repo, branch, egress=egress)
    except GitError:
        return False
    return head is not None and head != data.get("head_sha")


def _host_moved(data: dict) -> bool:
    """The code host told of a head commit newer than the draft's (its webhook: ``host_head_sha``)."""
    told = data.get("host_head_sha")
    return isinstance(told, str) and bool(told) and told != data.get("head_sha")


def diff_text(item: Item) -> str:
    files = {p: (e.get("old", ""), e.get("new", "")) for p, e in ((item.data or {}).get("files") or {}).items()}
    return unified_diff(files)


def parse_pr_json(raw: str) -> Any:
    try:
        return json.loads(raw)
    except ValueError:
        raise Problem(400, "pr_data is not valid JSON") from None


def dismiss(session: Session, caller: Caller, item_id: int, reason: str | None) -> Item:
    """Dismiss a suggestion (see ``close``); 409 when it already is."""
    item = get_suggestion(session, caller, item_id)
    if reason not in (None, "done"):
        raise invalid("reason", "the only reason is 'done'")
    refuse_if_dismissed(item, "dismissed again")
    close(session, item, reason)
    session.commit()
    session.refresh(item)
    return item


def reject(session: Session, caller: Caller, item_id: int) -> Item:
    """What deleting a suggestion does: suggestions are dismissed as rejected, never deleted
    (409 for one already dismissed: a Done suggestion keeps its status and its release notes)."""
    return dismiss(session, caller, item_id, None)


def close(session: Session, item: Item, reason: str | None) -> None:
    """Rejected; or Done with reason "done" (the docs already hold the change), whose release
    notes stay queued: the entry of an approval stays, and a suggestion tagged with a release whose
    decision (or the service's suggestion) is include joins that release's queue now. A rejected
    suggestion leaves the queue. The dismissal of ``items dismiss`` and of check-docs'
    ``--dismiss-done`` alike; the caller commits."""
    item.work_status = "done" if reason == "done" else "rejected"
    queued = False
    if reason == "done":
        queued = release_notes.entry_of(session, item.id) is not None
        if not queued and item.release_id is not None:
            approval = (item.data or {}).get("approval") or {}
            decision = {k: approval.get(k) for k in ("rn_section", "rn_category", "rn_note")}
            decision["release_notes"] = approval.get("release_notes") or suggested_release_notes(item)
            queued = queue_entry(session, item, item.release_id, decision) is not None
    else:
        release_notes.remove_entry(session, item.id)
    item.data = {**(item.data or {}), "dismissed": True, "dismissed_as": item.work_status,
                 "release_notes_queued": queued}


def _versions(item: Item) -> list[dict]:
    data = item.data or {}
    if "versions" in data:
        return data["versions"]
    # Suggestions keep the text of each draft the Writer made; the first one is version 1.
    return [{"version": 1, "files": {p: e.get("new", "") for p, e in (data.get("files") or {}).items()}}]


def history(item: Item, with_text: bool) -> list[dict]:
    rounds = []
    for entry in (item.data or {}).get("rounds") or []:
        view = {k: v for k, v in entry.items() if k != "text" or with_text}
        rounds.append(view)
    for restore in (item.data or {}).get("restores") or []:
        rounds.append(restore)
    if with_text:
        versions = {v["version"]: v["files"] for v in _versions(item)}
        for view in rounds:
            if view.get("version") in versions:
                view["files"] = versions[view["version"]]
    return rounds


def restore(session: Session, caller: Caller, item_id: int, version: int) -> dict:
    """Make version N the current text; the current text is kept as a new version first."""
    from ..db.tables import User, utcnow

    item = open_suggestion(session, caller, item_id, "restored")
    data = dict(item.data or {})
    versions = list(_versions(item))
    wanted = next((v for v in versions if v["version"] == version), None)
    if wanted is None:
        raise Problem(404, f"Docflows suggestion {item_id} has no version {version} "
                           f"(versions: {', '.join(str(v['version']) for v in versions)})")
    current = {p: e.get("new", "") for p, e in (data.get("files") or {}).items()}
    kept = max(v["version"] for v in versions) + 1
    versions.append({"version": kept, "files": current})
    files = {}
    for path, entry in (data.get("files") or {}).items():
        text = wanted["files"].get(path, entry.get("old", ""))
        # a file whose text changes is no longer Reviewed, as after request-changes or Sync Latest Code
        files[path] = {**entry, "new": text, "reviewed": bool(entry.get("reviewed")) and text == entry.get("new", "")}
    who = session.get(User, caller.user_id)
    data.update(files=files, versions=versions, restores=[*(data.get("restores") or []), {
        "stage": "Restore", "author": who.name if who else None, "at": utcnow().isoformat(),
        "summary": f"restored version {version}; the text before it is kept as version {kept}", "version": kept}])
    item.data = data
    session.commit()
    return {"id": item_id, "restored": version, "kept_as": kept}


def queue_entry(session: Session, item: Item, release_id: int, decision: dict):
    """The suggestion's entry in the release's release-notes queue when the decision includes it
    (the fields not given come from the Editor's suggestion for the pull request), else none."""
    return _write_entry(session, item, release_id, entry_fields(session, item, decision))


def _write_entry(session: Session, item: Item, release_id: int, fields: dict | None):
    """The entry with ``fields`` (``entry_fields``) put in the release's queue, or, with None, the
    suggestion's entry removed (None)."""
    if fields is None:
        release_notes.remove_entry(session, item.id)
        return None
    return release_notes.put_entry(session, item, release_id, **fields, badge=None)


def entry_fields(session: Session, item: Item, decision: dict) -> dict | None:
    """Section, category and note of the suggestion's release-notes entry (None: not included),
    worked out without writing anything, so that approve knows them before it pushes."""
    if decision["release_notes"] != "include":
        return None
    from ..engines.docflows.editor import suggest_release_notes

    pr = stored_pr(item.data)
    suggestion = suggest_release_notes(pr.get("title") or item.title[:limits.MAX_TITLE], pr.get("body") or "",
                                       release_notes.org_categories(session, item.org_id))
    pick = lambda key: decision.get(key) or suggestion[key]  # noqa: E731
    return {"section": pick("rn_section"), "category": pick("rn_category"), "note": pick("rn_note")}


def suggested_release_notes(item: Item) -> str:
    """The service's own include/skip: include when the change adds, removes or renames something
    users type or set; skip for changed defaults, internal symbols and files the docs name (an
    example renamed is no news) only."""
    facts = (item.data or {}).get("facts") or []
    user_facing = [f for f in facts if f.get("kind") not in ("symbol", "file")
                   and f.get("change") in ("added", "removed", "renamed")]
    return "include" if user_facing else "skip"


def _pull_request_body(item: Item, pr: dict, approver: str) -> str:
    """What the docs pull request changes and why: the plan's reasons, page by page."""
    data = item.data or {}
    planned = {p.get("path"): p for p in data.get("plan") or []}
    pages = [{"path": path, "mode": (planned.get(path) or {}).get("mode"),
              "reasons": (planned.get(path) or {}).get("reasons") or []} for path in sorted(data.get("files") or {})]
    return pull_request_body(
        f"Documentation for pull request #{pr.get('number')} ({pr.get('title', '')}): {len(pages)} page(s) change.",
        pages, f"Docflows suggestion {item.id}, approved by {approver}; opened by docsvc.")


def approve(session: Session, caller: Caller, item_id: int, body: dict, data_dir: Path,
            egress: Egress | None = None) -> dict:
    from sqlalchemy import select

    from ..db.tables import Release, utcnow
    from ..engines.git import GitError, UnsafePath, branch_url, push_branch
    from .accounts import org_member
    from .releases import org_release

    item = open_suggestion(session, caller, item_id, "approved")
    data = dict(item.data or {})
    if data.get("approval"):
        raise Problem(409, f"Docflows suggestion {item_id} is already approved")
    release_id, new_name = body.get("release_id"), (body.get("new_release_name") or "").strip()
    if not release_id and not new_name:
        raise invalid("release_id", "a release is required: give release_id or new_release_name")
    if release_id:
        release = org_release(session, caller.org_id, release_id)
        if release is None:
            raise invalid("release_id", f"release {release_id} does not exist in your organisation")
    else:
        release = session.scalar(select(Release).where(Release.org_id == caller.org_id, Release.name == new_name))
        if release is None:
            release = Release(org_id=caller.org_id, name=new_name)
            session.add(release)
            session.flush()
    assignee = body.get("assignee_id", "me")
    assignee_id = caller.user_id if assignee in (None, "me") else assignee
    if not is_int(assignee_id):
        raise invalid("assignee_id", "must be a user ID (an integer) or \"me\"")
    if org_member(session, caller.org_id, assignee_id) is None:
        raise invalid("assignee_id", f"user {assignee} is not a member of your organisation")
    given = release_notes.check_decision(session, caller.org_id, body)
    notes = given["release_notes"] or suggested_release_notes(item)
    integration = suggestion_integration(session, item)
    if integration is None:
        raise Problem(409, "the suggestion's integration no longer exists")
    if not isinstance(data.get("docs_commit"), str):
        raise Problem(409, f"Docflows suggestion {item_id} has no docs commit to build on; make it again")
    # Everything that can refuse is done before the push: a pushed branch is not taken back.
    fields = entry_fields(session, item, {**given, "release_notes": notes})
    branch = f"docsvc/suggestion-{item.id}"
    files = {p: e.get("new", "") for p, e in (data.get("files") or {}).items()}
    pr = stored_pr(item.data)
    try:
        commit = push_branch(integration.docs_repo, data["docs_commit"], branch, files,
                             f"Docs for PR #{pr.get('number')}: {pr.get('title', '')}\n\nDocflows suggestion "
                             f"{item.id}, approved by {caller.name}.", Path(data_dir) / "worktrees", egress,
                             replace=True)  # the branch of a try whose pull request failed: approved again
    except UnsafePath as exc:
        raise Problem(422, f"Refused to write the docs branch: {exc}") from None
    except GitError as exc:
        raise Problem(502, f"Could not push the docs branch to {integration.docs_repo}: {exc}") from None
    if uses_host_api(integration):
        # The branch is pushed: a host error leaves the approval undone, and a retry pushes again
        # and takes the pull request a first try may have opened.
        try:
            opened = open_pull_request(integration, "docs", branch, integration.docs_branch,
                                       f"Docs for PR #{pr.get('number')}: {pr.get('title', '')}",
                                       _pull_request_body(item, pr, caller.name), egress)
        except HostError as exc:
            raise Problem(problem_status(exc),
                          f"The docs branch {branch} is pushed, but no pull request was opened: {exc}") from None
        item.pull_request = {**opened, "commit": commit}
    else:
        item.pull_request = {"url": branch_url(integration.docs_repo, integration.docs_branch, branch),
                             "state": "open", "review": "review required", "branch": branch, "commit": commit}
    item.release_id, item.writer_user_id, item.work_status = release.id, assignee_id, "in_review"
    entry = _write_entry(session, item, release.id, fields)
    # The approver signed off every file as it stands: each is Reviewed until its text changes.
    data["files"] = {p: {**e, "reviewed": True} for p, e in (data.get("files") or {}).items()}
    data["approval"] = {"by": caller.name, "at": utcnow().isoformat(), "release_id": release.id,
                        "release_notes": notes, "rn_section": entry.section if entry else given["rn_section"],
                        "rn_category": entry.category if entry else given["rn_category"],
                        "rn_note": entry.note if entry else given["rn_note"]}
    item.data = data
    session.commit()
    session.refresh(item)
    return {"id": item.id, "status": item.work_status, "release_id": release.id, "release_name": release.name,
            "writer_user_id": assignee_id, "release_notes": notes, "pull_request": item.pull_request}
