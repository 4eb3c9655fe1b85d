"""Test-output evidence: output the tests' expectations lose (``expected_output``: a help
screen's ``[NAME]`` now ``name``). The pages whose examples (code blocks) show it are planned for
review: what the program prints changed there, and how to show it now is a person's call."""

from __future__ import annotations

from typing import Iterable

from ..expected_output import OutputChange, example_lines, shown_at
from .docs import Docs
from .model import MIN_SHOWN, Add
from .pages import is_release_page

__all__ = ["plan_by_output"]

MAX_SHOWN_SHARE = 0.25  # of the pages: a changed output span shown on more of them tells none apart


def plan_by_output(outputs: Iterable[OutputChange], docs: Docs, add: Add) -> None:
    """Plan for review the pages whose examples (code blocks) show output the tests no longer
    expect: what the program prints changed there, and how to show it now is a person's call. A
    span shown on more than ``MAX_SHOWN_SHARE`` of the pages (``MIN_SHOWN`` at least) is the
    whole docs' and tells no page apart."""
    examples: dict[str, dict[int, str]] = {}
    shown: dict[str, list[tuple[OutputChange, int]]] = {}
    for change in outputs:
        found = {}
        for path in dict.fromkeys(docs.find(change.old)):
            if is_release_page(path):
                continue
            if path not in examples:
                examples[path] = example_lines(path, docs.read(path) or "")
            line = shown_at(examples[path], change.old)
            if line is not None:
                found[path] = line
        if len(found) <= max(MIN_SHOWN, docs.total * MAX_SHOWN_SHARE):
            for path, line in found.items():
                shown.setdefault(path, []).append((change, line))
    for path, changes in sorted(shown.items()):
        listed = "; ".join(f"{c.old!r} (line {line}) is now {c.new!r} in {c.path}" for c, line in changes[:3]) + \
            ("; …" if len(changes) > 3 else "")
        add(path, "related", 0.5, f"shows output the tests now expect otherwise: {listed} [tests' expected output]",
            None)
