"""Redocly CLI's ``recommended`` ruleset (@redocly/cli 2.x), rule by rule, for OAS 2.0/3.0/3.1.

Rule names, severities, messages and report locations follow Redocly's rule sources
(``@redocly/openapi-core`` ``lib/rules``) and ``lib/config/recommended.js``; see ``RECOMMENDED``.
``struct`` is produced by :mod:`.structure` (the official JSON Schemas) instead of Redocly's type
tree. Each function takes the :class:`~.walker.Walk` and returns ``Problem`` tuples.
"""

from __future__ import annotations

from typing import Iterable

from ..walker import Walk
from . import components, composition, examples, info, operations, paths, schemas, servers  # noqa: F401  (each registers its rules)
from ._linter import Linter, Problem

__all__ = ["RECOMMENDED", "lint", "Problem"]

# rule -> severity per version family ("2.0", "3.0", "3.1"); "off" rules are omitted.
_COMMON = {
    "struct": "error", "no-unresolved-refs": "error",
    "info-license": "warn", "info-license-strict": "warn", "no-ambiguous-paths": "warn",
    "no-duplicated-enum-values": "warn", "no-duplicated-tag-names": "warn", "no-enum-type-mismatch": "error",
    "no-identical-paths": "error", "no-invalid-parameter-examples": "warn", "no-invalid-schema-examples": "warn",
    "no-path-trailing-slash": "error", "no-required-schema-properties-undefined": "warn",
    "no-schema-type-mismatch": "error", "no-unsafe-markdown": "warn", "operation-2xx-response": "warn",
    "operation-4xx-response": "warn", "operation-operationId": "warn", "operation-operationId-unique": "error",
    "operation-operationId-url-safe": "error", "operation-parameters-unique": "error",
    "operation-summary": "error", "path-declaration-must-exist": "error", "path-not-include-query": "error",
    "path-parameters-defined": "error", "security-defined": "error", "security-scopes-defined": "warn",
    "spec-ref-siblings": "warn", "tag-description": "warn",
}


_OAS3 = {
    "no-empty-servers": "error", "no-example-value-and-externalValue": "error",
    "no-illogical-composition-keywords": "warn", "no-invalid-media-type-examples": "warn",
    "no-server-example.com": "warn", "no-server-trailing-slash": "error", "no-server-variables-empty-enum": "error",
    "no-undefined-server-variable": "error", "no-unused-components": "warn",
    "spec-components-invalid-map-name": "error",
}


RECOMMENDED = {
    "2.0": dict(_COMMON),
    "3.0": {**_COMMON, **_OAS3, "nullable-type-sibling": "error"},
    "3.1": {**_COMMON, **_OAS3, "no-mixed-number-range-constraints": "warn"},
}


def lint(walk: Walk, rules: Iterable[str] | None = None) -> list[tuple[str, str, str, str]]:
    """(rule, severity, message, pointer) for the recommended rules of the walk's version."""
    table = RECOMMENDED[walk.version]
    chosen = [r for r in table if r != "struct"] if rules is None else [r for r in rules if r in table]
    problems = Linter(walk).run(chosen)
    return [(p.rule, table[p.rule], p.message, p.pointer) for p in problems]
