"""Captures: ``POST /captures`` walks steps in Chromium (a job), ``GET /captures/<id>`` shows the
capture, ``GET/PUT /captures/<id>/zoom`` read and change its zoom-on-click settings.

A capture lives in ``Item.data``: ``{mode, start_url, viewport, steps: [{id, action, description,
selector?, url?, target?, zoom, screenshot, screenshot_file_id, bytes, page_url}]}``. Step ids are
``s1``, ``s2``, ... in the order walked; they never change, so scripts can name them.

Zoom rules (the interface leaves "small target" to us):
- zoom-on-click applies to click steps, the only steps with a target;
- a step's setting ``on`` or ``off`` wins; ``default`` follows the capture's mode;
- mode ``always`` zooms every click, ``off`` none, ``auto`` only small targets: a click target
  narrower or lower than 48 CSS px (the touch-target size of Material Design and Android;
  WCAG 2.5.5 asks for 44). A click whose target size is unknown is not zoomed by ``auto``.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urljoin, urlparse

from sqlalchemy.orm import Session

from ..db.tables import Item
from ...egress import Egress, EgressRefused
from ..jobs import queue
from ..problems import Problem, invalid
from .accounts import Caller
from .items import get_item

KIND = "capture"
ACTIONS = ("click", "type", "navigate")
MODES = ("auto", "always", "off")
STEP_SETTINGS = ("on", "off", "default")
SMALL_TARGET_PX = 48
MAX_STEPS = 50
MAX_TEXT = 2000
STEP_TIMEOUT_DEFAULT = 10.0
STEP_TIMEOUT_MAX = 120.0
# What each action needs besides its description, and what it may carry.
_STEP_FIELDS = {"click": ("selector",), "type": ("selector", "text"), "navigate": ("url",)}


# --- zoom rules -----------------------------------------------------------------------------

def is_small(target: dict[str, Any] | None) -> bool:
    """Whether a click target (``{width, height}`` in CSS px) counts as small for ``auto``."""
    if not target:
        return False
    return min(float(target.get("width") or 0), float(target.get("height") or 0)) < SMALL_TARGET_PX


def _size(target: dict[str, Any]) -> str:
    return f"{round(target['width'])}×{round(target['height'])} px"


def effective_zoom(step: dict[str, Any], mode: str) -> tuple[bool, str]:
    """Whether the step zooms on click, and why (shown beside each step)."""
    if step.get("action") != "click":
        return False, f"{step.get('action')} step: zoom-on-click applies only to clicks"
    setting = step.get("zoom") or "default"
    if setting != "default":
        return setting == "on", f"step setting {setting}"
    if mode == "always":
        return True, "mode always"
    if mode == "off":
        return False, "mode off"
    target = step.get("target")
    if not target:
        return False, "mode auto: target size unknown"
    if is_small(target):
        return True, f"mode auto: small target ({_size(target)} < {SMALL_TARGET_PX} px)"
    return False, f"mode auto: target {_size(target)} is not small"


def zoom_view(data: dict[str, Any]) -> dict[str, Any]:
    """``{mode, steps: {id: setting}}`` as the interface has it, plus ``step_list`` with each
    step's description, setting and effective zoom, in order."""
    mode = data.get("mode") or "auto"
    steps = data.get("steps") or []
    listed = []
    for step in steps:
        zoom, reason = effective_zoom(step, mode)
        listed.append({"id": step["id"], "action": step.get("action"), "description": step.get("description"),
                       "setting": step.get("zoom") or "default", "effective_zoom": zoom, "reason": reason,
                       "target": step.get("target")})
    return {"mode": mode, "steps": {s["id"]: s.get("zoom") or "default" for s in steps}, "step_list": listed,
            "small_target_px": SMALL_TARGET_PX}


def change_zoom(data: dict[str, Any], body: Any) -> dict[str, Any]:
    """The capture's data with a PUT's ``{mode?, steps?}`` applied. All or nothing: any refused
    value (an unknown step id by name, a bad setting) leaves everything as it was."""
    if not isinstance(body, dict):
        raise Problem(400, "The request body must be a JSON object")
    unknown = sorted(set(body) - {"mode", "steps"})
    if unknown:
        raise invalid(unknown[0], "unknown field; a zoom setting has mode and steps")
    mode = body.get("mode")
    if mode is not None and mode not in MODES:
        raise invalid("mode", f"must be one of {', '.join(MODES)}, got {mode!r}")
    changes = body.get("steps")
    if changes is not None and not isinstance(changes, dict):
        raise invalid("steps", "must be an object mapping step ids to on, off or default")
    steps = [dict(s) for s in data.get("steps") or []]
    by_id = {s["id"]: s for s in steps}
    for step_id, setting in (changes or {}).items():
        if step_id not in by_id:
            known = ", ".join(by_id) or "none"
            raise Problem(422, f"unknown step {step_id} (this capture's steps: {known})",
                          errors=[{"loc": ["body", "steps", step_id], "msg": f"unknown step {step_id}"}])
        if setting not in STEP_SETTINGS:
            raise invalid(f"steps.{step_id}", f"must be one of {', '.join(STEP_SETTINGS)}, got {setting!r}")
        if setting == "on" and by_id[step_id].get("action") != "click":
            raise invalid(f"steps.{step_id}", f"{step_id} is a {by_id[step_id].get('action')} step; "
                                              "zoom-on-click applies only to click steps")
        by_id[step_id]["zoom"] = setting
    return {**data, "mode": mode or data.get("mode") or "auto", "steps": steps}


# --- requests -------------------------------------------------------------------------------

def _web_address(value: Any, field: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise invalid(field, "must be an http or https address")
    parsed = urlparse(value.strip())
    if parsed.scheme not in ("http", "https") or not parsed.hostname:
        raise invalid(field, f"must be an http or https address, got {value!r}")
    return value.strip()


def _text(value: Any, field: str, *, allow_empty: bool = False) -> str:
    if not isinstance(value, str) or (not allow_empty and not value.strip()):
        raise invalid(field, "must be a non-empty string" if not allow_empty else "must be a string")
    if len(value) > MAX_TEXT:
        raise invalid(field, f"must be at most {MAX_TEXT} characters")
    return value


def check_request(body: Any) -> dict[str, Any]:
    """The job's parameters from a ``POST /captures`` body, or 422 naming the first bad field."""
    if not isinstance(body, dict):
        raise Problem(400, "The request body must be a JSON object")
    unknown = sorted(set(body) - {"title", "start_url", "steps", "step_timeout_seconds"})
    if unknown:
        raise invalid(unknown[0], "unknown field; a capture has title, start_url, steps, step_timeout_seconds")
    title = body.get("title")
    if title is not None:
        title = _text(title, "title").strip()[:500]
    start_url = _web_address(body.get("start_url"), "start_url")
    timeout = body.get("step_timeout_seconds", STEP_TIMEOUT_DEFAULT)
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not 0 < timeout <= STEP_TIMEOUT_MAX:
        raise invalid("step_timeout_seconds", f"must be a number of seconds above 0 and at most {STEP_TIMEOUT_MAX:g}")
    raw_steps = body.get("steps")
    if not isinstance(raw_steps, list) or not raw_steps:
        raise invalid("steps", "must be a non-empty list of steps")
    if len(raw_steps) > MAX_STEPS:
        raise invalid("steps", f"at most {MAX_STEPS} steps per capture")
    steps = []
    for n, raw in enumerate(raw_steps):
        where = f"steps[{n}]"
        if not isinstance(raw, dict):
            raise invalid(where, "must be an object with action and description")
        action = raw.get("action")
        if action not in ACTIONS:
            raise invalid(f"{where}.action", f"must be one of {', '.join(ACTIONS)}, got {action!r}")
        needed = _STEP_FIELDS[action]
        extra = sorted(set(raw) - {"action", "description", *needed})
        if extra:
            raise invalid(f"{where}.{extra[0]}", f"not a field of a {action} step (it has {', '.join(needed)}, "
                                                 "description)")
        step = {"action": action, "description": _text(raw.get("description"), f"{where}.description").strip()}
        if "selector" in needed:
            step["selector"] = _text(raw.get("selector"), f"{where}.selector").strip()
        if "text" in needed:
            step["text"] = _text(raw.get("text"), f"{where}.text", allow_empty=True)
        if "url" in needed:
            url = raw.get("url")
            # A path is taken relative to the start address; anything else must be a web address.
            if isinstance(url, str) and url.startswith("/") and not url.startswith("//"):
                step["url"] = url
            else:
                step["url"] = _web_address(url, f"{where}.url")
        steps.append(step)
    return {"title": title, "start_url": start_url, "steps": steps, "step_timeout_seconds": float(timeout)}


def start(session: Session, caller: Caller, body: Any, max_attempts: int, egress: Egress | None = None):
    params = check_request(body)
    for field, address in [("start_url", params["start_url"])] + [
            (f"steps[{n}].url", s["url"]) for n, s in enumerate(params["steps"]) if "url" in s]:
        try:  # an internal address written as one is refused now; a host is checked when the walk runs
            (egress or Egress()).check_literal(urljoin(params["start_url"], address))
        except EgressRefused as exc:
            raise invalid(field, str(exc)) from None
    return queue.enqueue(session, org_id=caller.org_id, user_id=caller.user_id, kind=KIND, params=params,
                         max_attempts=max_attempts)


def get_capture(session: Session, caller: Caller, item_id: int) -> Item:
    return get_item(session, caller, "captures", item_id)


def capture_view(item: Item) -> dict[str, Any]:
    """The capture as ``GET /captures/<id>`` shows it: the item's fields, its start address, mode
    and each step with its target size, zoom setting, effective zoom and screenshot. Typed text
    is never shown back (it may be a password)."""
    from .views import item_view

    data = item.data or {}
    mode = data.get("mode") or "auto"
    files = {f.id: f for f in item.files}
    steps = []
    for step in data.get("steps") or []:
        zoom, reason = effective_zoom(step, mode)
        stored = files.get(step.get("screenshot_file_id"))
        shown = {k: step.get(k) for k in ("id", "action", "description", "selector", "url", "target", "page_url")
                 if step.get(k) is not None}
        if step.get("action") == "type":
            shown["text_length"] = step.get("text_length")
        shown.update(zoom=step.get("zoom") or "default", effective_zoom=zoom, zoom_reason=reason,
                     screenshot={"file_id": step.get("screenshot_file_id"), "path": step.get("screenshot"),
                                 "name": (step.get("screenshot") or "").rsplit("/", 1)[-1] or None,
                                 "bytes": stored.size if stored is not None else step.get("bytes")})
        steps.append(shown)
    return {**item_view(item), "start_url": data.get("start_url"), "mode": mode, "viewport": data.get("viewport"),
            "small_target_px": SMALL_TARGET_PX, "steps": steps,
            "files": [{"id": f.id, "kind": f.kind, "path": f.path, "bytes": f.size} for f in item.files]}


def get_zoom(session: Session, caller: Caller, item_id: int) -> dict[str, Any]:
    return zoom_view(get_capture(session, caller, item_id).data or {})


def set_zoom(session: Session, caller: Caller, item_id: int, body: Any) -> dict[str, Any]:
    item = get_capture(session, caller, item_id)
    item.data = change_zoom(item.data or {}, body)  # a new dict, so the JSON column is written
    session.commit()
    return zoom_view(item.data)
