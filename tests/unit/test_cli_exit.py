"""How the ``docsvc`` process ends (docsvc.cli.main._exit): as sys.exit would, without the teardown.

Each case runs the real entry point in a process of its own: the end of a process is what is tested."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from docsvc import __version__

ROOT = Path(__file__).resolve().parents[2]


def run_main(argv: list[str], tmp_path: Path, *, before: str = "", stdout=subprocess.PIPE):
    code = textwrap.dedent(f"""
        import atexit, sys
        {before}
        sys.argv = {["docsvc", *argv]!r}
        from docsvc.cli.main import main
        main()
        raise SystemExit("main() returned")
    """)
    env = {**os.environ, "HOME": str(tmp_path), "DOCSVC_CONFIG_DIR": str(tmp_path / "config")}
    env.pop("DOCSVC_API_KEY", None)
    return subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, stdout=stdout,
                          stderr=subprocess.PIPE, text=True, timeout=60)


def test_success_exits_0_with_its_output_and_atexit_handlers_run(tmp_path):
    marker = tmp_path / "atexit-ran"
    done = run_main(["--version"], tmp_path, before=f"atexit.register(open({str(marker)!r}, 'w').close)")
    assert (done.returncode, done.stdout.strip()) == (0, f"docsvc, version {__version__}")
    assert marker.exists()  # what a coverage tool or a logging handler registers still happens


def test_a_usage_error_keeps_its_exit_code_and_message(tmp_path):
    done = run_main(["no-such-command"], tmp_path)
    assert done.returncode == 2
    assert "No such command 'no-such-command'" in done.stderr
    assert "Traceback" not in done.stderr


def test_output_still_buffered_at_the_end_is_written(tmp_path):
    out = tmp_path / "help.txt"
    with out.open("w") as handle:  # a file: Python buffers it until the end
        done = run_main(["--help"], tmp_path, stdout=handle)
    assert done.returncode == 0
    text = out.read_text()
    assert text.startswith("Usage: docsvc") and "Exit codes" in text and text.endswith("\n")


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_output_that_cannot_be_written_fails_the_command(tmp_path):
    with open("/dev/full", "w") as full:
        done = run_main(["--help"], tmp_path, stdout=full)
    assert done.returncode != 0
