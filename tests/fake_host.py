"""A fake code host for the tests: the GitHub and GitLab REST endpoints the service uses, served
over real HTTP on loopback, with pull requests, reviews, approvals and GitHub App installations
kept in memory. It checks every request it gets and every response it gives:

- GitHub's against GitHub's published OpenAPI description, ``@octokit/openapi`` (npm, pinned
  ``OCTOKIT_VERSION``): the operation must exist, its path and query parameters and its JSON body
  must match their schemas, and the status and body of the answer must be what the description
  documents for it (an error status it does not list is checked against ``basic-error``). The
  pull requests and reviews it serves are built from the description's own examples.
- GitLab's against the fields GitLab documents, written down in ``GITLAB_SCHEMAS`` below.

What breaks the rules is kept in ``violations``; the ``fake_host`` fixture fails a test that left
any. ``fail(...)`` makes the host answer an error (401, 403, 404, 422, 429, 500, ...) the next time(s)
a request matches; ``log`` holds what was asked.

The description is installed by ``scripts/setup-ci-tools`` into ``.tools/``; ``octokit_description``
installs it itself when it is missing (the suite must not skip these checks).
"""

from __future__ import annotations

import base64
import copy
import datetime as dt
import fcntl
import functools
import http.server
import json
import re
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

ROOT = Path(__file__).resolve().parents[1]
OCTOKIT_VERSION = "23.0.2"
OCTOKIT_DIR = ROOT / ".tools" / "node_modules" / "@octokit" / "openapi"
OCTOKIT = OCTOKIT_DIR / "generated" / "api.github.com.json"


def _installed_version() -> str | None:
    try:
        return json.loads((OCTOKIT_DIR / "package.json").read_text())["version"]
    except (OSError, ValueError, KeyError):
        return None


@functools.lru_cache(maxsize=1)
def octokit_description() -> dict[str, Any]:
    """GitHub's REST description from ``@octokit/openapi`` OCTOKIT_VERSION, installed into .tools/ by
    npm when it is not there yet (under a lock: test processes may ask at once)."""
    if _installed_version() != OCTOKIT_VERSION or not OCTOKIT.is_file():
        tools = ROOT / ".tools"
        tools.mkdir(exist_ok=True)
        with open(tools / ".octokit-install.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if _installed_version() != OCTOKIT_VERSION or not OCTOKIT.is_file():
                if not (tools / "package.json").exists():
                    (tools / "package.json").write_text('{"private": true}\n')
                done = subprocess.run(["npm", "install", "--prefix", str(tools), "--no-audit", "--no-fund",
                                       "--save-exact", f"@octokit/openapi@{OCTOKIT_VERSION}"],
                                      capture_output=True, text=True, timeout=600)
                if done.returncode != 0 or not OCTOKIT.is_file():
                    raise RuntimeError(f"cannot install @octokit/openapi {OCTOKIT_VERSION} into .tools/ "
                                       f"(scripts/setup-ci-tools does it): {done.stderr[-500:]}")
    return json.loads(OCTOKIT.read_text())


# --- GitHub's description as a checker ------------------------------------------------------------

def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


class GitHubSpec:
    """Checks requests and responses against GitHub's OpenAPI description (3.0)."""

    def __init__(self, doc: dict[str, Any]) -> None:
        import openapi_schema_validator as osv
        from referencing import Registry, Resource
        from referencing.jsonschema import DRAFT4

        self.doc = doc
        resource = Resource.from_contents(doc, default_specification=DRAFT4)
        self._registry = Registry().with_resource("urn:github", resource)
        self._validator = osv.OAS30Validator
        self._routes = []
        for template in doc["paths"]:
            pattern = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(template))
            literal = len(re.sub(r"\{\w+\}", "", template))
            self._routes.append((literal, re.compile(f"^{pattern}$"), template))
        self._routes.sort(key=lambda r: -r[0])  # /pulls/comments before /pulls/{pull_number}

    def _at(self, pointer: str) -> Any:
        node: Any = self.doc
        for part in pointer.strip("/").split("/"):
            node = node[int(part)] if isinstance(node, list) else node[part.replace("~1", "/").replace("~0", "~")]
        return node

    def _resolved(self, pointer: str) -> tuple[str, Any]:
        node = self._at(pointer)
        while isinstance(node, dict) and "$ref" in node:
            pointer = node["$ref"][1:]
            node = self._at(pointer)
        return pointer, node

    def errors(self, schema_pointer: str, value: Any) -> list[str]:
        validator = self._validator({"$ref": f"urn:github#{schema_pointer}"}, registry=self._registry)
        return [f"{'/'.join(map(str, e.absolute_path)) or '(body)'}: {e.message}"[:300]
                for e in validator.iter_errors(value)][:5]

    def operation(self, method: str, path: str) -> tuple[str, dict[str, str]] | None:
        for _, pattern, template in self._routes:
            found = pattern.match(path)
            if found and method.lower() in self.doc["paths"][template]:
                return template, {k: unquote(v) for k, v in found.groupdict().items()}
        return None

    @staticmethod
    def _typed(value: str, schema: dict[str, Any]) -> Any:
        kind = schema.get("type")
        if kind == "integer":
            return int(value) if re.fullmatch(r"-?\d+", value) else value
        if kind == "boolean":
            return {"true": True, "false": False}.get(value, value)
        return value

    def check_request(self, method: str, path: str, query: dict[str, list[str]], body: Any) -> list[str]:
        found = self.operation(method, path)
        if found is None:
            return [f"{method} {path}: no such operation in GitHub's description"]
        template, path_params = found
        op_pointer = f"/paths/{_escape(template)}/{method.lower()}"
        problems, declared = [], {}
        for index, _ in enumerate(self._at(op_pointer).get("parameters", [])):
            pointer, param = self._resolved(f"{op_pointer}/parameters/{index}")
            declared[(param["in"], param["name"])] = (pointer, param)
        for (where, name), (pointer, param) in declared.items():
            given = (path_params.get(name) if where == "path" else
                     (query.get(name) or [None])[0] if where == "query" else None)
            if given is None:
                if param.get("required") and where in ("path", "query"):
                    problems.append(f"{method} {template}: required {where} parameter {name} missing")
                continue
            schema_pointer, schema = self._resolved(f"{pointer}/schema")
            problems += [f"{method} {template} {where} {name}={given!r}: {e}"
                         for e in self.errors(schema_pointer, self._typed(given, schema))]
        problems += [f"{method} {template}: query parameter {name!r} is not in the description"
                     for name in query if ("query", name) not in declared]
        operation = self._at(op_pointer)
        if "requestBody" in operation:
            body_pointer, request_body = self._resolved(f"{op_pointer}/requestBody")
            if body is None:
                if request_body.get("required"):
                    problems.append(f"{method} {template}: the request body is required")
            else:
                problems += [f"{method} {template} request: {e}"
                             for e in self.errors(f"{body_pointer}/content/application~1json/schema", body)]
        elif body is not None:
            problems.append(f"{method} {template}: a body where the description takes none")
        return problems

    def check_response(self, method: str, path: str, status: int, body: Any) -> list[str]:
        found = self.operation(method, path)
        if found is None:
            return []
        template = found[0]
        responses = f"/paths/{_escape(template)}/{method.lower()}/responses"
        documented = self._at(responses)
        if str(status) not in documented:
            if status >= 400:  # an error the operation does not list (401, 429, ...): GitHub's basic error
                return [f"{status} {method} {template}: {e}"
                        for e in self.errors("/components/schemas/basic-error", body)]
            return [f"{method} {template}: status {status} is not documented"]
        pointer, response = self._resolved(f"{responses}/{status}")
        if "application/json" not in response.get("content", {}):
            return [] if body is None else [f"{status} {method} {template}: a body where none is documented"]
        return [f"{status} {method} {template} response: {e}"
                for e in self.errors(f"{pointer}/content/application~1json/schema", body)]

    def example(self, name: str) -> Any:
        value = copy.deepcopy(self.doc["components"]["examples"][name]["value"])
        return value[0] if isinstance(value, list) else value


# --- GitLab's documented fields -------------------------------------------------------------------

_TEXT = {"type": "string"}
_USER = {"type": "object", "required": ["id", "username", "name"], "properties": {
    "id": {"type": "integer"}, "username": _TEXT, "name": _TEXT, "state": _TEXT, "web_url": _TEXT}}
# From GitLab's API documentation, https://docs.gitlab.com/api/merge_requests/ ("Create MR", "List
# project merge requests", "Get single MR") and https://docs.gitlab.com/api/merge_request_approvals/
# ("Get approval state for a merge request" / "Single merge request approval"): the attributes of
# the calls the service makes, and the fields of the answers it reads (and the ones every answer has).
GITLAB_SCHEMAS: dict[str, dict[str, Any]] = {
    "create_request": {
        "type": "object", "required": ["source_branch", "target_branch", "title"], "additionalProperties": False,
        "properties": {"source_branch": _TEXT, "target_branch": _TEXT, "title": {"type": "string", "minLength": 1},
                       "description": {"type": "string", "maxLength": 1048576}, "assignee_id": {"type": "integer"},
                       "assignee_ids": {"type": "array"}, "reviewer_ids": {"type": "array"},
                       "labels": _TEXT, "milestone_id": {"type": "integer"},
                       "remove_source_branch": {"type": "boolean"},
                       "squash": {"type": "boolean"}, "allow_collaboration": {"type": "boolean"},
                       "target_project_id": {"type": "integer"}}},
    "list_query": {"type": "object", "additionalProperties": False, "properties": {
        name: _TEXT for name in ("state", "source_branch", "target_branch", "order_by", "sort", "scope", "per_page",
                                 "page", "iids[]", "labels", "author_id", "search", "view", "draft", "wip")}},
    "merge_request": {
        "type": "object",
        "required": ["id", "iid", "project_id", "title", "description", "state", "source_branch", "target_branch",
                     "web_url", "author", "created_at", "updated_at", "merged_at", "closed_at", "draft",
                     "detailed_merge_status", "sha", "source_project_id", "target_project_id"],
        "properties": {"id": {"type": "integer"}, "iid": {"type": "integer"}, "project_id": {"type": "integer"},
                       "title": _TEXT, "description": {"type": ["string", "null"]},
                       "state": {"enum": ["opened", "closed", "locked", "merged"]},
                       "source_branch": _TEXT, "target_branch": _TEXT, "web_url": {"type": "string", "format": "uri"},
                       "author": _USER, "draft": {"type": "boolean"},
                       "detailed_merge_status": {"enum": [
                           "approvals_syncing", "checking", "ci_must_pass", "ci_still_running", "commits_status",
                           "conflict", "discussions_not_resolved", "draft_status", "jira_association_missing",
                           "mergeable", "merge_request_blocked", "merge_time", "need_rebase", "not_approved",
                           "not_open", "preparing", "requested_changes", "security_policy_violations",
                           "status_checks_must_pass", "unchecked", "locked_paths", "locked_lfs_files", "title_regex"]},
                       "created_at": _TEXT, "updated_at": _TEXT, "merged_at": {"type": ["string", "null"]},
                       "closed_at": {"type": ["string", "null"]}, "sha": _TEXT}},
    "approvals": {
        "type": "object", "required": ["id", "iid", "project_id", "approved", "approved_by"],
        "properties": {"id": {"type": "integer"}, "iid": {"type": "integer"}, "project_id": {"type": "integer"},
                       "approved": {"type": "boolean"}, "approvals_required": {"type": "integer"},
                       "approvals_left": {"type": "integer"},
                       "approved_by": {"type": "array", "items": {"type": "object", "required": ["user"],
                                                                   "properties": {"user": _USER}}}}},
    "error": {"type": "object", "anyOf": [{"required": ["message"]}, {"required": ["error"]}]},
}


def gitlab_errors(schema: str, value: Any) -> list[str]:
    from jsonschema import Draft202012Validator, FormatChecker

    validator = Draft202012Validator(GITLAB_SCHEMAS[schema], format_checker=FormatChecker())
    return [f"{schema} {'/'.join(map(str, e.absolute_path)) or '(body)'}: {e.message}"[:300]
            for e in validator.iter_errors(value)][:5]


# --- the host ------------------------------------------------------------------------------------

@dataclass
class Fault:
    method: str
    path: re.Pattern
    status: int
    body: Any
    headers: dict[str, str]
    times: int
    after: bool  # do the real work first, then answer the error (a lost answer)


@dataclass
class App:
    app_id: int
    public_key: Any
    installations: dict[str, int]  # OWNER/NAME -> installation id
    minted: list[str] = field(default_factory=list)
    token_seconds: int = 3600


def _now() -> str:
    return dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


class FakeHost:
    """GitHub under ``{url}/github`` and GitLab under ``{url}/gitlab/api/v4``, in one loopback server."""

    def __init__(self, port: int = 0) -> None:
        self.spec = GitHubSpec(octokit_description())
        self.tokens: set[str] = set()
        self.repos: set[str] = set()  # what the tokens can see, on both hosts
        self.pulls: dict[str, list[dict[str, Any]]] = {}  # GitHub, by repo
        self.reviews: dict[tuple[str, int], list[dict[str, Any]]] = {}
        self.merge_requests: dict[str, list[dict[str, Any]]] = {}  # GitLab, by project path
        self.approvals: dict[tuple[str, int], list[dict[str, Any]]] = {}
        self.app: App | None = None
        self.faults: list[Fault] = []
        self.log: list[tuple[str, str, Any]] = []  # (method, path with query, body)
        self.violations: list[str] = []
        self._lock = threading.Lock()
        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", port), self._handler())
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    @property
    def github_api(self) -> str:
        return f"{self.url}/github"

    @property
    def gitlab_api(self) -> str:
        return f"{self.url}/gitlab/api/v4"

    @property
    def address(self) -> str:
        """host:port, as DOCSVC_SERVER_EGRESS_ALLOW lets it through."""
        return self.url.removeprefix("http://")

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    # --- what a test sets up -------------------------------------------------------------------

    def fail(self, method: str, path: str, status: int, body: Any = None, headers: dict[str, str] | None = None,
             times: int = 1, after: bool = False) -> None:
        """Answer ``status`` to the next ``times`` requests whose method is ``method`` and whose path
        (without the /github or /gitlab/api/v4 prefix, without query) matches the regex ``path``."""
        if body is None:
            body = {"message": {401: "Bad credentials", 403: "Resource not accessible by personal access token",
                                404: "Not Found", 422: "Validation Failed", 429: "API rate limit exceeded",
                                500: "Server Error"}.get(status, "error"),
                    "documentation_url": "https://docs.github.com/rest", "status": str(status)}
        self.faults.append(Fault(method, re.compile(path), status, body, headers or {}, times, after))

    def install_app(self, app_id: int, public_key: Any, installations: dict[str, int]) -> None:
        self.app = App(app_id, public_key, installations)

    def review(self, repo: str, number: int, login: str, state: str) -> None:
        """A GitHub review: APPROVED, CHANGES_REQUESTED, COMMENTED or DISMISSED."""
        review = self.spec.example("pull-request-review")
        pull = self.pull(repo, number)
        reviews = self.reviews.setdefault((repo, number), [])
        review.update(id=len(reviews) + 1, state=state, submitted_at=_now(), commit_id=pull["head"]["sha"],
                      pull_request_url=pull["url"], html_url=f"{pull['html_url']}#pullrequestreview-{len(reviews) + 1}")
        review["user"].update(login=login, id=abs(hash(login)) % 10**6)
        reviews.append(review)

    def pull(self, repo: str, number: int) -> dict[str, Any]:
        return next(p for p in self.pulls.get(repo, []) if p["number"] == number)

    def set_pull(self, repo: str, number: int, *, merged: bool = False, closed: bool = False) -> None:
        pull = self.pull(repo, number)
        pull["state"] = "closed" if merged or closed else "open"
        pull["merged"] = merged
        pull["merged_at"] = _now() if merged else None
        pull["closed_at"] = _now() if merged or closed else None

    def merge_request(self, project: str, iid: int) -> dict[str, Any]:
        return next(m for m in self.merge_requests.get(project, []) if m["iid"] == iid)

    def approve_mr(self, project: str, iid: int, username: str) -> None:
        self.approvals.setdefault((project, iid), []).append(
            {"user": {"id": abs(hash(username)) % 10**6, "username": username, "name": username.title(),
                      "state": "active", "web_url": f"https://gitlab.com/{username}"}})

    # --- serving -----------------------------------------------------------------------------------

    def _handler(self):
        host = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _serve(self, method: str) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw) if raw else None
                except ValueError:
                    body = None
                    host.violations.append(f"{method} {self.path}: the body is not JSON")
                status, answer, headers = host.answer(method, self.path, dict(self.headers), body)
                data = json.dumps(answer).encode() if answer is not None else b""
                self.send_response(status)
                self.send_header("Content-Type", "application/json; charset=utf-8")
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                self._serve("GET")

            def do_POST(self):
                self._serve("POST")

            def do_PATCH(self):
                self._serve("PATCH")

        return Handler

    def answer(self, method: str, raw_path: str, headers: dict[str, str], body: Any) -> tuple[int, Any, dict]:
        parts = urlsplit(raw_path)
        query = parse_qs(parts.query, keep_blank_values=True)
        with self._lock:
            self.log.append((method, raw_path, body))
            if parts.path.startswith("/github/"):
                path, side = parts.path[len("/github"):], "github"
            elif parts.path.startswith("/gitlab/api/v4/"):
                path, side = parts.path[len("/gitlab/api/v4"):], "gitlab"
            else:
                return 404, {"message": "Not Found"}, {}
            wrong = (self.spec.check_request(method, unquote(path), query, body) if side == "github" else
                     self._check_gitlab_request(method, path, query, body))
            if wrong:  # refused as the hosts refuse a bad request, and kept for the test to fail on
                self.violations += wrong
                if side == "github":
                    return 422, {"message": "Validation Failed",
                                 "documentation_url": "https://docs.github.com/rest"}, {}
                return 400, {"message": "; ".join(wrong)[:300]}, {}
            fault = next((f for f in self.faults if f.method == method and f.path.search(path) and f.times > 0), None)
            if fault is not None and not fault.after:
                fault.times -= 1
                status, answer, extra = fault.status, fault.body, fault.headers
            else:
                handle = self._github if side == "github" else self._gitlab
                status, answer, extra = handle(method, path, query, headers, body)
                if fault is not None and 200 <= status < 300:  # the work is done, the answer lost
                    fault.times -= 1
                    status, answer, extra = fault.status, fault.body, fault.headers
            if side == "github":
                self.violations += self.spec.check_response(method, unquote(path), status, answer)
            elif status < 300:
                self.violations += self._check_gitlab_response(method, path, answer)
            else:
                self.violations += gitlab_errors("error", answer)
            return status, answer, extra

    # --- GitHub ---------------------------------------------------------------------------------

    def _github_auth(self, headers: dict[str, str], as_app: bool) -> tuple[int, Any, dict] | None:
        scheme, _, credential = (headers.get("Authorization") or headers.get("authorization") or "").partition(" ")
        unauthorized = (401, {"message": "Bad credentials", "documentation_url": "https://docs.github.com/rest",
                              "status": "401"}, {})
        if scheme.lower() not in ("bearer", "token") or not credential:
            return unauthorized
        if as_app:
            return None if self._valid_jwt(credential) else unauthorized
        return None if credential in self.tokens else unauthorized

    def _valid_jwt(self, token: str) -> bool:
        from cryptography.exceptions import InvalidSignature
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.asymmetric import padding

        if self.app is None or token.count(".") != 2:
            return False
        head, claims, signature = token.split(".")

        def decoded(part: str) -> bytes:
            return base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))
        try:
            self.app.public_key.verify(decoded(signature), f"{head}.{claims}".encode(), padding.PKCS1v15(),
                                       hashes.SHA256())
        except InvalidSignature:
            return False
        header, payload = json.loads(decoded(head)), json.loads(decoded(claims))
        now = time.time()
        return (header.get("alg") == "RS256" and payload.get("iss") == str(self.app.app_id)
                and payload["iat"] <= now + 5 and now < payload["exp"] and payload["exp"] - payload["iat"] <= 600)

    def _not_found(self) -> tuple[int, Any, dict]:
        return 404, {"message": "Not Found", "documentation_url": "https://docs.github.com/rest", "status": "404"}, {}

    def _github(self, method: str, path: str, query: dict, headers: dict, body: Any) -> tuple[int, Any, dict]:
        app_call = re.fullmatch(r"/repos/([^/]+)/([^/]+)/installation", path) or \
            re.fullmatch(r"/app/installations/(\d+)/access_tokens", path)
        refused = self._github_auth(headers, as_app=bool(app_call))
        if refused:
            return refused
        if app_call:
            return self._github_app(method, path)
        found = re.fullmatch(r"/repos/([^/]+)/([^/]+)/pulls(?:/(\d+)(/reviews)?)?", path)
        if not found:
            return self._not_found()
        repo, number, reviews = f"{found[1]}/{found[2]}", found[3], found[4]
        if repo not in self.repos:
            return self._not_found()
        pulls = self.pulls.setdefault(repo, [])
        if number is None and method == "GET":
            state = (query.get("state") or ["open"])[0]
            head = (query.get("head") or [None])[0]
            listed = [self._simple(p) for p in pulls if (state == "all" or p["state"] == state)
                      and (head is None or p["head"]["label"] == head)]
            return 200, listed, {}
        if number is None and method == "POST":
            if any(p["state"] == "open" and p["head"]["ref"] == body["head"] and p["base"]["ref"] == body["base"]
                   for p in pulls):
                return 422, {"message": "Validation Failed", "documentation_url": "https://docs.github.com/rest",
                             "errors": [{"resource": "PullRequest", "code": "custom",
                                         "message": f"A pull request already exists for "
                                                    f"{found[1]}:{body['head']}."}]}, {}
            pull = self._new_pull(repo, body)
            pulls.append(pull)
            return 201, pull, {"Location": pull["url"]}
        pull = next((p for p in pulls if p["number"] == int(number)), None)
        if pull is None:
            return self._not_found()
        if reviews:
            return 200, self.reviews.get((repo, pull["number"]), []), {}
        return 200, pull, {}

    def _github_app(self, method: str, path: str) -> tuple[int, Any, dict]:
        assert self.app is not None
        found = re.fullmatch(r"/repos/([^/]+)/([^/]+)/installation", path)
        if found:
            installation = self.app.installations.get(f"{found[1]}/{found[2]}")
            if installation is None:
                return self._not_found()
            answer = self.spec.example("installation")
            answer.update(id=installation, app_id=self.app.app_id)
            return 200, answer, {}
        installation = int(path.split("/")[3])
        if installation not in self.app.installations.values():
            return self._not_found()
        token = f"ghs_fakeinstallation{len(self.app.minted) + 1:04d}x{installation}"
        self.app.minted.append(token)
        self.tokens.add(token)
        answer = self.spec.example("installation-token")
        expires = dt.datetime.now(dt.timezone.utc) + dt.timedelta(seconds=self.app.token_seconds)
        answer.update(token=token, expires_at=expires.strftime("%Y-%m-%dT%H:%M:%SZ"))
        return 201, answer, {}

    def _new_pull(self, repo: str, body: dict[str, Any]) -> dict[str, Any]:
        owner, name = repo.split("/")
        number = sum(len(p) for p in self.pulls.values()) + 1
        pull = self.spec.example("pull-request")
        api = f"https://api.github.com/repos/{repo}/pulls/{number}"
        pull.update(id=1000 + number, number=number, title=body["title"], body=body.get("body"), state="open",
                    url=api, html_url=f"https://github.com/{repo}/pull/{number}", merged=False, merged_at=None,
                    closed_at=None, created_at=_now(), updated_at=_now(), requested_teams=[], draft=False)
        pull["head"].update(ref=body["head"], label=f"{owner}:{body['head']}", sha=f"{number:040x}")
        pull["base"].update(ref=body["base"], label=f"{owner}:{body['base']}")
        for side in ("head", "base"):
            pull[side]["repo"].update(name=name, full_name=repo)
            pull[side]["repo"]["owner"].update(login=owner)
        return pull

    def _simple(self, pull: dict[str, Any]) -> dict[str, Any]:
        """A pull request as the list endpoint gives it (``pull-request-simple``)."""
        simple = self.spec.example("pull-request-simple-items")
        simple.update({k: copy.deepcopy(pull[k]) for k in simple if k in pull and k not in ("head", "base")})
        simple["requested_teams"] = []
        for side in ("head", "base"):
            simple[side].update(ref=pull[side]["ref"], label=pull[side]["label"], sha=pull[side]["sha"])
            simple[side]["repo"].update(name=pull[side]["repo"]["name"], full_name=pull[side]["repo"]["full_name"])
        return simple

    # --- GitLab ---------------------------------------------------------------------------------

    _MR = re.compile(r"/projects/([^/]+)/merge_requests(?:/(\d+)(/approvals)?)?")

    def _check_gitlab_request(self, method: str, path: str, query: dict, body: Any) -> list[str]:
        found = self._MR.fullmatch(path)
        if not found:
            return [f"{method} {path}: not an endpoint of GitLab's the service uses"]
        if "/" in found[1] or not (found[1].isdigit() or "%2F" in found[1].upper()):
            return [f"{method} {path}: the project id is neither a number nor a URL-encoded path"]
        if method == "POST" and found[2] is None:
            return gitlab_errors("create_request", body)
        problems = [] if body is None else [f"{method} {path}: a GET with a body"]
        if found[2] is None:
            problems += gitlab_errors("list_query", {k: v[0] for k, v in query.items()})
        elif query:
            problems.append(f"{method} {path}: query parameters {sorted(query)} on a single merge request")
        return problems

    def _check_gitlab_response(self, method: str, path: str, answer: Any) -> list[str]:
        found = self._MR.fullmatch(path)
        if found is None:
            return []
        if found[3]:
            return gitlab_errors("approvals", answer)
        items = answer if isinstance(answer, list) and found[2] is None and method == "GET" else [answer]
        return [e for item in items for e in gitlab_errors("merge_request", item)]

    def _gitlab(self, method: str, path: str, query: dict, headers: dict, body: Any) -> tuple[int, Any, dict]:
        token = headers.get("PRIVATE-TOKEN") or headers.get("Private-Token") or headers.get("private-token")
        if token not in self.tokens:
            return 401, {"message": "401 Unauthorized"}, {}
        found = self._MR.fullmatch(path)
        project = unquote(found[1]) if found else ""
        if not found or project not in self.repos:
            return 404, {"message": "404 Project Not Found"}, {}
        mrs = self.merge_requests.setdefault(project, [])
        if found[2] is None and method == "GET":
            wanted = {k: v[0] for k, v in query.items()}
            listed = [m for m in mrs if all(m.get(k) == v for k, v in wanted.items()
                                            if k in ("state", "source_branch", "target_branch"))]
            return 200, listed, {}
        if found[2] is None and method == "POST":
            if any(m["state"] == "opened" and m["source_branch"] == body["source_branch"] for m in mrs):
                return 409, {"message": ["Another open merge request already exists for this source branch: !1"]}, {}
            iid = len(mrs) + 1
            mr = {"id": 5000 + iid, "iid": iid, "project_id": 77, "title": body["title"],
                  "description": body.get("description") or "", "state": "opened",
                  "source_branch": body["source_branch"], "target_branch": body["target_branch"],
                  "web_url": f"https://gitlab.com/{project}/-/merge_requests/{iid}",
                  "author": {"id": 9, "username": "docsvc-bot", "name": "docsvc", "state": "active",
                             "web_url": "https://gitlab.com/docsvc-bot"},
                  "created_at": _now(), "updated_at": _now(), "merged_at": None, "closed_at": None, "draft": False,
                  "detailed_merge_status": "not_approved", "sha": f"{iid:040x}", "source_project_id": 77,
                  "target_project_id": 77}
            mrs.append(mr)
            return 201, mr, {}
        mr = next((m for m in mrs if m["iid"] == int(found[2])), None)
        if mr is None:
            return 404, {"message": "404 Not found"}, {}
        if found[3]:
            approved_by = self.approvals.get((project, mr["iid"]), [])
            return 200, {"id": mr["id"], "iid": mr["iid"], "project_id": mr["project_id"],
                         "approved": bool(approved_by),
                         "approvals_required": 1, "approvals_left": 0 if approved_by else 1,
                         "approved_by": approved_by}, {}
        return 200, mr, {}


def rsa_key() -> tuple[bytes, Any]:
    """A new RSA private key as PEM (a GitHub App's key file) and its public key (the host's copy)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption())
    return pem, key.public_key()
