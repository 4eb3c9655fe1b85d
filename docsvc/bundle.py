"""One document from a spec split across files, made on the caller's machine before it is sent.

Real API descriptions are split: ``$ref: ./schemas/pet.yaml``,
``$ref: '../common.yaml#/components/schemas/Error'``. The service reads one text (it cannot see
the caller's files), so the CLI and the CI layer send one: ``bundle(path)`` follows every reference
to another file (YAML or JSON, relative to the file that holds it, JSON-pointer fragments with
``~0``/``~1`` and %-escapes), pulls each target into the root document and rewrites the reference
to point there.

* Where a target goes: ``components/<kind>/<name>`` (Swagger 2.0: ``definitions``, ``parameters``,
  ``responses``), the kind read from where the reference stands (anything inside a schema is a
  schema). Path items, and targets of a kind with no component home, are written in place.
* Names: the fragment's last part, else the file's stem; a name already taken becomes
  ``<stem>_<name>``, then ``<name>_2``, ``_3``... in the order the references are met, so the same
  files always bundle the same way. A component that is nothing but a reference
  (``components/schemas/Pet: {$ref: pet.yaml}``) takes the target in place, under its own name.
* A target is pulled in once and referenced from everywhere else, which is also what ends a cycle
  between files: the second visit is an internal reference, never another copy.
* ``example``, ``default``, ``enum``, ``const`` and an example's ``value`` are data, not references.
* A file reference stays inside the spec's tree (``boundary``): the git work tree holding the spec;
  outside git, the current folder when the spec is in it, else the spec's own folder. Links are
  followed before the check, and nothing under ``.git/`` is read. A pull request in CI cannot make
  the CLI upload the runner's files (``$ref: /etc/passwd``, ``../../.config/docsvc/config.yaml``).
* Remote references (``http(s)://``) are refused unless ``allow_remote``; then they are fetched
  with a time and size bound, from public addresses only, each redirect checked too (``egress``;
  ``DOCSVC_REMOTE_REFS_ALLOW`` lets hosts through), and a remote document may only reference other URLs.
* A text with no reference to another file is returned as it is, byte for byte, and a glance at
  the text decides that without parsing it (the CLI starts fast and sends exactly what it read).

Files are parsed by ``specload`` (the service's loader, below both: bounded alias expansion, core
tags only). Every failure is a ``BundleError`` of one line naming the file, the reference, where it
stands and why.
"""

from __future__ import annotations

import json
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any, Callable, Iterator, Mapping
from urllib.parse import unquote, urljoin, urlsplit
from urllib.request import url2pathname

from . import files
from .files import Unreadable

__all__ = ["Bundled", "BundleError", "Unreadable", "boundary", "bundle", "dump", "external_refs",
           "may_have_external_refs", "read_text", "read_bytes", "decode", "fetch_remote", "remote_egress",
           "REMOTE_TIMEOUT", "REMOTE_MAX_BYTES"]

REMOTE_TIMEOUT = 15.0  # seconds for one remote document, all of it
REMOTE_MAX_BYTES = 20 * 1024 * 1024
MAX_REDIRECTS = 5

# A `$ref` whose value does not start with '#' (quoted or not), or a JSON-escaped key: only then is
# the text worth parsing. It may say yes wrongly (a description mentioning `$ref: x`), never no.
# (The spaces after the colon are inside the look-ahead: outside it, backtracking over them made
# every pretty-printed `"$ref": "#/..."` a yes, and every large spec parsed twice.) The escaped key
# is looked for apart: a pattern that starts with one literal is searched for that literal first,
# 5x faster on a 13 MB spec than an alternation, which the engine tries at every character.
_MAYBE_EXTERNAL = re.compile(r"""\$ref["']?\s*:(?!\s*["']?#)""")
_ESCAPED_REF = "\\u0024ref"
# The same over a file's bytes (UTF-8), so a spec with no such reference need not be decoded to be
# sent as it is. Its \s is ASCII whitespace only, all that JSON and YAML allow around a key's
# colon; where the text form skips other spaces before a '#', this one says yes: never a wrong no.
_MAYBE_EXTERNAL_BYTES = re.compile(_MAYBE_EXTERNAL.pattern.encode("ascii"))
_ESCAPED_REF_BYTES = _ESCAPED_REF.encode("ascii")
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]+):")  # two letters at least: C:\ is a path
_DATA_KEYS = {"example", "default", "enum", "const"}
# Mappings whose keys are names (of properties, paths, responses, components...), never keywords.
_NAME_MAPS = {"properties", "patternProperties", "$defs", "dependentSchemas", "definitions", "paths", "webhooks",
              "responses", "parameters", "headers", "links", "examples", "callbacks", "securitySchemes",
              "schemas", "requestBodies", "pathItems", "content", "encoding", "variables"}
_SWAGGER2_HOMES = {"schemas": ("definitions",), "parameters": ("parameters",), "responses": ("responses",)}
_OAS3_KINDS = ("schemas", "responses", "parameters", "examples", "requestBodies", "headers",
               "securitySchemes", "links", "callbacks")


class BundleError(ValueError):
    """Why the spec cannot be made one document: one line, ready for ``Error: ``."""


@dataclass
class Bundled:
    text: str  # the one document to send
    syntax: str  # "json" or "yaml", the root file's
    files: list[str] = field(default_factory=list)  # what was pulled in; empty: ``text`` is the file as read


def read_text(path: Path) -> str:
    """A spec file's text, or ``Unreadable`` with a reason a person understands."""
    return decode(read_bytes(path))


def read_bytes(path: Path) -> bytes:
    """A spec file's bytes, not empty, or ``Unreadable`` with a reason a person understands."""
    raw = files.read_bytes(path)
    if not raw or raw.isspace():  # not strip(): that copies the whole file
        raise Unreadable("the file is empty")
    return raw


def decode(raw: bytes) -> str:
    """A spec file's bytes as text (UTF-8), or ``Unreadable``."""
    try:
        return files.decode_text(raw)
    except Unreadable as exc:
        raise Unreadable(f"{exc}; is it a spec?") from None


def remote_egress(env: Mapping[str, str] | None = None):
    """Where ``fetch_remote`` may connect: public addresses only, unless ``DOCSVC_REMOTE_REFS_ALLOW``
    lets hosts (``host``, ``host:port``) or every internal address (``internal``) through."""
    from .egress import Egress

    return Egress.from_setting((os.environ if env is None else env).get("DOCSVC_REMOTE_REFS_ALLOW"),
                               setting="DOCSVC_REMOTE_REFS_ALLOW", who="the CLI")


def fetch_remote(url: str, *, timeout: float = REMOTE_TIMEOUT, max_bytes: int = REMOTE_MAX_BYTES,
                 egress=None) -> str:
    """GET ``url`` as UTF-8 text within ``timeout`` seconds overall and ``max_bytes``. Every hop
    (the URL, then each redirect, at most ``MAX_REDIRECTS``) must pass ``egress`` (default
    ``remote_egress()``): a spec's reference cannot reach an internal address, not even by a
    redirect."""
    import httpx  # only with --allow-remote-refs

    from .egress import EgressRefused

    egress = egress or remote_egress()
    deadline = time.monotonic() + timeout
    chunks, size = [], 0
    try:
        with httpx.Client(timeout=timeout, follow_redirects=False) as http:
            for hop in range(MAX_REDIRECTS + 1):
                try:
                    egress.check_url(url)
                except EgressRefused as exc:
                    raise Unreadable(f"redirected to {url}: {exc}" if hop else str(exc)) from None
                with http.stream("GET", url) as response:
                    if response.is_redirect and response.headers.get("location"):
                        url = str(response.url.join(response.headers["location"]))
                        continue
                    if response.status_code != 200:
                        raise Unreadable(f"the server answered HTTP {response.status_code}")
                    for chunk in response.iter_bytes():
                        size += len(chunk)
                        if size > max_bytes:
                            raise Unreadable(f"larger than {max_bytes:,} bytes")
                        if time.monotonic() > deadline:
                            raise Unreadable(f"not fetched within {timeout:g} s")
                        chunks.append(chunk)
                    break
            else:
                raise Unreadable(f"more than {MAX_REDIRECTS} redirects")
    except httpx.TimeoutException:
        raise Unreadable(f"not fetched within {timeout:g} s") from None
    except httpx.HTTPError as exc:
        raise Unreadable(f"cannot be fetched ({type(exc).__name__}: {exc})") from None
    try:
        return b"".join(chunks).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Unreadable(f"not UTF-8 text (byte {exc.start})") from None


def _syntax(text: str) -> str:
    return "json" if text.lstrip("\ufeff \t\r\n").startswith(("{", "[")) else "yaml"


def dump(data: Any, syntax: str) -> str:
    """JSON indented 2, or block YAML in the data's own key order, never with anchors."""
    if syntax == "json":
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    import yaml

    class _Dumper(yaml.SafeDumper):
        def ignore_aliases(self, data: Any) -> bool:  # a target used twice is written twice
            return True

    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, default_flow_style=False,
                     width=1 << 30)


def bundle(path: Path, text: str | None = None, *, allow_remote: bool = False,
           fetch: Callable[[str], str] | None = None) -> Bundled:
    """The spec at ``path`` (its ``text`` when already read) as one document. ``fetch`` reads a
    URL (default ``fetch_remote``); it is only called with ``allow_remote``."""
    path = Path(path)
    if text is None:
        try:
            text = read_text(path)
        except Unreadable as exc:
            raise BundleError(f"{path}: {exc}") from None
    syntax = _syntax(text)
    if not may_have_external_refs(text):
        return Bundled(text, syntax)
    from . import specload

    try:
        root = specload.load(text).data
    except specload.SpecError as exc:
        raise BundleError(f"{path}: {exc}") from None
    if not isinstance(root, dict):
        return Bundled(text, syntax)  # not a spec: the service says so
    bundler = _Bundler(path, root, allow_remote, fetch or fetch_remote)
    try:
        data = bundler.run()
    except RecursionError:
        raise BundleError(f"{path}: the document or its references nest too deeply") from None
    if not bundler.changed:
        return Bundled(text, syntax)
    return Bundled(dump(data, syntax), syntax, bundler.files)


def _descend(key: Any, loc: tuple, schema: bool) -> tuple[bool, bool]:
    """For member ``key`` of the mapping at ``loc``: (is it data, whose ``$ref`` is no reference;
    is it inside a schema)."""
    names = bool(loc) and loc[-1] in _NAME_MAPS
    data = not names and (key in _DATA_KEYS or (key == "examples" and schema)
                          or (key == "value" and len(loc) >= 2 and loc[-2] == "examples"))
    return data, schema or key == "schema" or loc in (("components", "schemas"), ("definitions",))


def _with_siblings(target: Any, siblings: dict) -> Any:
    """A reference written in place: its target with the reference's sibling keys, or the target
    alone when it is not a mapping (a string, a list: nothing to put them in)."""
    return {**target, **siblings} if isinstance(target, dict) else target


def may_have_external_refs(text: str | bytes) -> bool:
    """False when ``text`` (or a file's UTF-8 bytes) certainly references no other file or URL (a
    regular-expression scan, far cheaper than walking the parsed document); True when it may."""
    if isinstance(text, bytes):
        return _MAYBE_EXTERNAL_BYTES.search(text) is not None or _ESCAPED_REF_BYTES in text
    return _MAYBE_EXTERNAL.search(text) is not None or _ESCAPED_REF in text


def external_refs(data: Any) -> Iterator[tuple[str, str]]:
    """(JSON pointer, value) of each ``$ref`` that names another document, in document order.
    The service refuses these in a spec it is sent: it cannot see the caller's files."""
    stack: list[tuple[Any, str, tuple, bool]] = [(data, "", (), False)]
    while stack:
        node, pointer, loc, schema = stack.pop()
        if isinstance(node, list):
            stack.extend((v, f"{pointer}/{i}", loc + (i,), schema) for i, v in reversed(list(enumerate(node))))
        elif isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and not ref.startswith("#"):
                yield pointer, ref
            children = []
            for key, value in node.items():
                is_data, child_schema = _descend(key, loc, schema)
                if not is_data and key != "$ref":
                    children.append((value, f"{pointer}/{_esc(key)}", loc + (key,), child_schema))
            stack.extend(reversed(children))


def _esc(key: Any) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")


def _is_url(key: str) -> bool:
    return key.startswith(("http://", "https://"))


class _Refused(Exception):
    """A reference the bundler will not follow; the message is the reason."""


def boundary(spec: Path) -> tuple[Path, str]:
    """(the folder a spec's file references must stay in, how to name it in an error)."""
    spec = spec.resolve()
    for folder in spec.parents:
        if (folder / ".git").exists():
            return folder, "the git repository holding the spec"
    here = Path.cwd().resolve()
    if spec.is_relative_to(here):
        return here, "the current folder (the spec is in no git repository)"
    return spec.parent, "the spec's folder (it is in no git repository, nor in the current folder)"


class _Bundler:
    def __init__(self, path: Path, root: dict, allow_remote: bool, fetch: Callable[[str], str]) -> None:
        self.path = path
        self.root_key = str(path.resolve())
        self.boundary, self.boundary_name = boundary(path)
        self.root = root
        self.allow_remote = allow_remote
        self.fetch = fetch
        self.docs: dict[str, Any] = {self.root_key: root}
        self.swagger2 = "swagger" in root
        self.placed: dict[tuple[str, str], str] = {}  # (document, pointer) -> the internal reference
        self.added: dict[str, dict[str, Any]] = {}  # kind -> name -> content, in the order placed
        self.taken: dict[str, set[str]] = {}
        self.claimed: dict[tuple, tuple[str, str]] = {}  # a root component that is only a reference
        self.inlining: list[tuple[str, str]] = []
        self.files: list[str] = []
        self.changed = False

    # --- where things go --------------------------------------------------------------------

    def home(self, kind: str) -> tuple[str, ...] | None:
        if self.swagger2:
            return _SWAGGER2_HOMES.get(kind)
        return ("components", kind) if kind in _OAS3_KINDS else None

    def section(self, data: dict, kind: str) -> dict:
        """The mapping of ``kind`` components in ``data`` ({} when it has none, or no home)."""
        home = self.home(kind)
        if home is None:
            return {}
        node: Any = data
        for key in home:
            node = node.get(key) if isinstance(node, dict) else None
        return node if isinstance(node, dict) else {}

    @staticmethod
    def kind_at(loc: tuple, schema: bool) -> str | None:
        """The component kind of a reference standing at ``loc`` in the bundled document."""
        if schema:
            return "schemas"
        last = loc[-1] if loc else None
        parent = loc[-2] if len(loc) >= 2 else None
        if parent in ("parameters", "responses", "headers", "examples", "links", "callbacks", "securitySchemes"):
            return parent
        if last == "requestBody":
            return "requestBodies"
        return None  # path items, extensions, anything without a home: written in place

    # --- names --------------------------------------------------------------------------------

    def shown(self, key: str) -> str:
        if key == self.root_key:
            return str(self.path)
        if _is_url(key):
            return key
        relative = os.path.relpath(key, os.path.dirname(self.root_key))
        return os.path.normpath(os.path.join(os.path.dirname(str(self.path)), relative))

    def name_for(self, kind: str, target: tuple[str, str]) -> str:
        doc, pointer = target
        clean = lambda s: re.sub(r"[^A-Za-z0-9._-]+", "_", s).strip("_")  # noqa: E731 (the components key rule)
        last = pointer.rsplit("/", 1)[-1].replace("~1", "/").replace("~0", "~") if pointer.strip("/") else ""
        stem = clean(PurePosixPath(urlsplit(doc).path).stem if _is_url(doc) else Path(doc).stem)
        base = clean(last) or stem or kind.rstrip("s")
        taken = self.taken.setdefault(kind, set(self.section(self.root, kind)))
        candidates = [base] + ([f"{stem}_{base}"] if stem and stem != base else [])
        name = next((c for c in candidates if c not in taken), None)
        n = 2
        while name is None:
            name = f"{base}_{n}" if f"{base}_{n}" not in taken else None
            n += 1
        taken.add(name)
        return name

    def internal(self, kind: str, name: str) -> str:
        return "#/" + "/".join(_esc(k) for k in (*self.home(kind), name))

    # --- references ---------------------------------------------------------------------------

    def target(self, doc: str, ref: str) -> tuple[str, str]:
        """(document, JSON pointer) that ``ref`` names, read in document ``doc``."""
        address, _, fragment = ref.partition("#")
        pointer = unquote(fragment)
        if pointer and not pointer.startswith("/"):
            raise _Refused(f"the fragment #{fragment} is not a JSON pointer (it must start with #/)")
        if not address:
            return doc, pointer
        scheme = (_SCHEME.match(address) or [None, None])[1]
        if _is_url(doc):
            joined = urljoin(doc, address)
            if not _is_url(joined):
                raise _Refused("a remote document may only reference other http(s) URLs")
            return joined.partition("#")[0], pointer
        if scheme in ("http", "https"):
            return address, pointer
        if scheme == "file":
            local = url2pathname(urlsplit(address).path)
        elif scheme:
            raise _Refused(f"{scheme}: references are not supported (only files, and http(s) URLs "
                           "with --allow-remote-refs)")
        else:
            local = unquote(address)
        return self.inside((Path(doc).parent / local).resolve()), pointer

    def inside(self, file: Path) -> str:
        """``file`` (resolved: links followed) when it is inside the boundary and not in ``.git/``."""
        if not file.is_relative_to(self.boundary):
            raise _Refused(f"{file} is outside {self.boundary}, {self.boundary_name}; a reference may only "
                           "name a file inside it")
        if ".git" in file.relative_to(self.boundary).parts:
            raise _Refused(f"{file} is inside .git/, which is never read")
        return str(file)

    def error(self, doc: str, src: str, ref: str, reason: str) -> BundleError:
        return BundleError(f"{self.shown(doc)}: $ref {ref} at {src or '/'}: {reason}")

    def load(self, key: str, doc: str, src: str, ref: str) -> Any:
        if key in self.docs:
            return self.docs[key]
        if _is_url(key) and not self.allow_remote:
            raise self.error(doc, src, ref, "remote references are not fetched; pass --allow-remote-refs "
                                            "to fetch them")
        from . import specload

        try:
            text = self.fetch(key) if _is_url(key) else read_text(Path(key))
            data = specload.load(text).data
        except Unreadable as exc:
            raise self.error(doc, src, ref, str(exc)) from None
        except specload.SpecError as exc:
            raise self.error(doc, src, ref, f"{self.shown(key)}: {exc}") from None
        self.docs[key] = data
        self.files.append(self.shown(key))
        return data

    def content(self, target: tuple[str, str], doc: str, src: str, ref: str, loc: tuple, schema: bool) -> Any:
        """The target's node, its own references bundled, as it lands at ``loc``."""
        key, pointer = target
        node = self.load(key, doc, src, ref)
        for raw in pointer.split("/")[1:] if pointer else ():
            part = raw.replace("~1", "/").replace("~0", "~")
            if isinstance(node, dict) and part in node:
                node = node[part]
            elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
                node = node[int(part)]
            else:
                raise self.error(doc, src, ref, f"{self.shown(key)} has nothing at {pointer}")
        self.changed = True
        return self.walk(node, key, pointer, loc, schema)

    def reference(self, node: dict, doc: str, src: str, loc: tuple, schema: bool) -> Any:
        ref = node["$ref"]
        siblings = {k: self.walk(v, doc, f"{src}/{_esc(k)}", loc + (k,), schema)
                    for k, v in node.items() if k != "$ref"}
        if doc == self.root_key and loc in self.claimed:
            return _with_siblings(self.content(self.claimed[loc], doc, src, ref, loc, schema), siblings)
        if doc == self.root_key and ref.startswith("#"):
            return {"$ref": ref, **siblings}
        try:
            target = self.target(doc, ref)
        except _Refused as exc:
            raise self.error(doc, src, ref, str(exc)) from None
        if target[0] == self.root_key:
            self.changed = True
            new = "#" + ref.partition("#")[2]
        elif target in self.placed:
            new = self.placed[target]
        else:
            kind = self.kind_at(loc, schema)
            if kind is None or self.home(kind) is None:
                if target in self.inlining:
                    raise self.error(doc, src, ref, "a cycle of references through a part that has no "
                                                    "components section (written in place) cannot be bundled")
                self.inlining.append(target)
                try:
                    inlined = self.content(target, doc, src, ref, loc, schema)
                finally:
                    self.inlining.pop()
                return _with_siblings(inlined, siblings)
            name = self.name_for(kind, target)
            new = self.placed[target] = self.internal(kind, name)
            section = self.added.setdefault(kind, {})
            section[name] = None  # its place in the order, before anything it references
            section[name] = self.content(target, doc, src, ref, (*self.home(kind), name), kind == "schemas")
        return {"$ref": new, **siblings}

    def walk(self, node: Any, doc: str, src: str, loc: tuple, schema: bool) -> Any:
        if isinstance(node, list):
            return [self.walk(v, doc, f"{src}/{i}", loc + (i,), schema) for i, v in enumerate(node)]
        if not isinstance(node, dict):
            return node
        if isinstance(node.get("$ref"), str):
            return self.reference(node, doc, src, loc, schema)
        out = {}
        for key, value in node.items():
            data, child_schema = _descend(key, loc, schema)
            out[key] = value if data else self.walk(value, doc, f"{src}/{_esc(key)}", loc + (key,), child_schema)
        return out

    def claim_root_components(self) -> None:
        """``components/<kind>/<name>: {$ref: other-file}`` keeps its name for the target."""
        for kind in _OAS3_KINDS:
            home = self.home(kind)
            if home is None:
                continue
            for name, value in self.section(self.root, kind).items():
                if not (isinstance(value, dict) and set(value) == {"$ref"} and isinstance(value["$ref"], str)
                        and not value["$ref"].startswith("#")):
                    continue
                try:
                    target = self.target(self.root_key, value["$ref"])
                except _Refused:
                    continue  # the walk reports it, with where it stands
                if target[0] != self.root_key and target not in self.placed:
                    self.placed[target] = self.internal(kind, name)
                    self.claimed[(*home, name)] = target

    def run(self) -> dict:
        self.claim_root_components()
        out = self.walk(self.root, self.root_key, "", (), False)
        for kind, entries in self.added.items():
            node = out
            for key in self.home(kind):
                node = node.setdefault(key, {})
            for name, value in entries.items():
                node.setdefault(name, value)
        return out
