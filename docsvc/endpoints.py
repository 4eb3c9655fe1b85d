"""Every HTTP endpoint, described once as data.

The client resolves method and path from here (``client._base.BaseClient.call``), the local
service answers 501 for entries it does not serve yet, and the meta tests check that each
entry has a client method and a CLI command or a stated reason why not.

``origin`` is ``"interface"`` for endpoints of ``shared/spec/interface.md`` and ``"addition"``
for the ones docsvc adds (their CLI help says so).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Endpoint", "ENDPOINTS", "by_name", "TOOLS", "WORK_STATUSES"]

TOOLS = (
    "feature-drafts",
    "release-notes",
    "captures",
    "conversions",
    "chats",
    "api-scans",
    "diagrams",
    "docflows",
)

WORK_STATUSES = ("todo", "in_progress", "in_review", "blocked", "done", "rejected")
# /convert: the spec kinds, and each target format with the file extension its result gets.
CONVERT_SOURCES = ("openapi", "helm")
CONVERT_TARGETS = {"docusaurus": ".md", "sphinx": ".rst", "md": ".md", "rst": ".rst", "adoc": ".adoc"}


@dataclass(frozen=True)
class Endpoint:
    name: str  # "<resource>.<method>": the client attribute path, e.g. client.items.list
    method: str
    path: str  # relative to /api/v1, with {placeholders}
    cli: str | None = None  # the CLI command that wraps it
    no_cli_reason: str | None = None  # why there is no CLI command, when there is none
    no_client_reason: str | None = None  # why there is no client method, when there is none
    origin: str = "interface"
    job: bool = False  # answers 202 {status, job_id}
    empty: bool = False  # may answer 204 No Content (nothing to parse); others always send a body

    @property
    def client_attr(self) -> tuple[str, str]:
        resource, _, method = self.name.partition(".")
        return resource, method


E = Endpoint
CODE_HOSTS = "called by code hosts"

ENDPOINTS: tuple[Endpoint, ...] = (
    # Asynchronous actions
    E("repos.sync", "POST", "/sync", cli="sync", job=True),
    # /convert also takes, as additions: the spec as a multipart ``file`` part (with the text fields
    # source_type, target_format, inline_document), and ``inline_document: false``, which leaves the
    # document out of the job's result (read it raw with convert.document).
    E("convert.create", "POST", "/convert", cli="convert", job=True),
    E("docflows.generate", "POST", "/docflows/generate", cli="docflow", job=True),
    E("oas.validate", "POST", "/oas/validate", cli="validate", job=True),
    E("docflows.sync", "POST", "/docflows/{id}/sync", cli="items sync", job=True),
    E("docflows.request_changes", "POST", "/docflows/{id}/request-changes",
      cli="items request-changes", job=True),
    E("docflows.check", "POST", "/docflows/{id}/check-docs", cli="items check", job=True),
    E("docflows.check_many", "POST", "/docflows/check-docs", cli="items check --all", job=True),
    E("diagrams.generate", "POST", "/diagram/generate", cli="diagram"),
    E("jobs.get", "GET", "/jobs/{job_id}",
      no_cli_reason="every job-starting command polls it through jobs.wait"),
    # Items
    E("items.list", "GET", "/items/{tool}", cli="items list"),
    E("items.update", "PATCH", "/items/{tool}/{id}", cli="items tag|status|rename"),
    E("items.delete", "DELETE", "/items/{tool}/{id}", cli="items delete", empty=True),
    # Docflows suggestions
    E("docflows.get", "GET", "/docflows/{id}", cli="items diff"),
    E("docflows.take_screenshots", "POST", "/docflows/{id}/screenshots",
      cli="items screenshots --take", job=True),
    E("docflows.approve", "POST", "/docflows/{id}/approve", cli="items approve docflows"),
    E("docflows.dismiss", "POST", "/docflows/{id}/dismiss", cli="items dismiss"),
    E("docflows.history", "GET", "/docflows/{id}/history", cli="items history"),
    E("docflows.restore", "POST", "/docflows/{id}/restore", cli="items restore"),
    # Feature Author drafts
    E("feature_drafts.approve", "POST", "/feature-drafts/{id}/approve",
      cli="items approve feature-drafts"),
    E("feature_drafts.get_release_notes", "GET", "/feature-drafts/{id}/release-notes",
      cli="items release-notes"),
    E("feature_drafts.set_release_notes", "PUT", "/feature-drafts/{id}/release-notes",
      cli="items release-notes --notes"),
    # API scans
    E("oas.open_pull_request", "POST", "/oas/scans/{id}/pull-request", cli="api-scan open-pr"),
    # Captures, repositories, dashboard, work
    E("captures.get_zoom", "GET", "/captures/{id}/zoom", cli="capture zoom"),
    E("captures.set_zoom", "PUT", "/captures/{id}/zoom", cli="capture zoom --mode|--step"),
    E("repos.list", "GET", "/repos", cli="repos list"),
    E("repos.request_sync", "POST", "/repos/{id}/request-sync", cli="repos request-sync"),
    E("dashboard.get", "GET", "/dashboard", cli="dashboard"),
    E("me.work", "GET", "/me/work", cli="mywork"),
    # Additions: the interface names these CLI commands but not their endpoints.
    E("me.get", "GET", "/me", no_cli_reason="used by --claim and --writer me to learn the caller's id",
      origin="addition"),
    E("releases.list", "GET", "/releases", cli="releases list", origin="addition"),
    E("admin.list_users", "GET", "/admin/users", cli="admin users list", origin="addition"),
    E("admin.list_integrations", "GET", "/admin/integrations", cli="admin integrations list",
      origin="addition"),
    E("admin.list_webhook_deliveries", "GET", "/admin/integrations/{id}/webhook-deliveries",
      cli="admin integrations deliveries", origin="addition"),
    E("search.query", "GET", "/search", cli="search", origin="addition"),
    E("feature_drafts.create", "POST", "/feature-drafts", cli="feature-drafts create", origin="addition",
      job=True),
    E("feature_drafts.get", "GET", "/feature-drafts/{id}", cli="feature-drafts show", origin="addition"),
    E("release_notes.create", "POST", "/release-notes", cli="release-notes create", origin="addition"),
    E("release_notes.get", "GET", "/release-notes/{id}", cli="release-notes show", origin="addition"),
    E("release_notes.queue", "GET", "/releases/{id}/release-notes", cli="release-notes queue",
      origin="addition"),
    E("captures.create", "POST", "/captures", cli="capture create", origin="addition", job=True),
    E("captures.get", "GET", "/captures/{id}", cli="capture show", origin="addition"),
    E("chats.create", "POST", "/chats", cli="chat ask", origin="addition", job=True),
    E("chats.get", "GET", "/chats/{id}", cli="chat show", origin="addition"),
    E("convert.document", "GET", "/conversions/{id}/document",
      no_cli_reason="docsvc convert writes the document and prints this link (it opens with the share key)",
      origin="addition"),
    # Called by the code hosts, signed with an integration's webhook secret instead of an API key.
    E("webhooks.github", "POST", "/webhooks/github/{integration_id}", no_cli_reason=CODE_HOSTS,
      no_client_reason=CODE_HOSTS, origin="addition"),
    E("webhooks.gitlab", "POST", "/webhooks/gitlab/{integration_id}", no_cli_reason=CODE_HOSTS,
      no_client_reason=CODE_HOSTS, origin="addition"),
)

_BY_NAME = {e.name: e for e in ENDPOINTS}


def by_name(name: str) -> Endpoint:
    return _BY_NAME[name]
