"""The document model of schemas: type summaries with links to components, merged ``allOf``
properties as shallow tables (nested inline objects as dotted rows), discriminators, and examples
(given, or built from the schema by ``..examples``); the models section renders each component
schema once.
"""

from __future__ import annotations

from typing import Any

from ..doc import Admonition, Block, BulletList, Code, CodeBlock, Inline, Link, Para, Strong, Table
from ..examples import to_json
from .common import (MAX_ALTERNATIVES, MAX_ENUM_VALUES, MAX_NAMED_EXAMPLES, MAX_TABLE_ROWS, MODEL_NESTED_LEVELS,
                     NESTED_LEVELS, _FORM_TYPES, _MAX_MERGE_DEPTH, _TYPE_DEPTH, _code_language, _codes, _example_text,
                     _joined, _line, _text_blocks, _type_word, _value_text)


class Schemas:
    """The part of the builder that renders schemas and examples."""

    def type_parts(self, schema: Any, depth: int = 0) -> list[Inline]:
        """A short type: ``string (date-time)``, ``array of <link>``, ``one of: A | B``, ``map of X``."""
        if not isinstance(schema, dict):
            return ["never"] if schema is False else ["any"]
        ref = schema.get("$ref")
        if isinstance(ref, str):
            return list(self.ref_parts(ref, depth))
        if depth > _TYPE_DEPTH:
            return ["…"]
        kind = schema.get("type")
        if kind.__class__ is str and kind != "array" and kind != "object" and "oneOf" not in schema \
                and "anyOf" not in schema and "allOf" not in schema:  # the common case, quickly
            fmt = schema.get("format")
            parts = [_type_word(kind, fmt) if fmt.__class__ is str and fmt else kind]
            if schema.get("nullable") is True:
                parts.append(" | null")
            return parts
        nullable = schema.get("nullable") is True
        for key, word in (("oneOf", "one of: "), ("anyOf", "any of: ")):
            alternatives = schema.get(key)
            if isinstance(alternatives, list) and alternatives:
                named = []
                has_null = False
                for alt in alternatives:
                    if isinstance(alt, dict) and (alt.get("type") == "null" or (
                            alt.get("nullable") is True and "properties" not in alt and "$ref" not in alt
                            and alt.get("type") in (None, "object") and len(alternatives) > 1)):
                        has_null = True
                        continue
                    named.append(alt)
                if len(named) == 1:
                    parts = self.type_parts(named[0], depth + 1)
                else:
                    shown = [self.type_parts(a, depth + 1) for a in named[:MAX_ALTERNATIVES]]
                    parts = [word] + _joined(shown, " | ")
                    if len(named) > MAX_ALTERNATIVES:
                        parts.append(f" | … {len(named) - MAX_ALTERNATIVES} more")
                if has_null or nullable:
                    parts.append(" | null")
                return parts
        all_of = schema.get("allOf")
        if isinstance(all_of, list) and all_of:
            if len(all_of) == 1 and not schema.get("properties"):
                parts = self.type_parts(all_of[0], depth + 1)
            else:
                members = [self.type_parts(m, depth + 1) for m in all_of[:MAX_ALTERNATIVES]]
                if schema.get("properties"):
                    members.append(["object"])
                parts = ["all of: "] + _joined(members, " & ")
            if nullable:
                parts.append(" | null")
            return parts
        kind = schema.get("type")
        kinds = kind if isinstance(kind, list) else [kind] if isinstance(kind, str) else []
        if "null" in kinds:
            nullable = True
            kinds = [k for k in kinds if k != "null"]
        if not kinds:
            if "properties" in schema or "additionalProperties" in schema:
                kinds = ["object"]
            elif "items" in schema:
                kinds = ["array"]
            elif "const" in schema:
                return ["const ", Code(_value_text(schema["const"]))]
            elif "enum" in schema and isinstance(schema["enum"], list) and schema["enum"]:
                first = schema["enum"][0]
                kinds = ["string" if isinstance(first, str) else "number" if isinstance(first, (int, float))
                         and not isinstance(first, bool) else "boolean" if isinstance(first, bool) else "any"]
            else:
                kinds = ["null"] if nullable else ["any"]
                nullable = False
        pieces = []
        for k in kinds:
            k = str(k)
            if k == "array":
                items = schema.get("items")
                pieces.append(["array of "] + self.type_parts(items, depth + 1) if isinstance(items, dict)
                              else ["array"])
            elif k == "object":
                extra = schema.get("additionalProperties")
                if isinstance(extra, dict) and extra and not schema.get("properties"):
                    pieces.append(["map of "] + self.type_parts(extra, depth + 1))
                else:
                    pieces.append(["object"])
            else:
                fmt = schema.get("format")
                pieces.append([_type_word(k, fmt) if isinstance(fmt, str) and fmt else k])
        parts = _joined(pieces, " | ")
        if nullable:
            parts.append(" | null")
        return parts

    def merged(self, schema: dict) -> tuple[dict, set]:
        """Properties and required names of a schema with its ``allOf`` members (refs, nested) merged."""
        key = id(schema)
        hit = self._merged.get(key)
        if hit is not None:
            return hit
        props: dict[str, Any] = {}
        required: set[str] = set()
        self._merge_into(schema, props, required, frozenset(), 0)
        result = (props, required)
        self._merged[key] = result
        return result

    def _merge_into(self, node: Any, props: dict, required: set, seen: frozenset, depth: int) -> None:
        # A method, not a closure that calls itself: such a closure is a reference cycle holding the
        # builder, which kept the whole loaded spec alive until the cycle collector ran.
        if not isinstance(node, dict) or depth > _MAX_MERGE_DEPTH:
            return
        ref = node.get("$ref")
        if isinstance(ref, str):
            if ref in seen:
                return
            target, _ = self.resolve(ref)
            self._merge_into(target, props, required, seen | {ref}, depth + 1)
            return
        members = node.get("allOf")
        if isinstance(members, list):
            for member in members:
                self._merge_into(member, props, required, seen, depth + 1)
        own = node.get("properties")
        if isinstance(own, dict):
            props.update(own)
        names = node.get("required")
        if isinstance(names, list):
            required.update(n for n in names if isinstance(n, str))

    def property_rows(self, schema: dict, rows: list, prefix: str = "", level: int = 0,
                      levels: int = NESTED_LEVELS) -> bool:
        """Appends the rows of ``schema``'s properties, inline nested objects as dotted names ``levels``
        deep; False when ``MAX_TABLE_ROWS`` cut them short."""
        props, required = self.merged(schema)
        for name, prop in props.items():
            if len(rows) >= MAX_TABLE_ROWS:
                return False
            rows.append(self.row([self.code(prefix + name)], self.type_parts(prop),
                                 ["yes" if name in required else "no"], self.describe(prop)))
            if level < levels and isinstance(prop, dict) and "$ref" not in prop:
                nested, sub = self._nested(prop)
                if nested is not None and not self.property_rows(nested, rows, f"{prefix}{name}{sub}.", level + 1,
                                                                 levels):
                    return False
        return True

    @staticmethod
    def _nested(prop: dict) -> tuple[dict | None, str]:
        """An inline object (or array of inline objects) worth expanding as dotted rows."""
        if prop.get("properties") or (isinstance(prop.get("allOf"), list) and any(
                isinstance(m, dict) and m.get("properties") for m in prop["allOf"])):
            return prop, ""
        items = prop.get("items")
        if isinstance(items, dict) and "$ref" not in items and items.get("properties"):
            return items, "[]"
        return None, ""

    def properties_table(self, schema: dict, prefix: str = "", levels: int = NESTED_LEVELS) -> Table | None:
        rows: list = []
        complete = self.property_rows(schema, rows, prefix, 0, levels)
        if not rows:
            return None
        if not complete:
            props, _ = self.merged(schema)
            rows.append([["…"], [], [], [f"{len(props)} properties in all (nested ones not counted); "
                                         f"the table shows the first {MAX_TABLE_ROWS} rows"]])
        return Table(["Name", "Type", "Required", "Description"], rows)

    def describe(self, schema: Any) -> list[Inline]:
        """The description cell of a property: text, then enum, default and flags."""
        if not isinstance(schema, dict):
            return []
        parts: list[Inline] = []
        text = schema.get("description") or schema.get("title")
        if text:
            parts.append(_line(text))
        flags = [word for key, word in (("deprecated", "Deprecated."), ("readOnly", "Read-only."),
                                        ("writeOnly", "Write-only.")) if schema.get(key) is True]
        if flags:
            parts.append((" " if parts else "") + " ".join(flags))
        enum = schema.get("enum")
        if not isinstance(enum, list):
            items = schema.get("items")
            enum = items.get("enum") if isinstance(items, dict) else None
        if isinstance(enum, list) and enum:
            parts.append((" " if parts else "") + "Values: ")
            parts.extend(_codes(enum, MAX_ENUM_VALUES, self.code))
            parts.append(".")
        if "default" in schema:
            parts.append((" " if parts else "") + "Default: ")
            parts.append(self.code(_value_text(schema["default"])))
            parts.append(".")
        return parts

    def schema_blocks(self, schema: Any, lead: list[Inline]) -> list[Block]:
        """How an operation shows a body's schema: a link, or a shallow table for an inline one.

        ``lead`` starts the paragraph (the media type); the schema follows it, after "schema: "."""
        if schema is None:
            return [Para(lead)] if lead else []
        label: list[Inline] = lead + [", schema: "] if lead else ["Schema: "]
        if not isinstance(schema, dict) or isinstance(schema.get("$ref"), str):
            return [Para(label + self.type_parts(schema))]
        blocks: list[Block] = []
        alternatives = schema.get("oneOf") or schema.get("anyOf")
        if isinstance(alternatives, list) and alternatives:
            word = "one of" if schema.get("oneOf") else "any of"
            blocks.append(Para(label + [f"{word}:"]))
            blocks.append(BulletList([self.type_parts(a) or ["any"] for a in alternatives]))
            blocks.extend(self.discriminator_blocks(schema))
            table = self.properties_table(schema)
            if table is not None:
                blocks.append(table)
            return blocks
        nested, sub = self._nested(schema)
        if nested is not None:
            blocks.append(Para(label + (["array of object"] if sub else self.type_parts(schema))))
            table = self.properties_table(nested, "[]." if sub else "")
            if table is not None:
                blocks.append(table)
            blocks.extend(self.discriminator_blocks(schema))
            return blocks
        blocks.append(Para(label + self.type_parts(schema)))
        enum = schema.get("enum")
        if isinstance(enum, list) and enum:
            blocks.append(Para(["Values: "] + _codes(enum)))
        return blocks

    def discriminator_blocks(self, schema: dict) -> list[Block]:
        disc = schema.get("discriminator")
        if isinstance(disc, str):  # Swagger 2.0: the property name
            return [Para(["Discriminator: ", Code(disc)])]
        if not isinstance(disc, dict):
            return []
        blocks: list[Block] = []
        name = disc.get("propertyName")
        blocks.append(Para(["Discriminator: ", Code(str(name))] if name else ["Discriminator"]))
        mapping = disc.get("mapping")
        if isinstance(mapping, dict) and mapping:
            rows = []
            for value, target in mapping.items():
                target = str(target)
                if "/" in target or target.startswith("#"):
                    cell = self.type_parts({"$ref": target})
                elif target in self.schemas:
                    cell = [Link(target, self.schema_anchor[target])]
                else:
                    cell = [Code(target)]
                rows.append([[Code(str(value))], cell])
            blocks.append(Table(["Value", "Schema"], rows))
        return blocks

    def example_blocks(self, media: str, obj: dict, schema: Any, direction: str) -> tuple[list[Block], Any]:
        """Example blocks for a media type, and the text of the first example (for curl)."""
        language = _code_language(media)
        blocks: list[Block] = []
        first: Any = None
        if "example" in obj:
            text = self.given_text(obj["example"], language)
            return [self.label("Example:"), CodeBlock(language, text)], text
        examples = obj.get("examples")
        if isinstance(examples, dict) and examples:
            for name, example in list(examples.items())[:MAX_NAMED_EXAMPLES]:
                example, ref = self.deref(example)
                if example is None:
                    blocks.append(Para([f"Example: {name}, in ", Code(ref or "?"), ", which is not loaded"]))
                    continue
                if not isinstance(example, dict):
                    continue
                title = _line(example.get("summary")) or str(name)
                if "value" in example:
                    text = self.given_text(example["value"], language)
                    blocks.append(Para(["Example:" if str(name) == "default" and title == "default"
                                        else f"Example: {title}"]))
                    blocks.append(CodeBlock(language, text))
                    first = text if first is None else first
                elif example.get("externalValue"):
                    blocks.append(Para([f"Example: {title}, at ", Code(str(example["externalValue"]))]))
                if example.get("description"):
                    blocks.extend(_text_blocks(example["description"]))
            if len(examples) > MAX_NAMED_EXAMPLES:
                blocks.append(Para([f"… and {len(examples) - MAX_NAMED_EXAMPLES} more examples"]))
            if blocks:
                return blocks, first
        if schema is None or self._unresolvable(schema):
            return [], None
        target = schema
        if isinstance(schema, dict) and isinstance(schema.get("$ref"), str) and not (
                "example" in schema or "examples" in schema):
            target = self.resolve(schema["$ref"])[0]
        given = isinstance(target, dict) and ("example" in target or isinstance(target.get("examples"), list))
        if language != "json" and media not in _FORM_TYPES:
            if not given:
                return [], None
            text = _example_text(self.examples.build(schema, direction), language)
            return [self.label("Example:"), CodeBlock(language, text)], text
        if language == "json" or media in _FORM_TYPES:
            text = self.examples.json_text(schema, direction)
            label = "Example:" if given else "Example (generated from the schema):"
            return [self.label(label), CodeBlock("json", text)], text
        return [], None

    def given_text(self, value: Any, language: str) -> str:
        """The text of an example given in the document; the same (shared) one is formatted once."""
        if not isinstance(value, (dict, list)):
            return _example_text(value, language)
        hit = self._given.get(id(value))
        if hit is None:
            hit = self._given[id(value)] = (value, _example_text(value, language))  # holds value: ids stay unique
        return hit[1]

    def _unresolvable(self, schema: Any) -> bool:
        ref = schema.get("$ref") if isinstance(schema, dict) else None
        return isinstance(ref, str) and self.resolve(ref)[0] is None

    def media_blocks(self, media: str, obj: Any, direction: str) -> Any:
        """One media type of a body: its name, schema and examples; returns the first example's text."""
        add = self.blocks.append
        if not isinstance(obj, dict):
            add(Para(["Media type ", Code(media)]))
            return None
        schema = obj.get("schema")
        self.blocks.extend(self.schema_blocks(schema, ["Media type ", Code(media)]))
        blocks, text = self.example_blocks(media, obj, schema, direction)
        self.blocks.extend(blocks)
        return text

    def model_blocks(self, schema: Any) -> None:
        add = self.blocks.append
        if not isinstance(schema, dict):
            add(Para(["Any value." if schema is not False else "No value is valid."]))
            return
        ref = schema.get("$ref")
        if isinstance(ref, str):
            add(Para(["Same as "] + self.type_parts({"$ref": ref}) + ["."]))
            if schema.get("description"):
                self.blocks.extend(_text_blocks(schema["description"]))
            return
        if schema.get("title") and schema.get("title") != schema.get("description"):
            add(Para([Strong(_line(schema["title"]))]))
        self.blocks.extend(_text_blocks(schema.get("description")))
        if schema.get("deprecated") is True:
            add(Admonition("warning", ["Deprecated."]))
        all_of = schema.get("allOf")
        if isinstance(all_of, list):
            bases = [self.type_parts(m) for m in all_of if isinstance(m, dict) and isinstance(m.get("$ref"), str)]
            if bases:
                add(Para(["Extends: "] + _joined(bases, ", ") + ["."]))
        composed = False
        for key, word in (("oneOf", "One of:"), ("anyOf", "Any of:")):
            alternatives = schema.get(key)
            if isinstance(alternatives, list) and alternatives:
                composed = True
                add(Para([word]))
                add(BulletList([self.type_parts(a) or ["any"] for a in alternatives]))
        props, _ = self.merged(schema)
        kind = schema.get("type")
        if props:
            add(Para(["Type: "] + (self.type_parts({k: v for k, v in schema.items() if k != "allOf"})
                                   if kind not in (None, "object") else ["object"])))
            table = self.properties_table(schema, "", MODEL_NESTED_LEVELS)
            if table is not None:
                add(table)
        elif not composed:
            add(Para(["Type: "] + self.type_parts(schema)))
            items = schema.get("items")
            if isinstance(items, dict) and "$ref" not in items and items.get("properties"):
                table = self.properties_table(items, "[].", MODEL_NESTED_LEVELS)
                if table is not None:
                    add(table)
        enum = schema.get("enum")
        if isinstance(enum, list) and enum:
            add(Para(["Values: "] + _codes(enum, 200)))
        extra = schema.get("additionalProperties")
        if props and isinstance(extra, dict) and extra:
            add(Para(["Other properties: "] + self.type_parts(extra) + ["."]))
        self.blocks.extend(self.discriminator_blocks(schema))
        examples = schema.get("examples")
        if "example" in schema or (isinstance(examples, list) and examples):  # an empty list shows none
            value = schema["example"] if "example" in schema else examples[0]
            add(self.label("Example:"))
            add(CodeBlock("json", to_json(value)))
