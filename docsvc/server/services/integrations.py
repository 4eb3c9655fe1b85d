"""Integrations: the connected code and docs repositories of an organisation."""

from __future__ import annotations

import re
from urllib.parse import urlparse

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..db.tables import Integration, Organization
from .accounts import AdminError

_KNOWN_HOSTS = {"github": "GitHub", "gitlab": "GitLab", "bitbucket": "Bitbucket"}
_SCP_LIKE = re.compile(r"^(?:[\w.-]+@)?([\w.-]+):(?!//)")


def code_host(url: str) -> str:
    """The code host's display name: GitHub, GitLab, Bitbucket, else the host, or ``git`` locally."""
    host = urlparse(url).hostname if "://" in url else None
    if host is None:
        match = _SCP_LIKE.match(url)  # git@github.com:org/repo.git
        if match and not re.match(r"^[A-Za-z]:[\\/]", url):  # not a Windows drive letter
            host = match.group(1)
    if not host or urlparse(url).scheme == "file":
        return "git"
    for needle, display in _KNOWN_HOSTS.items():
        if needle in host.lower():
            return display
    return host


def add_integration(
    session: Session,
    org: Organization,
    *,
    name: str,
    code_repo: str,
    docs_repo: str,
    code_branch: str = "main",
    docs_branch: str = "main",
    docs_path: str = "docs",
    preview_url: str | None = None,
    keep_in_sync: bool = False,
) -> Integration:
    if not name.strip():
        raise AdminError("integration name must not be empty")
    for label, value in (("--code-repo", code_repo), ("--docs-repo", docs_repo)):
        if not value.strip():
            raise AdminError(f"{label} must not be empty")
    integration = Integration(
        org_id=org.id,
        name=name.strip(),
        code_repo=code_repo.strip(),
        docs_repo=docs_repo.strip(),
        code_branch=code_branch,
        docs_branch=docs_branch,
        docs_path=docs_path.strip("/") or ".",
        preview_url=preview_url,
        keep_in_sync=keep_in_sync,
    )
    session.add(integration)
    session.flush()
    return integration


def list_integrations(session: Session, org_id: int) -> list[Integration]:
    return list(session.scalars(
        select(Integration).where(Integration.org_id == org_id).order_by(Integration.id.desc())
    ))
