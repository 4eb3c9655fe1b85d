"""SQLAlchemy tables of the local service. Every row that users see belongs to an organisation."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Date,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)


class Base(DeclarativeBase):
    type_annotation_map = {dict[str, Any]: JSON, list[Any]: JSON}


class Organization(Base):
    __tablename__ = "organizations"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class User(Base):
    __tablename__ = "users"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    org_id: Mapped[int] = mapped_column(ForeignKey("organizations.id", ondelete="CASCADE"), index=True)
    email: Mapped[str] = mapped_column(String(320), unique=True)
    name: Mapped[str] = mapped_column(String(200))
    role: Mapped[str] = mapped_column(String(20))  # "writer" | "admin"
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    organization: Mapped[Organization] = relationship(lazy="joined")


class ApiKey(Base):
    __tablename__ = "api_keys"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(200))
    prefix: Mapped[str] = mapped_column(String(16))  # shown in listings; the key itself is not kept
    key_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    last_used_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True))
    revoked_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True))
    user: Mapped[User] = relationship(lazy="joined")


class Release(Base):
    __tablename__ = "releases"
    __table_args__ = (UniqueConstraint("org_id", "name"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    org_id: Mapped[int] = mapped_column(ForeignKey("organizations.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(200))
    target_date: Mapped[dt.date | None] = mapped_column(Date)
    status: Mapped[str] = mapped_column(String(30), default="planned")
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Integration(Base):
    __tablename__ = "integrations"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    org_id: Mapped[int] = mapped_column(ForeignKey("organizations.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(200))
    code_repo: Mapped[str] = mapped_column(Text)
    code_branch: Mapped[str] = mapped_column(String(200), default="main")
    docs_repo: Mapped[str] = mapped_column(Text)
    docs_branch: Mapped[str] = mapped_column(String(200), default="main")
    docs_path: Mapped[str] = mapped_column(String(500), default="docs")
    preview_url: Mapped[str | None] = mapped_column(Text)
    keep_in_sync: Mapped[bool] = mapped_column(Boolean, default=False)
    # The code host signs its webhooks with this (HMAC needs the secret itself, so it is kept, not a
    # hash of it); made when first asked for (``integrations webhook``), shown by that command only.
    webhook_secret: Mapped[str | None] = mapped_column(String(100))
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # The code host whose API opens pull requests: "github", "gitlab", or "git" (plain git: a
    # pushed branch and a compare link). The token is never stored: only the NAME of the service's
    # environment variable that holds it, read when it is used.
    host: Mapped[str] = mapped_column(String(20), default="git", server_default="git")
    host_api_url: Mapped[str | None] = mapped_column(Text)
    host_token_env: Mapped[str | None] = mapped_column(String(200))
    code_host_repo: Mapped[str | None] = mapped_column(String(500))  # OWNER/NAME on the host
    docs_host_repo: Mapped[str | None] = mapped_column(String(500))
    # GitHub App auth (instead of a token): installation tokens minted with a JWT signed by this key.
    github_app_id: Mapped[int | None] = mapped_column(Integer)
    github_app_key_file: Mapped[str | None] = mapped_column(Text)


class ApiSpecConfig(Base):
    """An organisation's saved API-readiness configuration: which spec (a file on a branch of an
    integration's code repository) ``POST /oas/validate`` checks, and which checks run by default."""

    __tablename__ = "api_spec_configs"
    org_id: Mapped[int] = mapped_column(ForeignKey("organizations.id", ondelete="CASCADE"), primary_key=True)
    integration_id: Mapped[int] = mapped_column(ForeignKey("integrations.id", ondelete="CASCADE"))
    branch: Mapped[str | None] = mapped_column(String(200))  # None: the integration's code branch
    path: Mapped[str] = mapped_column(Text)
    run_swagger: Mapped[bool] = mapped_column(Boolean, default=True)
    run_redocly: Mapped[bool] = mapped_column(Boolean, default=True)
    run_ai_fix: Mapped[bool] = mapped_column(Boolean, default=True)
    run_ai_content: Mapped[bool] = mapped_column(Boolean, default=False)
    updated_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow, onupdate=utcnow)
    integration: Mapped[Integration] = relationship(lazy="joined")


class Item(Base):
    """A work item of one tool (feature-drafts, captures, docflows, ...)."""

    __tablename__ = "items"
    __table_args__ = (Index("ix_items_org_tool_created", "org_id", "tool", "created_at"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    org_id: Mapped[int] = mapped_column(ForeignKey("organizations.id", ondelete="CASCADE"))
    tool: Mapped[str] = mapped_column(String(40))
    title: Mapped[str] = mapped_column(String(500))
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow, onupdate=utcnow)
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    release_id: Mapped[int | None] = mapped_column(ForeignKey("releases.id", ondelete="SET NULL"))
    writer_user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    work_status: Mapped[str] = mapped_column(String(20), default="todo")
    status_note: Mapped[str | None] = mapped_column(Text)
    pull_request: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    # Tool-specific state (a suggestion's files, a capture's steps, ...): the tool's engine owns it.
    data: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)

    created_by: Mapped[User | None] = relationship(foreign_keys=[created_by_id], lazy="joined")
    writer: Mapped[User | None] = relationship(foreign_keys=[writer_user_id], lazy="joined")
    release: Mapped[Release | None] = relationship(lazy="joined")
    files: Mapped[list["StoredFile"]] = relationship(
        back_populates="item", cascade="all, delete-orphan", passive_deletes=True
    )


class StoredFile(Base):
    """A file kept in the data directory for an item: a capture's screenshot, audio or video."""

    __tablename__ = "stored_files"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    item_id: Mapped[int] = mapped_column(ForeignKey("items.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(20))  # screenshot | audio | video | attachment
    path: Mapped[str] = mapped_column(Text)  # relative to the data directory
    size: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    item: Mapped[Item] = relationship(back_populates="files")


class Job(Base):
    """A durable job. ``state`` adds ``running`` to the interface's statuses; the API shows it as
    ``queued`` with progress, since the interface knows only queued, completed and failed."""

    __tablename__ = "jobs"
    __table_args__ = (
        Index("ix_jobs_state_created", "state", "created_at"),
        # One running job per concurrency key, enforced by the database for every process (0006).
        Index("ux_jobs_running_key", "concurrency_key", unique=True,
              postgresql_where=text("state = 'running'"), sqlite_where=text("state = 'running'")),
    )
    id: Mapped[str] = mapped_column(String(36), primary_key=True)
    org_id: Mapped[int] = mapped_column(ForeignKey("organizations.id", ondelete="CASCADE"), index=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    kind: Mapped[str] = mapped_column(String(60))
    state: Mapped[str] = mapped_column(String(20), default="queued")
    # Jobs with the same key never run at the same time (e.g. two syncs of one integration).
    concurrency_key: Mapped[str | None] = mapped_column(String(200))
    params: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    progress: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    error: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    max_attempts: Mapped[int] = mapped_column(Integer, default=2)
    locked_by: Mapped[str | None] = mapped_column(String(100))
    heartbeat_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True))
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow, onupdate=utcnow)
    started_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True))


class IdempotencyRecord(Base):
    """The stored answer to a POST with an ``Idempotency-Key``; ``status_code`` is None while the
    first request is still being handled."""

    __tablename__ = "idempotency_records"
    __table_args__ = (UniqueConstraint("org_id", "key"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    org_id: Mapped[int] = mapped_column(ForeignKey("organizations.id", ondelete="CASCADE"))
    key: Mapped[str] = mapped_column(String(200))
    request_hash: Mapped[str] = mapped_column(String(64))
    status_code: Mapped[int | None] = mapped_column(Integer)
    headers: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    body: Mapped[bytes | None] = mapped_column(LargeBinary)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class RepoState(Base):
    """What the last successful sync of an integration saw, and what the remotes look like now."""

    __tablename__ = "repo_states"
    integration_id: Mapped[int] = mapped_column(ForeignKey("integrations.id", ondelete="CASCADE"),
                                                primary_key=True)
    docs_commit: Mapped[str | None] = mapped_column(String(64))
    code_commit: Mapped[str | None] = mapped_column(String(64))
    synced_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True))
    files_indexed: Mapped[int] = mapped_column(Integer, default=0)
    # The remotes' heads as last checked, and how many commits the sync is behind them.
    remote_checked_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True))
    behind_docs: Mapped[int | None] = mapped_column(Integer)
    behind_code: Mapped[int | None] = mapped_column(Integer)
    remote_docs_commit: Mapped[str | None] = mapped_column(String(64))
    remote_code_commit: Mapped[str | None] = mapped_column(String(64))
    remote_error: Mapped[str | None] = mapped_column(Text)


class SearchDoc(Base):
    """One indexed file of an integration's docs, at the blob last synced."""

    __tablename__ = "search_docs"
    __table_args__ = (UniqueConstraint("integration_id", "path"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    org_id: Mapped[int] = mapped_column(ForeignKey("organizations.id", ondelete="CASCADE"), index=True)
    integration_id: Mapped[int] = mapped_column(ForeignKey("integrations.id", ondelete="CASCADE"))
    path: Mapped[str] = mapped_column(Text)
    blob: Mapped[str] = mapped_column(String(64))
    kind: Mapped[str] = mapped_column(String(20))  # markdown | mdx | rst | asciidoc | text | openapi | helm
    title: Mapped[str | None] = mapped_column(Text)


class SearchChunk(Base):
    """A passage of an indexed file with its first line; the full-text index covers ``text``
    (an FTS5 table on SQLite, a generated tsvector on PostgreSQL: see migration 0002)."""

    __tablename__ = "search_chunks"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    doc_id: Mapped[int] = mapped_column(ForeignKey("search_docs.id", ondelete="CASCADE"), index=True)
    line: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)


class SyncRequest(Base):
    """A ``request-sync`` email: at most one per repository per (UTC) day."""

    __tablename__ = "sync_requests"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    org_id: Mapped[int] = mapped_column(ForeignKey("organizations.id", ondelete="CASCADE"))
    integration_id: Mapped[int] = mapped_column(ForeignKey("integrations.id", ondelete="CASCADE"), index=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    day: Mapped[dt.date] = mapped_column(Date)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    __table_args__ = (UniqueConstraint("integration_id", "day"),)


class OutboxMail(Base):
    """Every email the service wrote: sent over SMTP, or kept here when no SMTP is configured."""

    __tablename__ = "outbox"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    org_id: Mapped[int] = mapped_column(ForeignKey("organizations.id", ondelete="CASCADE"), index=True)
    recipients: Mapped[list[Any]] = mapped_column(JSON)
    subject: Mapped[str] = mapped_column(Text)
    body: Mapped[str] = mapped_column(Text)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    sent_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True))
    error: Mapped[str | None] = mapped_column(Text)


class CreditAccount(Base):
    """An organisation's credit balance; every charge is also a ledger row."""

    __tablename__ = "credit_accounts"
    org_id: Mapped[int] = mapped_column(ForeignKey("organizations.id", ondelete="CASCADE"), primary_key=True)
    balance: Mapped[int] = mapped_column(Integer, default=0)


class CreditCharge(Base):
    __tablename__ = "credit_charges"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    org_id: Mapped[int] = mapped_column(ForeignKey("organizations.id", ondelete="CASCADE"), index=True)
    amount: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(String(100))
    item_id: Mapped[int | None] = mapped_column(Integer)
    job_id: Mapped[str | None] = mapped_column(String(36))
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ProductCategory(Base):
    """One of an organisation's product categories: what a release-notes entry's ``rn_category``
    may name (besides ``Other``). Set with ``docsvc-server categories set``."""

    __tablename__ = "product_categories"
    __table_args__ = (UniqueConstraint("org_id", "name"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    org_id: Mapped[int] = mapped_column(ForeignKey("organizations.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(200))
    position: Mapped[int] = mapped_column(Integer, default=0)


class ReleaseDateChange(Base):
    """Each setting of a release's target date, the first included (``old_date`` None): the
    dashboard's timeline shows the first planned date and every change since."""

    __tablename__ = "release_date_changes"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    release_id: Mapped[int] = mapped_column(ForeignKey("releases.id", ondelete="CASCADE"), index=True)
    old_date: Mapped[dt.date | None] = mapped_column(Date)
    new_date: Mapped[dt.date | None] = mapped_column(Date)
    reason: Mapped[str | None] = mapped_column(Text)
    changed_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    changed_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ReleaseNoteEntry(Base):
    """An entry of a release's release-notes queue, from an approved Docflows suggestion or Feature
    Author draft. One per source item; it stays when the item is dismissed as done or deleted."""

    __tablename__ = "release_note_entries"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    org_id: Mapped[int] = mapped_column(ForeignKey("organizations.id", ondelete="CASCADE"), index=True)
    release_id: Mapped[int] = mapped_column(ForeignKey("releases.id", ondelete="CASCADE"), index=True)
    item_id: Mapped[int | None] = mapped_column(ForeignKey("items.id", ondelete="SET NULL"), unique=True)
    tool: Mapped[str] = mapped_column(String(40))  # the source item's tool: docflows | feature-drafts
    title: Mapped[str] = mapped_column(String(500))
    section: Mapped[str] = mapped_column(String(30))  # feature | enhancement | bug | known-issue | developer
    category: Mapped[str] = mapped_column(String(200))  # a product category or "Other"
    note: Mapped[str] = mapped_column(Text)
    badge: Mapped[str | None] = mapped_column(String(60))  # "Feature Author" for drafts
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow, onupdate=utcnow)


class WebhookDelivery(Base):
    """One webhook delivery a code host sent for an integration, with what the service did with it.
    A delivery id is taken once per integration: a redelivery does nothing again (0008); so is a
    taken body, by its digest: the same signed body under a fresh delivery id is a replay (0009)."""

    __tablename__ = "webhook_deliveries"
    __table_args__ = (UniqueConstraint("integration_id", "delivery_id"),
                      UniqueConstraint("integration_id", "body_sha256", name="uq_webhook_deliveries_integration_body"),
                      Index("ix_webhook_deliveries_integration_received", "integration_id", "received_at"))
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    integration_id: Mapped[int] = mapped_column(ForeignKey("integrations.id", ondelete="CASCADE"))
    delivery_id: Mapped[str] = mapped_column(String(200))
    host: Mapped[str] = mapped_column(String(20))  # github | gitlab
    event: Mapped[str] = mapped_column(String(100))
    action: Mapped[str | None] = mapped_column(String(100))
    # What came of it: done (a job queued or an item updated), ignored, refused (a body that is
    # not JSON: its redelivery, once the hook sends JSON, is taken again) or replay (a body taken
    # before, under another delivery id: nothing done).
    outcome: Mapped[str] = mapped_column(String(20))
    result: Mapped[str] = mapped_column(Text)
    job_id: Mapped[str | None] = mapped_column(String(36))
    # The SHA-256 (hex) of the raw body of a delivery that was taken (done or ignored); None for
    # refused and replayed ones and those from before 0009, so they claim no body.
    body_sha256: Mapped[str | None] = mapped_column(String(64))
    received_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
