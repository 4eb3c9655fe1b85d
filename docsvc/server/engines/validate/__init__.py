"""API-readiness validation of an OpenAPI document: structure, lint, mechanical fixes, generated text.

``run(text, ...)`` is the entry point the ``api-scans`` job calls:

* ``run_swagger`` — the official OpenAPI JSON Schemas (2.0, 3.0 2021-09-28, 3.1 2022-10-07 with
  its dialect) through ``jsonschema_rs``, plus openapi-spec-validator's semantic checks
  (:mod:`.structure`); rules ``struct`` and ``spec``, severity ``error``, source ``swagger``.
* ``run_redocly`` — Redocly CLI's ``recommended`` ruleset re-implemented rule by rule
  (:mod:`.rules`); Redocly's severities (``warn`` → ``warning``), source ``redocly``.
* ``run_ai_fix`` — mechanical fixes (:mod:`.fixes`) applied to a copy: ``corrected``, ``fixes``.
* ``run_ai_content`` — missing summaries/descriptions written from names and schemas
  (:mod:`.content`) into ``prepped``, each in ``generated`` with the rule that produced it.

``prepped`` and ``corrected`` of a YAML spec keep the file's form (:mod:`.writeback`): comments,
key order and quoting survive and only the changed lines differ, so a pull request shows the fixes.

Texts that do not load or are not OpenAPI raise ``specload.SpecError``.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import yaml

from .... import specload
from ....gcpause import cycle_collector_paused
from ....specload import SpecError
from . import content as _content
from . import fixes as _fixes
from . import rules as _rules
from . import structure as _structure
from . import writeback as _writeback
from .jsontext import dumps_indented, written_as_json
from .lines import lines_for
from .walker import Walk, version_family

__all__ = ["run", "ScanResult", "SpecError", "serialize"]


@dataclass
class ScanResult:
    findings: list[dict]
    syntax: str
    prepped: str
    corrected: str | None = None
    fixes: list[dict] = field(default_factory=list)
    generated: list[dict] = field(default_factory=list)
    stats: dict = field(default_factory=dict)


_Dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def serialize(data: Any, syntax: str, original: str | None = None) -> str:
    """The pre-processed form: JSON indented 2, or block YAML keeping key order, wide lines.
    ``original``: the JSON text ``data`` was read from, returned as is when it already is that form
    (see :mod:`.jsontext`)."""
    if syntax == "json":
        return dumps_indented(data, original)
    options = dict(sort_keys=False, allow_unicode=True, default_flow_style=False, width=1 << 30)
    out = yaml.dump(data, Dumper=_Dumper, **options)
    if _Dumper is not yaml.SafeDumper and "\\U" in out:
        # libyaml escapes characters outside the BMP (emoji) even with allow_unicode; the Python
        # emitter writes them as they are
        out = yaml.dump(data, Dumper=yaml.SafeDumper, **options)
    return out


def _written(text: str, syntax: str, read: Any, changed: Any) -> str:
    """``changed`` as text: a YAML spec keeps its own form (comments, order, quoting; only what
    changed is rewritten, ``writeback``), JSON and what cannot keep its form are serialised."""
    if syntax == "yaml":
        kept = _writeback.rewrite(text, read, changed)
        if kept is not None:
            return kept
    return serialize(changed, syntax)


def _copy(data: Any) -> Any:
    try:
        return json.loads(json.dumps(data))
    except (TypeError, ValueError, RecursionError):
        return copy.deepcopy(data)


def _severity(value: str) -> str:
    return "error" if value == "error" else "warning" if value in ("warn", "warning") else "notice"


def run(text: str, *, file: str | None = None, run_swagger=True, run_redocly=True, run_ai_fix=False,
        run_ai_content=False, parsed: list | None = None) -> ScanResult:
    """``parsed``: a list holding ``specload.load(text)`` done already (the service checks an
    uploaded spec when it is sent), so the text is not parsed twice; it is taken out of the list,
    so the tree can be let go here as it would be otherwise."""
    # The walk and the rules make millions of small objects and no cycles worth collecting (gcpause).
    with cycle_collector_paused():
        return _run(text, file, run_swagger, run_redocly, run_ai_fix, run_ai_content, parsed)


def _run(text: str, file: str | None, run_swagger, run_redocly, run_ai_fix, run_ai_content,
         parsed: list | None) -> ScanResult:
    loaded = parsed.pop() if parsed else specload.load(text)
    data = loaded.data
    if specload.detect_kind(data) != "openapi":
        raise SpecError("the document is not an OpenAPI description (no `openapi` or `swagger` field)")
    version = version_family(data)
    walk = Walk(data)
    raw: list[tuple[str, str, str, str, str]] = []  # (severity, rule, message, pointer, source)
    if run_swagger or run_redocly:
        source = "swagger" if run_swagger else "redocly"
        extra = _structure.redocly_struct_findings(walk)
        covered = {pointer for _, _, pointer in extra}
        for rule, message, pointer in _structure.schema_findings(data, version):
            if pointer not in covered:
                raw.append(("error", rule, message, pointer, source))
        for rule, message, pointer in extra:
            raw.append(("error", rule, message, pointer, source))
    if run_swagger:
        for rule, message, pointer in _structure.semantic_findings(walk):
            raw.append(("error", rule, message, pointer, "swagger"))
    unused = 0
    if run_redocly:
        for rule, severity, message, pointer in _rules.lint(walk):
            raw.append((_severity(severity), rule, message, pointer, "redocly"))
            unused += rule == "no-unused-components"
    del walk  # its visits (tens of MiB on large documents) are not needed past the rules

    generated: list[dict] = []
    prepped_data = data
    if run_ai_content:
        prepped_data = _copy(data)
        generated = _content.generate(prepped_data)
        counts = Counter(g["field"] for g in generated)
        for what, n in sorted(counts.items()):
            raw.append(("notice", "generated-content", f"Generated {n} missing `{what}` text(s) from names, paths "
                        "and schemas; each is marked `x-docsvc-generated` and listed in `generated`.", "", "content"))
    corrected_data = None
    fixes: list[dict] = []
    # raw index -> the pointer to find the line of, when not the finding's own: a fix's pointer names
    # its place in the corrected spec, but lines count in the text read, the file the user has
    located: dict[int, str] = {}
    if run_ai_fix:
        corrected_data = _copy(prepped_data)
        fixes, notices, origins = _fixes.apply(corrected_data)
        if run_redocly and unused:
            notices.append(_fixes.unused_components_notice(unused))
        for fix, origin in zip(fixes, origins):
            located[len(raw)] = origin
            raw.append(("notice", fix["rule"], f"Fixed: {fix['description']}", fix["pointer"], "fix"))
        for notice in notices:
            raw.append(("notice", notice["rule"], notice["description"], notice["pointer"], "fix"))

    syntax = loaded.syntax
    # the corrected text first: a YAML one is written over the text read, from the tree read
    corrected = None if corrected_data is None else _written(text, syntax, data, corrected_data)
    # Unchanged, the pre-processed spec is the input normalised (as it always was): a JSON text may
    # already be that form; then the data is let go before the text is copied (the copy and the
    # parsed tree are never both held), and the text has json.dumps(indent=2)'s layout, which makes
    # the line look-up a string search. Changed, it keeps its form.
    indented = syntax == "json" and prepped_data is data and written_as_json(data, text)
    if indented:
        del data, prepped_data, loaded
        prepped = text if text.endswith("\n") else text + "\n"
    elif prepped_data is data:
        prepped = serialize(data, syntax)
    else:
        prepped = _written(text, syntax, data, prepped_data)
    where = [located.get(i, r[3]) for i, r in enumerate(raw)]
    lines = lines_for(text, syntax, {w for w in where if w}, indented=indented)
    findings = [{"severity": sev, "rule": rule, "message": message, "pointer": pointer,
                 "line": lines.get(at) if at else None, "file": file, "source": source}
                for (sev, rule, message, pointer, source), at in zip(raw, where)]
    stats = {
        "severity": dict(Counter(f["severity"] for f in findings)),
        "rule": dict(Counter(f["rule"] for f in findings)),
        "source": dict(Counter(f["source"] for f in findings)),
        "version": version,
        "total": len(findings),
    }
    return ScanResult(findings=findings, syntax=syntax, prepped=prepped, corrected=corrected, fixes=fixes,
                      generated=generated, stats=stats)
