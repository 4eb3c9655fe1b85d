"""Settings of the CLI and CI layers, each with the place it came from.

Precedence, first wins: a flag (``--base-url``), the environment (``DOCSVC_API_KEY``,
``DOCSVC_BASE_URL``), the project's ``docsvc.yaml`` in the working directory, the per-user config
that ``docsvc login`` writes (``config.yaml`` in the platform's user config directory, or in
``$DOCSVC_CONFIG_DIR``), then the default. ``integration_id`` belongs to a project, so only the
project file holds it. YAML is imported only when a file exists, to keep start-up fast.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping
from urllib.parse import urlsplit

from .credentials import hidden
from .models.limits import MAX_ID  # the service's largest id

__all__ = [
    "CONFIG_FILE",
    "DEFAULT_BASE_URL",
    "USER_CONFIG_FILE",
    "ConfigError",
    "MissingApiKey",
    "Settings",
    "check_base_url",
    "key_problem",
    "git_tracks",
    "load_settings",
    "mask_key",
    "read_user_config",
    "user_config_path",
    "write_user_config",
]

CONFIG_FILE = "docsvc.yaml"
USER_CONFIG_FILE = "config.yaml"
DEFAULT_SOURCE = "default"
USER_SOURCE = "user config"  # a value from the per-user config is labelled "user config PATH"
# The local service's default address: the embedded default of this toolkit.
DEFAULT_BASE_URL = "http://127.0.0.1:8080"
MISSING_KEY_MESSAGE = "Error: DOCSVC_API_KEY missing"
_FILE_KEYS = ("api_key", "base_url", "integration_id")
# What a key may contain: visible ASCII, so it is a valid HTTP header value.
KEY_CHARS = re.compile(r"[\x21-\x7e]+")


class ConfigError(Exception):
    """A setting is malformed; the message names the file (or variable) and the key."""


class MissingApiKey(ConfigError):
    def __init__(self) -> None:
        super().__init__(MISSING_KEY_MESSAGE)


@dataclass(frozen=True)
class Settings:
    api_key: str | None
    base_url: str
    integration_id: int | None
    config_path: Path | None  # the docsvc.yaml that was read, if any
    # Where each value came from ("$DOCSVC_API_KEY", "./docsvc.yaml", ...): for
    # `config list`, `whoami`, and errors that must name the setting to fix.
    sources: Mapping[str, str] = field(default_factory=dict)

    def source(self, name: str) -> str:
        return self.sources.get(name, DEFAULT_SOURCE)

    def require_key(self) -> str:
        if not self.api_key:
            raise MissingApiKey()
        return self.api_key

    def __repr__(self) -> str:  # never show the key, not even in a traceback or a debugger
        key = "set" if self.api_key else "missing"
        return (f"Settings(api_key=<{key}>, base_url={self.base_url!r}, "
                f"integration_id={self.integration_id!r}, config_path={self.config_path!r})")


def mask_key(key: str | None) -> str:
    """A key as it may be shown: its public prefix and last two characters, never the secret."""
    if not key:
        return "(not set)"
    if len(key) < 12:
        return "*" * len(key)
    return f"{key[:4]}…{key[-2:]}"


def key_problem(key: str) -> str | None:
    """Why ``key`` (an API key or another token sent in a header) cannot be sent, or None.

    A header carries only visible ASCII: a key pasted with a space, a control character or a
    non-ASCII look-alike is refused up front, by callers that name where it came from, rather
    than deep inside the HTTP library. The message never shows the key."""
    if KEY_CHARS.fullmatch(key):
        return None
    return ("must be printable ASCII without spaces "
            "(check for a stray space, quote, control or non-ASCII character)")


def check_base_url(value: str, source: str) -> str:
    """The base URL without a trailing slash; a URL without an http(s) scheme, or one that does not
    parse, is a ConfigError that names where it came from and what to write instead."""
    url = value.strip()
    shown = hidden(url)
    scheme, sep, rest = url.partition("://")
    if not sep:
        shown = shown.rstrip("/")
        raise ConfigError(f"{source}: base URL {shown!r} has no scheme; write http://{shown} or https://{shown}")
    if scheme.lower() not in ("http", "https"):
        raise ConfigError(f"{source}: base URL {shown!r} must start with http:// or https://")
    if not rest.strip("/"):
        raise ConfigError(f"{source}: base URL {shown!r} has no host")
    try:
        parts = urlsplit(url)
        parts.port  # parses the host too: an unclosed [IPv6 bracket, a port that is no number
    except ValueError as exc:
        raise ConfigError(f"{source}: base URL {shown!r} is malformed ({exc})") from None
    if "@" in parts.netloc:  # httpx would send it as Basic auth instead of the key
        raise ConfigError(f"{source}: base URL {shown!r} holds a user or password; "
                          "the API key authenticates, the URL holds no user or password")
    return url.rstrip("/")


def user_config_path(env: Mapping[str, str] | None = None) -> Path:
    """The per-user config file: ``$DOCSVC_CONFIG_DIR/config.yaml``, else the platform's user
    config directory (``~/.config/docsvc`` on Linux, honouring ``XDG_CONFIG_HOME``)."""
    env = os.environ if env is None else env
    if env.get("DOCSVC_CONFIG_DIR"):
        return Path(env["DOCSVC_CONFIG_DIR"]) / USER_CONFIG_FILE
    import platformdirs  # lazy: only commands that read settings pay for it

    return Path(platformdirs.user_config_dir("docsvc", appauthor=False)) / USER_CONFIG_FILE


def write_user_config(path: Path, values: Mapping[str, str | None]) -> None:
    """Write the per-user config with mode 0600 (its folder 0700), atomically: a crash leaves
    the old file or the new one, and the key is never readable by others, not even briefly."""
    import yaml

    from .files import write_atomically

    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    data = {k: v for k, v in values.items() if v is not None}
    text = "# Written by `docsvc login`; holds a secret: keep it private (mode 0600).\n"
    write_atomically(path, text + yaml.safe_dump(data, default_flow_style=False, sort_keys=True), mode=0o600)


def read_user_config(env: Mapping[str, str] | None = None) -> tuple[Path, dict]:
    """The per-user config's path and its values (empty when there is no file yet)."""
    path = user_config_path(env)
    return path, (_read_file(path, str(path)) if path.is_file() else {})


def _read_file(path: Path, label: str | None = None) -> dict:
    """The mapping in a settings file; errors name it by ``label`` (default: its file name).

    PyYAML's safe loader, not the bounded ``specload``: aliases load as shared references, in
    time and memory linear in the text, and only expanding them costs more. Nothing here walks
    or prints a value that is not a scalar (see ``_parse_integration_id``), so a billion-laughs
    file is refused at once; ``specload`` would add its JSON-first reading (which refuses the
    YAML flow mapping ``{api_key: k}``) and ~10 ms of imports to every command."""
    label = label or path.name
    import yaml  # lazy: only when the file exists

    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{label}: cannot be read ({exc.strerror})") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{label}: not UTF-8 text (byte {exc.start})") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        raise ConfigError(f"{label}: not valid YAML{where}") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConfigError(f"{label}: must be a mapping of keys ({', '.join(_FILE_KEYS)})")
    for key in ("api_key", "base_url"):
        value = data.get(key)
        if value is not None and not isinstance(value, str):
            raise ConfigError(f"{label}: {key} must be a string")
    return data


def _parse_integration_id(value: object, path: Path) -> int | None:
    if value is None:
        return None
    # bool is an int in Python; `integration_id: yes` is not an id.
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        # A list or mapping is named, never shown: YAML aliases make it share its parts, and
        # printing it would expand them (a billion-laughs file would hang the command).
        shown = repr(value) if isinstance(value, (bool, float)) else f"a {type(value).__name__}"
        raise ConfigError(f"{path.name}: integration_id must be an integer, got {shown}")
    try:
        number = int(str(value).strip())
    except ValueError:
        raise ConfigError(f"{path.name}: integration_id must be an integer, got {value!r}") from None
    if not 0 < number <= MAX_ID:
        raise ConfigError(f"{path.name}: integration_id must be a positive integer of at most {MAX_ID}, got {number}")
    return number


def project_values(cwd: Path) -> dict:
    """``api_key``, ``base_url`` and ``integration_id`` of the ``docsvc.yaml`` in ``cwd`` (those it
    sets; nothing when there is no file), checked as ``load_settings`` checks them."""
    path = cwd / CONFIG_FILE
    if not path.is_file():
        return {}
    data = _read_file(path)
    values = {k: data[k].strip() for k in ("api_key", "base_url") if data.get(k) and data[k].strip()}
    integration_id = _parse_integration_id(data.get("integration_id"), path)
    return {**values, "integration_id": integration_id} if integration_id is not None else values


def load_settings(env: Mapping[str, str] | None = None, cwd: Path | None = None,
                  flags: Mapping[str, str | None] | None = None) -> Settings:
    """Read the settings; raises ConfigError for a malformed file or base URL. Does not require a
    key. ``flags`` are command-line values (``base_url``), the strongest source."""
    env = os.environ if env is None else env
    cwd = Path.cwd() if cwd is None else cwd
    project = cwd / CONFIG_FILE
    project_data = project_values(cwd)
    user, user_data = read_user_config(env)
    layers = [  # strongest first: (source name, values)
        ("--base-url", {"base_url": (flags or {}).get("base_url")}),
        ("$DOCSVC_API_KEY", {"api_key": env.get("DOCSVC_API_KEY")}),
        ("$DOCSVC_BASE_URL", {"base_url": env.get("DOCSVC_BASE_URL")}),
        (f"./{CONFIG_FILE}", {k: project_data.get(k) for k in ("api_key", "base_url")}),
        (f"{USER_SOURCE} {user}", {k: user_data.get(k) for k in ("api_key", "base_url")}),
    ]
    values: dict[str, str] = {}
    sources: dict[str, str] = {}
    for source, layer in layers:
        for name, value in layer.items():
            if name not in values and value and value.strip():
                values[name], sources[name] = value.strip(), source
    key = values.get("api_key")
    if key is not None and (problem := key_problem(key)) is not None:
        raise ConfigError(f"{sources['api_key']}: the API key {problem}")
    base_url = DEFAULT_BASE_URL
    if "base_url" in values:
        base_url = check_base_url(values["base_url"], sources["base_url"])
    integration_id = project_data.get("integration_id")
    if integration_id is not None:
        sources["integration_id"] = f"./{CONFIG_FILE}"
    return Settings(
        api_key=key,
        base_url=base_url,
        integration_id=integration_id,
        config_path=project if project.is_file() else None,
        sources=sources,
    )


def git_tracks(path: Path) -> bool:
    """True when git tracks ``path`` (the file holds a secret and should stay untracked)."""
    import subprocess  # here, not at the top: every command reads the config, few ask git

    try:
        done = subprocess.run(
            ["git", "ls-files", "--error-unmatch", path.name],
            cwd=path.parent,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=5,
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0
