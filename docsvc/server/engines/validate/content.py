"""Generated documentation text: deterministic, rule-based, and labelled as generated.

Missing operation summaries and descriptions, parameter descriptions and schema property
descriptions are written from names, methods, paths and schema types — nothing is inferred beyond
what the document says. Each text is recorded (``generated``) with the rule that produced it, and
the object it went into is marked ``x-docsvc-generated: [field, ...]`` so readers and later scans
can tell it from human-written text.
"""

from __future__ import annotations

import re
from typing import Any

from .walker import HTTP_METHODS, Resolver, Walk, esc, is_ref, listed

MARK = "x-docsvc-generated"

_VERBS = {"get": "Get", "put": "Replace", "patch": "Update", "delete": "Delete", "post": "Create",
          "head": "Check", "options": "Get the options of", "trace": "Trace"}
_ACRONYMS = {"id": "ID", "ids": "IDs", "url": "URL", "uri": "URI", "api": "API", "ip": "IP", "sha": "SHA",
             "ssh": "SSH", "gpg": "GPG", "html": "HTML", "json": "JSON", "http": "HTTP", "uuid": "UUID"}


def words(name: str) -> list[str]:
    """``petId`` / ``pet_id`` / ``pet-id`` -> ``["pet", "id"]``."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", str(name))
    spaced = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1 \2", spaced)
    return [w.lower() for w in re.split(r"[\s_\-.{}$]+", spaced) if w]


def humanize(name: str) -> str:
    return " ".join(_ACRONYMS.get(w, w) for w in words(name))


def singular(word: str) -> str:
    if word.endswith("ies") and len(word) > 3:
        return word[:-3] + "y"
    if word.endswith(("ses", "xes", "zes", "ches", "shes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss") and len(word) > 1:
        return word[:-1]
    return word


def summary_for(method: str, path: str) -> str:
    segments = [s for s in path.split("/") if s]
    verb = _VERBS.get(method, method.capitalize())
    literal = [s for s in segments if not s.startswith("{")]
    if not literal:
        return f"{verb} root" if not segments else f"{verb} {humanize(segments[-1])}"
    resource = humanize(literal[-1])
    if segments and segments[-1].startswith("{"):
        param = segments[-1].strip("{}")
        thing = singular(resource)
        pw = words(param)
        rw = words(singular(literal[-1]))
        if pw[:len(rw)] == rw and pw[len(rw):]:
            pw = pw[len(rw):]
        by = " ".join(_ACRONYMS.get(w, w) for w in pw)
        return f"{verb} {thing} by {by}"
    if method == "get":
        return f"List {resource}"
    if method == "post":
        return f"Create {singular(resource)}"
    return f"{verb} {resource}"


def _type_of(schema: Any, resolver: Resolver) -> str | None:
    if is_ref(schema):
        target = resolver.node(schema["$ref"])
        name = schema["$ref"].rsplit("/", 1)[-1]
        return name if target is not None else None
    if not isinstance(schema, dict):
        return None
    t = schema.get("type")
    if isinstance(t, list):
        t = " or ".join(str(x) for x in t)
    if t == "array":
        inner = _type_of(schema.get("items"), resolver)
        return f"array of {inner}" if inner else "array"
    if t and schema.get("format"):
        return f"{t}, {schema['format']}"
    return str(t) if t else None


def _mark(node: dict, field: str) -> None:
    marks = node.get(MARK)
    if not isinstance(marks, list):
        marks = []
        node[MARK] = marks
    if field not in marks:
        marks.append(field)


def generate(data: dict) -> list[dict]:
    """Fill the missing texts in ``data`` (changed in place); return the ``generated`` records."""
    walk = Walk(data)
    resolver = walk.resolver
    out: list[dict] = []

    def add(node: dict, pointer: str, field: str, text: str, rule: str) -> None:
        node[field] = text
        _mark(node, field)
        out.append({"pointer": pointer, "field": field, "text": text, "rule": rule})

    done_params: set[int] = set()
    for v in walk.visits("PathItem"):
        if not isinstance(v.key, str) or not isinstance(v.node, dict):
            continue
        path = v.key
        for method in HTTP_METHODS:
            op = v.node.get(method)
            if not isinstance(op, dict):
                continue
            pointer = f"{v.pointer}/{method}"
            if not (isinstance(op.get("summary"), str) and op["summary"].strip()):
                add(op, pointer, "summary", summary_for(method, path),
                    f"generated from the method and path ({method.upper()} {path})")
            if not (isinstance(op.get("description"), str) and op["description"].strip()):
                params = []
                for p in listed(v.node, "parameters") + listed(op, "parameters"):
                    p = resolver.node(p["$ref"]) if is_ref(p) else p
                    if isinstance(p, dict) and isinstance(p.get("name"), str):
                        params.append(f"{p['name']} ({p.get('in', '?')})")
                codes = list(op["responses"]) if isinstance(op.get("responses"), dict) else []
                text = op["summary"].rstrip(".") + "."
                if params:
                    text += " Parameters: " + ", ".join(params) + "."
                if codes:
                    text += " Responses: " + ", ".join(str(c) for c in codes) + "."
                add(op, pointer, "description", text,
                    "generated from the summary, the parameter names and the response codes")
    for v in walk.visits("Parameter"):
        p = v.node
        if not isinstance(p, dict) or id(p) in done_params or not isinstance(p.get("name"), str):
            continue
        done_params.add(id(p))
        if isinstance(p.get("description"), str) and p["description"].strip():
            continue
        t = _type_of(p.get("schema"), resolver) or (p.get("type") if isinstance(p.get("type"), str) else None)
        text = f"The {humanize(p['name'])}" + (f" ({t})." if t else ".")
        add(p, v.pointer, "description", text, "generated from the parameter name and its schema type"
            if t else "generated from the parameter name")
    for v in walk.visits("Schema"):
        schema = v.node
        if not isinstance(schema, dict) or not isinstance(schema.get("properties"), dict):
            continue
        for name, prop in schema["properties"].items():
            if not isinstance(prop, dict) or is_ref(prop):
                continue
            if isinstance(prop.get("description"), str) and prop["description"].strip():
                continue
            if isinstance(prop.get("title"), str) and prop["title"].strip():
                continue
            t = _type_of(prop, resolver)
            text = f"The {humanize(name)}" + (f" ({t})." if t else ".")
            add(prop, f"{v.pointer}/properties/{esc(name)}", "description", text,
                "generated from the property name and its schema type" if t else "generated from the property name")
    return out
