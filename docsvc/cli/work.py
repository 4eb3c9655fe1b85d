"""``docsvc mywork``: the caller's own work summary in one line."""

from __future__ import annotations

import click

from .context import client
from .output import emit, json_option
from .examples import examples


@examples(
    'docsvc mywork',
    'docsvc mywork --json',
)
@click.command()
@json_option
def mywork(as_json: bool) -> None:
    """Print '<n> open · <n> blocked · <n> Docflows to review' for you."""
    summary = _work_summary()
    emit(summary, as_json, lambda s: f"{s['open']} open · {s['blocked']} blocked · {s['docflows']} Docflows to review")


_FIELDS = ("open", "blocked", "docflows", "changes_requested")  # WorkSummary's, in its order


def _work_summary() -> dict:
    """``client.me.work()`` as the dict ``WorkSummary.model_dump`` would make, without importing
    pydantic when the answer is plain (every count an int or absent): pydantic and the model are
    most of this one-request command's start. Any other answer goes through the model, so it is
    coerced or refused exactly as ``client.me.work()`` would."""
    api = client()
    response = api.request("me.work")
    data = api.parse(response)
    if isinstance(data, dict) and all(type(data.get(name, 0)) is int for name in _FIELDS):
        return {**{name: data.get(name, 0) for name in _FIELDS},
                **{key: value for key, value in data.items() if key not in _FIELDS}}
    from docsvc.models.me import WorkSummary

    return api.parse(response, cast=WorkSummary).model_dump(mode="json")


def register(cli: click.Group) -> None:
    cli.add_command(mywork)
