"""Safe spec loading: JSON and YAML into JSON-shaped data, refusals with lines, bounded aliases,
and the lines of JSON pointers."""

from __future__ import annotations

import json
import re
import time

import pytest

from docsvc.specload import Locator, SpecError, detect_kind, load


def laughs(levels: int) -> str:
    lines = ["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    names = "abcdefghijklmnop"
    for i in range(1, levels):
        lines.append(f"{names[i]}: &{names[i]} [" + ", ".join([f"*{names[i - 1]}"] * 9) + "]")
    return "\n".join(lines) + "\n"


def test_json_and_yaml_give_the_same_data():
    assert load('{"openapi": "3.1.0", "paths": {"/a": {}}}').data == load("openapi: 3.1.0\npaths:\n  /a: {}\n").data
    assert load('{"a": 1}').syntax == "json" and load("a: 1").syntax == "yaml"


def test_yaml_core_schema_only():
    data = load("date: 2024-01-31\ncode: 200\n200: ok\ntrue: yes-key\nnothing:\n").data
    assert data == {"date": "2024-01-31", "code": 200, "200": "ok", "true": "yes-key", "nothing": None}


@pytest.mark.parametrize("text", [
    "a: !!python/object/apply:os.system [echo hacked]\n",
    "a: !!binary aGVsbG8=\n",
    "a: !custom thing\n",
    "a: !!set {x, y}\n",
])
def test_tags_beyond_the_core_schema_are_refused_with_their_line(text):
    with pytest.raises(SpecError) as caught:
        load(text)
    assert caught.value.line == 1 and "not allowed" in caught.value.message


def test_billion_laughs_is_refused_quickly_and_modest_aliases_pass():
    started = time.monotonic()
    with pytest.raises(SpecError, match="aliases expand to more than"):
        load(laughs(9))  # 9^9 ≈ 387 million nodes once expanded
    assert time.monotonic() - started < 5
    data = load(laughs(3)).data  # 9^3 nodes: fine
    assert len(data["c"]) == 9 and data["c"][0][0] == ["lol"] * 9


def test_a_recursive_alias_does_not_hang():
    with pytest.raises(SpecError):
        load("a: &a [*a]\n")


@pytest.mark.parametrize("text, line, words", [
    ("a: [1,\n  2\nb: 3\n", 3, "not valid YAML"),
    ('{"a": 1,\n "b": 2\n "c": 3}', 3, "not valid JSON"),
    ("key: value\n  bad indent: x\n", 2, "not valid YAML"),
])
def test_syntax_errors_carry_their_line(text, line, words):
    with pytest.raises(SpecError) as caught:
        load(text)
    assert caught.value.line == line and words in caught.value.message
    assert str(caught.value).startswith(f"line {line}: ")


@pytest.mark.parametrize("text", [
    '{"big": 123456789012345678901234567890, "neg": -9223372036854775809, "u64": 18446744073709551615}',
    '{"f": [0.1, 1e2, -0.0, 1.5e-320, 1e400, -1e400], "nan": NaN, "inf": Infinity}',
    '{"lone": "\\ud800", "pair": "\\ud83d\\ude00", "nul": "\\u0000", "twice": 1, "twice": 2}',
])
def test_json_is_read_as_the_json_module_reads_it(text):
    """Whichever decoder runs (msgspec with the server extra), the values are json.loads's: integers
    of any size stay integers, and what msgspec refuses (NaN, 1e400, lone surrogates) still loads."""
    assert json.dumps(load(text).data) == json.dumps(json.loads(text))  # types and digits too: 1 is not 1.0


def test_empty_documents_are_refused():
    for text in ("", "   \n", "# only a comment\n"):
        with pytest.raises(SpecError, match="empty"):
            load(text)


def test_detect_kind():
    assert detect_kind({"openapi": "3.0.3", "info": {}}) == "openapi"
    assert detect_kind({"swagger": "2.0", "info": {}}) == "openapi"
    assert detect_kind({"replicaCount": 1}) == "helm"
    with pytest.raises(SpecError, match="unsupported OpenAPI version '4.0'"):
        detect_kind({"openapi": "4.0", "info": {}})
    with pytest.raises(SpecError, match="needs an info object"):
        detect_kind({"openapi": "3.1.0"})
    with pytest.raises(SpecError, match="is a list, not a mapping"):
        detect_kind(["a"])


def test_locator_gives_the_line_of_a_members_key_in_json_and_yaml():
    json_text = '{\n  "paths": {\n    "/a/{id}": {\n      "get": {"responses": {}}\n    }\n  },\n  "list": [1,\n 2]\n}'
    yaml_text = "paths:\n  /a/{id}:\n    get:\n      responses: {}\nlist:\n  - 1\n  - 2\n"
    for text, lines in ((json_text, (4, 3, 8, None)), (yaml_text, (3, 2, 7, None))):
        locate = Locator(text)
        assert (locate.line("/paths/~1a~1{id}/get"), locate.line("/paths/~1a~1{id}"), locate.line("/list/1"),
                locate.line("/paths/~1missing")) == lines


def test_sent_bytes_read_as_their_text_would_be():
    texts = ['\ufeff{"openapi": "3.0.0", "info": {"title": "caf\u00e9 \U0001F600"}, "n": 123456789012345678901234}',
             "openapi: 3.0.0\ninfo:\n  title: caf\u00e9\n", '{"bad": [1, 2}']
    for text in texts:
        try:
            expected = load(text)
        except SpecError as exc:
            with pytest.raises(SpecError, match=re.escape(exc.message)):
                load(text.encode("utf-8"))
        else:
            assert load(text.encode("utf-8")) == expected
    with pytest.raises(UnicodeDecodeError) as raised:
        load(b'{"title": "caf\xe9"}')
    assert raised.value.start == 14  # the byte the service names
