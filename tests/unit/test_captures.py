"""Capture rules without a browser: what counts as a small target, the effective zoom of each
step under each mode and setting, zoom changes (all or nothing, unknown steps refused by name),
the request checks, and the CLI's --step forms."""

from __future__ import annotations

import pytest

from docsvc.cli.captures import parse_step
from docsvc.server.problems import Problem
from docsvc.server.services.captures import change_zoom, check_request, effective_zoom, is_small, zoom_view

SMALL = {"width": 30, "height": 20}
WIDE_BUT_LOW = {"width": 300, "height": 20}
LARGE = {"width": 200, "height": 60}
EDGE = {"width": 48, "height": 48}


@pytest.mark.parametrize("target, small", [
    (SMALL, True), (WIDE_BUT_LOW, True), ({"width": 47.9, "height": 100}, True),
    (LARGE, False), (EDGE, False), (None, False), ({}, False),
])
def test_small_target(target, small):
    assert is_small(target) is small


@pytest.mark.parametrize("action, target, setting, mode, zoomed", [
    ("click", SMALL, "default", "auto", True),
    ("click", LARGE, "default", "auto", False),
    ("click", None, "default", "auto", False),
    ("click", LARGE, "default", "always", True),
    ("click", SMALL, "default", "off", False),
    ("click", SMALL, "off", "auto", False),
    ("click", SMALL, "off", "always", False),
    ("click", LARGE, "on", "auto", True),
    ("click", LARGE, "on", "off", True),
    ("type", None, "default", "always", False),
    ("navigate", None, "default", "always", False),
])
def test_effective_zoom(action, target, setting, mode, zoomed):
    step = {"id": "s1", "action": action, "zoom": setting, **({"target": target} if target else {})}
    got, reason = effective_zoom(step, mode)
    assert got is zoomed
    assert reason  # every answer says why


def capture_data():
    return {"mode": "auto", "steps": [
        {"id": "s1", "action": "click", "description": "Small", "target": SMALL, "zoom": "default"},
        {"id": "s2", "action": "type", "description": "Name", "zoom": "default"},
        {"id": "s3", "action": "click", "description": "Big", "target": LARGE, "zoom": "default"},
    ]}


def test_zoom_view_lists_mode_settings_and_effective_zoom():
    view = zoom_view(capture_data())
    assert view["mode"] == "auto"
    assert view["steps"] == {"s1": "default", "s2": "default", "s3": "default"}
    assert [(s["id"], s["description"], s["effective_zoom"]) for s in view["step_list"]] == [
        ("s1", "Small", True), ("s2", "Name", False), ("s3", "Big", False)]


def test_change_zoom_per_step_and_mode():
    data = capture_data()
    changed = change_zoom(data, {"steps": {"s3": "on"}})
    assert zoom_view(changed)["steps"]["s3"] == "on" and changed["mode"] == "auto"
    assert data["steps"][2]["zoom"] == "default"  # the original is not modified
    changed = change_zoom(changed, {"mode": "off"})
    assert [s["effective_zoom"] for s in zoom_view(changed)["step_list"]] == [False, False, True]
    changed = change_zoom(changed, {"mode": "always", "steps": {"s3": "default"}})
    assert [s["effective_zoom"] for s in zoom_view(changed)["step_list"]] == [True, False, True]


@pytest.mark.parametrize("body, status, says", [
    ({"steps": {"s1": "on", "s9": "on"}}, 422, "unknown step s9"),
    ({"steps": {"s1": "maybe"}}, 422, "steps.s1: must be one of on, off, default"),
    ({"steps": {"s2": "on"}}, 422, "s2 is a type step"),
    ({"mode": "sometimes"}, 422, "mode: must be one of auto, always, off"),
    ({"steps": ["s1"]}, 422, "steps: must be an object"),
    ({"zoom": "on"}, 422, "zoom: unknown field"),
    (["s1"], 400, "JSON object"),
])
def test_change_zoom_refusals(body, status, says):
    data = capture_data()
    with pytest.raises(Problem) as refused:
        change_zoom(data, body)
    assert refused.value.status == status and says in refused.value.detail
    assert all(s["zoom"] == "default" for s in data["steps"])


def request(**changes):
    body = {"start_url": "http://127.0.0.1:8000/", "steps": [
        {"action": "click", "selector": "#a", "description": "Press A"},
        {"action": "type", "selector": "#name", "text": "", "description": "Clear the name"},
        {"action": "navigate", "url": "/next", "description": "Next page"}]}
    body.update(changes)
    return body


def test_request_accepted_with_defaults():
    params = check_request(request())
    assert params["step_timeout_seconds"] == 10.0 and params["title"] is None
    assert [s["action"] for s in params["steps"]] == ["click", "type", "navigate"]


@pytest.mark.parametrize("changes, field", [
    ({"start_url": "file:///etc/passwd"}, "start_url"),
    ({"start_url": None}, "start_url"),
    ({"steps": []}, "steps"),
    ({"steps": [{"action": "hover", "selector": "#a", "description": "x"}]}, "steps[0].action"),
    ({"steps": [{"action": "click", "description": "x"}]}, "steps[0].selector"),
    ({"steps": [{"action": "click", "selector": "#a"}]}, "steps[0].description"),
    ({"steps": [{"action": "type", "selector": "#a", "description": "x"}]}, "steps[0].text"),
    ({"steps": [{"action": "navigate", "url": "javascript:alert(1)", "description": "x"}]}, "steps[0].url"),
    ({"steps": [{"action": "click", "selector": "#a", "url": "/x", "description": "x"}]}, "steps[0].url"),
    ({"step_timeout_seconds": 0}, "step_timeout_seconds"),
    ({"colour": "red"}, "colour"),
])
def test_request_refusals_name_the_field(changes, field):
    with pytest.raises(Problem) as refused:
        check_request(request(**changes))
    assert refused.value.status == 422
    assert refused.value.detail.startswith(field + ":")
    assert refused.value.errors[0]["loc"] == ["body", field]


@pytest.mark.parametrize("value, step", [
    ("click:#save:Save", {"action": "click", "selector": "#save", "description": "Save"}),
    ("click:li:nth-child(2) > a:Open the second", {"action": "click", "selector": "li:nth-child(2) > a",
                                                    "description": "Open the second"}),
    ("type:#t:10\\:30:Set the time", {"action": "type", "selector": "#t", "text": "10:30",
                                      "description": "Set the time"}),
    ("type:#name::Clear the name", {"action": "type", "selector": "#name", "text": "",
                                    "description": "Clear the name"}),
    ("navigate:https://example.test:8443/a?b=c:Open it", {"action": "navigate",
                                                          "url": "https://example.test:8443/a?b=c",
                                                          "description": "Open it"}),
    ("click:#a:Step 1\\: press", {"action": "click", "selector": "#a", "description": "Step 1: press"}),
])
def test_cli_step_form(value, step):
    assert parse_step(value) == step


@pytest.mark.parametrize("value, says", [
    ("hover:#a:x", "the action must be one of"),
    ("click:#a", "a click step is click:SELECTOR:DESCRIPTION"),
    ("type:#a:Ada", "type:SELECTOR:TEXT:DESCRIPTION"),
    ("click::Press", "the selector is empty"),
    ("click:#a: ", "the description is empty"),
])
def test_cli_step_form_refusals(value, says):
    with pytest.raises(ValueError, match=says.replace("(", r"\(")):
        parse_step(value)
