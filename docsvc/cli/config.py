"""``docsvc config list`` [addition]: every setting with its value and where it came from."""

from __future__ import annotations

import click

from ..config import mask_key, user_config_path
from .context import settings
from .examples import examples
from .output import columns, emit, json_option


@examples("docsvc config list", "DOCSVC_BASE_URL=http://127.0.0.1:9000 docsvc config list --json")
@click.group()
def config() -> None:
    """[addition] The CLI's settings: flags, then environment, then ./docsvc.yaml, then the user config."""


@examples("docsvc config list", "docsvc --base-url http://127.0.0.1:9000 config list --json")
@config.command("list")
@json_option
def list_settings(as_json: bool) -> None:
    """[addition] Show each setting, its value (the key masked) and its source."""
    current = settings()
    rows = [
        {"name": "api_key", "value": mask_key(current.api_key), "source": current.source("api_key")},
        {"name": "base_url", "value": current.base_url, "source": current.source("base_url")},
        {"name": "integration_id", "value": current.integration_id, "source": current.source("integration_id")},
    ]
    data = {"settings": rows, "user_config": str(user_config_path())}

    def render(_) -> list[str]:
        table = [["NAME", "VALUE", "SOURCE"]] + [
            [r["name"], "-" if r["value"] is None else str(r["value"]), r["source"]] for r in rows]
        return columns(table) + [f"User config file: {data['user_config']}"]

    emit(data, as_json, render)


def register(cli: click.Group) -> None:
    cli.add_command(config)
