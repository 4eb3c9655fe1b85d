"""Fixes written back keep the file's form: the corrected text of a commented YAML spec differs
from the original in the fixed lines only (comments, key order, quoting and flow style survive)."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest
import yaml

from docsvc.server.engines.validate import run
from docsvc.server.engines.validate.writeback import rewrite
from docsvc.specload import Locator, load

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def changes(before: str, after: str) -> tuple[list[int], list[str]]:
    """(1-based lines of ``before`` that were removed or replaced, the lines ``after`` added)."""
    removed, added = [], []
    a, b = before.splitlines(), after.splitlines()
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag != "equal":
            removed += range(i1 + 1, i2 + 1)
            added += b[j1:j2]
    return removed, added


@pytest.mark.parametrize("name", ["openapi/openapi-3.0.yaml", "validate/petstore-30.yaml",
                                  "validate/petstore-20.yaml", "validate/petstore-31.yaml"])
def test_a_real_spec_fixed_changes_only_the_fixed_lines(name):
    text = (FIXTURES / name).read_text(encoding="utf-8")
    scan = run(text, run_ai_fix=True)
    assert scan.fixes, "the fixture has something to fix"
    corrected = scan.corrected
    assert yaml.safe_load(corrected) != yaml.safe_load(text)
    removed, added = changes(text, corrected)
    locator = Locator(text)
    # a renamed key is found under its old name (a path's trailing slash)
    fixed_lines = {locator.line(fix["pointer"]) or locator.line(fix["pointer"] + "~1") for fix in scan.fixes}
    assert set(removed) <= fixed_lines, (removed, fixed_lines)  # a line that was there changes only if fixed
    comments = [line for line in text.splitlines() if line.lstrip().startswith("#")]
    assert [line for line in corrected.splitlines() if line.lstrip().startswith("#")] == comments
    assert not any(line.lstrip().startswith("#") for line in added)
    assert len(added) <= 12 * len(scan.fixes)  # each fix adds its own few lines, nothing is re-serialised


SPEC = """\
# The pets API: this comment, and every other one, must survive a fix.
openapi: "3.0.3"
info:
  title: 'Pets'   # single quotes stay single
  version: "1.0"  # double quotes stay double
servers:
  - url: https://pets.test/v1/   # the trailing slash is the fix
paths:
  # the trailing slash on this path is fixed too; its comment stays above it
  /pets/:
    get:
      tags: [pets, animals]   # flow style stays
      summary: List pets
      operationId: listPets
      responses:
        200:
          description: "The pets"
        '400': {description: Bad request}
"""


def test_comments_quoting_and_flow_style_survive_and_only_fixed_lines_change():
    scan = run(SPEC, run_ai_fix=True)
    rules = {fix["rule"] for fix in scan.fixes}
    assert {"no-server-trailing-slash", "no-path-trailing-slash"} <= rules
    removed, added = changes(SPEC, scan.corrected)
    assert removed == [7, 10]
    assert added == ["  - url: https://pets.test/v1    # the trailing slash is the fix",  # the comment keeps its column
                     "  /pets:",
                     "tags:",  # the tags the operations use, declared: new lines at the end
                     "  - name: pets", "    description: Operations about pets.",
                     "  - name: animals", "    description: Operations about animals."]
    assert scan.corrected.startswith(SPEC.split("servers:")[0])  # the quoted title and version as they were


def test_rewrite_changes_nothing_when_nothing_changed_and_checks_what_it_wrote():
    data = load(SPEC).data
    assert rewrite(SPEC, data, data) is SPEC
    changed = load(SPEC).data
    changed["paths"]["/pets/"]["get"]["responses"]["200"]["description"] = "All the pets"
    out = rewrite(SPEC, data, changed)
    assert load(out).data == changed
    assert changes(SPEC, out) == ([17], ['          description: "All the pets"'])
