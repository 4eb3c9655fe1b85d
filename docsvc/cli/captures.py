"""``docsvc capture``: create an interactive capture (an addition), show it (an addition), and read
or change its zoom-on-click settings (``capture zoom``, from the interface)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import click

from .. import exit_codes
from .context import CliExit, client, read_text_input
from .output import columns, emit, json_option, status
from .examples import examples
from .progress import timeout_option, wait_for_job
from .params import ID

ACTIONS = {"click": ("selector",), "type": ("selector", "text"), "navigate": ("url",)}
MODES = ("auto", "always", "off")
SETTINGS = ("on", "off", "default")
_UNESCAPED_COLON = re.compile(r"(?<!\\):")
_ZOOM_STEP = re.compile(r"^\s*([A-Za-z0-9_.-]+)\s*=\s*([A-Za-z]+)\s*$")

STEP_FORM = """\b
Steps, in order, each --step ACTION:...:DESCRIPTION:
  click:SELECTOR:DESCRIPTION         click the first visible element matching a CSS/Playwright selector
  type:SELECTOR:TEXT:DESCRIPTION     fill the field with TEXT
  navigate:URL:DESCRIPTION           open an address (a /path is taken relative to --url)
Colons inside a selector or URL need no escaping; write a colon in TEXT or DESCRIPTION as \\:.
Or --steps FILE (JSON or YAML): a list of {action, selector, text, url, description}, or an object
with steps and optionally start_url and title."""


def parse_step(value: str) -> dict[str, str]:
    """One ``--step`` value as a step object; ValueError saying what is wrong."""
    parts = [p.replace("\\:", ":") for p in _UNESCAPED_COLON.split(value)]
    action = parts[0].strip().lower()
    if action not in ACTIONS:
        raise ValueError(f"{value!r}: the action must be one of {', '.join(ACTIONS)} (ACTION:...:DESCRIPTION)")
    fields = ACTIONS[action]
    if len(parts) < len(fields) + 2:
        form = ":".join([action, *(f.upper() for f in fields), "DESCRIPTION"])
        raise ValueError(f"{value!r}: a {action} step is {form}")
    description = parts[-1].strip()
    middle = parts[1:-1]
    step = {"action": action}
    if action == "type":
        # The text is the field before the description; the selector is the rest, colons and all.
        step["selector"], step["text"] = ":".join(middle[:-1]).strip(), middle[-1]
    else:
        step[fields[0]] = ":".join(middle).strip()
    for name in fields:
        if name != "text" and not step[name]:
            raise ValueError(f"{value!r}: the {name} is empty")
    if not description:
        raise ValueError(f"{value!r}: the description is empty")
    step["description"] = description
    return step


def _steps_option(ctx, param, values):
    try:
        return [parse_step(v) for v in values]
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


def load_steps_file(path: Path) -> dict[str, Any]:
    """``{steps, start_url?, title?}`` from a JSON or YAML file; one line saying why not.

    Read with ``specload``, the bounded loader the specs use: a steps file is sent as JSON, and
    a YAML alias bomb would otherwise expand into gigabytes on the way."""
    from ..specload import SpecError, load

    text = read_text_input(path, "--steps")
    try:
        data = load(text).data
    except SpecError as exc:
        raise CliExit(f"--steps {path}: {exc}", exit_codes.USAGE) from None
    if isinstance(data, list):
        data = {"steps": data}
    if not isinstance(data, dict) or not isinstance(data.get("steps"), list) or not data["steps"]:
        raise CliExit(f"--steps {path}: expected a list of steps, or an object with a non-empty 'steps' list",
                      exit_codes.USAGE)
    for number, step in enumerate(data["steps"], start=1):
        if not isinstance(step, dict):
            raise CliExit(f"--steps {path}: step {number} is not a mapping of action, selector, text, url and "
                          f"description", exit_codes.USAGE)
    return data


def _size(target: dict | None) -> str:
    return f"{target['width']:g}×{target['height']:g} px" if target else ""


def _refused(exc) -> CliExit:
    """The service's 422 (a bad value) as a usage error, with its own message."""
    problem = getattr(exc, "problem", None)
    return CliExit((problem.detail if problem is not None else None) or str(exc), exit_codes.USAGE)


@examples(
    "docsvc capture create --url http://127.0.0.1:3000 --step 'click:#save:Save the form'",
    'docsvc capture zoom 4 --mode auto',
)
@click.group("capture")
def capture() -> None:
    """Interactive captures: create one and show it (additions), and read or change its
    zoom-on-click settings."""


@examples(
    "docsvc capture create --url http://127.0.0.1:3000/login --step 'type:#email:ada@example.com:Type the email' --step 'click:button[type=submit]:Sign in'",
    "docsvc capture create --steps steps.yaml --title 'Sign-in flow' --json",
)
@capture.command("create", epilog=STEP_FORM)
@click.option("--url", "start_url", default=None, metavar="URL",
              help="the page to start from (http or https; or start_url in the --steps file)")
@click.option("--step", "steps", multiple=True, callback=_steps_option, metavar="ACTION:...:DESCRIPTION",
              help="a step (repeatable, in order); see the forms below")
@click.option("--steps", "steps_file", type=click.Path(path_type=Path, dir_okay=False), default=None,
              metavar="FILE", help="the steps as JSON or YAML, instead of --step")
@click.option("--title", default=None, help="the capture's title (default: 'Capture of URL')")
@click.option("--step-timeout", type=click.FloatRange(min=0, min_open=True, max=120), default=None,
              metavar="SECONDS", help="how long a step waits for its element (service default 10)")
@timeout_option("the capture goes on in the service")
@json_option
def create(start_url, steps, steps_file, title, step_timeout, timeout, as_json) -> None:
    """[addition] Walk steps in the service's browser and save them as a capture.

    Wraps POST /captures, which the interface does not have: the service opens URL in Chromium,
    does each step, takes a screenshot after each and records each click target's size. Prints
    the new capture's id and its steps; zoom settings then with: docsvc capture zoom ID."""
    from ..client import UnprocessableEntityError

    if steps and steps_file:
        raise click.UsageError("give the steps with --step or with --steps FILE, not both")
    if steps_file:
        loaded = load_steps_file(steps_file)
        steps, start_url, title = loaded["steps"], start_url or loaded.get("start_url"), title or loaded.get("title")
    if not steps:
        raise click.UsageError("no steps: give --step ACTION:...:DESCRIPTION (repeatable) or --steps FILE")
    if not start_url:
        raise click.UsageError("no start page: give --url URL")
    api = client()
    try:
        ref = api.captures.create(start_url=start_url, steps=steps, title=title, step_timeout_seconds=step_timeout)
    except UnprocessableEntityError as exc:
        raise _refused(exc) from None
    status(f"Capture of {start_url} ({len(steps)} step(s)) queued (job {ref.job_id})")
    result = wait_for_job(api, ref, "capture", timeout)

    def render(r) -> list[str]:
        rows = [[s["id"], s.get("action") or "", _size(s.get("target")), s.get("description") or ""]
                for s in r.get("steps") or []]
        return [f"Capture {r.get('item_id')}: {r.get('title')} ({len(rows)} step(s), zoom mode {r.get('mode')})",
                *("  " + line for line in columns(rows))]

    emit(result, as_json, render)


@examples(
    'docsvc capture show 4',
    'docsvc capture show 4 --json',
)
@capture.command("show")
@click.argument("capture_id", type=ID)
@json_option
def show(capture_id: int, as_json: bool) -> None:
    """[addition] Show a capture: each step with its ID, action, target size, zoom setting and
    effective zoom, and its screenshot file. Wraps GET /captures/<id>, an addition."""
    found = client().captures.get(capture_id)

    def render(c) -> list[str]:
        rows = [["ID", "ACTION", "TARGET", "ZOOM", "SCREENSHOT", "DESCRIPTION"]]
        for s in c.steps:
            shot = (s.screenshot or {}).get("name") or ""
            zoom = f"{s.zoom} → {'on' if s.effective_zoom else 'off'}"
            rows.append([s.id, s.action or "", _size(s.target), zoom, shot, s.description or ""])
        return [f"Capture {c.id}: {c.title}", f"Start: {c.start_url or '-'}  Zoom mode: {c.mode}",
                *(columns(rows) if c.steps else ["(no recorded steps)"])]

    emit(found, as_json, render)


def _zoom_steps(ctx, param, values) -> dict[str, str]:
    settings = {}
    for value in values:
        match = _ZOOM_STEP.match(value)
        if match is None or match.group(2).lower() not in SETTINGS:
            raise click.BadParameter(f"{value!r}: expected STEP_ID=on|off|default, such as s2=on")
        settings[match.group(1)] = match.group(2).lower()
    return settings


@examples(
    'docsvc capture zoom 4',
    'docsvc capture zoom 4 --mode always --step s2=off',
)
@capture.command("zoom")
@click.argument("capture_id", type=ID)
@click.option("--mode", type=click.Choice(MODES), default=None,
              help="auto zooms only small click targets (under 48×48 CSS px); always; off")
@click.option("--step", "steps", multiple=True, callback=_zoom_steps, metavar="STEP_ID=on|off|default",
              help="one step's setting (repeatable); default follows the capture's mode")
@json_option
def zoom(capture_id: int, mode: str | None, steps: dict[str, str], as_json: bool) -> None:
    """Read or change a capture's zoom-on-click settings.

    Without options, lists the capture's mode and each step with its ID, description, setting and
    effective zoom. A step's on/off wins over the mode; zoom applies to click steps only."""
    from ..client import UnprocessableEntityError

    api = client()
    if mode is None and not steps:
        setting = api.captures.get_zoom(capture_id)
    else:
        try:
            setting = api.captures.set_zoom(capture_id, mode=mode, steps=steps or None)
        except UnprocessableEntityError as exc:
            raise _refused(exc) from None
        status(f"Zoom settings of capture {capture_id} changed")

    def render(z) -> list[str]:
        small = (z.model_extra or {}).get("small_target_px", 48)
        head = f"Capture {capture_id} zoom mode: {z.mode}"
        if z.mode == "auto":
            head += f" (zooms click targets under {small}×{small} CSS px)"
        listed = z.step_list
        if listed is None:  # a service that sends only the interface's fields
            listed = [{"id": k, "setting": v} for k, v in z.steps.items()]
        rows = [["ID", "SETTING", "ZOOM", "DESCRIPTION", "WHY"]]
        for s in listed:
            effective = s.get("effective_zoom")
            rows.append([s["id"], s.get("setting") or "default",
                         "" if effective is None else ("on" if effective else "off"),
                         s.get("description") or "", s.get("reason") or ""])
        return [head, *(columns(rows) if listed else ["(no steps)"])]

    emit(setting, as_json, render)


def register(cli: click.Group) -> None:
    cli.add_command(capture)
