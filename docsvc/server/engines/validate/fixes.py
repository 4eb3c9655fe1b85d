"""Mechanical fixes: changes that are safe to make without knowing anything about the API.

Each fix names the rule it answers. What is deliberately not fixed: a missing licence (one cannot
be invented) and unused components (deleting them may break references from other files or
tools, so it is left to a person) — both stay findings, with a notice saying why.
"""

from __future__ import annotations

import re
from typing import Any

from .content import humanize, words
from .walker import HTTP_METHODS, Resolver, esc, is_ref, listed

_TEMPLATE = re.compile(r"\{([a-zA-Z0-9_.-]+)\}+")


def operation_id_for(method: str, path: str) -> str:
    """``get`` + ``/pets/{petId}`` -> ``getPetsByPetId`` (camelCase, URL-safe)."""
    parts: list[str] = []
    for segment in [s for s in path.split("/") if s]:
        if segment.startswith("{"):
            ws = words(segment) or ["param"]
            parts.append("By" + "".join(w.capitalize() for w in ws))
        else:
            parts.append("".join(w.capitalize() for w in words(segment)))
    name = method.lower() + "".join(parts)
    return re.sub(r"[^A-Za-z0-9]", "", name) or method.lower()


def as_read(pointer: str, renamed: list[tuple[str, str]]) -> str:
    """``pointer`` (in the document with the renames ``renamed`` made, each ``(new, old)`` in order)
    in the document as it was read: the renames undone, newest first, so a rename inside a renamed
    member is undone too."""
    for new, old in reversed(renamed):
        if pointer == new or pointer.startswith(new + "/"):
            pointer = old + pointer[len(new):]
    return pointer


def apply(data: dict) -> tuple[list[dict], list[dict], list[str]]:
    """Fix ``data`` in place; return (fixes, notices, origins) — notices are what was left, and why.

    A fix's pointer names its place in the fixed document. ``origins`` (one per fix) names the
    place in ``data`` as it was read that the fix changes, for the fix's line in the user's file:
    the fix's pointer with the renames undone (a member the fix adds is located at its nearest
    existing ancestor), or the part of the spec that called for it when the fix adds something the
    file has no place for yet (a tag declared at the top level: where an operation uses it)."""
    fixes: list[dict] = []
    notices: list[dict] = []
    origins: list[str] = []
    renamed: list[tuple[str, str]] = []
    resolver = Resolver(data)
    oas2 = "swagger" in data

    def fixed(rule: str, pointer: str, description: str, cause: str | None = None) -> None:
        """``cause``: the pointer (in the document as it is now) of what called for the fix, when
        that, not ``pointer``, is where the user's file should be pointed at."""
        fixes.append({"rule": rule, "pointer": pointer, "description": description})
        origins.append(as_read(cause or pointer, renamed))

    # servers: trailing slashes
    def servers(owner: Any, pointer: str) -> None:
        if isinstance(owner, dict) and isinstance(owner.get("servers"), list):
            for i, server in enumerate(owner["servers"]):
                url = server.get("url") if isinstance(server, dict) else None
                if isinstance(url, str) and url.endswith("/") and url != "/":
                    server["url"] = url.rstrip("/") or "/"
                    fixed("no-server-trailing-slash", f"{pointer}/servers/{i}/url",
                          f"Removed the trailing slash from the server URL {url!r}.")

    servers(data, "")
    paths = data.get("paths")
    if isinstance(paths, dict):
        # paths: trailing slashes (the key is renamed in place, keeping the order)
        renames = {}
        for key in list(paths):
            new = key.rstrip("/") if key.endswith("/") and key != "/" else key
            if new != key and new and new not in paths and new not in renames.values():
                renames[key] = new
        if renames:
            items = [(renames.get(k, k), v) for k, v in paths.items()]
            paths.clear()
            paths.update(items)
            for old, new in renames.items():
                renamed.append((f"/paths/{esc(new)}", f"/paths/{esc(old)}"))
                fixed("no-path-trailing-slash", f"/paths/{esc(new)}", f"Renamed the path {old!r} to {new!r}.")
        used_ids = {op["operationId"] for item in paths.values() if isinstance(item, dict)
                    for m, op in item.items()
                    if m in HTTP_METHODS and isinstance(op, dict) and isinstance(op.get("operationId"), str)}
        for path, item in paths.items():
            if not isinstance(item, dict) or is_ref(item):
                continue
            item_pointer = f"/paths/{esc(path)}"
            servers(item, item_pointer)
            template = [m.group(1) for m in _TEMPLATE.finditer(path)]
            ops = [(m, item[m]) for m in HTTP_METHODS if isinstance(item.get(m), dict)]
            # path parameters: declared in: path but not required: true
            for owner, owner_pointer in [(item, item_pointer)] + [(op, f"{item_pointer}/{m}") for m, op in ops]:
                for i, p in enumerate(listed(owner, "parameters")):
                    if isinstance(p, dict) and not is_ref(p) and p.get("in") == "path" and p.get("required") is not True:
                        p["required"] = True
                        fixed("struct", f"{owner_pointer}/parameters/{i}/required",
                              f"Set `required: true` on the path parameter {p.get('name')!r} (path parameters "
                              "must be required).")
            # template parameters no operation declares -> one path-level parameter
            declared_path = _path_names(item.get("parameters"), resolver)
            missing: list[str] = []
            for name in template:
                if name in declared_path or name in missing:
                    continue
                if not ops or any(name not in _path_names(op.get("parameters"), resolver) for _, op in ops):
                    missing.append(name)
            for name in missing:
                param: dict[str, Any] = {"name": name, "in": "path", "required": True}
                if oas2:
                    param["type"] = "string"
                else:
                    param["schema"] = {"type": "string"}
                params = item.setdefault("parameters", [])
                if not isinstance(params, list):
                    continue
                params.append(param)
                fixed("path-parameters-defined", f"{item_pointer}/parameters/{len(params) - 1}",
                      f"Declared the path parameter {{{name}}} of {path!r} at path level "
                      "(in: path, required: true, type string).")
            for method, op in ops:
                op_pointer = f"{item_pointer}/{method}"
                servers(op, op_pointer)
                if not (isinstance(op.get("operationId"), str) and op["operationId"]):
                    base = operation_id_for(method, path)
                    candidate, n = base, 2
                    while candidate in used_ids:
                        candidate, n = f"{base}{n}", n + 1
                    used_ids.add(candidate)
                    op["operationId"] = candidate
                    fixed("operation-operationId", f"{op_pointer}/operationId",
                          f"Set operationId {candidate!r}, derived from {method.upper()} {path}.")
                responses = op.get("responses")
                if isinstance(responses, dict):
                    for code, response in responses.items():
                        if isinstance(response, dict) and not is_ref(response) and "description" not in response:
                            response["description"] = _status_text(str(code))
                            fixed("struct", f"{op_pointer}/responses/{esc(code)}/description",
                                  f"Added the required description {response['description']!r} to the {code} response.")
                if isinstance(responses, dict) and not any(re.match(r"^4[0-9Xx]{2}$", str(c)) for c in responses):
                    responses["400"] = {"description": "Bad request: the request was not valid."}
                    fixed("operation-4xx-response", f"{op_pointer}/responses/400",
                          "Added a `400` response (with a description) so the operation documents a client error.")
    # tags: descriptions, and tags operations use but the top level does not declare
    tags = data.get("tags")
    declared: dict[str, dict] = {}
    if isinstance(tags, list):
        for i, tag in enumerate(tags):
            if isinstance(tag, dict) and isinstance(tag.get("name"), str):
                declared.setdefault(tag["name"], tag)
                if not (isinstance(tag.get("description"), str) and tag["description"].strip()):
                    tag["description"] = _tag_description(tag["name"])
                    fixed("tag-description", f"/tags/{i}/description",
                          f"Added a description to the tag {tag['name']!r}, derived from its name.")
    if isinstance(paths, dict):
        for path, item in paths.items():
            if not isinstance(item, dict):
                continue
            for m in HTTP_METHODS:
                op = item.get(m)
                used = op.get("tags") if isinstance(op, dict) and isinstance(op.get("tags"), list) else []
                for j, name in enumerate(used):
                    if isinstance(name, str) and name not in declared:
                        tag = {"name": name, "description": _tag_description(name)}
                        declared[name] = tag
                        data.setdefault("tags", [])
                        if isinstance(data["tags"], list):
                            data["tags"].append(tag)
                            fixed("tag-description", f"/tags/{len(data['tags']) - 1}",
                                  f"Declared the tag {name!r} at the top level with a description derived from "
                                  "its name.",
                                  cause=f"/paths/{esc(path)}/{m}/tags/{j}")
    info = data.get("info")
    if isinstance(info, dict) and not info.get("license"):
        notices.append({"rule": "info-license", "pointer": "/info",
                        "description": "Not fixed: a licence cannot be invented; add `info.license` yourself."})
    return fixes, notices, origins


def unused_components_notice(count: int) -> dict:
    return {"rule": "no-unused-components", "pointer": "/components",
            "description": f"Not fixed: {count} unused component(s) left in place — deleting is not "
                           "mechanical-safe (other files, tools or future references may use them)."}


def _status_text(code: str) -> str:
    import http

    try:
        return http.HTTPStatus(int(code)).phrase
    except ValueError:
        return "Default response" if code == "default" else f"{code} response"


def _tag_description(name: str) -> str:
    return f"Operations about {humanize(name)}."


def _path_names(params: Any, resolver: Resolver) -> set[str]:
    names = set()
    for p in params or [] if isinstance(params, list) else []:
        p = resolver.node(p["$ref"]) if is_ref(p) else p
        if isinstance(p, dict) and p.get("in") == "path" and isinstance(p.get("name"), str):
            names.add(p["name"])
    return names
