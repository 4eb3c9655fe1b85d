"""Resource methods: each sends the right method, path, query and body, and casts the answer."""

from __future__ import annotations

import json

import httpx
import pytest

from docsvc.client import NOT_GIVEN, Client
from docsvc.client.testing import MockAPI, fake_client, json_response, multipart_parts
from docsvc.endpoints import ENDPOINTS
from docsvc.models.captures import Capture, ZoomSetting
from docsvc.models.chats import Chat
from docsvc.models.dashboard import Dashboard
from docsvc.models.diagrams import Diagram
from docsvc.models.docflows import ApproveResult, DocflowSummary, HistoryRound
from docsvc.models.feature_drafts import FeatureDraft, ReleaseNotesDecision
from docsvc.models.release_notes import ReleaseNoteEntry, ReleaseNotes
from docsvc.models.integrations import Integration, WebhookDelivery
from docsvc.models.items import DeleteResult, Item
from docsvc.models.jobs import Job, JobRef
from docsvc.models.me import WorkSummary
from docsvc.models.oas import ScanPullRequests
from docsvc.models.releases import Release
from docsvc.models.repos import Repo, RequestSyncResult
from docsvc.models.search import SearchHit
from docsvc.models.users import User

JOB = {"status": "queued", "job_id": "job-1"}
ITEM = {"id": 12, "title": "Guide", "work_status": "todo"}


@pytest.mark.parametrize("endpoint", [e for e in ENDPOINTS if not e.no_client_reason], ids=lambda e: e.name)
def test_every_endpoint_has_a_client_method(endpoint):
    client = fake_client(MockAPI(json_response()))
    resource, method = endpoint.client_attr
    assert callable(getattr(getattr(client, resource), method))


# (name, call, answer, method, path, query, json body (None: no body), result type)
CASES = [
    ("repos.sync", lambda c: c.repos.sync(7), JOB,
     "POST", "/sync", {}, {"integration_id": 7}, JobRef),
    ("repos.list", lambda c: c.repos.list(), [{"id": 1, "name": "docs", "state": "Up to date"}],
     "GET", "/repos", {}, None, Repo),
    ("repos.request_sync", lambda c: c.repos.request_sync(3), {"sent": True},
     "POST", "/repos/3/request-sync", {}, None, RequestSyncResult),
    ("convert.create", lambda c: c.convert.create(source_type="helm", content="a: 1"), JOB,
     "POST", "/convert", {},
     {"source_type": "helm", "content": "a: 1", "target_format": "docusaurus"}, JobRef),
    ("convert.create target", lambda c: c.convert.create(source_type="openapi", content="{}",
                                                         target_format="rst"), JOB,
     "POST", "/convert", {}, {"source_type": "openapi", "content": "{}", "target_format": "rst"},
     JobRef),
    ("oas.validate", lambda c: c.oas.validate(), JOB, "POST", "/oas/validate", {}, {}, JobRef),
    ("oas.validate flags", lambda c: c.oas.validate(run_swagger=True, run_ai_fix=False), JOB,
     "POST", "/oas/validate", {}, {"run_swagger": True, "run_ai_fix": False}, JobRef),
    ("oas.open_pull_request",
     lambda c: c.oas.open_pull_request(9, targets=["docs"], integration_id=2, file_path="api.md"),
     {"pull_requests": {"docs": "https://git/pr/1"}, "errors": []},
     "POST", "/oas/scans/9/pull-request", {},
     {"targets": ["docs"], "integration_id": 2, "file_path": "api.md"}, ScanPullRequests),
    ("oas.open_pull_request both",
     lambda c: c.oas.open_pull_request(9, targets=["source", "docs"], source_file_path="o.yaml",
                                       spec="prepped", commit_message="m"),
     {"pull_requests": {}}, "POST", "/oas/scans/9/pull-request", {},
     {"targets": ["source", "docs"], "source_file_path": "o.yaml", "spec": "prepped",
      "commit_message": "m"}, ScanPullRequests),
    ("jobs.get", lambda c: c.jobs.get("job-1"), {"job_id": "job-1", "status": "completed"},
     "GET", "/jobs/job-1", {}, None, Job),
    ("items.list", lambda c: c.items.list("feature-drafts", release_id=3, writer_id="none"),
     [ITEM], "GET", "/items/feature-drafts", {"release_id": "3", "writer_id": "none"}, None, Item),
    ("items.update", lambda c: c.items.update("captures", 12, work_status="done",
                                              status_note="shipped"), ITEM,
     "PATCH", "/items/captures/12", {}, {"work_status": "done", "status_note": "shipped"}, Item),
    ("items.delete", lambda c: c.items.delete("diagrams", 12), {"id": 12, "deleted": True},
     "DELETE", "/items/diagrams/12", {}, None, DeleteResult),
    ("docflows.get", lambda c: c.docflows.get(5),
     {"id": 5, "files": [{"path": "a.md", "added": 3}], "new_commits": True},
     "GET", "/docflows/5", {}, None, DocflowSummary),
    ("docflows.take_screenshots", lambda c: c.docflows.take_screenshots(5, ["/", "/settings"]),
     JOB, "POST", "/docflows/5/screenshots", {}, {"routes": ["/", "/settings"]}, JobRef),
    ("docflows.approve", lambda c: c.docflows.approve(5, release_id=2), {"id": 5},
     "POST", "/docflows/5/approve", {}, {"release_id": 2, "assignee_id": "me"}, ApproveResult),
    ("docflows.approve all",
     lambda c: c.docflows.approve(5, new_release_name="v2", assignee_id=4, release_notes="include",
                                  rn_section="feature", rn_category="Other", rn_note="New"),
     {"id": 5}, "POST", "/docflows/5/approve", {},
     {"new_release_name": "v2", "assignee_id": 4, "release_notes": "include",
      "rn_section": "feature", "rn_category": "Other", "rn_note": "New"}, ApproveResult),
    ("docflows.dismiss", lambda c: c.docflows.dismiss(5), {"status": "rejected"},
     "POST", "/docflows/5/dismiss", {}, {}, dict),
    ("docflows.dismiss done", lambda c: c.docflows.dismiss(5, done=True), {"status": "done"},
     "POST", "/docflows/5/dismiss", {}, {"reason": "done"}, dict),
    ("docflows.history", lambda c: c.docflows.history(5), [{"round": 1, "stage": "plan"}],
     "GET", "/docflows/5/history", {}, None, HistoryRound),
    ("docflows.history versions", lambda c: c.docflows.history(5, versions=True),
     [{"round": 1, "version": 2, "text": "..."}],
     "GET", "/docflows/5/history", {"versions": "1"}, None, HistoryRound),
    ("docflows.restore", lambda c: c.docflows.restore(5, 2), {"restored": 2},
     "POST", "/docflows/5/restore", {}, {"version": 2}, dict),
    ("docflows.sync", lambda c: c.docflows.sync(5), JOB,
     "POST", "/docflows/5/sync", {}, None, JobRef),
    ("docflows.request_changes", lambda c: c.docflows.request_changes(5, "shorter"), JOB,
     "POST", "/docflows/5/request-changes", {}, {"feedback": "shorter"}, JobRef),
    ("docflows.request_changes file",
     lambda c: c.docflows.request_changes(5, "fix", target_file="docs/a.md"), JOB,
     "POST", "/docflows/5/request-changes", {}, {"feedback": "fix", "target_file": "docs/a.md"},
     JobRef),
    ("docflows.check", lambda c: c.docflows.check(5), JOB,
     "POST", "/docflows/5/check-docs", {}, {}, JobRef),
    ("docflows.check no-ai", lambda c: c.docflows.check(5, ai=False), JOB,
     "POST", "/docflows/5/check-docs", {}, {"ai": False}, JobRef),
    ("docflows.check_many", lambda c: c.docflows.check_many(), JOB,
     "POST", "/docflows/check-docs", {}, {}, JobRef),
    ("docflows.check_many all",
     lambda c: c.docflows.check_many(ids=(1, 2), dismiss_done=True, ai=False), JOB,
     "POST", "/docflows/check-docs", {}, {"ids": [1, 2], "dismiss_done": True, "ai": False},
     JobRef),
    ("feature_drafts.approve", lambda c: c.feature_drafts.approve(8), {"approved": True},
     "POST", "/feature-drafts/8/approve", {}, {}, dict),
    ("feature_drafts.approve notes",
     lambda c: c.feature_drafts.approve(8, release_notes="skip", release_id=3), {"approved": True},
     "POST", "/feature-drafts/8/approve", {}, {"release_notes": "skip", "release_id": 3}, dict),
    ("feature_drafts.get_release_notes", lambda c: c.feature_drafts.get_release_notes(8),
     {"release_notes": "include", "source": "editor"},
     "GET", "/feature-drafts/8/release-notes", {}, None, ReleaseNotesDecision),
    ("feature_drafts.set_release_notes",
     lambda c: c.feature_drafts.set_release_notes(8, release_notes="include", rn_section="bug",
                                                  rn_note="Fixed"),
     {"release_notes": "include"}, "PUT", "/feature-drafts/8/release-notes", {},
     {"release_notes": "include", "rn_section": "bug", "rn_note": "Fixed"}, ReleaseNotesDecision),
    ("feature_drafts.create", lambda c: c.feature_drafts.create(title="Export", brief="Users can export."), JOB,
     "POST", "/feature-drafts", {}, {"title": "Export", "brief": "Users can export."}, JobRef),
    ("feature_drafts.create release",
     lambda c: c.feature_drafts.create(title="Export", brief="b", release_id=3), JOB,
     "POST", "/feature-drafts", {}, {"title": "Export", "brief": "b", "release_id": 3}, JobRef),
    ("feature_drafts.get", lambda c: c.feature_drafts.get(8),
     {"id": 8, "title": "Export", "page": "# Export\n", "editor": {"passed": False, "comments": [{"line": 3}]},
      "sign_off": None}, "GET", "/feature-drafts/8", {}, None, FeatureDraft),
    ("release_notes.create", lambda c: c.release_notes.create(release_id=2), {"id": 9, "title": "Release notes"},
     "POST", "/release-notes", {}, {"release_id": 2}, Item),
    ("release_notes.get", lambda c: c.release_notes.get(9),
     {"item_id": 9, "release_id": 2, "markdown": "# Release notes: 5.0\n", "entries": [{"id": 1, "badge": None}]},
     "GET", "/release-notes/9", {}, None, ReleaseNotes),
    ("release_notes.queue", lambda c: c.release_notes.queue(2), [{"id": 1, "rn_section": "feature"}],
     "GET", "/releases/2/release-notes", {}, None, ReleaseNoteEntry),
    ("captures.get_zoom", lambda c: c.captures.get_zoom(6), {"mode": "auto", "steps": {}},
     "GET", "/captures/6/zoom", {}, None, ZoomSetting),
    ("captures.set_zoom", lambda c: c.captures.set_zoom(6, mode="always", steps={"s1": "off"}),
     {"mode": "always", "steps": {"s1": "off"}}, "PUT", "/captures/6/zoom", {},
     {"mode": "always", "steps": {"s1": "off"}}, ZoomSetting),
    ("captures.set_zoom steps", lambda c: c.captures.set_zoom(6, steps={"s2": "default"}),
     {"mode": "auto"}, "PUT", "/captures/6/zoom", {}, {"steps": {"s2": "default"}}, ZoomSetting),
    ("captures.create", lambda c: c.captures.create(start_url="http://app.test/", title="Tour", steps=[
        {"action": "click", "selector": "#go", "description": "Go"}]), JOB, "POST", "/captures", {},
     {"title": "Tour", "start_url": "http://app.test/",
      "steps": [{"action": "click", "selector": "#go", "description": "Go"}]}, JobRef),
    ("captures.get", lambda c: c.captures.get(6),
     {"id": 6, "title": "Tour", "mode": "auto", "steps": [{"id": "s1", "target": {"width": 30, "height": 20}}]},
     "GET", "/captures/6", {}, None, Capture),
    ("chats.create", lambda c: c.chats.create("How do I rotate a key?"), JOB, "POST", "/chats", {},
     {"question": "How do I rotate a key?"}, JobRef),
    ("chats.get", lambda c: c.chats.get(9),
     {"id": 9, "question": "Q?", "answer": "A. [1]", "citations": [{"path": "docs/a.md", "start_line": 3,
                                                                     "end_line": 4}]},
     "GET", "/chats/9", {}, None, Chat),
    ("dashboard.get", lambda c: c.dashboard.get(), {"counts": {"open": 2}},
     "GET", "/dashboard", {}, None, Dashboard),
    ("dashboard.get filters", lambda c: c.dashboard.get(release_id=2, writer_id="me",
                                                        tool="captures"), {},
     "GET", "/dashboard", {"release_id": "2", "writer_id": "me", "tool": "captures"}, None,
     Dashboard),
    ("me.get", lambda c: c.me.get(), {"id": 4, "email": "w@x"}, "GET", "/me", {}, None, User),
    ("me.work", lambda c: c.me.work(), {"open": 2, "blocked": 1, "docflows": 3},
     "GET", "/me/work", {}, None, WorkSummary),
    ("releases.list", lambda c: c.releases.list(), [{"id": 1, "name": "v1"}],
     "GET", "/releases", {}, None, Release),
    ("admin.list_users", lambda c: c.admin.list_users(), [{"id": 1, "role": "admin"}],
     "GET", "/admin/users", {}, None, User),
    ("admin.list_integrations", lambda c: c.admin.list_integrations(), [{"id": 2, "name": "r"}],
     "GET", "/admin/integrations", {}, None, Integration),
    ("admin.list_webhook_deliveries", lambda c: c.admin.list_webhook_deliveries(3),
     [{"id": 9, "delivery": "d-1", "event": "ping", "outcome": "done"}],
     "GET", "/admin/integrations/3/webhook-deliveries", {}, None, WebhookDelivery),
    ("search.query", lambda c: c.search.query("rate limit", integration_id=3),
     [{"path": "docs/limits.md", "line": 12, "snippet": "Rate limits"}],
     "GET", "/search", {"q": "rate limit", "integration_id": "3"}, None, SearchHit),
]


@pytest.mark.parametrize("name, call, answer, method, path, query, body, result_type", CASES,
                         ids=[case[0] for case in CASES])
def test_resource_method_sends_and_casts(name, call, answer, method, path, query, body,
                                         result_type):
    api = MockAPI(json_response(202 if answer is JOB else 200, answer))
    result = call(fake_client(api))
    request = api.last
    assert request.method == method
    assert request.url.path == "/api/v1" + path
    assert dict(request.url.params) == query
    if body is None:
        assert request.content == b""
    else:
        assert request.headers["content-type"] == "application/json"
        assert json.loads(request.content) == body
    if isinstance(answer, list):
        assert isinstance(result, list) and all(isinstance(r, result_type) for r in result)
        assert len(result) == len(answer)
    else:
        assert isinstance(result, result_type)
        if result_type is dict:
            assert result == answer


def test_cases_cover_every_endpoint():
    covered = {case[0].split()[0] for case in CASES} | {"docflows.generate", "diagrams.generate",
                                                         "docflows.get_diff", "convert.document"}
    assert {e.name for e in ENDPOINTS if not e.no_client_reason} <= covered


# -- PATCH: NOT_GIVEN is omitted, None is JSON null ------------------------------------------


@pytest.mark.parametrize(
    "kwargs, body",
    [
        ({}, {}),
        ({"writer_user_id": None}, {"writer_user_id": None}),
        ({"release_id": None, "writer_user_id": None},
         {"release_id": None, "writer_user_id": None}),
        ({"release_id": 3, "writer_user_id": 4}, {"release_id": 3, "writer_user_id": 4}),
        ({"writer_user_id": 4, "work_status": "in_progress"},
         {"writer_user_id": 4, "work_status": "in_progress"}),
        ({"title": "New title"}, {"title": "New title"}),
        ({"status_note": None}, {"status_note": None}),
        ({"title": NOT_GIVEN, "release_id": NOT_GIVEN, "writer_user_id": NOT_GIVEN,
          "work_status": NOT_GIVEN, "status_note": NOT_GIVEN}, {}),
    ],
)
def test_update_sends_given_fields_and_null_for_none(kwargs, body):
    api = MockAPI(json_response(200, ITEM))
    fake_client(api).items.update("docflows", 12, **kwargs)
    assert json.loads(api.last.content) == body


def test_not_given_is_a_falsy_singleton():
    from docsvc.client._types import NotGiven

    assert NotGiven() is NOT_GIVEN
    assert not NOT_GIVEN
    assert repr(NOT_GIVEN) == "NOT_GIVEN"


# -- delete -----------------------------------------------------------------------------------


def test_delete_204_means_deleted():
    api = MockAPI(httpx.Response(204))
    result = fake_client(api).items.delete("captures", 12)
    assert result == DeleteResult(id=12, deleted=True)
    assert result.dismissed is False


def test_delete_of_a_suggestion_comes_back_dismissed():
    api = MockAPI(json_response(200, {"id": 5, "deleted": False, "dismissed": True,
                                      "detail": "Suggestions are dismissed, not deleted"}))
    result = fake_client(api).items.delete("docflows", 5)
    assert (result.id, result.deleted, result.dismissed) == (5, False, True)


# -- Docflows ---------------------------------------------------------------------------------

PR = {"number": 12, "title": "Add export", "body": "Adds CSV export", "author": "ana"}


def test_generate_without_screenshots_is_json():
    api = MockAPI(json_response(202, JOB))
    ref = fake_client(api).docflows.generate(integration_id=3, pr_data=PR)
    assert ref == JobRef(status="queued", job_id="job-1")
    assert api.last.headers["content-type"] == "application/json"
    assert json.loads(api.last.content) == {"integration_id": 3, "pr_data": PR}


def test_generate_with_screenshots_is_multipart_with_each_filename(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    home = tmp_path / "a" / "home.png"
    home2 = tmp_path / "b" / "home.png"  # same name in another folder
    export = tmp_path / "export.jpg"
    home.write_bytes(b"\x89PNG home")
    home2.write_bytes(b"\x89PNG other home")
    export.write_bytes(b"\xff\xd8 export")
    api = MockAPI(json_response(202, JOB))
    fake_client(api).docflows.generate(
        integration_id=3, pr_data=PR,
        screenshots={"/": home, "/other": str(home2), "/export": export},
    )
    assert api.last.headers["content-type"].startswith("multipart/form-data; boundary=")
    parts = multipart_parts(api.last)
    assert [(p.name, p.filename) for p in parts] == [
        ("integration_id", None), ("pr_data", None),
        ("screenshots", "home.png"), ("screenshots", "home-2.png"), ("screenshots", "export.jpg"),
    ]
    fields = {p.name: p.content for p in parts if p.filename is None}
    assert fields["integration_id"] == b"3"
    assert json.loads(fields["pr_data"]) == {**PR, "screenshots": [
        {"route": "/", "filename": "home.png"},
        {"route": "/other", "filename": "home-2.png"},
        {"route": "/export", "filename": "export.jpg"},
    ]}
    files = [p for p in parts if p.name == "screenshots"]
    assert [p.content for p in files] == [b"\x89PNG home", b"\x89PNG other home",
                                          b"\xff\xd8 export"]
    assert [p.content_type for p in files] == ["image/png", "image/png", "image/jpeg"]
    assert "screenshots" not in PR  # the caller's pr_data is not modified


def test_generate_with_a_missing_screenshot_sends_nothing(tmp_path):
    api = MockAPI(json_response(202, JOB))
    with pytest.raises(FileNotFoundError):
        fake_client(api).docflows.generate(integration_id=3, pr_data=PR,
                                           screenshots={"/": tmp_path / "nope.png"})
    assert api.requests == []


def test_get_diff_returns_the_text_body():
    diff = "--- a/docs/x.md\n+++ b/docs/x.md\n@@ -1 +1 @@\n-old\n+new\n"
    api = MockAPI(httpx.Response(200, text=diff, headers={"content-type": "text/plain"}))
    assert fake_client(api).docflows.get_diff(5) == diff
    assert api.last.url.path == "/api/v1/docflows/5"
    assert dict(api.last.url.params) == {"format": "diff"}
    assert api.last.headers["accept"].startswith("text/plain")


def test_conversion_document_returns_the_text_body():
    text = "---\ntitle: Pets\n---\n\n# Pets\n"
    api = MockAPI(httpx.Response(200, text=text, headers={"content-type": "text/markdown; charset=utf-8"}))
    assert fake_client(api).convert.document(31) == text
    assert api.last.url.path == "/api/v1/conversions/31/document"


def test_conversion_document_bytes_are_the_body_as_sent():
    text = "# Caf\u00e9 \U0001f600\n"
    api = MockAPI(httpx.Response(200, content=text.encode("utf-8"), headers={"content-type": "text/markdown; charset=utf-8"}))
    assert fake_client(api).convert.document_bytes(31) == text.encode("utf-8")
    assert api.last.url.path == "/api/v1/conversions/31/document"
    assert api.last.headers["accept"].startswith("text/plain")


def test_summary_keeps_nested_and_unknown_fields():
    answer = {"id": 5, "files": [{"path": "a.md", "added": 2, "removed": 1, "reviewed": True,
                                  "last_check": "in_docs_not_pushed", "lang": "md"}],
              "screenshot_plan": [{"route": "/", "taken": True, "replaces": "img/a.png"}],
              "new_commits": {"count": 2}, "pull_request": {"state": "open"}, "score": 0.9}
    summary = fake_client(MockAPI(json_response(200, answer))).docflows.get(5)
    assert summary.files[0].reviewed is True and summary.files[0].lang == "md"
    assert summary.screenshot_plan[0].replaces == "img/a.png"
    assert summary.new_commits == {"count": 2}
    assert summary.score == 0.9


# -- Diagrams ---------------------------------------------------------------------------------


def test_diagram_without_image_is_still_multipart():
    api = MockAPI(json_response(201, {"item_id": 1, "kind": "flowchart", "format": "mermaid", "title": "login flow",
                                      "mermaid": "flowchart TD\n", "warnings": [], "layout": "dagre"}))
    diagram = fake_client(api).diagrams.generate(description="login flow")
    assert isinstance(diagram, Diagram) and diagram.kind == "flowchart" and diagram.item_id == 1
    assert diagram.mermaid == "flowchart TD\n" and diagram.layout == "dagre"  # unknown fields are kept
    assert api.last.url.path == "/api/v1/diagram/generate"
    assert [(p.name, p.filename, p.content) for p in multipart_parts(api.last)] == [
        ("description", None, b"login flow")]


def test_diagram_with_image(tmp_path):
    image = tmp_path / "whiteboard.jpg"
    image.write_bytes(b"\xff\xd8 board")
    api = MockAPI(json_response(200, {"id": 1}))
    fake_client(api).diagrams.generate(description="boxes", image_file=image)
    assert [(p.name, p.filename, p.content_type, p.content)
            for p in multipart_parts(api.last)] == [
        ("description", None, None, b"boxes"),
        ("image_file", "whiteboard.jpg", "image/jpeg", b"\xff\xd8 board"),
    ]


def test_resources_are_created_once_per_client():
    client = fake_client(MockAPI(json_response()))
    assert client.items is client.items
    assert isinstance(client, Client)


def test_validate_with_a_file_is_multipart_with_true_false_fields():
    api = MockAPI(json_response(202, {"status": "queued", "job_id": "j1"}))
    ref = fake_client(api).oas.validate(run_swagger=True, run_ai_fix=False, file=("openapi.yaml", "openapi: 3.1.0\n"))
    assert ref.job_id == "j1" and api.last.url.path == "/api/v1/oas/validate"
    assert [(p.name, p.filename, p.content_type, p.content) for p in multipart_parts(api.last)] == [
        ("run_swagger", None, None, b"true"),
        ("run_ai_fix", None, None, b"false"),
        ("file", "openapi.yaml", "application/yaml", b"openapi: 3.1.0\n"),
    ]


def test_convert_with_a_file_is_multipart_with_the_bytes_as_they_are():
    api = MockAPI(json_response(202, JOB))
    spec = '{"openapi": "3.1.0", "info": {"title": "Café"}}'
    fake_client(api).convert.create(source_type="openapi", file=("api.json", spec), target_format="md",
                                    inline_document=False)
    assert api.last.url.path == "/api/v1/convert"
    assert api.last.headers["content-type"].startswith("multipart/form-data; boundary=")
    parts = multipart_parts(api.last)
    assert [(p.name, p.filename) for p in parts] == [
        ("source_type", None), ("target_format", None), ("inline_document", None), ("file", "api.json")]
    assert [p.content for p in parts] == [b"openapi", b"md", b"false", spec.encode("utf-8")]


def test_convert_takes_the_spec_once():
    api = MockAPI(json_response(202, JOB))
    with pytest.raises(TypeError):
        fake_client(api).convert.create(source_type="openapi", content="{}", file=("a.json", "{}"))
    with pytest.raises(TypeError):
        fake_client(api).convert.create(source_type="openapi")
    assert api.requests == []
