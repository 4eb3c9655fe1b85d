"""Loading spec text safely: JSON or YAML into plain JSON-shaped data, with line numbers.

Users send the largest real specs they have, and sometimes hostile ones. So: JSON goes through
msgspec's decoder where it is installed (the server extra: twice as fast as the C ``json`` module
on a large spec, and the same values, integers of any size included), else through ``json``, which
also has the last word on whatever msgspec refuses (``NaN``, ``1e400``, lone surrogates, errors);
YAML through PyYAML's safe loader (the C one when built) with only the core
JSON-compatible tags (no custom or Python tags, timestamps stay strings), mapping keys made
strings (``200:`` is the response ``"200"``), and alias expansion bounded before anything is
built, so a billion-laughs document is refused in milliseconds instead of eating the machine.

It sits below both halves: the service's engines parse what users send with it, and the CLI's
bundler (``docsvc.bundle``) reads the files of a split spec with the same bounds. PyYAML is its
only dependency (msgspec is optional), so the client install needs nothing more.

``SpecError`` carries the line (1-based) where one is known; callers prefix the file name.
``locate(text, pointer)`` finds the line of a JSON pointer afterwards, for findings.
"""

from __future__ import annotations

import bisect
import json
import re
from dataclasses import dataclass
from typing import Any

import yaml

from .gcpause import cycle_collector_paused

try:
    from msgspec import MsgspecError as _FastJsonError
    from msgspec.json import decode as _fast_json  # per call, no decoder shared by the job threads
except ImportError:  # the client install: stdlib json only
    _fast_json = None

__all__ = ["SpecError", "Loaded", "load", "detect_kind", "Locator", "MAX_EXPANDED_NODES"]

# An alias re-uses a node; expanded, the document may be far larger than its text. Real specs
# expand a little (shared parameter lists); billion laughs expands to 10^9.
MAX_EXPANDED_NODES = 5_000_000
_SafeBase = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class SpecError(ValueError):
    """The text is not a usable spec; ``line`` is 1-based when known."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}" if self.line else self.message


class _SpecLoader(_SafeBase):  # type: ignore[misc, valid-type]
    """Core schema only: str, int, float, bool, null, map, seq."""


_SpecLoader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_SpecLoader.yaml_constructors = {
    tag: ctor for tag, ctor in yaml.SafeLoader.yaml_constructors.items()
    if tag in {"tag:yaml.org,2002:null", "tag:yaml.org,2002:bool", "tag:yaml.org,2002:int",
               "tag:yaml.org,2002:float", "tag:yaml.org,2002:str", "tag:yaml.org,2002:seq",
               "tag:yaml.org,2002:map"}
}


def _refuse_tag(loader, node):
    raise SpecError(f"YAML tag {node.tag} is not allowed in a spec", node.start_mark.line + 1)


def _string_keys(loader, node):
    loader.flatten_mapping(node)
    out = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if isinstance(key, (dict, list)):
            raise SpecError("a mapping key must be a scalar", key_node.start_mark.line + 1)
        key = "null" if key is None else (str(key).lower() if isinstance(key, bool) else str(key))
        out[key] = loader.construct_object(value_node, deep=True)
    return out


_SpecLoader.add_constructor(None, _refuse_tag)
_SpecLoader.add_constructor("tag:yaml.org,2002:map", _string_keys)


class _Yaml12Loader(_SpecLoader):  # type: ignore[misc, valid-type]
    """The same, with YAML 1.2's booleans: only true and false (``on:``, ``yes``, ``off`` stay strings)."""


_Yaml12Loader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:bool"]
    for first, resolvers in _SpecLoader.yaml_implicit_resolvers.items()
}
_Yaml12Loader.add_implicit_resolver("tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
                                    list("tTfF"))


def _expanded_size(root: yaml.Node, limit: int) -> int:
    """Nodes the document has once every alias is expanded; stops counting past ``limit``."""
    sizes: dict[int, int] = {}
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        key = id(node)
        if key in sizes and not done:
            continue
        if isinstance(node, yaml.ScalarNode):
            sizes[key] = 1
            continue
        children = ([v for pair in node.value for v in pair] if isinstance(node, yaml.MappingNode)
                    else list(node.value))
        if done:
            sizes[key] = min(limit + 1, 1 + sum(sizes.get(id(c), 0) for c in children))
            continue
        sizes[key] = 0  # a node that contains itself (a recursive alias) counts once
        stack.append((node, True))
        stack.extend((c, False) for c in children if id(c) not in sizes)
    return sizes[id(root)]


@dataclass
class Loaded:
    data: Any
    syntax: str  # json | yaml


def _json_error_line(exc: json.JSONDecodeError) -> SpecError:
    return SpecError(f"not valid JSON: {exc.msg} (column {exc.colno})", exc.lineno)


def load(text: str | bytes, *, max_nodes: int = MAX_EXPANDED_NODES, yaml_version: str = "1.1") -> Loaded:
    """Parse ``text`` as JSON (when it starts like JSON) or YAML (1.1's booleans by default, as
    specs written for PyYAML-era tools expect; ``yaml_version="1.2"`` for 1.2's). Raises
    ``SpecError``; UTF-8 ``bytes`` raise ``UnicodeDecodeError`` when they are not UTF-8."""
    with cycle_collector_paused():  # a large spec is millions of new objects, and no cycles (gcpause)
        return _load(text, max_nodes, yaml_version)


def _load(text: str | bytes, max_nodes: int, yaml_version: str) -> Loaded:
    fast_json = _fast_json
    if isinstance(text, bytes):
        # Sent bytes: msgspec reads UTF-8 JSON as it is, so a large spec is not decoded into a
        # string first (on GitHub's 13 MB, decoding and reading the string cost twice as much).
        raw = text.removeprefix(b"\xef\xbb\xbf").lstrip(b" \t\r\n")
        if fast_json is not None and raw[:1] in (b"{", b"["):
            try:
                return Loaded(fast_json(raw), "json")
            except (_FastJsonError, RecursionError, UnicodeDecodeError):
                fast_json = None  # it has refused these bytes: the text's reading below words why
        text = text.decode("utf-8")
    stripped = text.lstrip("\ufeff \t\r\n")
    if not stripped:
        raise SpecError("the document is empty")
    if stripped[0] in "{[":
        if fast_json is not None:
            try:
                return Loaded(fast_json(stripped), "json")
            except (_FastJsonError, RecursionError):
                pass  # json decides: it reads a few things msgspec refuses, and words the errors
        try:
            return Loaded(json.loads(stripped), "json")
        except json.JSONDecodeError as exc:
            if stripped[0] == "[" or '"' not in stripped[:200]:
                raise _json_error_line(exc) from None
            # YAML flow mappings also start with "{": fall through and let YAML decide.
            json_error = exc
    else:
        json_error = None
    loader = (_Yaml12Loader if yaml_version == "1.2" else _SpecLoader)(text)
    try:
        node = loader.get_single_node()
        if node is None:
            raise SpecError("the document is empty")
        if _expanded_size(node, max_nodes) > max_nodes:
            raise SpecError(f"YAML aliases expand to more than {max_nodes:,} nodes; refusing it "
                            "(is it a billion-laughs document?)", node.start_mark.line + 1)
        data = loader.construct_document(node)
    except SpecError:
        raise
    except yaml.MarkedYAMLError as exc:
        if json_error is not None:
            raise _json_error_line(json_error) from None
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "not valid YAML"
        raise SpecError(f"not valid YAML: {problem}", mark.line + 1 if mark else None) from None
    except yaml.YAMLError as exc:
        raise SpecError(f"not valid YAML: {exc}") from None
    except RecursionError:
        raise SpecError("the document nests too deeply") from None
    finally:
        loader.dispose()
    return Loaded(data, "yaml")


def detect_kind(data: Any) -> str:
    """``openapi`` (2.0, 3.0, 3.1), ``helm`` (a values mapping) or raise ``SpecError``."""
    if isinstance(data, dict):
        if "swagger" in data or "openapi" in data:
            version = str(data.get("openapi") or data.get("swagger"))
            if not re.match(r"^(2\.0|3\.[01])(\.\d+)?$", version):
                raise SpecError(f"unsupported OpenAPI version {version!r} (2.0, 3.0 and 3.1 are)")
            if not isinstance(data.get("info"), dict):
                raise SpecError("an OpenAPI document needs an info object")
            return "openapi"
        return "helm"
    raise SpecError(f"the document is a {type(data).__name__ if data is not None else 'null'}, "
                    "not a mapping")


class Locator:
    """Lines of JSON pointers in the text a spec was loaded from, found lazily and cheaply.

    YAML: the composed node tree (marks). JSON: descend along the pointer only, skipping sibling
    values with the C decoder, so finding a line costs about one parse of the path's ancestors.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self._json = text.lstrip("\ufeff \t\r\n")[:1] in ("{", "[")
        self._newlines: list[int] | None = None
        self._yaml_root: yaml.Node | None = None
        self._decoder = json.JSONDecoder()

    def line(self, pointer: str) -> int | None:
        parts = [p.replace("~1", "/").replace("~0", "~") for p in pointer.split("/")[1:]] if pointer else []
        try:
            offset = self._json_offset(parts) if self._json else None
            if self._json:
                return None if offset is None else self._line_of(offset)
            return self._yaml_line(parts)
        except (ValueError, IndexError, yaml.YAMLError, RecursionError):
            return None

    def _line_of(self, offset: int) -> int:
        if self._newlines is None:
            self._newlines = [m.start() for m in re.finditer("\n", self.text)]
        return bisect.bisect_left(self._newlines, offset) + 1

    _ws = re.compile(r"[ \t\n\r]*")

    def _json_offset(self, parts: list[str]) -> int | None:
        text, pos = self.text, self._ws.match(self.text, 0).end()
        last_key = None
        if text.startswith("\ufeff", pos):
            pos = self._ws.match(text, pos + 1).end()
        for part in parts:
            if text[pos] == "{":
                pos = self._ws.match(text, pos + 1).end()
                while text[pos] != "}":
                    key_at = pos
                    key, pos = json.decoder.scanstring(text, pos + 1)
                    pos = self._ws.match(text, pos).end() + 1  # past ':'
                    pos = self._ws.match(text, pos).end()
                    if key == part:
                        last_key = key_at  # a member's line is its key's
                        break
                    _, pos = self._decoder.raw_decode(text, pos)
                    pos = self._ws.match(text, pos).end()
                    if text[pos] == ",":
                        pos = self._ws.match(text, pos + 1).end()
                else:
                    return None
            elif text[pos] == "[":
                index = int(part)
                pos = self._ws.match(text, pos + 1).end()
                for _ in range(index):
                    if text[pos] == "]":
                        return None
                    _, pos = self._decoder.raw_decode(text, pos)
                    pos = self._ws.match(text, pos).end()
                    if text[pos] == ",":
                        pos = self._ws.match(text, pos + 1).end()
                if text[pos] == "]":
                    return None
                last_key = None
            else:
                return None
        return last_key if last_key is not None else pos

    def _yaml_line(self, parts: list[str]) -> int | None:
        if self._yaml_root is None:
            self._yaml_root = yaml.compose(self.text, Loader=_SpecLoader)
        node, mark = self._yaml_root, self._yaml_root.start_mark if self._yaml_root is not None else None
        for part in parts:
            if isinstance(node, yaml.MappingNode):
                for key, value in node.value:
                    if isinstance(key, yaml.ScalarNode) and key.value == part:
                        node, mark = value, key.start_mark  # a member's line is its key's
                        break
                else:
                    return None
            elif isinstance(node, yaml.SequenceNode):
                node = node.value[int(part)]
                mark = node.start_mark
            else:
                return None
        return mark.line + 1 if mark is not None else None
