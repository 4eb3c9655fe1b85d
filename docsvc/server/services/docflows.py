"""Docflows suggestions: starting one, and reading its summary and diff."""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from ..db.tables import Item
from ..engines import docflow as engine
from ..jobs import queue
from ..problems import Problem, invalid, not_found
from .accounts import Caller
from .repos import org_integration

_PR_REQUIRED = ("number", "title", "author")
_IMAGE_MAGIC = (b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff")


def check_pr_data(pr: Any) -> dict:
    if not isinstance(pr, dict):
        raise invalid("pr_data", "must be an object")
    missing = [key for key in _PR_REQUIRED if pr.get(key) in (None, "")]
    if missing:
        raise invalid("pr_data", f"missing {', '.join(missing)}")
    if not isinstance(pr["number"], int) or pr["number"] <= 0:
        raise invalid("pr_data.number", "must be a positive integer")
    return pr


def start(session: Session, caller: Caller, integration_id: int, pr: dict, screenshots: list[dict],
          max_attempts: int):
    org_integration(session, caller, integration_id)
    return queue.enqueue(session, org_id=caller.org_id, user_id=caller.user_id, kind=engine.KIND,
                         params={"integration_id": integration_id, "pr_data": check_pr_data(pr),
                                 "screenshots": screenshots}, max_attempts=max_attempts)


def save_uploads(data_dir: Path, uploads: list[tuple[str, bytes]], routes: dict[str, str]) -> list[dict]:
    """Keep uploaded screenshots (file name, content) under uploads/; each needs its route."""
    folder = Path(data_dir) / "uploads" / uuid.uuid4().hex
    saved = []
    for name, content in uploads:
        if not content.startswith(_IMAGE_MAGIC) and not (content[:4] == b"RIFF" and content[8:12] == b"WEBP"):
            raise invalid("screenshots", f"{name} is not a PNG, JPEG or WebP image")
        if name not in routes:
            raise invalid("pr_data.screenshots", f"no route given for {name}")
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / Path(name).name
        target.write_bytes(content)
        saved.append({"route": routes[name], "file": str(target.relative_to(data_dir)), "taken": True,
                      "reason": "uploaded from CI", "bytes": len(content)})
    return saved


def get_suggestion(session: Session, caller: Caller, item_id: int) -> Item:
    item = session.get(Item, item_id)
    if item is None or item.org_id != caller.org_id or item.tool != "docflows":
        raise not_found("Docflows suggestion", item_id)
    return item


def summary(item: Item) -> dict:
    from ..engines.docflow import counts

    data = item.data or {}
    files = []
    for path, entry in sorted((data.get("files") or {}).items()):
        added, removed = counts(entry.get("old", ""), entry.get("new", ""))
        files.append({"path": path, "added": added, "removed": removed, "reviewed": bool(entry.get("reviewed")),
                      "last_check": entry.get("last_check")})
    plan = [{"route": s.get("route"), "name": Path(s.get("file", "")).name, "taken": bool(s.get("taken")),
             "reason": s.get("reason"), "replaces": s.get("replaces")} for s in data.get("screenshots") or []]
    return {"id": item.id, "title": item.title, "status": item.work_status, "files": files,
            "screenshot_plan": plan, "new_commits": False, "pull_request": item.pull_request or None,
            "verdict": data.get("verdict"), "facts": data.get("facts") or [], "plan": data.get("plan") or [],
            "open_points": data.get("open_points") or [], "editor_passed": data.get("editor_passed"),
            "editor_comments": data.get("editor_comments") or []}


def diff_text(item: Item) -> str:
    from ..engines.docflow import unified_diff

    files = {p: (e.get("old", ""), e.get("new", "")) for p, e in ((item.data or {}).get("files") or {}).items()}
    return unified_diff(files)


def parse_pr_json(raw: str) -> Any:
    try:
        return json.loads(raw)
    except ValueError:
        raise Problem(400, "pr_data is not valid JSON") from None
