"""OpenAPI (2.0, 3.0, 3.1) to a documentation Document: every operation once, links that land,
references rendered by reference (never inlined), bounded examples, and output that every target
format's own parser accepts."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from docsvc.server.engines.convert import convert
from docsvc.server.engines.convert.doc import (Admonition, BulletList, Code, CodeBlock, Heading, Link, Para,
                                               Strong, Table)
from docsvc.server.engines.convert.examples import Examples
from docsvc.server.engines.convert.openapi import build
from docsvc.specload import load

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "openapi"
NAMES = ("swagger-2.0.json", "openapi-3.0.yaml", "openapi-3.1.json")
TARGETS = ("md", "docusaurus", "rst", "sphinx", "adoc")


def fixture_text(name: str, syntax: str = "native") -> str:
    """A fixture as written, or re-encoded in the other syntax (JSON <-> YAML)."""
    text = (FIXTURES / name).read_text(encoding="utf-8")
    if syntax == "native":
        return text
    data = load(text).data
    if name.endswith(".json"):
        return yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
    return json.dumps(data, indent=1)


def built(name: str, syntax: str = "native"):
    return build(load(fixture_text(name, syntax)).data)


# -- looking into a Document --------------------------------------------------------------------

def inline_parts(block):
    if isinstance(block, (Para, Admonition)):
        yield from block.parts
    elif isinstance(block, Table):
        for row in block.rows:
            for cell in row:
                yield from cell
    elif isinstance(block, BulletList):
        for item in block.items:
            yield from item


def plain(parts) -> str:
    return "".join(p if isinstance(p, str) else p.text for p in parts)


def block_text(block) -> str:
    if isinstance(block, (Heading, CodeBlock)):
        return block.text
    if isinstance(block, Table):
        return "\n".join(" | ".join(plain(cell) for cell in row) for row in block.rows)
    if isinstance(block, BulletList):
        return "\n".join(plain(item) for item in block.items)
    return plain(block.parts)


def all_text(doc) -> str:
    return "\n".join(block_text(b) for b in doc.blocks)


def operation_lines(doc) -> list[str]:
    """The code span naming each operation (``GET /pets``), one per operation block."""
    out = []
    for block in doc.blocks:
        if isinstance(block, Para) and block.parts:
            first = block.parts[0]
            if isinstance(first, Code) and re.match(r"^[A-Z]+ /", first.text):
                out.append(first.text)
            elif isinstance(first, Strong) and first.text == "Webhook":
                out.append(block.parts[2].text)
    return out


def section(doc, anchor: str) -> list:
    """The blocks from the heading with ``anchor`` to the next heading of the same or a higher level."""
    blocks = doc.blocks
    start = next(i for i, b in enumerate(blocks) if isinstance(b, Heading) and b.anchor == anchor)
    level = blocks[start].level
    end = next((i for i in range(start + 1, len(blocks)) if isinstance(blocks[i], Heading)
                and blocks[i].level <= level), len(blocks))
    return blocks[start:end]


def op_section(doc, name: str) -> list:
    """The blocks of the operation called ``name`` (``GET /pets``): from its heading to the next one."""
    blocks = doc.blocks
    for i, block in enumerate(blocks):
        if isinstance(block, Para) and block.parts and isinstance(block.parts[0], Code) and block.parts[0].text == name:
            heading = blocks[i - 1]
            assert isinstance(heading, Heading)
            return section(doc, heading.anchor)
    raise AssertionError(f"no operation {name}")


def table_after(blocks, words: str) -> Table:
    for i, block in enumerate(blocks):
        if isinstance(block, Para) and words in plain(block.parts):
            return next(b for b in blocks[i + 1:] if isinstance(b, Table))
    raise AssertionError(f"no table after {words!r}")


def rows_by_name(table: Table) -> dict[str, list[str]]:
    return {plain(row[0]): [plain(cell) for cell in row] for row in table.rows}


def model(doc, name: str) -> list:
    return section(doc, next(b.anchor for b in doc.blocks if isinstance(b, Heading) and b.level == 3
                             and b.text == name and b.anchor.startswith("schema-")))


# -- every fixture, both syntaxes -------------------------------------------------------------------

EXPECTED = {
    "swagger-2.0.json": ["POST /pet", "GET /pet/findByStatus", "GET /pet/{petId}", "POST /pet/{petId}",
                         "DELETE /pet/{petId}", "POST /pet/{petId}/uploadImage", "GET /user/login", "GET /ping",
                         "GET /legacy"],
    "openapi-3.0.yaml": ["GET /pets", "POST /pets", "GET /pets/{petId}", "DELETE /pets/{petId}", "POST /store/orders",
                         "GET /store/inventory", "GET /tree", "GET /people/{id}", "GET /search"],
    "openapi-3.1.json": ["POST /subscriptions", "GET /subscriptions/{id}", "DELETE /subscriptions/{id}",
                         "GET /health", "PUT /files/{name}", "WEBHOOK newEvent POST", "WEBHOOK eventGone POST"],
}


@pytest.mark.parametrize("syntax", ["native", "other"])
@pytest.mark.parametrize("name", NAMES)
def test_every_operation_once_and_every_link_lands(name, syntax):
    result = built(name, syntax)
    doc = result.document
    assert result.names == EXPECTED[name]
    lines = operation_lines(doc)
    expected_lines = [n if not n.startswith("WEBHOOK ") else "{2} {1}".format(*n.split(" "))
                      for n in EXPECTED[name]]
    assert sorted(lines) == sorted(expected_lines)  # each once, under one tag
    anchors = [b.anchor for b in doc.blocks if isinstance(b, Heading) and b.anchor]
    assert len(anchors) == len(set(anchors))
    links = {p.anchor for b in doc.blocks for p in inline_parts(b) if isinstance(p, Link)}
    assert links and links <= set(anchors)
    assert result.stats["operations"] == len([n for n in EXPECTED[name] if not n.startswith("WEBHOOK")])


def test_json_and_yaml_give_the_same_document():
    for name in NAMES:
        assert built(name).document == built(name, "other").document


def test_stats():
    assert built("openapi-3.0.yaml").stats == {"operations": 9, "schemas": 14, "webhooks": 0, "tags": 2}
    assert built("openapi-3.1.json").stats == {"operations": 5, "schemas": 6, "webhooks": 2, "tags": 2}
    assert built("swagger-2.0.json").stats == {"operations": 9, "schemas": 5, "webhooks": 0, "tags": 2}


# -- 3.0 ------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def v30():
    return built("openapi-3.0.yaml")


def test_tags_group_operations_untagged_ones_under_default(v30):
    doc = v30.document
    groups = [b.text for b in doc.blocks if isinstance(b, Heading) and b.level == 2]
    assert groups[:5] == ["Servers", "Authentication", "pets", "store", "default"]
    assert "empty" not in groups  # a declared tag without operations
    assert {line for b in section(doc, "tag-default") for line in operation_lines_of(b)} == {
        "GET /tree", "GET /people/{id}", "GET /search"}
    # POST /pets has tags [pets, store]: described under pets, linked from store.
    assert "POST /pets" in [x for b in section(doc, "tag-pets") for x in operation_lines_of(b)]
    store = section(doc, "tag-store")
    assert "POST /pets" not in [x for b in store for x in operation_lines_of(b)]
    assert Link("POST /pets", "post-pets") in [p for b in store for p in inline_parts(b)]


def operation_lines_of(block):
    if isinstance(block, Para) and block.parts and isinstance(block.parts[0], Code) and " /" in block.parts[0].text:
        yield block.parts[0].text


def test_deprecated_operation_has_a_warning(v30):
    blocks = op_section(v30.document, "DELETE /pets/{petId}")
    assert any(isinstance(b, Admonition) and b.kind == "warning" and "Deprecated" in plain(b.parts) for b in blocks)
    assert not any(isinstance(b, Admonition) for b in op_section(v30.document, "GET /pets"))


def test_parameters_every_location_enum_default_example(v30):
    rows = rows_by_name(table_after(op_section(v30.document, "GET /pets"), "Parameters"))
    assert rows["limit"] == ["limit", "query", "integer (int32)", "yes", "20", "",
                             "How many items to return at one time (max 100) Example: 25."]
    assert rows["status"][1:6] == ["query", "string", "no", "available", "available, pending, sold"]
    assert rows["X-Request-ID"][1:4] == ["header", "string (uuid)", "yes"]
    assert rows["session"][1] == "cookie"
    # A $ref to a $ref: linked under the name of the shared parameter, resolved to the real one.
    assert rows["PageToken"][1:3] == ["query", "string"]
    assert "The page to fetch" in rows["PageToken"][6]


def test_path_level_parameters_merge_and_the_operation_wins(v30):
    rows = rows_by_name(table_after(op_section(v30.document, "GET /pets/{petId}"), "Parameters"))
    assert list(rows) == ["petId", "verbose"]
    assert rows["petId"][1:4] == ["path", "string", "yes"]
    assert rows["verbose"][4] == "true" and rows["verbose"][6] == "Operation-level verbose flag"
    # DELETE keeps the path-level verbose; its own petId comes through a pointer with ~1 and %7B.
    rows = rows_by_name(table_after(op_section(v30.document, "DELETE /pets/{petId}"), "Parameters"))
    assert rows["verbose"][6] == "Path-level; the operation overrides it"
    assert rows["petId"][6] == "The id of the pet to retrieve"


def test_request_body_media_types_schemas_and_examples(v30):
    blocks = op_section(v30.document, "POST /pets")
    text = "\n".join(block_text(b) for b in blocks)
    for media in ("application/json", "application/x-www-form-urlencoded", "text/plain"):
        assert f"Media type {media}" in text
    # A $ref schema is a link; an inline one a shallow table with dotted names two levels deep.
    assert any(isinstance(b, Para) and Link("Pet", "schema-pet") in b.parts and "application/json" in plain(b.parts)
               for b in blocks)
    form = rows_by_name(table_after(blocks, "application/x-www-form-urlencoded"))
    assert list(form) == ["name", "tag", "owner", "owner.name", "owner.address", "owner.address.city",
                          "owner.address.geo"]
    assert form["owner.address.geo"][1] == "object"  # deeper levels summarised
    assert form["name"][2] == "yes"
    # Named examples: one inline, one through components/examples; the text/plain one as given.
    codes = [b for b in blocks if isinstance(b, CodeBlock)]
    assert json.loads(codes[0].text)["name"] == "Tom" and json.loads(codes[1].text)["name"] == "Rex"
    assert any(b.text == "Tom the cat" for b in codes)


def test_responses_per_status_and_media_type(v30):
    blocks = op_section(v30.document, "GET /pets")
    statuses = [b.parts[0].text for b in blocks if isinstance(b, Para) and b.parts and isinstance(b.parts[0], Strong)
                and b.parts[0].text not in ("Parameters", "Responses", "Example request", "Security")]
    assert statuses == ["200", "default"]
    text = "\n".join(block_text(b) for b in blocks)
    assert "Media type application/json, schema: Pets" in text and "Media type application/xml, schema: Pets" in text
    headers = rows_by_name(table_after(blocks, "Headers"))
    assert headers["x-next"] == ["x-next", "string", "A link to the next page of responses"]
    # A shared response is a link to its one rendering.
    default = next(b for b in blocks if isinstance(b, Para) and b.parts and b.parts[0] == Strong("default"))
    assert Link("Error", "response-error") in default.parts
    shared = section(v30.document, "response-error")
    assert any(isinstance(b, Para) and Link("Error", "schema-error") in b.parts for b in shared)


def test_given_and_generated_examples(v30):
    doc = v30.document
    created = op_section(doc, "POST /pets")
    # The response's given example.
    i = next(i for i, b in enumerate(created) if isinstance(b, Para) and b.parts == [Strong("201"), ": Created"])
    example = next(b for b in created[i:] if isinstance(b, CodeBlock))
    assert json.loads(example.text) == {"id": 1, "name": "Tom", "petType": "cat", "huntingSkill": "lazy"}
    # Generated: from the schema, with a property's given example and the direction's readOnly rule.
    listed = op_section(doc, "GET /pets")
    generated = json.loads(next(b for b in listed if isinstance(b, CodeBlock) and b.language == "json").text)
    assert generated == [{"id": 0, "name": "Tom", "petType": "string", "tag": "string"}]
    labels = [plain(b.parts) for b in listed if isinstance(b, Para)]
    assert "Example (generated from the schema):" in labels
    problem = op_section(doc, "POST /pets")
    j = next(i for i, b in enumerate(problem) if isinstance(b, Para) and b.parts[:1] == [Strong("422")])
    assert json.loads(next(b for b in problem[j:] if isinstance(b, CodeBlock)).text) == {
        "title": "string", "errors": [{"field": "string", "message": "string"}]}


def test_security_global_per_operation_and_none(v30):
    doc = v30.document
    def security(name):
        return next(b for b in op_section(doc, name) if isinstance(b, Para) and b.parts[:1] == [Strong("Security")])
    assert Link("api_key", "security-api-key") in security("GET /pets").parts  # the global one
    own = security("POST /pets")
    assert Link("petstore_auth", "security-petstore-auth") in own.parts and Code("write:pets") in own.parts
    assert "none (no authentication)" in plain(security("DELETE /pets/{petId}").parts)
    either = op_section(doc, "GET /tree")
    items = next(b for b in either if isinstance(b, BulletList)).items
    assert [Link("api_key", "security-api-key")] in items
    auth = section(doc, "section-authentication")
    assert [b.text for b in auth if isinstance(b, Heading)][1:] == ["api_key", "petstore_auth"]
    scopes = rows_by_name(next(b for b in section(doc, "security-petstore-auth") if isinstance(b, Table)
                               and b.header[0] == "Scope"))
    assert scopes["read:pets"] == ["read:pets", "read your pets"]


def test_servers_with_variables(v30):
    blocks = section(v30.document, "section-servers")
    variables = rows_by_name(table_after(blocks, "Variables of"))
    assert variables["region"] == ["region", "eu", "eu, us", "Where the data lives"]
    assert variables["basePath"][1] == "v1"


def test_curl_sample(v30):
    def curl(name):
        blocks = op_section(v30.document, name)
        return next(b for b in blocks if isinstance(b, CodeBlock) and b.language == "bash").text
    listed = curl("GET /pets")
    assert listed.startswith("curl -X GET 'https://eu.pets.example.com/v1/pets?limit=25'")
    assert "-H 'X-Request-ID: 3fa85f64-5717-4562-b3fc-2c963f66afa6'" in listed  # a required header
    assert "-H 'X-API-Key: API_KEY'" in listed  # the api key scheme's header
    assert "status=" not in listed  # optional query parameters are left out
    created = curl("POST /pets")
    assert "-H 'Authorization: Bearer TOKEN'" in created and "-H 'Content-Type: application/json'" in created
    body = created.split("-d '", 1)[1].rsplit("'", 1)[0]
    assert json.loads(body)["name"] == "Tom"
    assert curl("DELETE /pets/{petId}") == "curl -X DELETE 'https://eu.pets.example.com/v1/pets/{petId}'"


def test_callbacks(v30):
    blocks = op_section(v30.document, "POST /pets")
    callback = next(b for b in blocks if isinstance(b, Heading) and b.level == 4)
    assert callback.text == "Pet created notification"
    i = blocks.index(callback)
    assert blocks[i + 1].parts[0] == Code("POST {$request.body#/callbackUrl}")
    # Callbacks are requests the API sends: no inherited security, no curl sample.
    after = blocks[i:]
    assert not any(isinstance(b, CodeBlock) and b.language == "bash" for b in after)
    assert not any(isinstance(b, Para) and b.parts[:1] == [Strong("Security")] for b in after)


def test_all_of_merges_properties_and_required(v30):
    doc = v30.document
    cat = model(doc, "Cat")
    assert any(isinstance(b, Para) and b.parts == ["Extends: ", Link("Pet", "schema-pet"), "."] for b in cat)
    rows = rows_by_name(next(b for b in cat if isinstance(b, Table)))
    assert list(rows) == ["id", "name", "petType", "tag", "owner", "huntingSkill"]
    assert rows["name"][2] == "yes" and rows["huntingSkill"][2] == "yes"
    assert "Values: clueless, lazy, adventurous, aggressive. Default: lazy." in rows["huntingSkill"][3]
    dog = rows_by_name(next(b for b in model(doc, "Dog") if isinstance(b, Table)))  # nested allOf
    assert dog["packSize"][1:3] == ["integer", "yes"]


def test_one_of_with_discriminator_mapping_and_any_of(v30):
    doc = v30.document
    any_pet = model(doc, "AnyPet")
    alternatives = next(b for b in any_pet if isinstance(b, BulletList))
    assert alternatives.items == [[Link("Cat", "schema-cat")], [Link("Dog", "schema-dog")]]
    assert any(isinstance(b, Para) and b.parts == ["Discriminator: ", Code("petType")] for b in any_pet)
    mapping = next(b for b in any_pet if isinstance(b, Table) and b.header == ["Value", "Schema"])
    assert mapping.rows == [[[Code("cat")], [Link("Cat", "schema-cat")]], [[Code("dog")], [Link("Dog", "schema-dog")]]]
    # A mapping to a plain schema name (Dog) links too.
    pet_mapping = next(b for b in model(doc, "Pet") if isinstance(b, Table) and b.header == ["Value", "Schema"])
    assert pet_mapping.rows[1] == [[Code("dog")], [Link("Dog", "schema-dog")]]
    order = next(b for b in model(doc, "Order") if isinstance(b, Table))
    pet = next(row for row in order.rows if row[0] == [Code("pet")])
    assert pet[1] == ["any of: ", Link("Cat", "schema-cat"), " | ", Link("Dog", "schema-dog"), " | ", "string"]
    search = op_section(doc, "GET /search")
    assert any(isinstance(b, Para) and b.parts[-5:] == ["array of ", "any of: ", Link("Pet", "schema-pet"), " | ",
                                                       Link("Order", "schema-order")] for b in search)


def test_circular_and_mutually_recursive_schemas(v30):
    doc = v30.document
    node = next(b for b in model(doc, "Node") if isinstance(b, Table))
    assert node.rows[1][1] == ["array of ", Link("Node", "schema-node")]
    person = next(b for b in model(doc, "Person") if isinstance(b, Table))
    company = next(b for b in model(doc, "Company") if isinstance(b, Table))
    assert person.rows[1][1] == [Link("Company", "schema-company")]
    assert company.rows[1][1] == ["array of ", Link("Person", "schema-person")]
    tree = json.loads(next(b for b in op_section(doc, "GET /tree") if isinstance(b, CodeBlock)
                           and b.language == "json").text)
    assert tree == {"name": "string", "children": [{}]}  # the $ref met again on its own path stops
    person_example = json.loads(next(b for b in op_section(doc, "GET /people/{id}") if isinstance(b, CodeBlock)
                                     and b.language == "json").text)
    assert person_example == {"name": "string", "employer": {"name": "string", "employees": [{}]}}


def test_refs_to_refs_and_escaped_pointers(v30):
    doc = v30.document
    assert any(isinstance(b, Para) and b.parts == ["Same as ", Link("PetAlias2", "schema-petalias2"), "."]
               for b in model(doc, "PetAlias"))
    label = next(b for b in model(doc, "Labelled") if isinstance(b, Table))
    assert label.rows[0][1] == [Link("a/b", "schema-a-b")]  # #/components/schemas/a~1b


def test_external_refs_stay_visible_and_are_warned_once(v30):
    doc = v30.document
    assert v30.warnings == [
        "unresolved external $ref 'other.yaml#/Owner': another file or a URL is not loaded, so it is shown as a "
        "reference",
        "unresolved external $ref 'common.yaml#/components/schemas/Problem': another file or a URL is not loaded, "
        "so it is shown as a reference",
        "unresolved external $ref 'https://example.com/responses.yaml#/Gone': another file or a URL is not loaded, "
        "so it is shown as a reference",
    ]
    codes = {p.text for b in doc.blocks for p in inline_parts(b) if isinstance(p, Code)}
    assert {"other.yaml#/Owner", "common.yaml#/components/schemas/Problem",
            "https://example.com/responses.yaml#/Gone"} <= codes


def test_shared_components_rendered_once_where_referenced(v30):
    doc = v30.document
    headings = [(b.level, b.text) for b in doc.blocks if isinstance(b, Heading)]
    assert (2, "Shared parameters") in headings and (2, "Shared request bodies") in headings
    assert headings.count((3, "PageToken")) == 1 and headings.count((3, "OrderBody")) == 1
    assert headings.count((3, "NotFound")) == 1
    order = op_section(doc, "POST /store/orders")
    assert any(isinstance(b, Para) and Link("OrderBody", "request-body-orderbody") in b.parts for b in order)
    assert "PageTokenReal" not in [t for _, t in headings]  # only what an operation refers to


def test_models_section_renders_each_component_once(v30):
    doc = v30.document
    models = section(doc, "section-models")
    names = [b.text for b in models if isinstance(b, Heading) and b.level == 3]
    assert names == ["Pet", "Cat", "Dog", "AnyPet", "PetAlias", "PetAlias2", "Pets", "Order", "Node", "Person",
                     "Company", "a/b", "Labelled", "Error"]
    # An operation never repeats a component's properties: it links.
    listed = op_section(doc, "GET /pets/{petId}")
    assert not any(isinstance(b, Table) and b.header[0] == "Name" and b.header[1] == "Type" for b in listed)


# -- 3.1 ------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def v31():
    return built("openapi-3.1.json")


def test_webhooks(v31):
    doc = v31.document
    hooks = section(doc, "section-webhooks")
    assert [b.text for b in hooks if isinstance(b, Heading) and b.level == 3] == ["A new event", "An event was deleted"]
    assert [x for x in operation_lines(doc) if not x.startswith(("GET", "PUT", "DELETE")) or "/" not in x][-2:] == [
        "POST newEvent", "POST eventGone"]
    assert not any(isinstance(b, CodeBlock) and b.language == "bash" for b in hooks)
    assert any(isinstance(b, Para) and Link("Event", "schema-event") in b.parts for b in hooks)


def test_31_type_arrays_const_examples_and_ref_siblings(v31):
    doc = v31.document
    rows = rows_by_name(next(b for b in model(doc, "Subscription") if isinstance(b, Table)))
    assert rows["secret"][1] == "string | null" and "Write-only." in rows["secret"][3]
    assert rows["version"][1] == "const 2"
    assert rows["meta"][1:] == ["Meta", "no", "A $ref with a sibling description (3.1)"]
    event = op_section(doc, "POST /subscriptions")
    request = json.loads(next(b for b in event if isinstance(b, CodeBlock) and b.language == "json").text)
    assert "id" not in request and request["secret"] == "string"  # readOnly out of a request
    assert request["kinds"] == ["created"]  # the schema's 3.1 examples list
    health = op_section(doc, "GET /health")
    assert any(isinstance(b, CodeBlock) and b.text == "ok" and b.language == "text" for b in health)
    # A local pointer that leads nowhere is shown and warned about.
    assert v31.warnings == ["unresolved $ref '#/$defs/NotSupported': nothing in the document is at that pointer"]


def test_path_item_and_callback_refs(v31):
    doc = v31.document
    assert "GET /subscriptions/{id}" in operation_lines(doc)
    blocks = op_section(doc, "POST /subscriptions")
    assert any(isinstance(b, Heading) and b.text == "Event delivery" for b in blocks)


def test_optional_auth_and_http_schemes(v31):
    blocks = op_section(v31.document, "PUT /files/{name}")
    items = next(b for b in blocks if isinstance(b, BulletList)).items
    assert items == [[Link("basic", "security-basic")], ["no authentication (optional)"]]
    curl = next(b for b in blocks if isinstance(b, CodeBlock) and b.language == "bash").text
    assert "-u 'USERNAME:PASSWORD'" in curl and "--data-binary @body" in curl


# -- 2.0 ------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def v20():
    return built("swagger-2.0.json")


def test_swagger_servers_and_security_definitions(v20):
    doc = v20.document
    servers = next(b for b in section(doc, "section-servers") if isinstance(b, Table))
    assert [plain(r[0]) for r in servers.rows] == ["https://petstore.example.com/v2", "http://petstore.example.com/v2"]
    auth = section(doc, "section-authentication")
    assert [b.text for b in auth if isinstance(b, Heading)][1:] == ["petstore_auth", "api_key", "basic"]


def test_swagger_body_and_form_data_become_the_request_body(v20):
    doc = v20.document
    added = op_section(doc, "POST /pet")
    assert any(isinstance(b, Para) and b.parts[:2] == [Strong("Request body"), " (required)"] for b in added)
    assert any(isinstance(b, Para) and Link("Pet", "schema-pet") in b.parts and "application/json" in plain(b.parts)
               for b in added)
    assert not any(isinstance(b, Para) and b.parts == [Strong("Parameters")] for b in added)
    form = op_section(doc, "POST /pet/{petId}")
    rows = rows_by_name(table_after(form, "form fields"))
    assert rows["name"][1:3] == ["string", "yes"] and "Values: available, sold." in rows["status"][3]
    params = rows_by_name(table_after(form, "Parameters"))
    assert list(params) == ["petId"]  # formData is not a parameter row
    curl = next(b for b in form if isinstance(b, CodeBlock)).text
    assert "--data-urlencode 'name=string'" in curl
    upload = next(b for b in op_section(doc, "POST /pet/{petId}/uploadImage") if isinstance(b, CodeBlock)
                  and b.language == "bash").text
    assert "-F 'file=@file.bin'" in upload


def test_swagger_parameters_responses_and_examples(v20):
    doc = v20.document
    found = op_section(doc, "GET /pet/findByStatus")
    rows = rows_by_name(table_after(found, "Parameters"))
    assert rows["status"][1:6] == ["query", "array of string (multi)", "yes", "", "available, pending, sold"]
    assert rows["limitParam"][1:5] == ["query", "integer", "no", "20"]
    assert any(isinstance(b, Para) and Link("BadRequest", "response-badrequest") in b.parts for b in found)
    added = op_section(doc, "POST /pet")
    given = next(b for i, b in enumerate(added) if isinstance(b, CodeBlock) and isinstance(added[i - 1], Para)
                 and added[i - 1].parts == ["Example (", Code("application/json"), "):"])
    assert json.loads(given.text) == {"id": 10, "name": "doggie", "status": "available"}
    curl = next(b for b in added if isinstance(b, CodeBlock) and b.language == "bash").text
    assert curl.startswith("curl -X POST 'https://petstore.example.com/v2/pet'")
    login = next(b for b in op_section(doc, "GET /user/login") if isinstance(b, CodeBlock) and b.language == "bash")
    assert "api_key=API_KEY" not in login.text  # security: [] on the operation
    listed = next(b for b in op_section(doc, "GET /pet/findByStatus") if isinstance(b, CodeBlock)
                  and b.language == "bash").text
    assert "?status=available&api_key=API_KEY" in listed
    assert any(isinstance(b, CodeBlock) and b.text == "pong" for b in op_section(doc, "GET /ping"))
    assert any(isinstance(b, Para) and b.parts == ["Discriminator: ", Code("petType")] for b in model(doc, "Pet"))
    assert v20.warnings == ["unresolved external $ref 'definitions.json#/Legacy': another file or a URL is not "
                            "loaded, so it is shown as a reference"]


# -- references, unit by unit ---------------------------------------------------------------------

def minimal(**extra) -> dict:
    spec = {"openapi": "3.0.3", "info": {"title": "T", "version": "1"}, "paths": {}}
    spec.update(extra)
    return spec


def test_pointer_escapes_and_circular_ref_chains():
    spec = minimal(paths={"/x": {"get": {"responses": {
        "200": {"description": "ok", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/A"}}}},
        "201": {"description": "ok", "content": {"application/json": {"schema": {"$ref": "#/x~0y/a~1b"}}}}}}}},
        components={"schemas": {"A": {"$ref": "#/components/schemas/B"}, "B": {"$ref": "#/components/schemas/A"}}})
    spec["x~y"] = {"a/b": {"type": "integer", "example": 7}}
    result = build(spec)
    assert len(result.warnings) == 1 and "circular $ref chain" in result.warnings[0]
    blocks = op_section(result.document, "GET /x")
    assert any(isinstance(b, CodeBlock) and b.text == "7" for b in blocks)
    assert any(isinstance(b, Para) and "schema: integer" in plain(b.parts) for b in blocks)


def test_long_chains_of_refs_do_not_exhaust_the_stack():
    count = 5000
    schemas = {f"A{i}": {"allOf": [{"$ref": f"#/components/schemas/A{i + 1}"}],
                         "properties": {f"p{i}": {"type": "integer"}}} for i in range(count)}
    schemas.update({f"O{i}": {"oneOf": [{"$ref": f"#/components/schemas/O{i + 1}"}, {"type": "null"}]}
                    for i in range(count)})
    spec = minimal(paths={"/a": {"post": {
        "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/A0"}}}},
        "responses": {"200": {"description": "ok", "content": {"application/json": {
            "schema": {"$ref": "#/components/schemas/O0"}}}}}}}}, components={"schemas": schemas})
    result = build(spec)
    assert result.names == ["POST /a"] and result.stats["schemas"] == 2 * count


def test_a_document_without_paths_or_components():
    result = build({"swagger": "2.0", "info": {"title": "Empty", "version": "0"}})
    assert result.names == [] and result.stats == {"operations": 0, "schemas": 0, "webhooks": 0, "tags": 0}
    assert result.document.title == "Empty"
    result = build(minimal(paths={"/a": {"get": {}}}))  # no responses at all
    assert result.names == ["GET /a"]


def test_yaml_aliases_share_objects_without_trouble():
    text = """
openapi: 3.0.0
info: {title: Aliases, version: '1'}
paths:
  /a:
    get:
      parameters: &params
        - {name: q, in: query, schema: {type: string}}
      responses: &ok {'200': {description: ok}}
  /b:
    get:
      parameters: *params
      responses: *ok
"""
    result = build(load(text).data)
    assert result.names == ["GET /a", "GET /b"]


def test_descriptions_become_paragraphs_lists_code_and_alerts():
    from docsvc.server.engines.convert.openapi.common import _text_blocks
    blocks = _text_blocks("First  line\nsame paragraph.\n\n- one\n- two\n  continued\n\n```json\n{\"a\": 1}\n```\n"
                          "> [!WARNING]\n> Careful.\n\n> quoted")
    assert blocks == [Para(["First line same paragraph."]), BulletList([["one"], ["two continued"]]),
                      CodeBlock("json", '{"a": 1}'), Admonition("warning", ["Careful."]), Para(["quoted"])]


# -- examples -------------------------------------------------------------------------------------

def test_examples_are_bounded_in_depth_and_breadth():
    schemas = {f"S{i}": {"type": "object", "properties": {
        **{f"p{j}": {"type": "string"} for j in range(30)},
        "next": {"$ref": f"#/components/schemas/S{i + 1}"},
        "list": {"type": "array", "items": {"$ref": f"#/components/schemas/S{i + 1}"}}},
        "required": ["next"]} for i in range(20)}
    spec = minimal(components={"schemas": schemas})
    from docsvc.server.engines.convert.openapi import _Builder
    value = Examples(_Builder(spec).resolve).build({"$ref": "#/components/schemas/S0"})
    assert len(value) == 12 and "next" in value  # required first, then at most 12 properties

    def depth(v):
        if isinstance(v, dict):
            return 1 + max((depth(x) for x in v.values()), default=0)
        if isinstance(v, list):
            return 1 + max((depth(x) for x in v), default=0)
        return 0
    assert depth(value) <= 5
    assert len(json.dumps(value)) < 5_000


def test_examples_of_a_component_are_built_once():
    calls = []
    target = {"type": "object", "properties": {"a": {"type": "integer"}}}

    def resolve(ref):
        calls.append(ref)
        return target, ref
    examples = Examples(resolve)
    first = examples.build({"$ref": "#/components/schemas/A"})
    assert examples.build({"$ref": "#/components/schemas/A"}) is first and calls == ["#/components/schemas/A"]
    ref = {"$ref": "#/components/schemas/A"}
    assert examples.json_text(ref) is examples.json_text(dict(ref))


def test_examples_formats_enums_and_merges():
    resolve = lambda ref: (None, None)  # noqa: E731
    examples = Examples(resolve)
    assert examples.build({"type": "string", "format": "date-time"}) == "2024-01-31T12:00:00Z"
    assert examples.build({"type": "string", "enum": [None, "b"]}) == "b"
    assert examples.build({"type": "integer", "minimum": 5}) == 5
    assert examples.build({"type": ["null", "boolean"]}) is True
    assert examples.build({"allOf": [{"properties": {"a": {"type": "integer"}}},
                                     {"properties": {"b": {"type": "boolean"}}}]}) == {"a": 0, "b": True}
    assert examples.build({"oneOf": [{"type": "null"}, {"type": "number"}]}) == 0.0
    assert examples.build({"type": "object", "additionalProperties": {"type": "integer"}}) == {"key": 0}
    assert examples.build({"properties": {"r": {"type": "string", "readOnly": True}}}, "request") == {}
    assert examples.build({"properties": {"w": {"type": "string", "writeOnly": True}}}, "response") == {}
    assert examples.build({"$ref": "elsewhere.yaml#/X"}) == {}


# -- a schema graph like Stripe's ------------------------------------------------------------------

def stripe_like(count: int = 30, fan: int = 5) -> dict:
    """``count`` schemas, each with an ``anyOf`` over ``fan`` others in several properties: inlined as
    a tree this grows like fan^depth; rendered by reference it stays linear."""
    schemas = {}
    for i in range(count):
        alternatives = [{"$ref": f"#/components/schemas/S{(i + k) % count}"} for k in range(1, fan + 1)]
        schemas[f"S{i}"] = {
            "type": "object", "description": f"Schema {i}",
            "properties": {
                "id": {"type": "string"},
                "one": {"anyOf": alternatives},
                "many": {"type": "array", "items": {"anyOf": alternatives}},
                "nested": {"type": "object", "properties": {"deep": {"anyOf": alternatives + [{"type": "string"}]}}},
                "merged": {"allOf": alternatives[:2]},
            },
            "required": ["id", "one"],
        }
    paths = {f"/s{i}": {"get": {"responses": {"200": {"description": "ok", "content": {"application/json": {
        "schema": {"$ref": f"#/components/schemas/S{i}"}}}}}},
        "post": {"requestBody": {"content": {"application/json": {"schema": {"anyOf": [
            {"$ref": f"#/components/schemas/S{(i + 1) % count}"}, {"$ref": f"#/components/schemas/S{i}"}]}}}},
            "responses": {"200": {"description": "ok"}}}} for i in range(count)}
    return minimal(paths=paths, components={"schemas": schemas})


def test_a_deeply_self_referencing_graph_converts_in_bounded_size():
    spec = stripe_like()
    result = build(spec)
    assert result.stats["schemas"] == 30 and len(result.names) == 60
    text = all_text(result.document)
    assert len(text) < 1_000_000
    out = convert("openapi", json.dumps(spec), "md")
    assert len(out.document) < 2_000_000
    for name in out.names:
        assert name in out.document


# -- every target format, through its own parser --------------------------------------------------

def present(text: str, name: str, target: str) -> bool:
    if target == "adoc":
        text = text.replace("&#123;", "{").replace("&#125;", "}")
    if name.startswith("WEBHOOK "):
        _, hook, method = name.split(" ")
        name = f"{method} {hook}"
    return name in text


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("name", NAMES)
def test_every_fixture_renders_to_every_format(name, target, tmp_path):
    formats = pytest.importorskip("tests.formats")
    result = convert("openapi", fixture_text(name), target)
    assert result.names == EXPECTED[name]
    missing = [n for n in result.names if not present(result.document, n, target)]
    assert not missing
    check = {"md": formats.check_markdown, "docusaurus": formats.check_mdx, "rst": formats.check_rst,
             "sphinx": lambda text: formats.check_sphinx(text, tmp_path),
             "adoc": lambda text: formats.check_adoc(text, tmp_path)}[target]
    html = check(result.document)
    assert "Pet" in html or "Subscribe" in html


@pytest.mark.parametrize("target", TARGETS)
def test_a_conversion_leaves_no_reference_cycles(target):
    """Everything a conversion makes goes by reference counting when it ends: a cycle would keep the
    loaded spec, the document or a writer's caches alive until the cycle collector, which then walks
    them all (a tenth of the time on GitHub's description)."""
    import gc

    was_enabled = gc.isenabled()
    gc.collect()
    gc.disable()  # convert() then leaves it off, and nothing is collected behind the test's back
    try:
        for name in NAMES:
            convert("openapi", fixture_text(name), target)
        assert gc.collect() == 0
    finally:
        if was_enabled:
            gc.enable()
