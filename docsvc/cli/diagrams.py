"""``docsvc diagram``: a Mermaid diagram from a description and an optional image of text."""

from __future__ import annotations

from pathlib import Path

import click

from .. import exit_codes
from .context import CliExit, check_writable, client, read_text_input, writing
from ..files import write_atomically
from .output import emit, json_option, status
from .examples import examples


def _refused(exc, image: Path | None) -> CliExit:
    """The service's 422 as one line; about the image, it names the file."""
    problem = getattr(exc, "problem", None)
    detail = (problem.detail if problem is not None else None) or str(exc)
    if image is not None and detail.startswith("image_file: "):
        detail = f"{image}: {detail.removeprefix('image_file: ')}"
    return CliExit(detail, exit_codes.USAGE)


@examples(
    "docsvc diagram 'The CLI sends the spec; the service converts it; the CLI writes the file'",
    'docsvc diagram - -o flow.mmd < steps.txt',
    "docsvc diagram 'Login flow' --image whiteboard.png --json",
)
@click.command()
@click.argument("description", required=False, default="")
@click.option("--image", type=click.Path(path_type=Path, exists=True, dir_okay=False), default=None,
              help="an image with text in it (a whiteboard photo, a screenshot of boxes and arrows): its text "
                   "is read with OCR and drawn too")
@click.option("-o", "--output", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="write the Mermaid text to this file instead of printing it")
@json_option
def diagram(description: str, image: Path | None, output: Path | None, as_json: bool) -> None:
    """[addition] Generate a Mermaid diagram from DESCRIPTION ("-" reads it from stdin) and an
    optional --image, print it (or write it with -o) and save it as a diagrams item.

    Wraps POST /diagram/generate, which the interface leaves without a CLI command. Steps
    ("1. ...", "first ..., then ...") and decisions ("if ... then ... otherwise ...") make a
    flowchart; "A calls B", "A sends X to B", "B returns Y to A" and arrows "A -> B: label" make a
    sequence diagram; plain arrows "A -> B" are edges of a flowchart."""
    from ..client import UnprocessableEntityError

    if description == "-":
        description = read_text_input("-", "DESCRIPTION")
    if not description.strip() and image is None:
        raise click.UsageError("give a DESCRIPTION of the diagram, or an --image FILE with text in it")
    if output is not None:
        check_writable(output, "--output")  # before the diagram is made and saved
    try:
        answer = client().diagrams.generate(description=description, image_file=image)
    except UnprocessableEntityError as exc:
        raise _refused(exc, image) from None
    if not isinstance(answer.mermaid, str):
        raise CliExit("diagram: the service's answer holds no diagram", exit_codes.FAILED)
    for warning in answer.warnings or []:
        status(f"warning: {warning}")
    saved = f"Saved as diagrams item {answer.item_id} ({answer.kind}): {answer.title}"
    if output is not None:
        with writing(output, "--output", saved=f"the diagram is saved as diagrams item {answer.item_id}"):
            write_atomically(output, answer.mermaid)
        data = {**answer.model_dump(mode="json"), "path": str(output)}
        emit(data, as_json, lambda d: [f"Written to {d['path']}", saved])
        return
    if not as_json:
        status(saved)
    emit(answer, as_json, lambda a: a.mermaid.rstrip("\n"))


def register(cli: click.Group) -> None:
    cli.add_command(diagram)
