"""Rules on the ``info`` object and tags: ``info-license``, ``info-license-strict``,
``tag-description``, ``no-duplicated-tag-names``.
"""

from __future__ import annotations

import json

from ._linter import Linter, rule, _defined_and_non_empty, _js_value, _truthy


@rule("info-license")
def _info_license(lint: Linter) -> None:
    for v in lint.walk.visits("Info"):
        if not _truthy(v.node.get("license")):
            lint.report("info-license", "Info object should contain `license` field.", v.pointer)


@rule("info-license-strict")
def _info_license_strict(lint: Linter) -> None:
    for v in lint.walk.visits("License"):
        lic = v.node
        if not isinstance(lic, dict):
            continue
        if lint.version == "3.1":
            if "url" not in lic and "identifier" not in lic:
                lint.report("info-license-strict",
                            "License object should contain one of the fields: `url`, `identifier`.", v.pointer)
            for f in ("url", "identifier"):
                if f in lic and not _truthy(lic[f]):
                    lint.report("info-license-strict", f"License object `{f}` must be non-empty string.",
                                f"{v.pointer}/{f}")
        else:
            p = _defined_and_non_empty("License", "url", lic, v.pointer)
            if p:
                lint.report("info-license-strict", p.message, p.pointer)


@rule("tag-description")
def _tag_description(lint: Linter) -> None:
    for v in lint.walk.visits("Tag"):
        p = _defined_and_non_empty("Tag", "description", v.node, v.pointer)
        if p:
            lint.report("tag-description", p.message, p.pointer)


@rule("no-duplicated-tag-names")
def _no_duplicated_tag_names(lint: Linter) -> None:
    seen: set = set()
    for v in lint.walk.visits("Tag"):
        if not isinstance(v.node, dict):
            continue
        name = v.node.get("name")
        key = json.dumps(name, sort_keys=True)
        if key in seen:
            lint.report("no-duplicated-tag-names", f"Duplicate tag name found: '{_js_value(name)}'.", v.pointer)
        else:
            seen.add(key)
