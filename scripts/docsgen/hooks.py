"""MkDocs hooks (``hooks:`` in mkdocs.yml) that write the generated pages at build time.

Nothing they write is committed: each build reads the code again. ``on_config`` makes every page
and picture (so a generator's error stops the build before anything is read) and puts one nav
entry per CLI command where mkdocs.yml's nav names a command reference's index; ``on_files`` adds
the pages and pictures to the site's files.

- ``reference/cli/``: ``docsvc``'s click commands (``cli_reference``)
- ``reference/server-cli/``: ``docsvc-server``'s click commands
- ``reference/ci.md``: the CI inputs and outputs (``ci_reference``)
- ``reference/settings.md``: the local service's settings (``settings_reference``)
- ``reference/http-api.md``: the service's OpenAPI document through docsvc's converter (``api_reference``)
- ``reference/client.md``: mkdocstrings directives for the client (``client_reference``)
- ``reference/helm-chart.md``: the chart's README and its values through docsvc's Helm converter
- ``images/docflow-*.png``: a Docflows suggestion in a pull-request comment and a job summary (``pictures``)
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # scripts/: the docsgen package

from mkdocs.structure.files import File  # noqa: E402

from docsgen import (api_reference, ci_reference, cli_reference, client_reference, helm_reference,  # noqa: E402
                     pictures, settings_reference)

_generated: dict[str, str | bytes] = {}


def _pages() -> dict[str, str | bytes]:
    from docsvc.cli.main import cli
    from docsvc.server.admin import main as server_cli

    pages: dict[str, str | bytes] = {}
    pages.update(cli_reference.pages(
        cli, "docsvc", "reference/cli", "docsvc commands",
        "Every command of the `docsvc` CLI, read from its click commands at build time: usage, arguments "
        "and options with their defaults, and the examples each command's `--help` ends with."))
    pages.update(cli_reference.pages(
        server_cli, "docsvc-server", "reference/server-cli", "docsvc-server commands",
        "Every command of `docsvc-server`, the local service's administration CLI, read from its click "
        "commands at build time."))
    pages["reference/ci.md"] = ci_reference.page()
    pages["reference/settings.md"] = settings_reference.page()
    pages["reference/http-api.md"] = api_reference.page()
    pages["reference/client.md"] = client_reference.page()
    pages["reference/helm-chart.md"] = helm_reference.page()
    for name, png in pictures.shoot().items():
        pages[f"images/{name}"] = png
    return pages


def _expand(nav: list, pages: dict) -> list:
    """The nav, each entry naming a command reference's ``index.md`` made a section of its pages."""
    out = []
    for entry in nav:
        if isinstance(entry, dict):
            (title, value), = entry.items()
            if isinstance(value, list):
                out.append({title: _expand(value, pages)})
                continue
            if isinstance(value, str) and value.endswith("/index.md") and value in pages:
                folder = value.rsplit("/", 1)[0]
                commands = sorted(p for p in pages if p.startswith(folder + "/") and p != value)
                section = [{"Overview": value}]
                section += [{_title(pages[p]): p} for p in commands]
                out.append({title: section})
                continue
        out.append(entry)
    return out


def _title(markdown: str) -> str:
    return markdown.split("\n", 1)[0].lstrip("# ").strip("`")


def on_config(config, **kwargs):
    _generated.clear()
    _generated.update(_pages())
    if config.nav:
        config.nav = _expand(config.nav, _generated)
    return config


def on_files(files, config, **kwargs):
    for path, content in _generated.items():
        files.append(File.generated(config, path, content=content))
    return files
