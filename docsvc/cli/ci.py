"""``docsvc ci``: write the CI configuration that runs docsvc into your repository."""

from __future__ import annotations

from pathlib import Path

import click

from .. import exit_codes
from .context import CliExit, check_writable, writing
from .output import status
from .examples import examples
from .params import ID

KINDS = ("github", "gitlab", "jenkins")


@examples(
    'docsvc ci init github',
    'docsvc ci init gitlab --stdout',
)
@click.group()
def ci() -> None:
    """[addition] CI configuration for GitHub Actions, GitLab CI and Jenkins."""


@examples(
    'docsvc ci init github --integration-id 3',
    'docsvc ci init gitlab --dir ../my-repo --force',
    'docsvc ci init jenkins --credentials-id docs-key --stdout',
)
@ci.command("init")
@click.argument("kind", type=click.Choice(KINDS))
@click.option("--dir", "directory", type=click.Path(file_okay=False, path_type=Path), default=Path("."),
              show_default=True, help="the repository to write into")
@click.option("--integration-id", type=ID, default=1, show_default=True)
@click.option("--action", default="docsvc/docsvc-action@v1", show_default=True, help="GitHub: the action to use")
@click.option("--screenshots-dir", default="screenshots", show_default=True,
              help="where your UI tests write the screenshots")
@click.option("--spec-file", default="openapi.yaml", show_default=True, help="GitHub: the OpenAPI file to convert")
@click.option("--job-name", default="docsvc", show_default=True, help="GitLab: default job name of the component")
@click.option("--credentials-id", default="docsvc-api-key", show_default=True,
              help="Jenkins: the secret-text credential holding the API key")
@click.option("--force", is_flag=True, help="overwrite files that exist")
@click.option("--stdout", "to_stdout", is_flag=True, help="print instead of writing files")
def init(kind: str, directory: Path, integration_id: int, action: str, screenshots_dir: str, spec_file: str,
         job_name: str, credentials_id: str, force: bool, to_stdout: bool) -> None:
    """[addition] Render the KIND templates (github, gitlab, jenkins) into a repository."""
    from ..ci.templates import InitOptions, render_kind

    try:
        options = InitOptions(integration_id=integration_id, action=action, screenshots_dir=screenshots_dir,
                              spec_file=spec_file, job_name=job_name, credentials_id=credentials_id)
    except ValueError as exc:
        raise CliExit(str(exc), exit_codes.USAGE) from None
    files = render_kind(kind, options)
    if to_stdout:
        for path, text in files.items():
            click.echo(f"# --- {path}\n{text}", nl=False)
        return
    existing = [p for p in files if (directory / p).exists()]
    if existing and not force:
        raise CliExit(f"{', '.join(existing)} exist(s) in {directory}; pass --force to overwrite",
                      exit_codes.USAGE)
    for path in files:  # all or none: no half a configuration when one of the files cannot be written
        check_writable(directory / path, "")
    from ..files import write_atomically

    for path, text in files.items():
        target = directory / path
        with writing(target, ""):
            write_atomically(target, text)
        click.echo(str(target))
    status(f"Wrote the {kind} configuration; see docs/ci/{kind}.md for the secrets it needs")


def register(cli: click.Group) -> None:
    cli.add_command(ci)
