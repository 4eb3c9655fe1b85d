"""Example values built from OpenAPI schemas, bounded so that the largest real specs stay cheap.

A schema graph such as Stripe's, expanded as a tree, has about 2×10^10 nodes; an example must
not follow it. So an example is bounded in depth (``MAX_DEPTH`` levels of objects and arrays),
in breadth (at most ``PROPS_AT_DEPTH[depth]`` properties per object, required ones first; arrays
of one item), a ``$ref`` met again on its own path gives ``{}``, and the example of a component
is built once per (component, depth, direction) and shared afterwards (the values are never
mutated, so sharing is safe). A given ``example`` (or 3.1 ``examples``) wins over a built one.

``Examples(resolve)`` takes the resolver of ``openapi``: ``resolve(ref) -> (target, key)`` where
``key`` names what the ref resolved to (``None`` when it cannot resolve: an external file, a
broken pointer).
"""

from __future__ import annotations

import json
from json.encoder import encode_basestring
from typing import Any, Callable

__all__ = ["Examples", "MAX_DEPTH", "PROPS_AT_DEPTH", "to_json"]

MAX_DEPTH = 4
PROPS_AT_DEPTH = (12, 4, 3, 2)  # properties shown per object at each depth: ≤ 12·4·3·2 leaves

_FORMATS = {
    "date-time": "2024-01-31T12:00:00Z",
    "date": "2024-01-31",
    "time": "12:00:00",
    "duration": "P1D",
    "email": "user@example.com",
    "idn-email": "user@example.com",
    "uri": "https://example.com",
    "url": "https://example.com",
    "uri-reference": "/path",
    "iri": "https://example.com",
    "hostname": "example.com",
    "idn-hostname": "example.com",
    "ipv4": "192.0.2.1",
    "ipv6": "2001:db8::1",
    "uuid": "3fa85f64-5717-4562-b3fc-2c963f66afa6",
    "byte": "U3dhZ2dlcg==",
    "binary": "<binary>",
    "password": "password",
    "regex": "^.*$",
    "json-pointer": "/a/b",
}

_MISSING = object()
_MAX_REFS = 32  # refs followed on one path: combinators (allOf/oneOf/anyOf) do not add depth


_flat = json.JSONEncoder(ensure_ascii=False, default=str).encode  # the C encoder: no indent
_CONSTANTS = {None: "null", True: "true", False: "false"}


def _scalar(value: Any) -> str:
    """``_flat(value)`` for a member that is no object or array, without the encoder's set-up per call
    (an example has tens of thousands of them): the types JSON gives, spelled as the encoder does."""
    kind = type(value)
    if kind is str:
        return encode_basestring(value)
    if kind is int:
        return int.__repr__(value)
    if kind is bool or value is None:
        return _CONSTANTS[value]
    if kind is float and value - value == 0:  # finite: NaN and infinities are the encoder's
        return float.__repr__(value)
    return _flat(value)


def to_json(value: Any, width: int = 80) -> str:
    """Pretty JSON for a code block: two-space indents, and any object or array that fits in ``width``
    columns on one line. Values that JSON cannot hold are shown as strings.

    ``json.dumps(indent=2)`` runs in Python, a call per value; here each subtree is encoded by the C
    encoder and only the ones too long for a line are opened up, several times faster on the large
    given examples of real descriptions (GitHub's add up to 3 MB)."""
    try:
        return _pretty(value, "", width, True)
    except (ValueError, TypeError, RecursionError):  # a circular value from a hand-made dict
        return json.dumps(str(value))


def _pretty(value: Any, indent: str, width: int, open_up: bool = False) -> str:
    """``open_up``: one member a line even when the whole would fit (the top level of an example)."""
    if not value or not isinstance(value, (dict, list)):
        return _flat(value)
    # Encoded on one line only when it may fit: n members take at least 3n characters ("[1, 2]"), so
    # a long object or array, and the whole example, is opened up without encoding it all first.
    if not open_up and 3 * len(value) + len(indent) <= width:
        flat = _flat(value)
        if len(flat) + len(indent) <= width:
            return flat
    inner = indent + "  "
    if isinstance(value, dict):
        lines = []
        for key, item in value.items():
            name = encode_basestring(key if isinstance(key, str) else str(key))
            text = _pretty(item, inner, width - len(name) - 2) if isinstance(item, (dict, list)) else _scalar(item)
            lines.append(f"{inner}{name}: {text}")
        return "{\n" + ",\n".join(lines) + "\n" + indent + "}"
    return "[\n" + ",\n".join(inner + (_pretty(item, inner, width) if isinstance(item, (dict, list)) else _scalar(item))
                              for item in value) + "\n" + indent + "]"


class Examples:
    """Builds example values; one instance per document, so its memo is shared by every operation."""

    def __init__(self, resolve: Callable[[str], tuple[Any, str | None]], *, max_depth: int = MAX_DEPTH,
                 props_at_depth: tuple[int, ...] = PROPS_AT_DEPTH) -> None:
        self._resolve = resolve
        self.max_depth = max_depth
        self._props = props_at_depth
        self._memo: dict[tuple[str, int, str], Any] = {}
        self._json_memo: dict[tuple[str, str], str] = {}

    # The direction: "request" leaves out readOnly properties, "response" writeOnly ones.
    def build(self, schema: Any, direction: str = "response") -> Any:
        return self._value(schema, 0, direction, ())

    def json_text(self, schema: Any, direction: str = "response") -> str:
        """``to_json(build(schema))``, memoised for a schema that is a ``$ref``."""
        ref = schema.get("$ref") if isinstance(schema, dict) else None
        if isinstance(ref, str) and len(schema) == 1:
            key = (ref, direction)
            text = self._json_memo.get(key)
            if text is None:
                text = self._json_memo[key] = to_json(self.build(schema, direction))
            return text
        return to_json(self.build(schema, direction))

    def _value(self, schema: Any, depth: int, direction: str, path: tuple[str, ...]) -> Any:
        if not isinstance(schema, dict):
            return None if schema is False else {}
        ref = schema.get("$ref")
        if isinstance(ref, str):
            given = _given(schema)  # 3.1 allows an example beside a $ref
            if given is not _MISSING:
                return given
            if ref in path or len(path) >= _MAX_REFS:
                return {}
            key = (ref, depth, direction)
            if key in self._memo:
                return self._memo[key]
            target, resolved = self._resolve(ref)
            if resolved is None:
                value: Any = {}
            else:
                value = self._value(target, depth, direction, path + (ref,))
            self._memo[key] = value
            return value
        given = _given(schema)
        if given is not _MISSING:
            return given
        if "const" in schema:
            return schema["const"]
        enum = schema.get("enum")
        if isinstance(enum, list) and enum:
            for value in enum:
                if value is not None:
                    return value
            return enum[0]
        if "default" in schema and not isinstance(schema.get("default"), (dict, list)):
            return schema["default"]
        all_of = schema.get("allOf")
        if isinstance(all_of, list) and all_of:
            return self._all_of(schema, all_of, depth, direction, path)
        for key in ("oneOf", "anyOf"):
            alternatives = schema.get(key)
            if isinstance(alternatives, list) and alternatives:
                choice = next((a for a in alternatives if not _is_null(a)), alternatives[0])
                return self._value(choice, depth, direction, path)
        kind = _type_of(schema)
        if kind == "object":
            return self._object(schema, depth, direction, path)
        if kind == "array":
            if depth >= self.max_depth:
                return []
            return [self._value(schema.get("items", {}), depth + 1, direction, path)]
        if kind == "string":
            fmt = schema.get("format")
            if isinstance(fmt, str) and fmt in _FORMATS:
                return _FORMATS[fmt]
            pattern_free = schema.get("minLength")
            return "string" if not isinstance(pattern_free, int) or pattern_free <= 6 else "s" * min(pattern_free, 64)
        if kind == "integer":
            return _number(schema, 0)
        if kind == "number":
            return _number(schema, 0.0)
        if kind == "boolean":
            return True
        if kind == "null":
            return None
        if kind == "file":  # Swagger 2.0 formData
            return _FORMATS["binary"]
        return {}

    def _object(self, schema: dict, depth: int, direction: str, path: tuple[str, ...]) -> Any:
        if depth >= self.max_depth:
            return {}
        props = schema.get("properties")
        out: dict[str, Any] = {}
        if isinstance(props, dict) and props:
            limit = self._props[min(depth, len(self._props) - 1)]
            required = schema.get("required")
            names = [n for n in required if isinstance(n, str) and n in props] if isinstance(required, list) else []
            wanted = set(names)
            names += [n for n in props if n not in wanted]
            for name in names:
                if len(out) >= limit:
                    break
                prop = props[name]
                if isinstance(prop, dict) and _skipped(prop, direction):
                    continue
                out[name] = self._value(prop, depth + 1, direction, path)
            return out
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict):
            out["key"] = self._value(extra, depth + 1, direction, path)
        return out

    def _all_of(self, schema: dict, members: list, depth: int, direction: str, path: tuple[str, ...]) -> Any:
        merged: dict[str, Any] = {}
        other: Any = _MISSING
        for member in members:
            value = self._value(member, depth, direction, path)
            if isinstance(value, dict):
                merged.update(value)  # a fresh dict: the memoised member values stay untouched
            elif other is _MISSING:
                other = value
        own = {k: v for k, v in schema.items() if k != "allOf"}
        if own.get("properties"):
            value = self._object(own, depth, direction, path)
            if isinstance(value, dict):
                merged.update(value)
        if merged or other is _MISSING:
            return merged
        return other


def _given(schema: dict) -> Any:
    if "example" in schema:
        return schema["example"]
    examples = schema.get("examples")
    if isinstance(examples, list) and examples:  # JSON Schema (3.1) examples: a list of values
        return examples[0]
    return _MISSING


def _is_null(schema: Any) -> bool:
    return isinstance(schema, dict) and (schema.get("type") == "null" or schema.get("nullable") is True
                                         and set(schema) <= {"nullable", "type", "description"}
                                         and schema.get("type") in (None, "object"))


def _skipped(prop: dict, direction: str) -> bool:
    if direction == "request":
        return prop.get("readOnly") is True
    return prop.get("writeOnly") is True


def _type_of(schema: dict) -> str | None:
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), kind[0] if kind else None)
    if isinstance(kind, str):
        return kind
    if "properties" in schema or "additionalProperties" in schema:
        return "object"
    if "items" in schema:
        return "array"
    return None


def _number(schema: dict, zero: Any) -> Any:
    low = schema.get("minimum")
    if isinstance(low, (int, float)) and not isinstance(low, bool):
        return low + (1 if schema.get("exclusiveMinimum") is True else 0)
    high = schema.get("maximum")
    if isinstance(high, (int, float)) and not isinstance(high, bool) and high < 0:
        return high
    return zero
