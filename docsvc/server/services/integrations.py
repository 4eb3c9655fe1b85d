"""Integrations: the connected code and docs repositories of an organisation."""

from __future__ import annotations

import os
import re
from urllib.parse import urlparse

from sqlalchemy import select
from sqlalchemy.orm import Session

from ...egress import Egress, EgressRefused
from ..db.tables import Integration, Organization
from ..engines.git import UnsafePath, branch_problem, repo_folder
from .accounts import AdminError

HOSTS = ("github", "gitlab", "git")
# The public hosts' APIs; an Enterprise Server or self-managed host's API sits on its own name.
PUBLIC_API = {"github": "https://api.github.com", "gitlab": "https://gitlab.com/api/v4"}
_PUBLIC_HOST = {"github": "github.com", "gitlab": "gitlab.com"}
_SELF_HOSTED_API = {"github": "/api/v3", "gitlab": "/api/v4"}
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,199}$")
# What GitHub's and GitLab's tokens start with: such a value was given where a variable's NAME belongs.
_TOKEN_PREFIXES = ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "gldt-", "glptt-")
_HOST_REPO = {"github": re.compile(r"^[\w.-]+/[\w.-]+$"), "gitlab": re.compile(r"^[\w.-]+(?:/[\w.-]+)+$")}


class IntegrationInputError(AdminError):
    """A bad value for one option of an integration; ``option`` names it (a usage error)."""

    def __init__(self, option: str, message: str) -> None:
        super().__init__(message)
        self.option = option


_KNOWN_HOSTS = {"github": "GitHub", "gitlab": "GitLab", "bitbucket": "Bitbucket"}
_SCP_LIKE = re.compile(r"^(?:[\w.-]+@)?([\w.-]+):(?!//)")


def _location(url: str) -> tuple[str, str] | None:
    """(host name, path) of a remote repository's URL (also ``git@host:path``); None for a local path."""
    if "://" in url:
        parts = urlparse(url)
        return (parts.hostname, parts.path) if parts.hostname and parts.scheme != "file" else None
    match = _SCP_LIKE.match(url)
    if match and not re.match(r"^[A-Za-z]:[\\/]", url):
        return match.group(1), url[match.end():]
    return None


def code_host(url: str) -> str:
    """The code host's display name: GitHub, GitLab, Bitbucket, else the host, or ``git`` locally."""
    where = _location(url)
    if where is None:
        return "git"
    for needle, display in _KNOWN_HOSTS.items():
        if needle in where[0].lower():
            return display
    return where[0]


def inferred_host(code_repo: str, docs_repo: str) -> str:
    """github or gitlab when the docs repository (where pull requests go), else the code repository,
    is on github.com or gitlab.com; else git."""
    for url in (docs_repo, code_repo):
        where = _location(url)
        for host, public in _PUBLIC_HOST.items():
            if where and where[0].lower() == public:
                return host
    return "git"


def default_api_url(host: str, repo: str) -> str | None:
    """The API of the host that serves ``repo``: the public one for github.com and gitlab.com (and
    for a repository that is no URL), else the Enterprise Server or self-managed host's own."""
    if host not in PUBLIC_API:
        return None
    where = _location(repo)
    if where is None or where[0].lower() == _PUBLIC_HOST[host]:
        return PUBLIC_API[host]
    return f"https://{where[0]}{_SELF_HOSTED_API[host]}"


def host_repo_of(host: str, repo: str) -> str | None:
    """OWNER/NAME (GitLab: GROUP/.../NAME) of a repository's URL on the host, or None when the URL
    names no project there (a local path, a mirror elsewhere)."""
    where = _location(repo)
    if host not in _HOST_REPO or where is None:
        return None
    path = where[1].strip("/")
    path = path[:-4] if path.endswith(".git") else path
    return path if _HOST_REPO[host].match(path) else None


def _checked_api_url(value: str) -> str:
    parts = urlparse(value)
    if parts.scheme not in ("https", "http") or not parts.hostname:
        raise IntegrationInputError("--host-api-url", "expected an http(s):// URL of the host's API")
    if parts.username or parts.password or parts.query:
        # A token belongs in the environment variable, never in what the database keeps.
        raise IntegrationInputError("--host-api-url", "must hold no credentials or query; "
                                    "give the token through --host-token-env")
    return value.rstrip("/")


def _checked_env_name(value: str) -> str:
    if value.startswith(_TOKEN_PREFIXES):  # never echoed: it is a token
        raise IntegrationInputError("--host-token-env", "expected the NAME of an environment variable "
                                    "that holds the token, not the token itself")
    if not _ENV_NAME.match(value):
        raise IntegrationInputError("--host-token-env", "expected an environment variable name "
                                    "(letters, digits and _, not starting with a digit)")
    return value


def _checked_host_repo(option: str, host: str, value: str) -> str:
    value = value.strip().strip("/")
    pattern = _HOST_REPO.get(host)
    if pattern is not None and not pattern.match(value):
        shape = "OWNER/NAME" if host == "github" else "GROUP/NAME (or GROUP/SUBGROUP/.../NAME)"
        raise IntegrationInputError(option, f"expected {shape} as {host} names the repository, got {value!r}")
    return value


def set_host(integration: Integration, **given: str | int | None) -> None:
    """Set an integration's code-host settings from the options given (None: not given), inferring
    the rest from its repositories: the host from github.com / gitlab.com URLs, the API URL from
    the host, OWNER/NAME from the URLs. An empty text clears an optional setting. Raises
    IntegrationInputError naming the option at fault."""
    first = integration.host is None  # a new integration: everything not given is inferred
    host = given.get("host") or integration.host or inferred_host(integration.code_repo, integration.docs_repo)
    if host not in HOSTS:
        raise IntegrationInputError("--host", f"expected one of {', '.join(HOSTS)}, got {host!r}")
    changed = host != integration.host
    integration.host = host

    if given.get("host_api_url"):
        integration.host_api_url = _checked_api_url(str(given["host_api_url"]))
    elif first or changed or given.get("host_api_url") == "":
        integration.host_api_url = default_api_url(host, integration.docs_repo)
    if given.get("host_token_env") is not None:
        value = str(given["host_token_env"])
        integration.host_token_env = _checked_env_name(value) if value else None
    for side in ("code", "docs"):
        field, option = f"{side}_host_repo", f"--{side}-host-repo"
        value = given.get(field)
        if value:
            setattr(integration, field, _checked_host_repo(option, host, str(value)))
        elif value == "" or first or changed or getattr(integration, field) is None:
            setattr(integration, field, host_repo_of(host, getattr(integration, f"{side}_repo")))

    if given.get("github_app_id") is not None:
        integration.github_app_id = int(given["github_app_id"]) or None
    if given.get("github_app_key_file") is not None:
        integration.github_app_key_file = str(given["github_app_key_file"]).strip() or None
    _check_host(integration)


def _check_host(integration: Integration) -> None:
    """What a pull request through the host needs, checked when the integration is saved."""
    if integration.host == "git":
        if integration.github_app_id or integration.github_app_key_file:
            raise IntegrationInputError("--github-app-id", "a GitHub App needs --host github")
        return
    if integration.docs_host_repo is None:
        raise IntegrationInputError("--docs-host-repo", f"the docs repository's location names no "
                                    f"{integration.host} project: give it as OWNER/NAME")
    if integration.host != "github" and (integration.github_app_id or integration.github_app_key_file):
        raise IntegrationInputError("--github-app-id", "a GitHub App needs --host github")
    if bool(integration.github_app_id) != bool(integration.github_app_key_file):
        raise IntegrationInputError("--github-app-key-file" if integration.github_app_id else "--github-app-id",
                                    "a GitHub App needs both --github-app-id and --github-app-key-file")
    where = _location(integration.docs_repo)
    for host, public in _PUBLIC_HOST.items():
        # github.com's API is no GitLab's (https://github.com/api/v4 answers nothing), and the reverse.
        if where and where[0].lower() == public and integration.host != host:
            raise IntegrationInputError("--host", f"the docs repository is on {public}: give --host {host} "
                                        f"(or git), not {integration.host}")


def checked_remote(option: str, location: str, egress: Egress | None = None) -> str:
    """A repository's location as the sync will take it: the egress policy's rule for git
    remotes (``Egress.check_git``, asking no DNS: the host is checked again at each fetch), and a
    local path absolute, so it names the same folder for the service as for whoever registered it."""
    location = location.strip()
    if not location:
        raise IntegrationInputError(option, "must not be empty")
    try:
        (egress or Egress()).check_git(location, resolve=False)
    except EgressRefused as exc:
        raise IntegrationInputError(option, str(exc)) from None
    if _location(location) is None and "://" not in location and not os.path.isabs(location):
        raise IntegrationInputError(option, f"{location!r} is neither an https://, ssh:// or user@host:path "
                                    "remote nor an absolute local path")
    return location


def checked_branch(option: str, branch: str) -> str:
    problem = branch_problem(branch)
    if problem is not None:
        raise IntegrationInputError(option, f"{branch!r} {problem}" if branch else problem)
    return branch


def checked_docs_path(path: str) -> str:
    """The docs folder by the rule of every path inside a repository (``repo_folder``)."""
    try:
        return repo_folder(path)
    except UnsafePath as exc:
        raise IntegrationInputError("--docs-path", f"must be a folder inside the docs repository: {exc}") from None


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
    egress: Egress | None = None,
    **host: str | int | None,
) -> Integration:
    """A new integration; ``host`` holds the code-host options (``set_host``). Its repositories
    are checked by the rules the sync follows (``egress``: the service's policy), so a setting
    that would only fail there is refused now, naming its option."""
    if not name.strip():
        raise AdminError("integration name must not be empty")
    integration = Integration(
        org_id=org.id,
        name=name.strip(),
        code_repo=checked_remote("--code-repo", code_repo, egress),
        docs_repo=checked_remote("--docs-repo", docs_repo, egress),
        code_branch=checked_branch("--code-branch", code_branch),
        docs_branch=checked_branch("--docs-branch", docs_branch),
        docs_path=checked_docs_path(docs_path),
        preview_url=preview_url,
        keep_in_sync=keep_in_sync,
    )
    set_host(integration, **host)
    session.add(integration)
    session.flush()
    return integration


def update_integration(session: Session, integration_id: int, *, keep_in_sync: bool | None = None,
                       **host: str | int | None) -> Integration:
    """Change an integration's code-host settings (``set_host``) and Keep in sync."""
    integration = session.get(Integration, integration_id)
    if integration is None:
        raise AdminError(f"no integration {integration_id}")
    set_host(integration, **host)
    if keep_in_sync is not None:
        integration.keep_in_sync = keep_in_sync
    session.flush()
    return integration


def list_integrations(session: Session, org_id: int) -> list[Integration]:
    return list(session.scalars(
        select(Integration).where(Integration.org_id == org_id).order_by(Integration.id.desc())
    ))
