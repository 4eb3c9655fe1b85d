"""Every setting of the local service, in one place, from ``DOCSVC_SERVER_*`` variables."""

from __future__ import annotations

import math
import os
import socket
from dataclasses import dataclass, field, replace
from pathlib import Path
from urllib.parse import urlsplit

from ..egress import Egress

DEFAULT_DATABASE_URL = "sqlite:///docsvc.db"


# Job worker threads of one process: the bound of DOCSVC_SERVER_JOB_WORKERS and of the commands'
# --job-workers (one source for both).
MAX_JOB_WORKERS = 64
# Far beyond any real document; they keep a limit's count of bytes or pixels a finite whole number.
MAX_BODY_MB = 1024 * 1024
MAX_IMAGE_MEGAPIXELS = 1024 * 1024


def _env_number(name: str, default: float, *, low: float, above: bool = False, high: float | None = None,
                whole: bool = False, unit: str = "") -> float:
    """A numeric setting within its bounds (``low`` itself is refused when ``above``); anything else
    stops the start with one line naming the variable, the bounds and the value."""
    text = os.environ.get(name, "").strip()
    if not text:
        return default
    try:
        value = int(text) if whole else float(text)
    except ValueError:
        value = None
    fits = value is not None and math.isfinite(value) and (value > low if above else value >= low) \
        and (high is None or value <= high)
    if not fits:
        def show(n: float) -> str:
            return f"{n:g}" if n != int(n) else str(int(n))

        kind = ("a whole number" if whole else "a number") + (f" of {unit}" if unit else "")
        if above:
            bounds = f"above {show(low)}" + (f" and at most {show(high)}" if high is not None else "")
        else:
            bounds = f"{show(low)} or more" if high is None else f"from {show(low)} to {show(high)}"
        raise SystemExit(f"Error: {name} must be {kind}, {bounds}, got {os.environ.get(name)!r}")
    return value


def _env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name, "").strip().lower()
    if not value:
        return default
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("0", "false", "no", "off"):
        return False
    raise SystemExit(f"Error: {name} must be 1 or 0, got {value!r}")


def _env_url(name: str) -> str | None:
    """A base address from the environment (paths are appended to it): http(s), a host, an optional
    port and path; no credentials (never echoed), query or fragment."""
    value = os.environ.get(name, "").strip().rstrip("/")
    if not value:
        return None
    parts = urlsplit(value)
    if parts.username is not None or parts.password is not None:
        raise SystemExit(f"Error: {name} must hold no user name or password (it is given to the code hosts)")
    try:
        port_ok = parts.port is None or parts.port > 0
    except ValueError:
        port_ok = False
    if (parts.scheme.lower() not in ("http", "https") or not parts.hostname or not port_ok
            or any(c.isspace() or not c.isprintable() for c in value)):
        raise SystemExit(f"Error: {name} must be an http:// or https:// address, got {value!r}")
    if parts.query or parts.fragment or value.endswith(("?", "#")):
        raise SystemExit(f"Error: {name} must be a base address without ?query or #fragment (paths are added to "
                         f"it), got {value!r}")
    return value


@dataclass(frozen=True)
class ServerSettings:
    # The database: a SQLite file, or postgresql://user@host:5432/db (several processes need PostgreSQL).
    database_url: str = DEFAULT_DATABASE_URL
    # Stored files (uploads, screenshots, captures, conversions) and the git mirrors; shared by every
    # process of one service.
    data_dir: Path = field(default_factory=lambda: Path("docsvc-data"))
    # This process's name among those sharing the database and the data directory (the pod's
    # name in Kubernetes): it names the process's own git mirror cache. Default: the host name.
    instance_id: str = field(default_factory=socket.gethostname)
    # Job workers of this process (threads running queued jobs); 0: it runs no job (``run
    # --job-workers 0`` leaves them to ``docsvc-server worker`` processes).
    job_workers: int = 2
    # A running job whose worker has not sent a heartbeat for this long is taken as cut off and
    # claimed again by any process (heartbeats go every third of it).
    job_lease_seconds: float = 30.0
    # Runs of a job whose worker was cut off before it is marked failed with the reason.
    job_max_attempts: int = 2
    job_poll_seconds: float = 0.5
    # Where ``run``'s job workers' child listens to its API processes (jobs/wake.py: a job queued,
    # a job ended): set by ``run`` for its processes, never by hand. None: polls alone.
    job_wake: str | None = None
    idempotency_ttl_seconds: float = 24 * 3600
    page_size_default: int = 100
    page_size_max: int = 1000
    # Where mail goes: smtp://host:25, smtp+starttls://user:pass@host:587 or smtps://user:pass@host:465,
    # with ?from=docsvc@example.com; unset, mail stays in the outbox table and the log.
    smtp_url: str | None = None
    # How old a check of the remotes may be before GET /repos looks again (fetching the mirrors).
    remote_check_seconds: float = 60.0
    # How often integrations with Keep in sync on are checked; 0 turns the schedule off.
    keep_in_sync_seconds: float = 300.0
    # Request bodies beyond this are refused with 413 (MS Graph beta, the largest real OpenAPI
    # document we know, is 47 MB; sent as a JSON string it grows by its escapes).
    max_body_bytes: int = 128 * 1024 * 1024
    # Images read for text (OCR) beyond this many pixels are refused with 422 before the reader
    # runs: it decodes every pixel (a 400-megapixel PNG of 430 KB took tesseract 1.5 GB). 40
    # megapixels is more than a 6K screenshot (6144x3456 is 21 MP), about 150 MB of tesseract.
    max_image_pixels: int = 40_000_000
    # Hosts the service may connect to though they resolve to internal addresses (browser pages, git
    # remotes): host or host:port entries, comma-separated, or internal for all (see docsvc/egress.py).
    egress_allow: str = ""
    # Whether repositories may be local paths or file:// URLs (on: integrations are the operator's;
    # turn it off on a shared service).
    allow_local_repos: bool = True
    # Where code hosts reach this service (a proxy's or tunnel's address): the base of the webhook
    # URL that ``integrations webhook`` prints. None: the address ``run`` listens on by default.
    public_url: str | None = None
    # A webhook delivery's body beyond this is refused with 413: GitHub caps its payloads at 25 MB
    # (a larger one is never sent), and the service parses a delivery while the host waits.
    webhook_max_bytes: int = 25 * 1024 * 1024
    # How long webhook deliveries are kept (the listing, and the record that tells a redelivery or
    # a replayed body); older ones are removed as new ones come. A pull request or review event
    # older than this is ignored: its earlier delivery is no longer there to tell a replay by.
    # 0: kept for ever.
    webhook_retention_days: float = 90.0

    @classmethod
    def from_env(cls, database_url: str | None = None) -> "ServerSettings":
        env = os.environ
        return cls(
            database_url=database_url or env.get("DOCSVC_SERVER_DATABASE_URL") or DEFAULT_DATABASE_URL,
            data_dir=Path(env.get("DOCSVC_SERVER_DATA_DIR") or "docsvc-data"),
            instance_id=env.get("DOCSVC_SERVER_INSTANCE_ID") or socket.gethostname(),
            job_workers=int(_env_number("DOCSVC_SERVER_JOB_WORKERS", 2, low=0, high=MAX_JOB_WORKERS, whole=True)),
            job_lease_seconds=_env_number("DOCSVC_SERVER_JOB_LEASE_SECONDS", 30.0, low=0, above=True, unit="seconds"),
            job_max_attempts=int(_env_number("DOCSVC_SERVER_JOB_MAX_ATTEMPTS", 2, low=1, whole=True)),
            job_wake=env.get("DOCSVC_SERVER_JOB_WAKE") or None,
            smtp_url=env.get("DOCSVC_SERVER_SMTP_URL") or None,
            remote_check_seconds=_env_number("DOCSVC_SERVER_REMOTE_CHECK_SECONDS", 60.0, low=0, unit="seconds"),
            keep_in_sync_seconds=_env_number("DOCSVC_SERVER_KEEP_IN_SYNC_SECONDS", 300.0, low=0, unit="seconds"),
            max_body_bytes=int(_env_number("DOCSVC_SERVER_MAX_BODY_MB", 128, low=0, above=True, high=MAX_BODY_MB,
                                           unit="MB") * 1024 * 1024),
            max_image_pixels=int(_env_number("DOCSVC_SERVER_MAX_IMAGE_MEGAPIXELS", 40, low=0, above=True,
                                             high=MAX_IMAGE_MEGAPIXELS, unit="megapixels") * 1_000_000),
            egress_allow=env.get("DOCSVC_SERVER_EGRESS_ALLOW", ""),
            allow_local_repos=_env_bool("DOCSVC_SERVER_ALLOW_LOCAL_REPOS", True),
            public_url=_env_url("DOCSVC_SERVER_PUBLIC_URL"),
            webhook_retention_days=_env_number("DOCSVC_SERVER_WEBHOOK_RETENTION_DAYS", 90.0, low=0, unit="days"),
        )

    @property
    def mirrors_dir(self) -> Path:
        """This process's git mirrors: a cache of its own (processes never fetch into one mirror
        together), safe to delete at any time (the next use clones again)."""
        safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in self.instance_id).strip(".") or "local"
        return self.data_dir / "mirrors" / safe

    @property
    def public_base(self) -> str:
        """The service's address as code hosts see it (``DOCSVC_SERVER_PUBLIC_URL``), else the
        address ``docsvc-server run`` listens on by default."""
        return self.public_url or "http://127.0.0.1:8080"

    @property
    def egress(self) -> Egress:
        return Egress.from_setting(self.egress_allow, allow_local_repos=self.allow_local_repos)

    def with_(self, **changes) -> "ServerSettings":
        return replace(self, **changes)
