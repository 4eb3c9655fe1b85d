"""The service's JSON (docsvc.server.jsoncodec): msgspec's speed, json's values and json's last word."""

from __future__ import annotations

import json
import math

import pytest

pytest.importorskip("msgspec")

from docsvc.server import jsoncodec  # noqa: E402


@pytest.mark.parametrize("value", [
    {"findings": [{"rule": "security-defined", "line": 12, "pointer": "/paths/~1pets/get", "file": None}]},
    {"text": "naïve “quotes” \u2028 and \x00 control", "n": -3, "f": 1.5, "ok": True, "list": [None, [], {}]},
    {"big": 10**40, "small": -(10**40)},  # past 64 bits, as specs' examples may hold
    {1: "int key", 2.5: "float key"},
])
def test_values_round_trip_as_json_has_them(value):
    text = jsoncodec.dumps(value)
    assert jsoncodec.loads(text) == json.loads(json.dumps(value))
    assert json.loads(text) == json.loads(json.dumps(value))  # any JSON reader reads it the same


def test_text_is_compact_utf8_not_escaped():
    assert jsoncodec.dumps({"a": [1, "é"]}) == '{"a":[1,"é"]}'
    assert jsoncodec.dumps_bytes({"a": "é"}) == '{"a":"é"}'.encode("utf-8")


def test_what_msgspec_refuses_json_decides():
    assert jsoncodec.dumps({True: 1, None: 2}) == '{"true":1,"null":2}'  # json's own key conversion
    with pytest.raises(TypeError):
        jsoncodec.dumps({(1, 2): 3})  # refused by both: the caller hears it, as from json
    with pytest.raises(TypeError):
        jsoncodec.dumps({"when": object()})
    assert math.isnan(jsoncodec.loads("[NaN]")[0])  # stored before this codec, by json
    assert jsoncodec.loads("1e400") == math.inf
    with pytest.raises(json.JSONDecodeError):
        jsoncodec.loads("{not json")


def test_a_float_that_is_not_a_number_is_written_as_null():
    assert jsoncodec.dumps({"x": math.nan}) == '{"x":null}'
