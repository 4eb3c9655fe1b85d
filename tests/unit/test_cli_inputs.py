"""Files and stdin the user hands the CLI (a brief, a steps file, a screenshots map): one line
naming the file and what is wrong, exit 2, before any request; YAML read with the bounded loader.

The CLI cases run the real entry point against a port nobody listens on: a refusal must come
before any network call, and anything that did try to connect would fail with exit 1, not 2."""

from __future__ import annotations

import time

import pytest

from docsvc.ci.screenshots import _read_mapping
from docsvc.ci.settings import InputError
from docsvc.cli.captures import load_steps_file
from docsvc.cli.context import CliExit
from tests.support import free_port, run_cli

NOT_UTF8 = b"\xff\xfe\x00"
# 9^9 nodes once its aliases are expanded: a gigabyte and more as JSON.
BILLION_LAUGHS = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{n}: &{n} [{', '.join([f'*{p}'] * 9)}]\n" for p, n in zip("abcdefgh", "bcdefghi"))


def cli(tmp_path, *args: str, input: str | None = None):
    return run_cli(*args, key="dsv_k", base_url=f"http://127.0.0.1:{free_port()}", cwd=tmp_path, input=input)


def one_line(result, code: int = 2) -> str:
    assert result.returncode == code, result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.splitlines()) == 1, result.stderr
    return result.stderr.strip()


@pytest.mark.parametrize("args", [
    ["feature-drafts", "create", "--title", "x", "--brief-file", "brief.bin"],
    ["capture", "create", "--url", "http://127.0.0.1:1", "--steps", "brief.bin"],
])
def test_a_file_that_is_not_utf8_is_one_line_naming_it(tmp_path, args):
    (tmp_path / "brief.bin").write_bytes(NOT_UTF8)
    option = args[-2]
    assert one_line(cli(tmp_path, *args)) == f"Error: {option} brief.bin: not UTF-8 text (byte 0)"


def test_a_brief_file_that_is_missing_is_one_line(tmp_path):
    result = cli(tmp_path, "feature-drafts", "create", "--title", "x", "--brief-file", "nope.md")
    assert one_line(result) == "Error: --brief-file nope.md: no such file"


@pytest.mark.parametrize("args, name", [
    (["feature-drafts", "create", "--title", "x", "--brief-file", "-"], "--brief-file"),
    (["diagram", "-"], "DESCRIPTION"),
    (["login", "--with-token"], "--with-token"),
])
def test_stdin_that_is_not_utf8_is_one_line(tmp_path, args, name):
    import subprocess

    from tests.support import clean_env, command

    done = subprocess.run([*command("docsvc"), *args], cwd=tmp_path, input=NOT_UTF8, capture_output=True,
                          env=clean_env(DOCSVC_API_KEY="dsv_k", DOCSVC_BASE_URL=f"http://127.0.0.1:{free_port()}",
                                        DOCSVC_CONFIG_DIR=str(tmp_path / "config")), timeout=120)
    assert done.returncode == 2 and b"Traceback" not in done.stderr
    assert done.stderr.decode() == f"Error: {name} stdin: not UTF-8 text (byte 0)\n"
    assert not (tmp_path / "config").exists()  # login saved nothing


@pytest.mark.parametrize("text, number", [
    ("steps: [5]\n", 1),
    ("steps: [[a, b]]\n", 1),
    ("- {action: click, selector: '#a', description: Save}\n- null\n", 2),
])
def test_a_step_that_is_not_a_mapping_is_named_by_number(tmp_path, text, number):
    path = tmp_path / "steps.yaml"
    path.write_text(text)
    with pytest.raises(CliExit) as info:
        load_steps_file(path)
    assert info.value.exit_code == 2
    assert info.value.message == (f"--steps {path}: step {number} is not a mapping of action, selector, text, "
                                  "url and description")


def test_a_steps_file_that_is_an_alias_bomb_is_refused_at_once(tmp_path):
    path = tmp_path / "steps.yaml"
    path.write_text(BILLION_LAUGHS + "steps: [*i]\n")
    started = time.monotonic()
    with pytest.raises(CliExit) as info:
        load_steps_file(path)
    assert time.monotonic() - started < 10  # without the bound: minutes and gigabytes
    assert "YAML aliases expand to more than" in info.value.message and info.value.exit_code == 2


def test_a_steps_file_through_the_cli(tmp_path):
    (tmp_path / "steps.yaml").write_text("steps: [5]\n")
    result = cli(tmp_path, "capture", "create", "--url", "http://127.0.0.1:1", "--steps", "steps.yaml")
    assert one_line(result) == "Error: --steps steps.yaml: step 1 is not a mapping of action, selector, text, " \
                               "url and description"


@pytest.mark.parametrize("raw, message", [
    ((BILLION_LAUGHS + "a.png: *i\n").encode(), "YAML aliases expand to more than"),
    (NOT_UTF8, "cannot read"),
])
def test_a_screenshots_map_is_read_bounded_and_strict(tmp_path, raw, message):
    path = tmp_path / "map.yaml"
    path.write_bytes(raw)
    with pytest.raises(InputError, match=message):
        _read_mapping(path)


def test_a_screenshots_map_still_reads_json_and_yaml(tmp_path):
    (tmp_path / "map.json").write_text('{"a.png": "/a"}')
    (tmp_path / "map.yaml").write_text("b.png: /b\n")
    assert _read_mapping(tmp_path / "map.json") == {"a.png": "/a"}
    assert _read_mapping(tmp_path / "map.yaml") == {"b.png": "/b"}


SPEC = "openapi: 3.0.0\ninfo: {title: T, version: '1'}\npaths: {}\n"


@pytest.mark.parametrize("args, path", [
    (["convert", "spec.yaml", "-t", "openapi", "-o", "f/x.md"], "--output f/x.md"),
    (["convert", "spec.yaml", "-t", "openapi", "-o", "f/deeper/x.md"], "--output f/deeper/x.md"),
    (["diagram", "A calls B", "-o", "f/d.mmd"], "--output f/d.mmd"),
    (["bundle", "spec.yaml", "-o", "f/b.yaml"], "--output f/b.yaml"),
    (["ci", "init", "github", "--dir", "f"], "f/.github/workflows/docsvc.yml"),
])
def test_an_output_path_that_cannot_be_made_is_one_line_before_any_request(tmp_path, args, path):
    """A file where a folder must be: refused by name before the job (and its credits) is spent."""
    (tmp_path / "spec.yaml").write_text(SPEC)
    (tmp_path / "f").write_text("")
    reason = "f/.github is not a folder" if args[0] == "ci" else "f is not a folder"
    if args[0] == "ci":
        (tmp_path / "f").unlink()
        (tmp_path / "f").mkdir()
        (tmp_path / "f" / ".github").write_text("")
    assert one_line(cli(tmp_path, *args)) == f"Error: {path}: cannot be written: {reason}"
    assert (tmp_path / "f").is_dir() or (tmp_path / "f").read_text() == ""


def test_ci_init_writes_none_of_its_files_when_one_cannot_be(tmp_path):
    (tmp_path / "Jenkinsfile.docsvc").mkdir()  # the last of vars/docsvc.groovy, vars/docsvc.txt, Jenkinsfile.docsvc
    result = cli(tmp_path, "ci", "init", "jenkins", "--force")
    assert one_line(result) == "Error: Jenkinsfile.docsvc: cannot be written: it is a folder"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["Jenkinsfile.docsvc"]


def test_unwritable_says_why_without_writing(tmp_path):
    from docsvc.files import unwritable

    (tmp_path / "file").write_text("")
    (tmp_path / "dir").mkdir()
    assert unwritable(tmp_path / "new.md") is None
    assert unwritable(tmp_path / "a" / "b" / "new.md") is None  # made on writing
    assert unwritable(tmp_path / "dir") == "it is a folder"
    assert unwritable(tmp_path / "file" / "x.md") == f"{tmp_path / 'file'} is not a folder"
    assert unwritable(tmp_path / "file" / "a" / "x.md") == f"{tmp_path / 'file'} is not a folder"
    assert not list(tmp_path.glob("**/new.md")) and not (tmp_path / "a").exists()


def test_a_write_that_fails_anyway_is_one_line_saying_what_was_saved(tmp_path):
    """What a look cannot see (a full disk) still fails as one line, exit 1, naming what was kept."""
    import errno

    from docsvc.cli.context import writing

    with pytest.raises(CliExit) as raised:
        with writing(tmp_path / "x.md", "--output", saved="the conversion is saved as conversions item 3"):
            raise OSError(errno.ENOSPC, "No space left on device", str(tmp_path / ".x.md.partial"))
    assert raised.value.exit_code == 1
    assert raised.value.message == (f"--output {tmp_path / 'x.md'}: cannot be written: No space left on device; "
                                    "the conversion is saved as conversions item 3")
    with pytest.raises(CliExit) as raised:
        with writing(tmp_path / "x.md" / "y.md", ""):
            (tmp_path / "x.md").write_text("")
            raise FileExistsError(errno.EEXIST, "File exists", str(tmp_path / "x.md"))
    assert (raised.value.exit_code, raised.value.message) == (
        2, f"{tmp_path / 'x.md' / 'y.md'}: cannot be written: {tmp_path / 'x.md'} is not a folder")
