"""``docsvc convert``: an OpenAPI document or Helm values file to documentation, written locally
and saved to the workspace."""

from __future__ import annotations

from pathlib import Path

import click

from ..endpoints import CONVERT_SOURCES, CONVERT_TARGETS
from .. import exit_codes
from .context import CliExit, client
from .output import emit, json_option, status
from .progress import wait_for_job

def read_spec(path: Path) -> str:
    """The file's text, or one line saying why it cannot be sent."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CliExit(f"{path}: no such file", exit_codes.USAGE) from None
    except IsADirectoryError:
        raise CliExit(f"{path}: is a directory, not a spec file", exit_codes.USAGE) from None
    except UnicodeDecodeError as exc:
        raise CliExit(f"{path}: not UTF-8 text (byte {exc.start}); is it a spec?", exit_codes.USAGE) from None
    except OSError as exc:
        raise CliExit(f"{path}: {exc.strerror}", exit_codes.USAGE) from None
    if not text.strip():
        raise CliExit(f"{path}: the file is empty", exit_codes.USAGE)
    return text


def spec_refused(path: Path, exc) -> CliExit:
    """The service's 422 about the spec's content, as ``FILE: line N: reason``."""
    problem = getattr(exc, "problem", None)
    detail = (problem.detail if problem is not None else None) or str(exc)
    return CliExit(f"{path}: {detail.removeprefix('content: ')}", exit_codes.USAGE)


def write_atomically(path: Path, text: str) -> None:
    """Never a half-written file in place of a good one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    partial.write_text(text, encoding="utf-8")
    partial.replace(path)


@click.command()
@click.argument("input_file", type=click.Path(path_type=Path, dir_okay=False))
@click.option("-t", "--type", "source_type", type=click.Choice(CONVERT_SOURCES), required=True,
              help="what the input is: an OpenAPI document (2.0, 3.0, 3.1; JSON or YAML) or Helm values")
@click.option("--target", type=click.Choice(list(CONVERT_TARGETS)), default="docusaurus", show_default=True,
              help="docusaurus = MDX-safe Markdown, sphinx = reStructuredText for Sphinx, or raw md, rst, adoc")
@click.option("-o", "--output", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="where to write the result (default: the input's name with the target's extension)")
@click.option("--timeout", type=click.FloatRange(min=0), default=None, metavar="SECONDS",
              help="stop waiting after this long (exit 8); the conversion goes on in the service")
@json_option
def convert(input_file: Path, source_type: str, target: str, output: Path | None, timeout: float | None,
            as_json: bool) -> None:
    """Convert INPUT_FILE into documentation: writes it locally, saves it to your workspace
    (a Universal Converter item) and prints the link and the local path."""
    from ..client import UnprocessableEntityError

    output = output or input_file.with_suffix(CONVERT_TARGETS[target])
    if output.resolve() == input_file.resolve():
        raise CliExit(f"--output: {output} would overwrite the input; choose another path", exit_codes.USAGE)
    text = read_spec(input_file)
    api = client()
    try:
        ref = api.convert.create(source_type=source_type, content=text, target_format=target)
    except UnprocessableEntityError as exc:
        raise spec_refused(input_file, exc) from None
    status(f"Converting {input_file} ({source_type} to {target}), job {ref.job_id}")
    result = wait_for_job(api, ref, "convert", timeout)
    document = result.get("document")
    if not isinstance(document, str):
        raise CliExit("convert: the service's result holds no document", exit_codes.FAILED)
    write_atomically(output, document)
    for warning in result.get("warnings") or []:
        status(f"warning: {warning}")
    summary = {"path": str(output), "url": result.get("url"), "item_id": result.get("item_id"),
               "title": result.get("title"), "target_format": target, "warnings": result.get("warnings") or [],
               "stats": result.get("stats") or {}}
    emit(summary, as_json, lambda s: [f"Link: {s['url']}", f"Written to {s['path']}"])


def register(cli: click.Group) -> None:
    cli.add_command(convert)
