"""A large spec is parsed in a checker process when no job of this process would take the parsed
data (spec_check.py): the API's GIL is not held while it loads, and a bad one is refused alike."""

from __future__ import annotations

import json

import pytest

from docsvc.server import handoff, spec_check
from docsvc.specload import SpecError


def _large_spec(valid: bool = True) -> str:
    paths = {f"/things/{n}": {"get": {"summary": "x" * 200, "responses": {"200": {"description": "ok"}}}}
             for n in range(spec_check.APART_BYTES // 200)}
    text = json.dumps({"openapi": "3.0.3", "info": {"title": "Big", "version": "1"}, "paths": paths}, indent=1)
    assert len(text) >= spec_check.APART_BYTES
    return text if valid else text[:-40] + "\n  ]]\n"


@pytest.fixture()
def apart(monkeypatch):
    """Jobs elsewhere, and a parse in this process refused: only the checker may parse."""
    def here(*args):
        raise AssertionError("parsed in the API's process")

    handoff.jobs_run_here(False)
    monkeypatch.setattr(spec_check, "parse", here)
    yield
    spec_check.close()
    handoff.jobs_run_here(True)


def test_a_large_spec_loads_in_the_checker(apart):
    assert spec_check.parse_spec("openapi", _large_spec()) is None
    assert spec_check._checker is not None


def test_a_large_bad_spec_is_refused_with_its_line(apart):
    with pytest.raises(SpecError) as refused:
        spec_check.parse_spec("openapi", _large_spec(valid=False))
    assert refused.value.line is not None and refused.value.line > 1000


def test_large_bytes_that_are_not_utf8_are_refused_with_their_offset(apart):
    raw = _large_spec().encode()
    with pytest.raises(UnicodeDecodeError) as refused:
        spec_check.parse_spec("openapi", raw[:500] + b"\xff" + raw[500:])
    assert refused.value.start == 500


def test_the_wrong_kind_is_refused_apart(apart):
    with pytest.raises(SpecError, match="not an OpenAPI document"):
        spec_check.parse_spec("openapi", json.dumps({"values": ["x" * 100] * (spec_check.APART_BYTES // 100)}))


def test_small_specs_and_jobs_here_parse_here():
    handoff.jobs_run_here(False)
    try:
        small = {"openapi": "3.0.3", "info": {"title": "Small", "version": "1"}, "paths": {}}
        assert spec_check.parse_spec("openapi", json.dumps(small)) == small
    finally:
        handoff.jobs_run_here(True)
    assert spec_check.parse_spec("openapi", _large_spec())["info"]["title"] == "Big"


def test_the_checker_ends_with_its_parent(tmp_path):
    """Killed at once (SIGKILL), the API's process leaves no checker behind."""
    import os
    import signal
    import subprocess
    import sys
    import time

    spec = tmp_path / "big.json"
    spec.write_text(_large_spec())
    script = (
        "import os, sys\n"
        "from docsvc.server import handoff, spec_check\n"
        "handoff.jobs_run_here(False)\n"
        f"spec_check.parse_spec('openapi', open({str(spec)!r}).read())\n"
        "print(spec_check._checker._processes and list(spec_check._checker._processes)[0], flush=True)\n"
        "sys.stdin.read()\n")
    parent = subprocess.Popen([sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        checker = int(parent.stdout.readline())
        os.kill(checker, 0)  # alive
        parent.send_signal(signal.SIGKILL)
        parent.wait(10)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                os.kill(checker, 0)
            except ProcessLookupError:
                break
            time.sleep(0.1)
        else:
            os.kill(checker, signal.SIGKILL)
            raise AssertionError("the checker outlived its parent")
    finally:
        parent.kill()
