"""Helm values to a parameters document (``convert.helm``).

The corpus tests build the table for each example chart of helm-docs v1.15 and for the test file
of Bitnami's readme-generator 2.7 and compare it, key by key, with the README those tools
generated (type, default and description; sections; Bitnami's order). The unit tests cover each
comment directive of both conventions, plain comments, nesting and lists, files with no comments,
empty files and values that are not a mapping. The documents are rendered by the real writers
and checked by the parsers of their formats.
"""

from __future__ import annotations

import html
import json
import re
import textwrap
import time
from pathlib import Path

import pytest

from docsvc import specload
from docsvc.server.engines.convert import helm
from docsvc.server.engines.convert.doc import Built, Code, CodeBlock, Heading, Link, Para, Strong, Table
from tests import formats

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "helm"
HELM_DOCS = CORPUS / "helm-docs"
BITNAMI = CORPUS / "bitnami-readme-generator"
needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason=f"the reference corpus is not at {CORPUS}")

# Where our table knowingly differs from helm-docs' README, per chart: key -> why.
ALLOWED_DIFFERENCES = {
    "umbrella": {
        # helm-docs merges the values of the chart's subcharts (its charts/ folder, not in the corpus
        # and not part of one values file) into the parent's table.
        "global": "a row from the subcharts' values",
        "global.myGlobalSubChartKey": "defined in a subchart's values",
        "sub-a.mySubKeyA": "defined in subchart sub-a's values",
        "sub-b.mySubKeyB": "defined in subchart sub-b's values",
    },
}


def build(text: str) -> Built:
    """``helm.build`` on a text loaded as the service loads it (an empty file has no data)."""
    text = textwrap.dedent(text)
    try:
        data = specload.load(text).data
    except specload.SpecError as exc:
        if "empty" not in str(exc):
            raise
        data = None
    return helm.build(text, data)


def flat(parts) -> str:
    """Inline parts back to the Markdown they stand for (a link as its text)."""
    out = []
    for part in parts:
        if isinstance(part, str):
            out.append(part)
        elif isinstance(part, Code):
            out.append(f"`{part.text}`")
        elif isinstance(part, Strong):
            out.append(f"**{part.text}**")
        else:
            out.append(part.text)
    return "".join(out)


def table(built: Built) -> dict[str, dict[str, str]]:
    """Our rows by key: type, default, description (as Markdown) and the section heading above."""
    rows, section = {}, ""
    for block in built.document.blocks:
        if isinstance(block, Heading):
            section = block.text
        elif isinstance(block, Table):
            assert block.header == ["Key", "Type", "Default", "Description"]
            for key, kind, default, description in block.rows:
                rows[flat(key).strip("`")] = {"type": flat(kind), "default": flat(default),
                                              "description": flat(description), "section": section}
    return rows


def norm(text: str) -> str:
    """Markdown cell text compared loosely: escapes, backticks, emphasis and link syntax and runs of
    whitespace do not count (external links become "text (address)", as the converter writes them)."""
    text = text.replace("\\|", "|")
    text = re.sub(r"\[([^\]]+)\]\(#[^)]*\)", r"\1", text)
    text = re.sub(r"\[([^\]]+)\]\(([^)\s]+)\)", r"\1 (\2)", text)
    return " ".join(text.replace("`", "").replace("**", "").split())


def markdown_tables(readme: str, header: str) -> dict[str, dict[str, str]]:
    """The rows of the README's tables that start with ``header``, with the ### section above."""
    rows: dict[str, dict[str, str]] = {}
    section, in_table = "", False
    for line in readme.splitlines():
        if line.startswith("#"):
            section, in_table = line.removeprefix("###").strip() if line.startswith("### ") else "", False
        elif re.sub(r"\s+", " ", line).startswith(header):
            in_table = True
        elif in_table and line.startswith("|") and not set(line) <= set("|- "):
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
            rows.setdefault(cells[0].strip("`"), {"cells": cells, "section": section})
        elif not line.startswith("|"):
            in_table = False
    return rows


def helm_docs_readme(readme: str) -> dict[str, dict[str, str]]:
    """helm-docs' Values table (Markdown; or the HTML one some custom templates write)."""
    rows = {key: {"type": row["cells"][1], "default": row["cells"][2], "description": row["cells"][3],
                  "section": row["section"]}
            for key, row in markdown_tables(readme, "| Key | Type | Default | Description |").items()}
    if rows:
        return rows
    for tr in re.findall(r"<tr>(.*?)</tr>", readme, re.S):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", tr, re.S)
        key = re.sub(r"<[^>]+>", "", cells[0]).strip()
        found = re.search(r'<pre lang="([^"]*)">\n?(.*?)</pre>', cells[2], re.S)
        lang, pre = found.groups() if found else ("", re.sub(r"<[^>]+>", "", cells[2]).strip())
        if not found:  # a template's own rendering, e.g. a mailto link for @notationType email
            default = pre[1:-1] if pre[:1] == pre[-1:] == '"' else pre
        elif lang == "json":  # pretty JSON of the backticked default; `nil` became null
            value = json.loads(pre)
            default = "nil" if value is None else json.dumps(value, separators=(",", ":"), ensure_ascii=False)
        elif lang == "tpl":  # "key: |" then the value indented by two
            default = textwrap.dedent(pre.split("\n", 1)[1])
        else:
            default = pre
        rows[key] = {"type": re.sub(r"<[^>]+>", "", cells[1]).strip(), "default": html.unescape(default),
                     "description": html.unescape(cells[3]), "section": ""}
    return rows


def charts() -> list[str]:
    return sorted(p.name for p in HELM_DOCS.iterdir() if (p / "values.yaml").is_file()) if CORPUS.is_dir() else []


# -- the corpus ---------------------------------------------------------------------------------------

@needs_corpus
@pytest.mark.parametrize("chart", charts())
def test_helm_docs_chart_matches_its_readme(chart: str):
    folder = HELM_DOCS / chart
    built = build((folder / "values.yaml").read_text(encoding="utf-8"))
    ours = table(built)
    if not (folder / "README.md").is_file():  # ignored-one, ignored-zero: values {} and no README
        assert ours == {} and built.stats == {"keys": 0, "sections": 0}
        return
    theirs = helm_docs_readme((folder / "README.md").read_text(encoding="utf-8"))
    allowed = ALLOWED_DIFFERENCES.get(chart, {})
    assert set(ours) ^ set(theirs) == set(allowed), f"keys differ beyond the allow-list: {set(ours) ^ set(theirs)}"
    sectioned = any(row["section"] for row in theirs.values())  # tables under ### headings
    for key in set(ours) & set(theirs):
        mine, expected = ours[key], theirs[key]
        assert mine["type"] == expected["type"], key
        assert norm(mine["default"]) == norm(expected["default"]), key
        assert norm(mine["description"]) == norm(expected["description"]), key
        if sectioned:
            assert mine["section"].lower() == expected["section"].lower(), key
    assert built.names == list(ours) and built.stats["keys"] == len(ours)
    if "helm-docs" not in flat(built.document.blocks[0].parts):
        return  # no comments at all (use-yaml-file): read as plain comments, in file order
    # helm-docs sorts by key within each section.
    for section in {row["section"] for row in ours.values()}:
        keys = [key for key, row in ours.items() if row["section"] == section]
        assert keys == sorted(keys)


@needs_corpus
def test_helm_docs_raw_description_keeps_its_lines():
    built = build((HELM_DOCS / "custom-value-notation-type" / "values.yaml").read_text(encoding="utf-8"))
    description = table(built)["sampleYaml"]["description"]
    assert description.startswith("Values with long description\nSometimes you need a very long description\n")
    assert "```yaml\nhello:\n  bar: true\n```" in description


@needs_corpus
def test_bitnami_test_values_match_the_expected_readme():
    built = build((BITNAMI / "test-values.yaml").read_text(encoding="utf-8"))
    ours = table(built)
    expected = markdown_tables((BITNAMI / "expected-readme.md").read_text(encoding="utf-8"),
                               "| Name | Description | Value |")
    assert list(ours) == list(expected)  # the same keys in the order of the @param comments
    for key, row in expected.items():
        _, description, value = row["cells"]
        assert norm(ours[key]["description"]) == norm(description), key
        assert norm(ours[key]["default"]) == norm(value), key
        assert ours[key]["section"] == row["section"], key
    assert built.names == list(expected)
    assert built.stats == {"keys": len(expected), "sections": 5}
    # stack.mode has a @param and the nullable modifier but no value: Bitnami shows nil, we warn.
    assert built.warnings == ["## @param stack.mode: the values have no such key"]


@needs_corpus
def test_bitnami_section_descriptions():
    blocks = build((BITNAMI / "test-values.yaml").read_text(encoding="utf-8")).document.blocks
    at = {block.text: i for i, block in enumerate(blocks) if isinstance(block, Heading)}
    example = blocks[at["Global parameters"] + 1: at["Global parameters"] + 3]
    assert example == [Para(["Example:"]), CodeBlock("yaml", "global:\n  imageRegistry: myRegistryName\n"
                                                              "  imagePullSecrets:\n    - myRegistryKeySecretName")]
    common = blocks[at["Common parameters"] + 1: at["Common parameters"] + 3]
    assert common[0] == Para(["This section contains parameters common to most of the Helm Charts in the wild as "
                              "they are mainly auto-generated by initializing a new Helm Chart directory."])
    # A link to a section of the page stays a link.
    assert common[1] == Para(["It even supports multiple lines and ", Link("Link parsing", "common-parameters"), "."])
    assert isinstance(blocks[at["Regression tests"] + 1], Table)  # no description, straight to the table


# -- helm-docs comments -------------------------------------------------------------------------------

def rows(text: str) -> dict[str, dict[str, str]]:
    return table(build(text))


def row(text: str, key: str) -> tuple[str, str, str]:
    found = rows(text)[key]
    return found["type"], found["default"], found["description"]


def test_helm_docs_description_above_continued_and_beside():
    found = rows("""\
        # -- Replicas
        # to run, at least 2
        replicaCount: 2
        image:
          tag: "1.0"  # -- Image tag (a comment beside counts when there is none above)
          repository: nginx
        """)
    assert found["replicaCount"]["description"] == "Replicas to run, at least 2"
    assert found["image.tag"]["description"] == "Image tag (a comment beside counts when there is none above)"
    assert found["image.repository"] == {"type": "string", "default": '`"nginx"`', "description": "",
                                         "section": "Parameters"}  # an undocumented leaf still has a row


def test_helm_docs_type_default_and_nil():
    found = rows("""\
        # -- (int) Port; null by default
        port:
        # -- Name
        name:
        # -- (tpl/object) Extra spec
        # @default -- computed from `.Values.port`
        extra: {}
        # -- Labels
        # @default -- `{"app": "x"}`
        labels: {}
        """)
    assert found["port"]["type"] == "int" and found["port"]["default"] == "`nil`"
    assert found["port"]["description"] == "Port; null by default"
    assert found["name"]["type"] == "string" and found["name"]["default"] == "`nil`"
    assert found["extra"]["type"] == "tpl/object" and found["extra"]["default"] == "computed from `.Values.port`"
    assert found["labels"]["default"] == '`{"app": "x"}`'  # the override's own code span


def test_helm_docs_defaults_are_compact_sorted_json():
    found = rows("""\
        # -- Map
        map: {b: 1, a: [1.0, 2.5, 1.0e-7, true, null], c: "<a href='x'>&</a>", d: "é\\n"}
        # -- Float
        ratio: 1.0
        """)
    assert found["map"]["default"] == '`{"a":[1,2.5,1e-7,true,null],"b":1,"c":"<a href=\'x\'>&</a>","d":"é\\n"}`'
    assert found["map"]["type"] == "object"
    assert found["ratio"]["type"] == "float" and found["ratio"]["default"] == "`1`"  # as Go's JSON writes 1.0


def test_helm_docs_sections_and_their_order():
    built = build("""\
        # -- A
        # @section -- Zeta
        a: 1
        # -- B
        b: 2
        # -- C
        # @section -- Alpha
        c: 3
        # -- D
        # @section -- Zeta
        d: 4
        """)
    headings = [(block.text, block.anchor) for block in built.document.blocks if isinstance(block, Heading)]
    # Sections come in the order of their first key (keys sorted); keys of no section come last.
    assert headings == [("Zeta", "zeta"), ("Alpha", "alpha"), ("Other values", "other-values")]
    assert {key: r["section"] for key, r in table(built).items()} == {
        "a": "Zeta", "d": "Zeta", "c": "Alpha", "b": "Other values"}
    assert built.stats == {"keys": 4, "sections": 3}


def test_helm_docs_raw_keeps_lines():
    _, _, description = row("""\
        # -- Resources
        # @raw
        # - requests: what is reserved
        # - limits: the most it may use
        resources: {}
        """, "resources")
    assert description == "Resources\n- requests: what is reserved\n- limits: the most it may use"
    _, _, description = row("# -- Resources\n# on two lines\nresources: {}\n", "resources")
    assert description == "Resources on two lines"


def test_helm_docs_notation_type():
    found = rows("""\
        # -- (tpl/array) Extra environment
        # @notationType -- tpl
        extraEnv: |
          - name: A
            value: {{ .Values.a | quote }}
        # -- Pod labels
        # @notationType -- yaml
        labels:
          app: "web"   # quoted as written
          tier: backend
        # -- Contact
        # @notationType -- email
        email: admin@example.test
        """)
    assert found["extraEnv"]["type"] == "tpl/array"
    assert found["extraEnv"]["default"] == "`- name: A\n  value: {{ .Values.a | quote }}\n`"  # the string itself
    assert found["labels"]["type"] == "yaml"
    assert found["labels"]["default"] == '`app: "web"   # quoted as written\ntier: backend`'  # as written
    assert found["email"]["type"] == "email" and found["email"]["default"] == "`admin@example.test`"


def test_helm_docs_ignore_drops_keys_children_and_list_items():
    built = build("""\
        # -- Kept
        kept: 1
        # @ignore
        internal:
          # -- not shown either
          port: 8080
        # @ignored
        spelled: true
        allIgnored:
          # @ignore
          one: 1
        users:
          # -- first
          - root
          # @ignore test users
          - test
          # -- third, numbered as the second
          - admin
        """)
    found = table(built)
    assert set(found) == {"kept", "allIgnored", "users[0]", "users[1]"}
    assert found["allIgnored"]["default"] == "`{}`"  # a map left empty is an empty map
    assert found["users[1]"]["description"] == "third, numbered as the second"
    assert found["users[1]"]["default"] == '`"admin"`'


def test_helm_docs_comments_that_name_their_key():
    built = build("""\
        # controller.name -- The name
        # over two lines
        # @section -- Names
        controller:
          name: web
          annotations:
            example.io/host: x
        # controller.annotations."example.io/host" -- Quoted because the key has dots
        other: 1
        # controller.missing.key -- Nothing has this key
        """)
    found = table(built)
    assert found["controller.name"]["description"] == "The name over two lines"
    assert found["controller.name"]["section"] == "Names"
    assert found['controller.annotations."example.io/host"']["description"] == "Quoted because the key has dots"
    assert built.warnings == ["a helm-docs comment names controller.missing.key, which the values do not have"]


def test_helm_docs_documented_maps_and_lists():
    found = rows("""\
        # -- Probe
        livenessProbe:
          httpGet:
            # -- Path probed
            path: /healthz
            port: 8080
        # -- Volumes
        volumes:
          - name: data
            emptyDir: {}
        ingress:
          hosts:
            - host: example.test
              paths: [/]
          tls: []
        databases:
          # -- main
          - app
          - {name: audit}  # -- audit log
        """)
    # A documented map: one row with its JSON; below it only documented keys.
    assert found["livenessProbe"]["default"] == '`{"httpGet":{"path":"/healthz","port":8080}}`'
    assert "livenessProbe.httpGet.path" in found and "livenessProbe.httpGet.port" not in found
    # A documented list: one row; an undocumented one is walked into.
    assert found["volumes"]["type"] == "list" and not any(key.startswith("volumes[") for key in found)
    assert {"ingress.hosts[0].host", "ingress.hosts[0].paths[0]", "ingress.tls"} <= set(found)
    assert found["ingress.tls"]["default"] == "`[]`"
    # Comments on list items document the items.
    assert found["databases[0]"]["description"] == "main"
    assert found["databases[1]"]["description"] == "audit log"
    assert found["databases[1]"]["type"] == "object"


def test_helm_docs_comment_must_touch_its_key():
    found = rows("""\
        # -- Documented
        a: 1

        # -- Not b's: a blank line is between
        
        b: 2
        # -- ignored, only the last "# --" group counts
        # -- C
        c: 3
        """)
    assert found["a"]["description"] == "Documented"
    assert found["b"]["description"] == ""
    assert found["c"]["description"] == "C"


def test_comment_lines_inside_strings_are_not_comments():
    found = rows("""\
        # -- Script
        script: |
          # -- a shell comment in the script, not a description
          echo hi
        next: 1
        quoted: "a
          # -- still the string"
        last: 2
        """)
    assert found["script"]["description"] == "Script"
    assert found["next"]["description"] == "" and found["last"]["description"] == ""


def test_keys_as_specload_makes_them_and_aliases_followed_once():
    found = rows("""\
        # -- Codes
        codes:
          200: ok
          true: yes
        base: &base
          # -- Shared
          size: 1
        copy: *base
        """)
    assert {"codes", "base.size", "copy.size"} <= set(found)
    assert found["codes"]["default"] == '`{"200":"ok","true":true}`'  # YAML 1.1: yes is true
    assert found["base.size"]["description"] == "Shared"
    assert found["copy.size"]["description"] == ""  # the alias has no comments of its own


# -- Bitnami's comments ---------------------------------------------------------------------------------

def test_bitnami_params_sections_and_order():
    built = build("""\
        ## @section Image
        ## @descriptionStart
        ## The image to run.
        ## @descriptionEnd
        ## @param image.tag Image tag
        ## @param image.repository Image repository
        image:
          repository: bitnami/nginx
          tag: 1.25.0
        ## @section Service
        ## @param service.port [default: 8080] Service port
        ## @param service.ports Ports, a list of strings
        ## @extra service.extra A value the chart reads without a default
        service:
          port: 80
          ports: ["80", "443"]
        """)
    assert list(table(built)) == ["image.tag", "image.repository", "service.port", "service.ports",
                                  "service.extra"]
    found = table(built)
    assert found["image.tag"] == {"type": "string", "default": "`1.25.0`", "description": "Image tag",
                                  "section": "Image"}
    assert found["service.port"]["default"] == "`8080`" and found["service.port"]["type"] == "int"
    assert found["service.ports"]["default"] == '`["80","443"]`'  # a list of strings is one key
    assert found["service.extra"] == {"type": "", "default": "", "description":
                                      "A value the chart reads without a default", "section": "Service"}
    blocks = built.document.blocks
    assert blocks[1] == Heading(2, "Image", "image") and blocks[2] == Para(["The image to run."])
    assert built.warnings == [] and built.stats == {"keys": 5, "sections": 2}


def test_bitnami_modifiers():
    found = rows("""\
        ## @section Modifiers
        ## @param webhook [object] A map shown as {}
        ## @param hosts [array] A list shown as []
        ## @param config [string] A long string shown as ""
        ## @param maybe [nullable] Null stays nil
        ## @param maybeString [nullable, string] string after nullable: ""
        ## @param stringMaybe [string, nullable] nullable last: the value stays
        ## @param registry [default: REGISTRY_NAME] A default of the chart's own
        webhook: {url: x}
        hosts: [a]
        config: |
          long
        maybe: null
        maybeString: null
        stringMaybe: null
        registry: docker.io
        """)
    assert [found[k]["default"] for k in found] == ["`{}`", "`[]`", '`""`', "`nil`", '`""`', "`nil`",
                                                    "`REGISTRY_NAME`"]
    assert [found[k]["type"] for k in found] == ["object", "list", "string", "string", "string", "string", "string"]


def test_bitnami_skip_missing_and_uncovered_keys():
    built = build("""\
        ## @section Main
        ## @param a Documented
        ## @param gone A parameter the values lack
        ## @param flags [object] Children of a modifier need no comment
        ## @param odd [unknown] Unknown modifier
        ## @skip internal
        a: "x"
        flags: {one: true}
        odd: 1
        internal:
          port: 1
          nested: {deep: true}
        forgotten:
          key: ""
        """)
    found = table(built)
    assert list(found) == ["a", "gone", "flags", "odd", "forgotten.key"]
    assert found["gone"]["default"] == ""
    assert found["forgotten.key"] == {"type": "string", "default": '`""`', "description": "",
                                      "section": "Other values"}
    assert built.warnings == ["## @param gone: the values have no such key",
                              "## @param odd: unknown modifier 'unknown'",
                              "forgotten.key has no ## @param comment"]


def test_bitnami_keys_with_dots_and_lists_of_objects():
    found = rows("""\
        ## @section Odd keys
        ## @param annotations.prometheus.io/scrape Scrape
        ## @param jobs[0].name First job
        annotations:
          prometheus.io/scrape: "true"
        jobs:
          - name: backup
        """)
    assert found["annotations.prometheus.io/scrape"]["default"] == "`true`"  # strings as they are
    assert found["jobs[0].name"]["default"] == "`backup`"


# -- plain comments and none -----------------------------------------------------------------------------

def test_plain_comments_above_and_beside():
    built = build("""\
        # Number of replicas
        replicaCount: 1

        ## Image settings
        ## (two lines)
        image:
          repository: nginx  # the registry path
          tag: ""
        # Not a description: a blank line follows

        resources: {}
          # limits:
          #   cpu: 100m
        nodeSelector: {}
        """)
    found = table(built)
    # File order; a commented map has its own row, and its leaves theirs.
    assert list(found) == ["replicaCount", "image", "image.repository", "image.tag", "resources", "nodeSelector"]
    assert found["replicaCount"]["description"] == "Number of replicas"
    assert found["image"]["description"] == "Image settings (two lines)"
    assert found["image"]["default"] == '`{"repository":"nginx","tag":""}`'
    assert found["image.repository"]["description"] == "the registry path"
    assert found["resources"]["description"] == ""
    # The commented-out YAML under resources is deeper than nodeSelector: not its description.
    assert found["nodeSelector"]["description"] == ""
    assert "comments above each key" in flat(built.document.blocks[0].parts)


def test_rules_and_line_ends_do_not_confuse_the_reading():
    # "# -----" rules are not helm-docs comments: the file is read as plain comments.
    found = rows("# ---------------\n# Replicas of the app\nreplicaCount: 1\n# -------\nname: x\n")
    assert found["replicaCount"]["description"] == "Replicas of the app"  # the rule is no description
    assert found["name"]["description"] == ""
    found = rows("a: 1\r\n# -- B\r\nb: 2\r\n")  # CR LF
    assert found["b"]["description"] == "B" and found["a"]["description"] == ""


def test_no_comments_at_all():
    built = build("""\
        replicaCount: 1
        image: {repository: nginx, tag: null}
        hosts:
          - host: a.test
            paths: []
        extra: {}
        """)
    assert table(built) == {
        "replicaCount": {"type": "int", "default": "`1`", "description": "", "section": "Parameters"},
        "image.repository": {"type": "string", "default": '`"nginx"`', "description": "", "section": "Parameters"},
        "image.tag": {"type": "string", "default": "`nil`", "description": "", "section": "Parameters"},
        "hosts[0].host": {"type": "string", "default": '`"a.test"`', "description": "", "section": "Parameters"},
        "hosts[0].paths": {"type": "list", "default": "`[]`", "description": "", "section": "Parameters"},
        "extra": {"type": "object", "default": "`{}`", "description": "", "section": "Parameters"},
    }
    assert built.names == list(table(built)) and built.stats == {"keys": 6, "sections": 1}


@pytest.mark.parametrize("text", ["", "# only a comment\n", "{}\n"])
def test_empty_values(text: str):
    built = build(text)
    assert built.stats == {"keys": 0, "sections": 0} and built.names == [] and built.warnings == []
    assert built.document.title == "Helm values"
    assert built.document.blocks == [Para(["The values file sets no values."])]


@pytest.mark.parametrize("text, data, kind", [("- a\n- b\n", ["a", "b"], "list"),
                                              ("just text\n", "just text", "string"), ("42\n", 42, "number")])
def test_values_that_are_not_a_mapping(text: str, data, kind: str):
    message = f"^a Helm values file must be a mapping of keys to values, not a {kind}$"
    with pytest.raises(specload.SpecError, match=message):
        helm.build(text, data)


def test_title():
    assert build("# Default values for mychart.\n# This is a YAML-formatted file.\n\na: 1\n").document.title == \
        "mychart Helm values"
    assert build("nameOverride: shop\n").document.title == "shop Helm values"
    assert build('nameOverride: ""\n').document.title == "Helm values"


def test_hostile_lines_take_linear_time():
    for text in ("# " + " " * 200_000 + "x\na: 1\n", "a: 1" + " " * 200_000 + "x\n",
                 "# -- " + "`" * 100_000 + "\na: 1\n", "# " + "a -" * 100_000 + "\na: 1\n",
                 "# -- x\n" + "# more\n" * 50_000 + "a: 1\n", "# a.b " + '"' * 100_000 + " -- x\na: 1\n"):
        started = time.monotonic()
        assert build(text).stats["keys"] == 1
        assert time.monotonic() - started < 5, text[:40]


def test_the_projects_own_chart():
    values = Path(__file__).resolve().parents[2] / "deploy" / "helm" / "docsvc-server" / "values.yaml"
    built = build(values.read_text(encoding="utf-8"))
    found = table(built)
    assert built.document.title == "docsvc-server Helm values" and built.warnings == []
    assert "podAnnotationsInternal" not in found  # @ignored
    assert {key for key, r in found.items() if r["section"] == "Service settings"} == {
        "settings.jobWorkers", "settings.maxBodyMb", "settings.keepInSyncSeconds", "settings.webhookRetentionDays",
        "settings.publicUrl", "settings.egressAllow", "settings.allowLocalRepos"}
    assert found["settings.publicUrl"]["default"] == "`http://127.0.0.1:8080`, which no code host can reach"
    assert found["extraEnv"]["description"].startswith("More environment variables of every pod")
    assert {key for key, r in found.items() if r["section"] == "Secrets"} == {
        "secrets.existingSecret", "secrets.databaseUrl", "secrets.smtpUrl"}
    assert found["secrets.existingSecret"]["description"].endswith("the chart then makes no Secret of its own")
    assert found["image.tag"]["default"] == "the chart's appVersion"
    assert found["resources"]["description"].startswith("CPU and memory requests and limits\nConverting")


# -- rendered ---------------------------------------------------------------------------------------------

CHECKERS = {
    "md": lambda text, tmp: formats.check_markdown(text),
    "docusaurus": lambda text, tmp: formats.check_mdx(text),
    "rst": lambda text, tmp: formats.check_rst(text),
    "sphinx": formats.check_sphinx,
    "adoc": formats.check_adoc,
}


def rendered_inputs() -> dict[str, Path]:
    inputs = {"project": Path(__file__).resolve().parents[2] / "deploy/helm/docsvc-server/values.yaml"}
    if CORPUS.is_dir():
        inputs["bitnami"] = BITNAMI / "test-values.yaml"
        inputs["notation"] = HELM_DOCS / "custom-value-notation-type" / "values.yaml"
        inputs["sections"] = HELM_DOCS / "sections" / "values.yaml"
    return inputs


@pytest.mark.parametrize("target", list(CHECKERS))
@pytest.mark.parametrize("name", list(rendered_inputs()))
def test_every_target_parses(name: str, target: str, tmp_path):
    from docsvc.server.engines.convert import writers

    built = build(rendered_inputs()[name].read_text(encoding="utf-8"))
    text = writers.render(built.document, target)
    page = html.unescape(CHECKERS[target](text, tmp_path))
    for key in built.names:  # every key reaches the page
        assert key in page, key
