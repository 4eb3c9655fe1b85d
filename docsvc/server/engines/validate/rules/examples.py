"""Rules on examples, checked against their schemas as Redocly's Ajv does (``..examples``):
``no-invalid-schema-examples``, ``no-invalid-parameter-examples``,
``no-invalid-media-type-examples``, ``no-example-value-and-externalValue``.
"""

from __future__ import annotations

from typing import Any

from ..walker import esc, is_ref
from ._linter import Linter, rule, _schemas, _truthy


@rule("no-invalid-schema-examples")
def _no_invalid_schema_examples(lint: Linter) -> None:
    for v in _schemas(lint):
        s = v.node
        examples = s.get("examples")
        if isinstance(examples, list):
            for i, example in enumerate(examples):
                first = next(j for j, e in enumerate(examples) if e is example)
                lint.check_example("no-invalid-schema-examples", example, s, f"{v.pointer}/examples/{first}",
                                   f"{v.pointer}/schema", None)
        if "example" in s:
            if s.get("nullable") is True and s["example"] is None and "type" in s:
                continue
            lint.check_example("no-invalid-schema-examples", s["example"], s, f"{v.pointer}/example",
                               f"{v.pointer}/schema", None)


def _example_value(example: Any) -> tuple[Any, str] | None:
    if not isinstance(example, dict):
        return None
    if "dataValue" in example:
        return example["dataValue"], "dataValue"
    if "value" in example:
        return example["value"], "value"
    return None


@rule("no-invalid-parameter-examples")
def _no_invalid_parameter_examples(lint: Linter) -> None:
    for v in lint.walk.visits("Parameter"):
        p = v.node
        if not isinstance(p, dict):
            continue
        if "example" in p:
            lint.check_example("no-invalid-parameter-examples", p["example"], p.get("schema"), f"{v.pointer}/example",
                               f"{v.pointer}/schema", "request")
        if isinstance(p.get("examples"), dict):
            for key, example in p["examples"].items():
                selected = _example_value(example)
                if selected:
                    lint.check_example("no-invalid-parameter-examples", selected[0], p.get("schema"),
                                       f"{v.pointer}/examples/{esc(key)}/{selected[1]}", f"{v.pointer}/schema",
                                       "request")


@rule("no-invalid-media-type-examples")
def _no_invalid_media_type_examples(lint: Linter) -> None:
    for v in lint.walk.visits("MediaType"):
        mt = v.node
        if not isinstance(mt, dict) or "schema" not in mt:
            continue
        owner = None
        depth = -1
        for kind in ("Parameter", "RequestBody", "Response"):
            a = v.ancestors.get(kind)
            if a is not None and len(a.ancestors) > depth:
                owner, depth = kind, len(a.ancestors)
        if owner is None:
            continue
        api = "response" if owner == "Response" else "request"
        if "example" in mt:
            example, pointer = mt["example"], f"{v.pointer}/example"
            if is_ref(example):  # Redocly follows a $ref written as the example
                example, target = lint.resolve(example)
                if target is None:
                    continue
                pointer = target
            lint.check_example("no-invalid-media-type-examples", example, mt["schema"], pointer,
                               f"{v.pointer}/schema", api)
        elif isinstance(mt.get("examples"), dict):
            for name, example in mt["examples"].items():
                pointer = f"{v.pointer}/examples/{esc(name)}"
                if is_ref(example):
                    example, target = lint.resolve(example)
                    if example is None:
                        continue
                    pointer = target or pointer
                selected = _example_value(example)
                if not selected:
                    continue
                lint.check_example("no-invalid-media-type-examples", selected[0], mt["schema"],
                                   f"{pointer}/{selected[1]}", f"{v.pointer}/schema", api)


@rule("no-example-value-and-externalValue")
def _no_example_value_and_external(lint: Linter) -> None:
    for v in lint.walk.visits("Example"):
        if isinstance(v.node, dict) and _truthy(v.node.get("value")) and _truthy(v.node.get("externalValue")):
            lint.report("no-example-value-and-externalValue",
                        "Example object can have either `value` or `externalValue` fields.", f"{v.pointer}/value")
