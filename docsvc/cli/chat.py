"""``docsvc chat``: ask the DocOps Assistant a question about your docs, read a saved chat."""

from __future__ import annotations

import click

from .. import exit_codes
from .context import CliExit, client
from .output import emit, json_option, status
from .examples import examples
from .progress import timeout_option, wait_for_job
from .params import ID


def render(chat) -> list[str]:
    """The answer, then one line per citation: ``[n] path:first-last  title``."""
    lines = [chat.answer or ""]
    if chat.citations:
        lines += ["", "Sources:"]
        lines += [f"  [{c.n}] {c.location}" + (f"  {c.title}" if c.title else "") for c in chat.citations]
    if chat.method:
        lines += ["", f"({chat.method})"]
    return lines


@examples(
    "docsvc chat ask 'How do I rotate an API key?'",
    'docsvc chat show 9',
)
@click.group()
def chat() -> None:
    """[addition] DocOps Assistant chats: questions answered from your organisation's indexed docs,
    citing each passage by path and lines. Chats are private: only you see yours."""


@examples(
    "docsvc chat ask 'How do I rotate an API key?'",
    "docsvc chat ask 'Which settings does sync read?' --json",
)
@chat.command("ask")
@click.argument("question")
@timeout_option("the answer is still saved as your chat")
@json_option
def ask(question: str, timeout: float | None, as_json: bool) -> None:
    """[addition] Ask QUESTION; waits, then prints the answer and its sources (path:line-line).

    Wraps POST /chats. The answer is extractive (sentences quoted from the docs, chosen by the
    question's words; no language model). The chat is saved: see it again with docsvc chat show ID."""
    if not question.strip():
        raise click.BadParameter("must not be empty", param_hint="QUESTION")
    api = client()
    ref = api.chats.create(question)
    result = wait_for_job(api, ref, "chat", timeout)
    if "chat_id" not in result:
        raise CliExit("chat: the service's result holds no chat", exit_codes.FAILED)
    answer = api.chats.get(result["chat_id"])  # the saved chat, as `chat show` prints it (title, dates...)
    if not as_json:
        status(f"Chat {answer.id} saved")
    emit(answer, as_json, render)


@examples(
    'docsvc chat show 9',
    'docsvc chat show 9 --json',
)
@chat.command("show")
@click.argument("chat_id", type=ID, metavar="ID")
@json_option
def show(chat_id: int, as_json: bool) -> None:
    """[addition] Show one of your chats: the question, the answer and its sources."""
    saved = client().chats.get(chat_id)
    emit(saved, as_json, lambda c: [f"Q: {c.question}", "", *render(c)])


def register(cli: click.Group) -> None:
    cli.add_command(chat)
