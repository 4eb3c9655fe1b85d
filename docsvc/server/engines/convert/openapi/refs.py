"""Loading and references: the builder's view of the loaded document. ``$ref``s are followed
through a cache (refs to refs, JSON pointers with ``~0``/``~1`` and percent escapes), never
copied; a component is named by its kind (schema, parameter, response, request body) and linked,
not inlined; a reference to another file is shown as it is and warned about once.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote

from ..doc import Code, Inline, Link
from .common import _MISSING, _TYPE_DEPTH


class References:
    """The part of the builder that reads the document and follows its references."""

    @staticmethod
    def _mapping(value: Any) -> dict:
        return value if isinstance(value, dict) else {}

    def warn(self, key: str, message: str) -> None:
        if key not in self._warned:
            self._warned.add(key)
            self.warnings.append(message)

    def resolve(self, ref: str) -> tuple[Any, str | None]:
        """Follow ``ref`` (and refs to refs) to its target: ``(target, last ref)``, or ``(None, None)``."""
        hit = self._resolved.get(ref)
        if hit is not None:
            return hit
        chain = [ref]
        current = ref
        result: tuple[Any, str | None] = (None, None)
        while True:
            if not current.startswith("#"):
                self.warn(current, f"unresolved external $ref {current!r}: another file or a URL is not "
                                   "loaded, so it is shown as a reference")
                break
            target = self._pointer(current)
            if target is _MISSING:
                self.warn(current, f"unresolved $ref {current!r}: nothing in the document is at that pointer")
                break
            nxt = target.get("$ref") if isinstance(target, dict) else None
            if isinstance(nxt, str):
                if nxt in chain:
                    self.warn(nxt, f"circular $ref chain {' -> '.join(chain + [nxt])!r}: shown as a reference")
                    break
                chain.append(nxt)
                current = nxt
                continue
            result = (target, current)
            break
        for link in chain:  # every ref of the chain ends at the same place
            self._resolved[link] = result
        return result

    def _pointer(self, ref: str) -> Any:
        fragment = ref[1:]
        if "%" in fragment:
            fragment = unquote(fragment)
        node: Any = self.root
        if not fragment:
            return node
        if not fragment.startswith("/"):
            return _MISSING  # a plain-name anchor ($anchor): not supported
        for part in fragment[1:].split("/"):
            if "~" in part:
                part = part.replace("~1", "/").replace("~0", "~")
            if isinstance(node, dict):
                if part not in node:
                    return _MISSING
                node = node[part]
            elif isinstance(node, list):
                try:
                    node = node[int(part)]
                except (ValueError, IndexError):
                    return _MISSING
            else:
                return _MISSING
        return node

    def kind_of(self, ref: str) -> tuple[str, str] | None:
        """``("schema", name)`` etc. when ``ref`` names a component directly."""
        if ref in self._kind_of:
            return self._kind_of[ref]
        found = None
        for kind, prefix in self._prefixes.items():
            if ref.startswith(prefix):
                rest = ref[len(prefix):]
                if "%" in rest:
                    rest = unquote(rest)
                if "/" in rest:
                    break
                name = rest.replace("~1", "/").replace("~0", "~")
                if kind == "schema":
                    found = (kind, name) if name in self.schemas else None
                else:
                    found = (kind, name)
                break
        self._kind_of[ref] = found
        return found

    def deref(self, node: Any) -> tuple[Any, str | None]:
        """A parameter/response/body/path item that may be a ``$ref``: ``(target or None, ref or None)``."""
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str):
                return self.resolve(ref)[0], ref
        return node, None

    def shared_link(self, ref: str, target: Any) -> Link | None:
        """A link to a shared parameter/response/request body, which the document then renders."""
        kind = self.kind_of(ref)
        if kind is None or kind[0] == "schema" or target is None:
            return None
        bucket = self.used[kind[0]]
        bucket.setdefault(kind[1], target)
        return Link(kind[1], self.anchors.make(kind[0], kind[1]))

    def ref_parts(self, ref: str, depth: int = 0) -> list[Inline]:
        hit = self._ref_parts.get(ref)
        if hit is not None:
            return hit
        kind = self.kind_of(ref)
        if kind is not None and kind[0] == "schema":
            parts: list[Inline] = [Link(kind[1], self.schema_anchor[kind[1]])]
        else:
            target, _ = self.resolve(ref)
            if target is None:
                parts = [Code(ref)]
            elif depth >= _TYPE_DEPTH:
                return [Code(ref)]
            else:
                parts = self.type_parts(target, depth + 1)
        self._ref_parts[ref] = parts
        return parts
