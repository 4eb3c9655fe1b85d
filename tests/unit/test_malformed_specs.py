"""Specs that parse but break the rules, anywhere: the converter and the validator answer, they do not crash.

A linter's whole job is the broken spec, and a converter is handed whatever a repository holds. Each
value of each fixture is replaced, one at a time, by values of the wrong kind (``parameters: true``,
``tags: [[]]``, ``required: [{}]``, ``paths: [null]``...); every such document must convert (or be
refused with a ``SpecError``) and be validated with every stage on. Each of these once stopped a job
with "Internal error: TypeError" (an empty ``examples`` list, a tag that is a list, ``schemes:
[null]``, a ``$ref`` that is a list, an operation ID that is a list...)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

import pytest

from docsvc.server.engines.convert import convert
from docsvc.server.engines.validate import run
from docsvc.specload import SpecError, load

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "openapi"
SPECS = ["openapi-3.0.yaml", "openapi-3.1.json", "swagger-2.0.json"]
WRONG_KINDS: list[Any] = [[], {}, None, True, [None], [{}]]


def _paths(node: Any, path: tuple = ()) -> Iterator[tuple]:
    yield path
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, path + (key,))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _paths(value, path + (index,))


def mutants(name: str) -> Iterator[tuple[str, str]]:
    """(what was changed, the document as JSON) for every value of the fixture and every wrong kind."""
    data = load((FIXTURES / name).read_text()).data
    for path in list(_paths(data))[1:]:
        for wrong in WRONG_KINDS:
            changed = copy.deepcopy(data)
            node = changed
            for part in path[:-1]:
                node = node[part]
            node[path[-1]] = copy.deepcopy(wrong)
            yield f"{'/'.join(map(str, path))} = {json.dumps(wrong)}", json.dumps(changed)


def crashes(variants: Iterable[tuple[str, str]], check: Callable[[str], object]) -> list[str]:
    """``check(text)`` on each variant: what raised anything but ``SpecError``, with what was changed."""
    crashed = []
    for what, text in variants:
        try:
            check(text)
        except SpecError:
            pass
        except Exception as exc:  # noqa: BLE001 - the point: no other exception escapes
            crashed.append(f"{what}: {type(exc).__name__}: {exc}")
    return crashed


@pytest.mark.parametrize("name", SPECS)
def test_every_malformed_variant_converts_or_is_refused(name):
    crashed = crashes(mutants(name), lambda text: convert("openapi", text, "md"))
    assert not crashed, f"{len(crashed)} crashed, first: {crashed[:3]}"


@pytest.mark.parametrize("name", SPECS)
def test_every_malformed_variant_is_validated(name):
    crashed = crashes(mutants(name), lambda text: run(text, file=name, run_ai_fix=True, run_ai_content=True))
    assert not crashed, f"{len(crashed)} crashed, first: {crashed[:3]}"


def test_malformed_yaml_variants_are_fixed_and_written_back():
    """The YAML spec through the write-back of ai-fix and ai-content (ruamel's round trip, ~0.2 s a
    document): a fixed sample of the variants, the same every run."""
    import random

    import yaml

    sample = random.Random(18).sample(list(mutants("openapi-3.0.yaml")), 30)
    crashed = crashes(sample, lambda text: run(yaml.safe_dump(json.loads(text), sort_keys=False),
                                               file="openapi.yaml", run_ai_fix=True, run_ai_content=True))
    assert not crashed, f"{len(crashed)} crashed, first: {crashed[:3]}"


def test_a_schema_with_an_empty_examples_list_converts():
    """Codat's Accounting description has one (``examples: []``): it converts, without an example."""
    spec = {"openapi": "3.1.0", "info": {"title": "T", "version": "1"}, "paths": {},
            "components": {"schemas": {"Thing": {"type": "object", "properties": {"a": {"type": "string"}},
                                                 "examples": []}}}}
    document = convert("openapi", json.dumps(spec), "md").document
    assert "Thing" in document
    assert "Example:" not in document
