"""The operation walk: operations grouped by tag, each with its parameters (path-level and
operation-level merged), request body, responses per status and media type, callbacks, webhooks,
security and a curl sample.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from ..doc import Admonition, BulletList, Code, CodeBlock, Heading, Inline, Link, Para, Strong, Table
from ..examples import to_json
from .common import (MAX_ENUM_VALUES, _CALLBACKS, _EXAMPLE_REQUEST, _FORM_TYPES, _METHOD_SET, _MISSING, _PARAMETERS,
                     _REQUEST_BODY, _RESPONSES, _WEBHOOK, _code_language, _codes, _is_json_media, _joined, _line,
                     _media_lead, _send, _shell_quote, _text_blocks, _value_text)


class Operations:
    """The part of the builder that walks the operations."""

    def _groups(self) -> tuple[dict, list]:
        groups: dict[Any, dict] = {}
        order: list[Any] = []
        declared = self.root.get("tags")
        for tag in declared if isinstance(declared, list) else []:
            if isinstance(tag, dict) and tag.get("name") is not None:
                name = str(tag["name"])
                if name not in groups:
                    groups[name] = {"title": name, "tag": tag, "ops": [], "links": [], "declared": True,
                                    "unresolved": []}
                    order.append(name)
        paths = self.root.get("paths")
        for path, item in (paths.items() if isinstance(paths, dict) else ()):
            if path.startswith("x-"):
                continue
            item, ref = self.deref(item)
            if not isinstance(item, dict):
                if ref:
                    self._group("default", groups, order)["unresolved"].append((path, ref))
                continue
            for method, op in item.items():
                if method not in _METHOD_SET or not isinstance(op, dict):
                    continue
                tags = _tag_names(op.get("tags"))
                entry = (path, method, op, item)
                if not tags:
                    self._group("default", groups, order)["ops"].append(entry)
                    continue
                self._group(tags[0], groups, order, tagged=True)["ops"].append(entry)
                for other in tags[1:]:
                    self._group(other, groups, order, tagged=True)["links"].append(entry)
        for tag in order:
            group = groups[tag]
            group["anchor"] = self.anchors.make("tag", tag)
        # Operation anchors in document order, before any link to them is made.
        for tag in order:
            for path, method, _, _ in groups[tag]["ops"]:
                self.anchors.make(method, path)
        order = [t for t in order if groups[t]["ops"] or groups[t]["links"] or groups[t].get("unresolved")]
        return groups, order

    @staticmethod
    def _group(name: str, groups: dict, order: list, tagged: bool = False) -> dict:
        """The group of a tag; ``declared`` when a tag (not the default group of untagged ones) names it."""
        group = groups.get(name)
        if group is None:
            group = groups[name] = {"title": name, "tag": None, "ops": [], "links": [], "declared": False}
            order.append(name)
        group["declared"] = group["declared"] or tagged
        group.setdefault("unresolved", [])
        return group

    def _tag_section(self, group: dict) -> int:
        add = self.blocks.append
        add(Heading(2, group["title"], group["anchor"]))
        tag = group["tag"]
        if isinstance(tag, dict):
            self.blocks.extend(_text_blocks(tag.get("description")))
            docs = tag.get("externalDocs")
            if isinstance(docs, dict) and docs.get("url"):
                add(Para(["See also: ", _line(docs.get("description")) or "documentation", " (",
                          str(docs["url"]), ")."]))
        for path, ref in group.get("unresolved", []):
            add(Para(["The operations of ", Code(path), " are in ", Code(ref), ", which is not loaded."]))
        if group["links"]:
            add(Para(["Also in this group (described under their first tag):"]))
            add(BulletList([[Link(f"{method.upper()} {path}", self.anchors.make(method, path))]
                            + ([" — ", _line(op["summary"])] if op.get("summary") else [])
                            for path, method, op, _ in group["links"]]))
        for path, method, op, item in group["ops"]:
            self.names.append(f"{method.upper()} {path}")
            self.operation(path, method, op, item, level=3, anchor=self.anchors.make(method, path))
        return len(group["ops"])

    def operation(self, path: str, method: str, op: dict, item: dict, level: int, anchor: str,
                  webhook: str | None = None, sample: bool = True) -> None:
        """An operation; webhooks and callbacks (requests the API sends) have no curl sample and
        no inherited security requirement."""
        add = self.blocks.append
        upper = method.upper()
        title = _line(op.get("summary")) or _line(op.get("operationId")) or (
            f"{webhook} {upper}" if webhook else f"{upper} {path}")
        add(Heading(level, title, anchor))
        # The method and path (the name of a webhook) as code: every writer keeps code as it is.
        facts: list[Inline] = ([_WEBHOOK, " ", Code(f"{upper} {webhook}")] if webhook is not None
                               else [Code(f"{upper} {path}")])
        if op.get("operationId"):
            facts += [" — operation ID ", Code(str(op["operationId"]))]
        tags = op.get("tags")
        if isinstance(tags, list) and len(tags) > 1:
            facts += ["; tags: "] + _joined([[Link(t, self.anchors.make("tag", t))] for t in _tag_names(tags)], ", ")
        add(Para(facts))
        if op.get("deprecated") is True:
            add(Admonition("warning", ["Deprecated: this operation may be removed in a future version."]))
        self.blocks.extend(_text_blocks(op.get("description")))
        docs = op.get("externalDocs")
        if isinstance(docs, dict) and docs.get("url"):
            add(Para(["See also: ", _line(docs.get("description")) or "documentation", " (", str(docs["url"]), ")."]))
        own_servers = op.get("servers") or item.get("servers")
        if not self.v2 and isinstance(own_servers, list) and own_servers:
            add(Para(["Servers: "] + _joined([[Code(self._server_url(s))] for s in own_servers
                                              if isinstance(s, dict)], ", ")))

        params = self._parameters(item, op)
        body_param = form_params = None
        if self.v2:
            body_param = next((p for p, _ in params if p.get("in") == "body"), None)
            form_params = [p for p, _ in params if p.get("in") == "formData"]
            params = [(p, link) for p, link in params if p.get("in") not in ("body", "formData")]
        if params:
            add(self.label(_PARAMETERS))
            add(Table(["Name", "In", "Type", "Required", "Default", "Enum", "Description"],
                      [self.parameter_row(p, link) for p, link in params]))

        body = self._request_body(op, body_param, form_params)
        security = op.get("security") if isinstance(op.get("security"), list) else (
            self.global_security if sample else None)
        if security is not None:
            self.blocks.extend(self.security_blocks(security))
        if self.v2:
            produces = op.get("produces") or self.root.get("produces")
            self._produces = produces if isinstance(produces, list) else []
        self._responses(op)
        self._produces = self._global_produces()
        if sample:
            add(self.label(_EXAMPLE_REQUEST))
            add(CodeBlock("bash", self.curl(path, upper, op, item, params, body, security)))
        callbacks = op.get("callbacks")
        if isinstance(callbacks, dict) and callbacks:
            self._callbacks(callbacks, anchor, level)

    def _parameters(self, item: dict, op: dict) -> list[tuple[dict, Link | Code | None]]:
        merged: dict[tuple[str, str], tuple[dict, Any]] = {}
        for source in (item.get("parameters"), op.get("parameters")):
            if not isinstance(source, list):
                continue
            for raw in source:
                param, ref = self.deref(raw)
                if param is None and ref:
                    merged[("$ref", ref)] = ({"name": ref, "in": "?", "$unresolved": ref}, Code(ref))
                    continue
                if not isinstance(param, dict):
                    continue
                link = self.shared_link(ref, param) if ref else None
                merged[(str(param.get("name")), str(param.get("in")))] = (param, link)
        return list(merged.values())

    def parameter_row(self, param: dict, link: Any) -> list[list[Inline]]:
        """A row of a parameters table; the same (shared) parameter gives the same row object."""
        key = (id(param), link.anchor if isinstance(link, Link) else id(link))
        row = self._param_rows.get(key)
        if row is None:
            row = self._param_rows[key] = self._parameter_row(param, link)
        return row

    def _parameter_row(self, param: dict, link: Any) -> list[list[Inline]]:
        if "$unresolved" in param:
            return [[link], ["?"], [], [], [], [], ["defined in another file, which is not loaded"]]
        where = sys.intern(str(param.get("in") or ""))
        name_cell: list[Inline] = [link] if isinstance(link, Link) else [self.code(str(param.get("name")))]
        if self.v2:
            schema: Any = param
        else:
            schema = param.get("schema")
            content = param.get("content")
            if schema is None and isinstance(content, dict) and content:
                media, obj = next(iter(content.items()))
                schema = obj.get("schema") if isinstance(obj, dict) else None
        type_cell = self.type_parts(schema) if schema is not None else ["any"]
        if self.v2 and param.get("type") == "array" and param.get("collectionFormat"):
            type_cell.append(f" ({param['collectionFormat']})")
        required = param.get("required") is True or where == "path"
        target = schema if isinstance(schema, dict) else {}
        if isinstance(target.get("$ref"), str):
            target = self.resolve(target["$ref"])[0] or {}
        default = param.get("default", target.get("default", _MISSING)) if self.v2 else target.get("default", _MISSING)
        enum = target.get("enum")
        if not isinstance(enum, list):
            items = target.get("items")
            enum = items.get("enum") if isinstance(items, dict) else None
        description: list[Inline] = [_line(param.get("description"))] if param.get("description") else []
        if param.get("deprecated") is True:
            description.append((" " if description else "") + "Deprecated.")
        example = self._param_example(param, schema, generate=False)
        if example is not _MISSING:
            description += [(" " if description else "") + "Example: ", Code(_value_text(example)), "."]
        return self.row(name_cell, [where], type_cell, ["yes" if required else "no"],
                        [self.code(_value_text(default))] if default is not _MISSING else [],
                        _codes(enum, MAX_ENUM_VALUES, self.code) if isinstance(enum, list) and enum else [],
                        description)

    def _param_example(self, param: dict, schema: Any, generate: bool) -> Any:
        if "example" in param:
            return param["example"]
        if "x-example" in param:
            return param["x-example"]
        examples = param.get("examples")
        if isinstance(examples, dict) and examples:
            first, _ = self.deref(next(iter(examples.values())))
            if isinstance(first, dict) and "value" in first:
                return first["value"]
        if isinstance(schema, dict) and schema is not param:
            target = schema
            if isinstance(schema.get("$ref"), str):
                target = self.resolve(schema["$ref"])[0] or {}
            if isinstance(target, dict) and "example" in target:
                return target["example"]
        if not generate:
            return _MISSING
        return self.examples.build(schema, "request") if schema is not None else "value"

    def _request_body(self, op: dict, body_param: dict | None, form_params: list | None) -> dict | None:
        """Renders the request body; returns what the curl sample needs: media type and example text."""
        add = self.blocks.append
        if self.v2:
            consumes = op.get("consumes") or self.root.get("consumes") or []
            consumes = [str(c) for c in consumes] if isinstance(consumes, list) else []
            if body_param is not None:
                head: list[Inline] = [_REQUEST_BODY]
                if body_param.get("required") is True:
                    head.append(" (required)")
                add(Para(head))
                self.blocks.extend(_text_blocks(body_param.get("description")))
                medias = consumes or ["application/json"]
                schema = body_param.get("schema")
                self.blocks.extend(self.schema_blocks(
                    schema, _media_lead(medias)))
                media = next((m for m in medias if _is_json_media(m)), medias[0])
                given = body_param.get("x-example", _MISSING)
                if given is not _MISSING:
                    text = self.given_text(given, _code_language(media))
                    blocks = [self.label("Example:"), CodeBlock(_code_language(media), text)]
                else:
                    blocks, text = self.example_blocks(media, {}, schema, "request")
                self.blocks.extend(blocks)
                return {"media": media, "example": text}
            if form_params:
                forms = [c for c in consumes if c in _FORM_TYPES]
                media = forms[0] if forms else ("multipart/form-data" if any(
                    p.get("type") == "file" for p in form_params) else "application/x-www-form-urlencoded")
                props = {str(p.get("name")): {k: v for k, v in p.items() if k not in ("name", "in", "required")}
                         for p in form_params}
                schema = {"type": "object", "properties": props,
                          "required": [str(p.get("name")) for p in form_params if p.get("required") is True]}
                add(Para([_REQUEST_BODY, " (form fields)"]))
                add(Para(["Media type ", Code(media), ", form fields:"]))
                table = self.properties_table(schema)
                if table is not None:
                    add(table)
                example = self.examples.build(schema, "request")
                return {"media": media, "example": to_json(example), "value": example}
            return None
        raw = op.get("requestBody")
        if raw is None:
            return None
        body, ref = self.deref(raw)
        head = [_REQUEST_BODY]
        if body is None:
            add(Para(head + [": defined in ", Code(ref or "?"), ", which is not loaded."]))
            return None
        if not isinstance(body, dict):
            return None
        if body.get("required") is True:
            head.append(" (required)")
        link = self.shared_link(ref, body) if ref else None
        if link is not None:
            add(Para(head + [": ", link, "."] + ([" ", _line(body["description"])] if body.get("description") else [])))
            return self._body_sample(body)
        add(Para(head))
        self.blocks.extend(_text_blocks(body.get("description")))
        sample = None  # for curl: the first JSON media type, else the first one
        content = body.get("content")
        for media, obj in (content.items() if isinstance(content, dict) else ()):
            text = self.media_blocks(str(media), obj, "request")
            if sample is None or (not _is_json_media(sample["media"]) and _is_json_media(str(media))):
                sample = {"media": str(media), "example": text}
        return sample

    def _body_sample(self, body: dict) -> dict | None:
        content = body.get("content")
        if not isinstance(content, dict) or not content:
            return None
        media = next((m for m in content if _is_json_media(m)), next(iter(content)))
        obj = content[media] if isinstance(content[media], dict) else {}
        blocks, text = self.example_blocks(str(media), obj, obj.get("schema"), "request")
        return {"media": str(media), "example": text}

    def _responses(self, op: dict) -> None:
        responses = op.get("responses")
        if not isinstance(responses, dict) or not responses:
            return
        add = self.blocks.append
        add(self.label(_RESPONSES))
        last_ref = last = None  # statuses in a row that share one shared response share its line
        for status, raw in responses.items():
            status = str(status)
            if status.startswith("x-"):
                continue
            response, ref = self.deref(raw)
            head: list[Inline] = [self._status(status)]
            if response is None:
                add(Para(head + [": defined in ", Code(ref or "?"), ", which is not loaded."]))
                last_ref = None
                continue
            if not isinstance(response, dict):
                continue
            link = self.shared_link(ref, response) if ref else None
            if link is not None and ref == last_ref and last is not None:
                at = sum(1 for p in last.parts if isinstance(p, Strong)) * 2 - 1  # after the last status
                last.parts[at:at] = [", ", self._status(status)]
                continue
            description = _line(response.get("description"))
            if link is not None:
                last = Para(head + [f": {description} (see " if description else " (see ", link, ")"])
                last_ref = ref
                add(last)
                continue
            last_ref = None
            add(Para(head + [f": {description}"] if description else head))
            self.response_body(response)

    def _status(self, status: str) -> Strong:
        strong = self._statuses.get(status)
        if strong is None:
            strong = self._statuses[status] = Strong(status)
        return strong

    def response_body(self, response: dict) -> None:
        add = self.blocks.append
        headers = response.get("headers")
        if isinstance(headers, dict) and headers:
            rows = []
            for name, header in headers.items():
                header, ref = self.deref(header)
                if not isinstance(header, dict):
                    rows.append([[Code(str(name))], [Code(ref or "?")], []])
                    continue
                schema = header if self.v2 else header.get("schema")
                rows.append([[Code(str(name))], self.type_parts(schema) if schema is not None else ["any"],
                             self.describe(header) if self.v2 else [_line(header.get("description"))]
                             if header.get("description") else []])
            add(Para(["Headers:"]))
            add(Table(["Header", "Type", "Description"], rows))
        if self.v2:
            schema = response.get("schema")
            if schema is None:
                return
            produces = [str(p) for p in (self._produces or ["application/json"])]
            self.blocks.extend(self.schema_blocks(
                schema, _media_lead(produces)))
            examples = response.get("examples")
            if isinstance(examples, dict) and examples:
                for media, value in examples.items():
                    language = _code_language(str(media))
                    add(Para(["Example (", Code(str(media)), "):"]))
                    add(CodeBlock(language, self.given_text(value, language)))
            else:
                media = next((m for m in produces if _is_json_media(m)), produces[0])
                self.blocks.extend(self.example_blocks(media, {}, schema, "response")[0])
            return
        content = response.get("content")
        for media, obj in (content.items() if isinstance(content, dict) else ()):
            self.media_blocks(str(media), obj, "response")
        links = response.get("links")
        if isinstance(links, dict) and links:
            add(Para(["Links: "] + _joined([[Code(str(k))] for k in links], ", ")))

    def _global_produces(self) -> list:
        produces = self.root.get("produces") if self.v2 else None
        return produces if isinstance(produces, list) else []

    def _callbacks(self, callbacks: dict, anchor: str, level: int) -> None:
        self.blocks.append(self.label(_CALLBACKS))
        for name, raw in callbacks.items():
            callback, ref = self.deref(raw)
            if not isinstance(callback, dict):
                self.blocks.append(Para(["Callback ", Code(str(name)), ": defined in ", Code(ref or "?"),
                                         ", which is not loaded."]))
                continue
            for expression, raw_item in callback.items():
                item, item_ref = self.deref(raw_item)
                if not isinstance(item, dict):
                    continue
                for method, cb_op in item.items():
                    if method in _METHOD_SET and isinstance(cb_op, dict):
                        self.operation(str(expression), method, cb_op, item, min(level + 1, 6),
                                       self.anchors.make(anchor, "callback", str(name), str(expression), method),
                                       sample=False)

    def curl(self, path: str, method: str, op: dict, item: dict, params: list, body: dict | None,
             security: list | None) -> str:
        base = self.server_urls(op, item)[0]
        url = path if base in ("", "/") else base.rstrip("/") + path
        query: list[str] = []
        options: list[str] = []
        for param, _ in params:
            if param.get("required") is not True or "$unresolved" in param:
                continue
            where = param.get("in")
            if where not in ("query", "header", "cookie"):
                continue
            schema = param if self.v2 else param.get("schema")
            value = self._param_example(param, schema, generate=True)
            if isinstance(value, list):
                value = ",".join(_value_text(v) for v in value)
            text = _value_text(value)
            _send(where, str(param.get("name")), text, query, options)
        for requirement in security or []:
            if isinstance(requirement, dict):
                for name in requirement:
                    self._auth_options(str(name), query, options)
                break
        accept = self._accept(op)
        if accept:
            options.append(f"-H {_shell_quote('Accept: ' + accept)}")
        if body is not None:
            media = body["media"]
            example = body.get("example")
            if media in _FORM_TYPES:
                value = body.get("value")
                if value is None and isinstance(example, str):
                    try:
                        value = json.loads(example)
                    except ValueError:
                        value = None
                flag = "-F" if media == "multipart/form-data" else "--data-urlencode"
                if isinstance(value, dict):
                    for key, val in list(value.items())[:8]:
                        if val == "<binary>" and flag == "-F":
                            options.append(f"-F {_shell_quote(f'{key}=@{key}.bin')}")
                        elif not isinstance(val, (dict, list)):
                            options.append(f"{flag} {_shell_quote(f'{key}={_value_text(val)}')}")
                else:
                    options.append(f"-H {_shell_quote('Content-Type: ' + media)}")
            else:
                options.append(f"-H {_shell_quote('Content-Type: ' + media)}")
                if example is not None and _is_json_media(media):
                    options.append(f"-d {_shell_quote(str(example))}")
                elif example is not None:
                    options.append(f"--data-binary {_shell_quote(str(example))}")
                else:
                    options.append("--data-binary @body")
        if query:
            url += ("&" if "?" in url else "?") + "&".join(query)
        lines = [f"curl -X {method} {_shell_quote(url)}"] + options
        return " \\\n  ".join(lines)

    def _auth_options(self, name: str, query: list, options: list) -> None:
        scheme, _ = self.deref(self.security_schemes.get(name))
        if not isinstance(scheme, dict):
            return
        kind = str(scheme.get("type") or "").lower()
        if kind == "apikey":
            _send(scheme.get("in"), str(scheme.get("name") or name), "API_KEY", query, options)
        elif kind == "basic" or (kind == "http" and str(scheme.get("scheme")).lower() == "basic"):
            options.append("-u 'USERNAME:PASSWORD'")
        elif kind == "http" and str(scheme.get("scheme")).lower() != "bearer":
            options.append(f"-H {_shell_quote('Authorization: ' + str(scheme.get('scheme')).title() + ' CREDENTIALS')}")
        elif kind in ("http", "oauth2", "openidconnect"):
            options.append("-H 'Authorization: Bearer TOKEN'")
        elif kind == "mutualtls":
            options.append("--cert client.pem --key client-key.pem")

    def _accept(self, op: dict) -> str | None:
        if self.v2:
            produces = op.get("produces") or self.root.get("produces")
            if isinstance(produces, list) and produces:
                return next((str(p) for p in produces if _is_json_media(str(p))), str(produces[0]))
            return None
        responses = op.get("responses")
        if not isinstance(responses, dict):
            return None
        for status, raw in responses.items():
            if str(status).startswith("2"):
                response, _ = self.deref(raw)
                content = response.get("content") if isinstance(response, dict) else None
                if isinstance(content, dict) and content:
                    return next((m for m in content if _is_json_media(m) and m != "*/*"), next(iter(content)))
                return None
        return None

    def _webhooks(self) -> list[tuple[str, str, dict, dict]]:
        hooks = self.root.get("webhooks")
        out = []
        for name, raw in (hooks.items() if isinstance(hooks, dict) else ()):
            item, _ = self.deref(raw)
            if not isinstance(item, dict):
                continue
            for method, op in item.items():
                if method in _METHOD_SET and isinstance(op, dict):
                    out.append((str(name), method, op, item))
        return out

    def _webhook_section(self, hooks: list, anchor: str) -> None:
        self.blocks.append(Heading(2, "Webhooks", anchor))
        self.blocks.append(Para(["Requests that the API sends to your endpoints."]))
        for name, method, op, item in hooks:
            self.names.append(f"WEBHOOK {name} {method.upper()}")
            self.operation(name, method, op, item, level=3, anchor=self.anchors.make("webhook", name, method),
                           webhook=name, sample=False)


def _tag_names(tags: Any) -> list[str]:
    """An operation's tags as names, each once, in order (a tag that is not a string is its text)."""
    return list(dict.fromkeys(str(t) for t in tags if t is not None)) if isinstance(tags, list) else []
