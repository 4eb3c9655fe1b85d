"""``docsvc convert``: an OpenAPI document or Helm values file to documentation, written locally
and saved to the workspace."""

from __future__ import annotations

from pathlib import Path

import click

from ..endpoints import CONVERT_SOURCES, CONVERT_TARGETS
from .. import exit_codes
from .context import CliExit, check_writable, client, writing
from .output import emit, json_option, status
from .bundle import read_spec, remote_refs_option, spec_bytes, spec_refused
from .examples import examples
from ..files import write_atomically
from .progress import timeout_option, wait_for_job

@examples(
    "docsvc convert openapi.yaml -t openapi",
    "docsvc convert api/openapi.yaml -t openapi --target md -o docs/api.md  # split across files: bundled first",
    "docsvc convert charts/app/values.yaml -t helm --target rst -o docs/values.rst",
)
@click.command()
@click.argument("input_file", type=click.Path(path_type=Path, dir_okay=False))
@click.option("-t", "--type", "source_type", type=click.Choice(CONVERT_SOURCES), required=True,
              help="what the input is: an OpenAPI document (2.0, 3.0, 3.1; JSON or YAML) or Helm values")
@click.option("--target", type=click.Choice(list(CONVERT_TARGETS)), default="docusaurus", show_default=True,
              help="docusaurus = MDX-safe Markdown, sphinx = reStructuredText for Sphinx, or raw md, rst, adoc")
@click.option("-o", "--output", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="where to write the result (default: the input's name with the target's extension)")
@remote_refs_option
@timeout_option("the conversion goes on in the service")
@json_option
def convert(input_file: Path, source_type: str, target: str, output: Path | None, allow_remote_refs: bool,
            timeout: float | None, as_json: bool) -> None:
    """Convert INPUT_FILE into documentation: writes it locally, saves it to your workspace
    (a Universal Converter item) and prints the link and the local path. An OpenAPI spec split
    across files ($ref: ./schemas/pet.yaml) is bundled into one document first (docsvc bundle)."""
    from ..client import UnprocessableEntityError

    name = "--output" if output is not None else "output"
    output = output or input_file.with_suffix(CONVERT_TARGETS[target])
    if output.resolve() == input_file.resolve():
        raise CliExit(f"--output: {output} would overwrite the input; choose another path", exit_codes.USAGE)
    check_writable(output, name)  # before the job: a conversion costs credits
    spec = (spec_bytes(input_file, allow_remote=allow_remote_refs) if source_type == "openapi"
            else read_spec(input_file).encode("utf-8"))
    api = client()
    try:
        ref = _start(api, input_file, source_type, spec, target)
    except UnprocessableEntityError as exc:
        raise spec_refused(input_file, exc) from None
    del spec
    status(f"Converting {input_file} ({source_type} to {target}), job {ref.job_id}")
    result = wait_for_job(api, ref, "convert", timeout)
    document = result.get("document")
    if document is None and isinstance(result.get("item_id"), int):
        # The raw text, not a string inside JSON; as bytes: written as they came, not decoded first.
        document = api.convert.document_bytes(result["item_id"])
    if not isinstance(document, (str, bytes)):
        raise CliExit("convert: the service's result holds no document", exit_codes.FAILED)
    item_id = result.get("item_id")
    with writing(output, name, saved=f"the conversion is saved as conversions item {item_id}" if item_id else None):
        write_atomically(output, document)
    for warning in result.get("warnings") or []:
        status(f"warning: {warning}")
    summary = {"path": str(output), "url": result.get("url"), "item_id": result.get("item_id"),
               "title": result.get("title"), "target_format": target, "warnings": result.get("warnings") or [],
               "stats": result.get("stats") or {}}
    emit(summary, as_json, lambda s: [f"Link: {s['url']}", f"Written to {s['path']}"])


def _start(api, input_file: Path, source_type: str, spec: bytes, target: str):
    """Start the job: the spec sent as a file (its bytes as they are, not escaped into JSON) and the
    document left out of the result (read raw afterwards), docsvc's additions for large specs; a
    service that takes only the interface's JSON body (400, 415) gets that instead."""
    from ..bundle import Unreadable, decode
    from ..client import APIStatusError, BadRequestError

    try:
        return api.convert.create(source_type=source_type, file=(input_file.name, spec), target_format=target,
                                  inline_document=False)
    except APIStatusError as exc:
        if not isinstance(exc, BadRequestError) and exc.status_code != 415:
            raise
    try:
        text = decode(spec)
    except Unreadable as exc:
        raise CliExit(f"{input_file}: {exc}", exit_codes.USAGE) from None
    return api.convert.create(source_type=source_type, content=text, target_format=target)


def register(cli: click.Group) -> None:
    cli.add_command(convert)
