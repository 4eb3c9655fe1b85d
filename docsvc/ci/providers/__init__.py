"""One small module per CI system: how it masks secrets, groups log lines, shows errors, and
where outputs and the summary go. ``reporter_for`` picks one."""

from __future__ import annotations

from typing import Mapping, TextIO

from .base import Finding, Reporter


def reporter_for(provider: str, env: Mapping[str, str], settings, stream: TextIO | None = None) -> Reporter:
    from . import github, gitlab, jenkins

    cls = {"github": github.GitHubReporter, "gitlab": gitlab.GitLabReporter,
           "jenkins": jenkins.JenkinsReporter}.get(provider, Reporter)
    return cls(env, settings, stream)


__all__ = ["Finding", "Reporter", "reporter_for"]
