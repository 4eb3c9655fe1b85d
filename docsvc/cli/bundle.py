"""``docsvc bundle``, and the one way the CLI reads a spec it sends: split specs made one document.

``spec_bytes`` is what ``convert`` and ``validate --file`` send: the file as it is when it
references no other file, else the bundle (``docsvc.bundle``). Every failure is one line naming
the file and the reference, exit 2; ``spec_refused`` says the service's refusal of a sent spec the
same way.
"""

from __future__ import annotations

from pathlib import Path

import click

from .. import exit_codes
from .context import CliExit, check_writable, writing
from .examples import examples
from .output import status


def remote_refs_option(func):
    return click.option("--allow-remote-refs", is_flag=True,
                        help="fetch $refs to http(s) URLs too (refused by default: the spec's own files only)")(func)


def read_spec(path: Path) -> str:
    """The file's text, or one line saying why it cannot be sent."""
    from ..bundle import Unreadable, read_text

    try:
        return read_text(path)
    except Unreadable as exc:
        raise CliExit(f"{path}: {exc}", exit_codes.USAGE) from None


def spec_text(path: Path, *, allow_remote: bool = False) -> str:
    """What to send for the spec at ``path``: its own text, or one document made of its files."""
    from ..bundle import BundleError, bundle

    text = read_spec(path)
    try:
        done = bundle(path, text, allow_remote=allow_remote)
    except BundleError as exc:
        raise CliExit(str(exc), exit_codes.USAGE) from None
    if done.files:
        status(f"Bundled {path} with {len(done.files)} referenced file(s)")
    return done.text


def spec_bytes(path: Path, *, allow_remote: bool = False) -> bytes:
    """``spec_text``, as the bytes to upload: a file that a scan of its bytes shows to reference no
    other file is sent as it is, not decoded here only to be encoded again (the service says so if
    it is not UTF-8 text, as for any upload)."""
    from ..bundle import Unreadable, may_have_external_refs, read_bytes

    try:
        raw = read_bytes(path)
    except Unreadable as exc:
        raise CliExit(f"{path}: {exc}", exit_codes.USAGE) from None
    if not may_have_external_refs(raw):
        return raw
    return spec_text(path, allow_remote=allow_remote).encode("utf-8")


def spec_refused(path: Path, exc) -> CliExit:
    """The service's 422 about the spec it was sent (``content``, or the uploaded ``file``), as
    ``FILE: line N: reason``."""
    problem = getattr(exc, "problem", None)
    detail = (problem.detail if problem is not None else None) or str(exc)
    detail = detail.removeprefix("content: ").removeprefix("file: ").removeprefix(f"{path.name}: ")
    return CliExit(f"{path}: {detail}", exit_codes.USAGE)


@examples(
    "docsvc bundle api/openapi.yaml -o openapi.bundled.yaml",
    "docsvc bundle api/openapi.json > openapi.bundled.json",
    "docsvc bundle api/openapi.yaml --allow-remote-refs -o openapi.bundled.yaml",
)
@click.command("bundle")
@click.argument("spec", type=click.Path(path_type=Path, dir_okay=False))
@click.option("-o", "--output", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="write here (atomically) instead of to stdout")
@remote_refs_option
def bundle_command(spec: Path, output: Path | None, allow_remote_refs: bool) -> None:
    """[addition] Make one document of an OpenAPI spec split across files.

    \b
    Every $ref to another file (relative paths, YAML or JSON, #/json/pointer fragments) is pulled
    into components/<kind>/<name> (definitions in Swagger 2.0) and pointed to from there; cycles
    between files stay as references. YAML in, YAML out; JSON in, JSON out. convert and
    validate --file do this themselves before they send a spec; a spec without such references
    is sent exactly as it is."""
    from ..files import write_atomically

    if output is not None and output.resolve() == spec.resolve():
        raise CliExit(f"--output: {output} would overwrite the input; choose another path", exit_codes.USAGE)
    if output is not None:
        check_writable(output, "--output")  # before remote references are fetched
    text = spec_text(spec, allow_remote=allow_remote_refs)
    if output is None:
        click.echo(text, nl=False)
        return
    with writing(output, "--output"):
        write_atomically(output, text)
    status(f"Written to {output}")


def register(cli: click.Group) -> None:
    cli.add_command(bundle_command)
