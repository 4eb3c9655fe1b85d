"""``docsvc items``: list, tag, change status of, rename and delete work items of every tool."""

from __future__ import annotations

import click

from ..endpoints import TOOLS, WORK_STATUSES
from .. import exit_codes
from .context import CliExit, client, my_user_id
from .output import columns, emit, json_option, status, stdin_is_tty
from .examples import examples
from .params import ID

TOOL = click.Choice(TOOLS)


class TagValue(click.ParamType):
    """A tag value: a numeric ID, ``none`` (no tag), or ``me`` where the caller's id fits."""

    name = "tag"

    def __init__(self, allow_me: bool) -> None:
        self.allow_me = allow_me

    def convert(self, value, param, ctx):
        if isinstance(value, int):
            return value
        text = str(value).strip().lower()
        if text == "none" or (self.allow_me and text == "me"):
            return text
        if text.isdigit() and int(text) > 0:
            return ID.convert(text, param, ctx)  # within the service's MAX_ID
        allowed = "an ID, 'none' or 'me'" if self.allow_me else "an ID or 'none'"
        self.fail(f"expected {allowed}, got {value!r}", param, ctx)


RELEASE = TagValue(allow_me=False)
WRITER = TagValue(allow_me=True)


def _writer_id(value):
    return my_user_id() if value == "me" else value


def item_line(item) -> list[str]:
    """ID, title, release and writer tags if set, status, any open pull request."""
    tags = []
    if item.release_id is not None:
        tags.append(f"release:{item.release_name or item.release_id}")
    if item.writer_user_id is not None:
        tags.append(f"writer:{item.writer_name or item.writer_user_id}")
    pr = item.pull_request
    pr_text = ""
    if pr is not None and pr.url and (pr.state or "open") == "open":
        pr_text = f"PR {pr.url}" + (f" ({pr.review})" if pr.review else "")
    return [str(item.id), item.title, " ".join(tags), item.work_status or "", pr_text]


@examples(
    'docsvc items list docflows --status in_review',
    'docsvc items tag docflows 12 --release 3 --writer me',
)
@click.group()
def items() -> None:
    """Work items of the tools: feature-drafts, release-notes, captures, conversions, chats,
    api-scans, diagrams, docflows."""


def confirm(verb: str, what: str, yes: bool) -> None:
    """Ask before a destructive action; without a terminal to ask on, refuse unless --yes."""
    if yes:
        return
    if not stdin_is_tty():
        raise CliExit(f"refusing to {verb} {what} without confirmation: stdin is not a terminal; pass --yes",
                      exit_codes.USAGE)
    click.confirm(f"{verb.capitalize()} {what}?", abort=True, err=True)


@examples(
    'docsvc items list docflows',
    'docsvc items list feature-drafts --release none --writer me',
    'docsvc items list conversions --status todo --json',
)
@items.command("list")
@click.argument("tool", type=TOOL)
@click.option("--release", type=RELEASE, help="only items with this release ID, or 'none' for untagged")
@click.option("--writer", type=WRITER, help="only items with this writer ID, 'me', or 'none' for untagged")
@click.option("--status", "work_status", type=click.Choice(WORK_STATUSES), help="only items with this status")
@json_option
def list_items(tool: str, release, writer, work_status: str | None, as_json: bool) -> None:
    """List TOOL's items, newest first: ID, title, tags, status, open pull request."""
    rows = client().items.list(tool, release_id=release, writer_id=_writer_id(writer), status=work_status)
    emit(rows, as_json, lambda rs: columns([item_line(i) for i in rs]), empty=f"No {tool} items.")


def _show_item(item, as_json: bool) -> None:
    emit(item, as_json, lambda i: columns([item_line(i)]))


@examples(
    'docsvc items tag docflows 12 --release 3 --writer 7',
    'docsvc items tag captures 4 --writer none',
)
@items.command("tag")
@click.argument("tool", type=TOOL)
@click.argument("item_id", type=ID, metavar="ID")
@click.option("--release", type=RELEASE, help="release ID, or 'none' to clear")
@click.option("--writer", type=WRITER, help="writer's user ID, 'me', or 'none' to clear")
@json_option
def tag(tool: str, item_id: int, release, writer, as_json: bool) -> None:
    """Set or clear (none) an item's release and writer tags.

    The writer must belong to your organisation."""
    if release is None and writer is None:
        raise click.UsageError("give --release, --writer or both")
    changes = {}
    if release is not None:
        changes["release_id"] = None if release == "none" else release
    if writer is not None:
        changes["writer_user_id"] = None if writer == "none" else _writer_id(writer)
    _show_item(client().items.update(tool, item_id, **changes), as_json)


@examples(
    'docsvc items status docflows 12 in_progress --claim',
    "docsvc items status feature-drafts 5 blocked --note 'waiting for the API freeze'",
)
@items.command("status")
@click.argument("tool", type=TOOL)
@click.argument("item_id", type=ID, metavar="ID")
@click.argument("work_status", type=click.Choice(WORK_STATUSES), metavar="STATUS")
@click.option("--note", default=None, help="a note on the status")
@click.option("--claim", is_flag=True, help="become the item's writer first, then change the status")
@json_option
def set_status(tool: str, item_id: int, work_status: str, note: str | None, claim: bool, as_json: bool) -> None:
    """Change an item's work status: todo, in_progress, in_review, blocked, done, rejected.

    Only the item's writer or a System Administrator can; --claim makes you the writer in the
    same request. 'rejected' does not apply to chats."""
    if tool == "chats" and work_status == "rejected":
        raise click.BadParameter("'rejected' does not apply to chats", param_hint="STATUS")
    changes: dict = {"work_status": work_status}
    if note is not None:
        changes["status_note"] = note
    if claim:
        changes["writer_user_id"] = my_user_id()  # tags are applied before the status: one call
    _show_item(client().items.update(tool, item_id, **changes), as_json)


@examples(
    "docsvc items rename docflows 12 'Document the --retries option'",
    "docsvc items rename diagrams 3 'Login sequence'",
)
@items.command("rename")
@click.argument("tool", type=TOOL)
@click.argument("item_id", type=ID, metavar="ID")
@click.argument("title")
@json_option
def rename(tool: str, item_id: int, title: str, as_json: bool) -> None:
    """Rename an item."""
    if not title.strip():
        raise click.BadParameter("must not be empty", param_hint="TITLE")
    _show_item(client().items.update(tool, item_id, title=title), as_json)


@examples(
    'docsvc items delete chats 9',
    'docsvc items delete diagrams 3 --yes',
)
@items.command("delete")
@click.argument("tool", type=TOOL)
@click.argument("item_id", type=ID, metavar="ID")
@click.option("--yes", is_flag=True, help="do not ask for confirmation")
@json_option
def delete(tool: str, item_id: int, yes: bool, as_json: bool) -> None:
    """Delete an item after confirmation.

    Deleting a capture also deletes its screenshots, audio and video. Docflows suggestions are
    dismissed (status rejected), not deleted."""
    what = f"Docflows suggestion {item_id} (it will be dismissed)" if tool == "docflows" \
        else f"{tool} item {item_id}"
    api = client()  # the key first: without one, every command stops before it asks anything
    confirm("delete", what, yes)
    result = api.items.delete(tool, item_id)
    if as_json:
        emit(result, True, str)
    elif result.dismissed:
        status(f"Dismissed Docflows suggestion {item_id}: suggestions are dismissed, not deleted "
               "(status rejected)")
    else:
        status(f"Deleted {tool} item {item_id}")


def register(cli: click.Group) -> None:
    cli.add_command(items)
