"""Settings of the CLI and CI layers: ``DOCSVC_*`` environment variables and ``docsvc.yaml``.

The environment beats the file (``DOCSVC_API_KEY`` over ``api_key``, ``DOCSVC_BASE_URL`` over
``base_url``). ``integration_id`` lives only in the file. YAML is imported only when the file
exists, to keep start-up fast.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

__all__ = [
    "CONFIG_FILE",
    "DEFAULT_BASE_URL",
    "ConfigError",
    "MissingApiKey",
    "Settings",
    "load_settings",
    "git_tracks",
]

CONFIG_FILE = "docsvc.yaml"
# The local service's default address: the embedded default of this toolkit.
DEFAULT_BASE_URL = "http://127.0.0.1:8080"
MISSING_KEY_MESSAGE = "Error: DOCSVC_API_KEY missing"
_FILE_KEYS = ("api_key", "base_url", "integration_id")


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

    def require_key(self) -> str:
        if not self.api_key:
            raise MissingApiKey()
        return self.api_key

    def __repr__(self) -> str:  # never show the key, not even in a traceback or a debugger
        key = "set" if self.api_key else "missing"
        return (f"Settings(api_key=<{key}>, base_url={self.base_url!r}, "
                f"integration_id={self.integration_id!r}, config_path={self.config_path!r})")


def _read_file(path: Path) -> dict:
    import yaml  # lazy: only when the file exists

    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{path.name}: cannot be read ({exc.strerror})") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        raise ConfigError(f"{path.name}: not valid YAML{where}") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConfigError(f"{path.name}: must be a mapping of keys ({', '.join(_FILE_KEYS)})")
    for key in ("api_key", "base_url"):
        value = data.get(key)
        if value is not None and not isinstance(value, str):
            raise ConfigError(f"{path.name}: {key} must be a string")
    return data


def _parse_integration_id(value: object, path: Path) -> int | None:
    if value is None:
        return None
    # bool is an int in Python; `integration_id: yes` is not an id.
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise ConfigError(f"{path.name}: integration_id must be an integer, got {value!r}")
    try:
        number = int(str(value).strip())
    except ValueError:
        raise ConfigError(f"{path.name}: integration_id must be an integer, got {value!r}") from None
    if number <= 0:
        raise ConfigError(f"{path.name}: integration_id must be a positive integer, got {number}")
    return number


def load_settings(env: Mapping[str, str] | None = None, cwd: Path | None = None) -> Settings:
    """Read the settings; raises ConfigError for a malformed file. Does not require a key."""
    env = os.environ if env is None else env
    cwd = Path.cwd() if cwd is None else cwd
    path = cwd / CONFIG_FILE
    data: dict = _read_file(path) if path.is_file() else {}
    api_key = env.get("DOCSVC_API_KEY") or data.get("api_key") or None
    base_url = env.get("DOCSVC_BASE_URL") or data.get("base_url") or DEFAULT_BASE_URL
    return Settings(
        api_key=api_key.strip() if api_key else None,
        base_url=base_url.rstrip("/"),
        integration_id=_parse_integration_id(data.get("integration_id"), path),
        config_path=path if path.is_file() else None,
    )


def git_tracks(path: Path) -> bool:
    """True when git tracks ``path`` (the file holds a secret and should stay untracked)."""
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
